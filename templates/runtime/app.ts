/**
 * Builds the Koa application: error envelope first, then body reading, then the GraphQL
 * endpoint (`/graphql`, see graphql/index.ts), then one router with every content type's
 * routes and the users-permissions and upload plugins' routes under the REST prefix
 * (uploaded files are served at /uploads). Every route first authenticates the caller and
 * checks the route's action (`ctx.state.auth`, see auth/authenticate.ts); the plugin's auth
 * routes are rate-limited.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { AuthState, UsersPermissions } from './auth/index.js';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { Registry } from './meta.js';
import { EntityService } from './entity/service.js';
import { errorMiddleware } from './errors.js';
import { createGraphqlPlugin, type GraphqlRegister } from './graphql/index.js';
import { jsonBody } from './http/body.js';
import { serverTiming } from './http/server-timing.js';
import { findActionOf, type Route, type RouteState } from './rest/routes.js';
import type { UploadPlugin } from './upload/index.js';

export interface AppOptions {
  readonly routes: readonly Route[];
  /** Every content type and component: what populate and deep filters walk. */
  readonly registry: Registry;
  readonly db: Database;
  readonly config: ServerConfig;
  /** The users-permissions plugin: guards, its routes, password hashing. */
  readonly auth: UsersPermissions;
  /** The upload plugin: its routes under the prefix, and the middleware serving /uploads. */
  readonly upload?: UploadPlugin;
  /** Mounted first, before the error envelope (e.g. a health check that must answer plainly). */
  readonly before?: readonly Koa.Middleware[];
  /** The GraphQL endpoint: the user's extension (src/extensions/graphql.ts) and schema.graphql. */
  readonly graphql?: {
    readonly register?: GraphqlRegister;
    /** Outside production, a warning at start when this file no longer matches the schema. */
    readonly schemaFile?: string;
  };
  readonly log?: (err: unknown) => void;
}

type AppState = RouteState & AuthState;

export function createApp(options: AppOptions): Koa<AppState> {
  const { routes, db, config, auth } = options;
  const app = new Koa<AppState>();
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
        hashPassword: (plain) => auth.passwords.hash(plain),
      });
      services.set(route.meta.uid, service);
    }
    return service;
  };

  const router = new Router<AppState>({ prefix: config.api.rest.prefix });
  const rateLimit = auth.rateLimiter.middleware();
  for (const route of auth.routes) {
    const guard = auth.authenticator.guard(route.action);
    router.register(route.path, [route.method], route.rateLimited ? [guard, rateLimit, route.handler] : [guard, route.handler]);
  }
  for (const route of [...routes, ...(options.upload?.routes ?? [])]) {
    const service = serviceFor(route);
    router.register(route.path, [route.method], [
      auth.authenticator.guard(route.action),
      async function contentRoute(ctx) {
        ctx.state.service = service;
        const { auth: caller } = ctx.state;
        ctx.state.access = { canFind: (uid) => caller.can(findActionOf(uid)) };
        if (options.upload) ctx.state.entryFiles = options.upload.entryFiles;
        await route.handler(ctx);
      },
    ]);
  }

  const log = options.log ?? ((err: unknown) => console.error(err));
  const graphql = createGraphqlPlugin({
    registry: options.registry,
    db,
    config: config.plugins.graphql,
    auth,
    ...(options.upload ? { upload: options.upload } : {}),
    ...(options.graphql?.register ? { register: options.graphql.register } : {}),
    ...(options.graphql?.schemaFile ? { schemaFile: options.graphql.schemaFile } : {}),
    environment: process.env.NODE_ENV ?? 'development',
    log,
  });

  for (const middleware of options.before ?? []) app.use(middleware);
  if (config.diagnostics.serverTiming) app.use(serverTiming());
  app.use(errorMiddleware(options.log));
  for (const middleware of options.upload?.middleware ?? []) app.use(middleware);
  app.use(jsonBody({ limit: config.api.rest.bodyLimit }));
  app.use(graphql.middleware);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  return app;
}
