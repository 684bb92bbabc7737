/**
 * Strapi 5's REST dialect (#30), a server plugin (plugin.ts) registered by src/server.ts: the
 * Content API of every content type as Strapi 5.54.0 answers it, mounted on `v5.rest.prefix`
 * of src/config.ts (`/v5/api` by default, beside v4 on `/api`; `/api` itself for projects
 * whose frontends moved: it answers before the v4 routes). Same database, JWT secret,
 * permission table and services as v4: only identity (identity.ts), query names (query.ts),
 * bodies (input.ts) and answers (shape.ts) differ. See docs/strapi5.md, "REST".
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { EntityService } from '../entity/service.js';
import type { ContentTypeMeta } from '../meta.js';
import type { ServerPlugin } from '../plugin.js';
import { findActionOf } from '../rest/routes.js';
import { InputTranslator } from './input.js';
import { QueryTranslator } from './query.js';
import { v5Routes, type V5Context, type V5RouteState } from './routes.js';
import { Shaper } from './shape.js';
import { v4Format } from './v4-format.js';
import { v5Error } from './errors.js';
import { registerPluginRoutes } from './plugin-routes.js';

export function restV5Plugin(): ServerPlugin {
  return {
    name: 'rest-v5',
    mount(core) {
      const settings = core.config.v5.rest;
      if (!settings.enabled) return {};
      const { registry, db, config, auth } = core;
      const services = new Map<string, EntityService>();
      const serviceFor = (meta: ContentTypeMeta): EntityService => {
        let service = services.get(meta.uid);
        if (!service) {
          service = core.extensions.entityService(meta, {
            db,
            registry,
            limits: config.api.rest,
            populate: config.api.rest.populate,
            hashPassword: (plain) => auth.passwords.hash(plain),
            ...(core.events ? { events: core.events } : {}),
          });
          services.set(meta.uid, service);
        }
        return service;
      };
      const context: V5Context = { db, registry, shaper: new Shaper(registry), queries: new QueryTranslator(registry), inputs: new InputTranslator(registry) };
      const router = new Router<V5RouteState & { auth: { can(action: string): boolean } }>({ prefix: settings.prefix });
      for (const meta of registry.contentTypes.values()) {
        if (meta.plugin) continue; // users-permissions, upload, i18n: their own routes
        for (const route of v5Routes(meta, context)) {
          const service = serviceFor(meta);
          router.register(route.path, [route.method], [
            auth.authenticator.guard(route.action) as Koa.Middleware,
            async function v5ContentRoute(ctx) {
              ctx.state.service = service;
              const caller = ctx.state.auth;
              ctx.state.access = { canFind: (uid) => caller.can(findActionOf(uid)) };
              const answer = await route.handler(ctx as never).catch(async (err: unknown) => {
                const locale = typeof ctx.query.locale === 'string' ? ctx.query.locale : null;
                throw await v5Error(err, { db, registry, meta, body: (ctx.request as { body?: unknown }).body, creates: route.method === 'POST', locale });
              });
              ctx.status = answer.status;
              ctx.body = answer.body === undefined ? null : v4Format(ctx, registry, meta, answer.body);
            },
          ]);
        }
        // The admin's document actions (publish, unpublish, discard) are not on the Content API:
        // Strapi 5 answers a POST there 405 in plain text.
        if (meta.kind === 'collectionType') {
          router.post(`/${meta.pluralName}/:documentId/actions/:action`, (ctx) => {
            ctx.status = 405;
            ctx.body = 'Method Not Allowed';
          });
        }
      }
      registerPluginRoutes(router, core, serviceFor);
      const routes = router.routes();
      return { middleware: routes as Koa.Middleware };
    },
  };
}
