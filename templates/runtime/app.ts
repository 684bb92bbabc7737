/**
 * Builds the Koa application: error envelope first, then body reading, then one router
 * with every content type's routes under the REST prefix.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { Registry } from './meta.js';
import { EntityService } from './entity/service.js';
import { errorMiddleware } from './errors.js';
import { jsonBody } from './http/body.js';
import { serverTiming } from './http/server-timing.js';
import type { Route, RouteState } from './rest/routes.js';

export interface AppOptions {
  readonly routes: readonly Route[];
  /** Every content type and component: what populate and deep filters walk. */
  readonly registry: Registry;
  readonly db: Database;
  readonly config: ServerConfig;
  readonly hashPassword: (plain: string) => Promise<string>;
  readonly log?: (err: unknown) => void;
}

export function createApp(options: AppOptions): Koa<RouteState> {
  const { routes, db, config } = options;
  const app = new Koa<RouteState>();
  app.proxy = false;
  app.silent = true; // errors are logged by errorMiddleware, not twice by Koa

  const services = new Map<string, EntityService>();
  const serviceFor = (route: Route): EntityService => {
    let service = services.get(route.meta.uid);
    if (!service) {
      service = new EntityService(route.meta, {
        db,
        registry: options.registry,
        limits: config.api.rest,
        populate: config.api.rest.populate,
        hashPassword: options.hashPassword,
      });
      services.set(route.meta.uid, service);
    }
    return service;
  };

  const router = new Router<RouteState>({ prefix: config.api.rest.prefix });
  for (const route of routes) {
    const service = serviceFor(route);
    router.register(route.path, [route.method], async function contentRoute(ctx) {
      ctx.state.service = service;
      await route.handler(ctx);
    });
  }

  if (config.diagnostics.serverTiming) app.use(serverTiming());
  app.use(errorMiddleware(options.log));
  app.use(jsonBody({ limit: config.api.rest.bodyLimit }));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
