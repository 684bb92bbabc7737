/**
 * The users-permissions, upload and i18n routes on the v5 mount: the same handlers as on v4
 * (one user table, one JWT secret, one permission table), their answers as Strapi 5 gives them:
 * users, roles, files and locales carry a documentId and `publishedAt` (their creation time:
 * they have no drafts), files a `focalPoint` and, in the upload plugin's own answers,
 * `isUrlSigned: false`; an upload answers 201. Numeric ids stay in their paths, as in Strapi 5.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { findActionOf, type Route } from '../rest/routes.js';
import type { PluginCore } from '../plugin.js';
import { i18nRoutes } from '../i18n/locales.js';
import { DocumentIds } from './identity.js';
import type { Registry } from '../meta.js';
import type { Database } from '../db/database.js';
import { withFailedValues } from './errors.js';
import { ValidationError } from '../errors.js';
import type { EntityService } from '../entity/service.js';
import type { ContentTypeMeta } from '../meta.js';

const kinds = [
  { uid: 'plugin::users-permissions.user', is: (o: Record<string, unknown>) => 'username' in o && 'provider' in o },
  { uid: 'plugin::users-permissions.role', is: (o: Record<string, unknown>) => 'type' in o && 'name' in o && 'description' in o },
  { uid: 'plugin::upload.file', is: (o: Record<string, unknown>) => 'hash' in o && 'mime' in o },
  { uid: 'plugin::i18n.locale', is: (o: Record<string, unknown>) => 'code' in o && 'isDefault' in o },
] as const;

/** A plugin answer with the v5 keys added to every user, role, file and locale in it (their stored documentIds). */
export async function pluginAnswer(db: Database, registry: Registry, value: unknown, documentIds = new DocumentIds()): Promise<unknown> {
  const out = withV5Keys(registry, documentIds, value, true);
  await documentIds.fill(db);
  return out;
}

function withV5Keys(registry: Registry, documentIds: DocumentIds, value: unknown, top: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => withV5Keys(registry, documentIds, v, top));
  if (!value || typeof value !== 'object') return value;
  const bag = value as Record<string, unknown>;
  const kind = typeof bag.id === 'number' ? kinds.find((k) => k.is(bag)) : undefined;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(bag)) {
    out[key] = withV5Keys(registry, documentIds, inner, false);
    if (!kind) continue;
    const meta = registry.contentTypes.get(kind.uid);
    if (key === 'id' && !('documentId' in bag) && meta) {
      out.documentId = null;
      documentIds.want(meta, bag.id as number, out);
    }
    if (key === 'updatedAt' && !('publishedAt' in bag)) out.publishedAt = bag.createdAt ?? inner;
    if (kind.uid === 'plugin::upload.file' && key === 'caption' && !('focalPoint' in bag)) out.focalPoint = null;
  }
  if (kind?.uid === 'plugin::upload.file' && top && !('isUrlSigned' in bag)) out.isUrlSigned = false;
  return out;
}

/**
 * Strapi 5's register refuses keys it does not take (`Invalid parameters: confirmed`); v4's
 * leaves them out.
 */
function refuseUnknownRegisterKeys(core: PluginCore): Koa.Middleware {
  return async (ctx, next) => {
    const body = (ctx.request as { body?: unknown }).body;
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const allowed = new Set(['username', 'password', 'email', ...core.auth.users.registerFields(core.config.plugins['users-permissions'].register.allowedFields)]);
      const unknown = Object.keys(body).filter((key) => !allowed.has(key));
      if (unknown.length) throw new ValidationError(`Invalid parameters: ${unknown.join(', ')}`);
    }
    await next();
  };
}

/** Registers the plugins' routes on the v5 router. */
export function registerPluginRoutes(router: Router<any, any>, core: PluginCore, serviceFor: (meta: ContentTypeMeta) => EntityService): void {
  const { auth } = core;
  // A delete answers the entry it deleted: its documentId is read before.
  const beforeDelete = async (ctx: Koa.Context, meta: ContentTypeMeta | undefined): Promise<DocumentIds> => {
    const documentIds = new DocumentIds();
    const id = Number(ctx.params?.id);
    if (meta && ctx.method === 'DELETE' && Number.isSafeInteger(id)) await documentIds.remember(core.db, meta, [id]);
    return documentIds;
  };
  const users = core.registry.contentTypes.get('plugin::users-permissions.user');
  const reshape: Koa.Middleware = async (ctx, next) => {
    const documentIds = await beforeDelete(ctx, ctx.path.includes('/users/') ? users : undefined);
    await next();
    if (ctx.body && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body)) ctx.body = await pluginAnswer(core.db, core.registry, ctx.body, documentIds);
  };
  const v5Errors: Koa.Middleware = async (ctx, next) => {
    await next().catch((err: unknown) => {
      throw withFailedValues(err, (ctx.request as { body?: unknown }).body);
    });
  };
  for (const route of auth.routes) {
    const guard = auth.authenticator.guard(route.action);
    const limit = route.rateLimited ? [auth.rateLimiter.middleware(route.rateLimitTarget ?? (() => undefined))] : [];
    const checks = route.path === '/auth/local/register' ? [refuseUnknownRegisterKeys(core)] : [];
    router.register(route.path, [route.method], [guard, ...limit, v5Errors, ...checks, reshape, route.handler] as Koa.Middleware[]);
  }
  const routes: Route[] = [...(core.upload?.routes ?? []), ...i18nRoutes(core.registry, core.db)];
  for (const route of routes) {
    router.register(route.path, [route.method], [
      auth.authenticator.guard(route.action) as Koa.Middleware,
      async function v5PluginRoute(ctx: Koa.Context) {
        ctx.state.service = serviceFor(route.meta);
        const caller = ctx.state.auth as { can(action: string): boolean };
        ctx.state.access = { canFind: (uid: string) => caller.can(findActionOf(uid)) };
        if (core.upload) ctx.state.entryFiles = core.upload.entryFiles;
        const documentIds = await beforeDelete(ctx, route.meta);
        const answer = await route.handler(ctx as never);
        if (answer !== undefined) ctx.body = answer;
        if (ctx.body && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body)) ctx.body = await pluginAnswer(core.db, core.registry, ctx.body, documentIds);
        // Strapi 5's upload answers a new file 201 (an update of one, `?id=`, 200).
        if (route.meta.uid === 'plugin::upload.file' && route.method === 'POST' && ctx.query.id === undefined && ctx.status === 200) ctx.status = 201;
      },
    ]);
  }
}
