/**
 * Resolvers of the users-permissions and upload plugins' GraphQL operations. They reuse the
 * REST handlers and services, so GraphQL answers with the same validation, messages and
 * side effects as `/api/auth/*`, `/api/users` and `/api/upload`.
 */
import type { Context } from 'koa';
import type { UsersPermissions } from '../auth/index.js';
import { hashCode } from '../auth/routes.js';
import type { EntityService } from '../entity/service.js';
import { ApplicationError, ValidationError } from '../errors.js';
import type { Registry } from '../meta.js';
import type { Entry } from '../rest/transform.js';
import type { UploadPlugin } from '../upload/index.js';
import { mediaLinkOf, type MediaLink } from '../upload/link.js';
import { rolesFromFile as rolesFromFileMessage } from '../auth/routes.js';
import type { GraphqlContext } from './context.js';
import type { ResolverMap } from './extension.js';
import type { PluginResolvers, UsersPermissionsNames } from './plugins.js';
import { accessOf, entityNode } from './resolvers.js';
import type { Upload } from './scalars.js';
import { verify } from './wrap.js';
import { createLocalizationResolver } from './i18n-resolvers.js';

const userUid = 'plugin::users-permissions.user';
const fileUid = 'plugin::upload.file';

export interface PluginRuntime {
  readonly auth: UsersPermissions;
  readonly upload?: UploadPlugin;
  readonly registry: Registry;
  /** The GraphQL entity service of a content type. */
  readonly service: (uid: string) => EntityService;
}

export function pluginResolvers(runtime: PluginRuntime): PluginResolvers {
  return {
    usersPermissions: (names, has) => usersPermissionsResolvers(runtime, names, has),
    ...(runtime.upload ? { upload: () => uploadResolvers(runtime, runtime.registry) } : {}),
    i18n: (meta) => createLocalizationResolver(meta, runtime),
  };
}

type Json = Record<string, unknown>;

/**
 * Runs a users-permissions REST handler for a GraphQL operation: a small Koa-like context
 * carrying the request's auth state, the operation's body or query, and the real request's
 * headers and IP. Returns what the handler answered.
 */
async function callRoute(runtime: PluginRuntime, action: string, context: GraphqlContext, input: { body?: Json; query?: Record<string, string>; params?: Record<string, string> }): Promise<Json> {
  const route = runtime.auth.routes.find((r) => r.action === `plugin::users-permissions.${action}`);
  if (!route) throw new Error(`users-permissions: no route for ${action}`);
  const http = context.http;
  const fake = {
    state: http.state,
    request: { body: input.body },
    params: input.params ?? {},
    query: input.query ?? {},
    querystring: new URLSearchParams(input.query ?? {}).toString(),
    body: undefined as unknown,
    status: 200,
    ip: http.ip,
    path: http.path,
    method: 'POST',
    get: (name: string) => http.get(name),
    set: () => undefined,
    redirect: () => undefined,
  };
  await route.handler(fake as unknown as Parameters<typeof route.handler>[0]);
  return (fake.body ?? null) as Json;
}

/**
 * The REST auth routes are rate-limited per email, path and IP; their GraphQL twins count
 * against the same limiter (path `/graphql/<operation>`), so GraphQL is no way around it.
 */
async function rateLimit(runtime: PluginRuntime, context: GraphqlContext, operation: string, email: unknown): Promise<void> {
  const http = context.http;
  const fake = { request: { body: { email } }, path: `${http.path}/${operation}`, ip: http.ip, set: (name: string, value: string) => http.set(name, value) };
  await runtime.auth.rateLimiter.middleware()(fake as unknown as Context, async () => undefined);
}

function usersPermissionsResolvers(runtime: PluginRuntime, names: UsersPermissionsNames, has: { hasUsers: boolean; hasRoles: boolean }): ResolverMap {
  const userService = () => runtime.service(userUid);
  const userMeta = () => userService().meta;
  const can = (context: GraphqlContext) => (action: string) => context.state.auth.can(action);
  const loginPayload = (output: Json) => ({ jwt: output.jwt ?? null, user: output.user ?? output });
  const userEntity = async (id: unknown, context: GraphqlContext): Promise<{ data: Entry | null }> => {
    const entry = await userService().findOne(id, {}, accessOf(context));
    return { data: entry ? entityNode(userMeta(), entry) : null };
  };
  const rolesFromFile = () => {
    throw new ApplicationError(rolesFromFileMessage);
  };

  const mutations: Record<string, unknown> = {
    async login(_: unknown, args: { input: Json }, context: GraphqlContext) {
      const { provider = 'local', ...body } = args.input;
      if (provider !== 'local') throw new ApplicationError('This provider is disabled');
      await rateLimit(runtime, context, 'login', body.identifier);
      return loginPayload(await callRoute(runtime, 'auth.callback', context, { body }));
    },
    async register(_: unknown, args: { input: Json }, context: GraphqlContext) {
      await rateLimit(runtime, context, 'register', args.input.email);
      return loginPayload(await callRoute(runtime, 'auth.register', context, { body: { ...args.input } }));
    },
    async forgotPassword(_: unknown, args: { email: string }, context: GraphqlContext) {
      await rateLimit(runtime, context, 'forgotPassword', args.email);
      const output = await callRoute(runtime, 'auth.forgotPassword', context, { body: { email: args.email } });
      return { ok: output.ok ?? true };
    },
    async resetPassword(_: unknown, args: Json, context: GraphqlContext) {
      await rateLimit(runtime, context, 'resetPassword', undefined);
      return loginPayload(await callRoute(runtime, 'auth.resetPassword', context, { body: { ...args } }));
    },
    async changePassword(_: unknown, args: Json, context: GraphqlContext) {
      await rateLimit(runtime, context, 'changePassword', context.state.user?.email);
      return loginPayload(await callRoute(runtime, 'auth.changePassword', context, { body: { ...args } }));
    },
    async emailConfirmation(_: unknown, args: { confirmation: string }, context: GraphqlContext) {
      await rateLimit(runtime, context, 'emailConfirmation', undefined);
      const { users, jwt } = runtime.auth;
      const id = args.confirmation ? await users.idWhere('confirmationToken', hashCode(args.confirmation)) : null;
      if (id === null) throw new ValidationError('Invalid token');
      await users.setColumns(id, { confirmed: true, confirmationToken: null });
      return { jwt: jwt.issue(id), user: await users.findOne(id, {}, can(context)) };
    },
  };
  if (has.hasRoles) Object.assign(mutations, { [names.createRole]: rolesFromFile, [names.updateRole]: rolesFromFile, [names.deleteRole]: rolesFromFile });
  if (has.hasUsers) {
    Object.assign(mutations, {
      [names.createUser]: async (_: unknown, args: { data: Json }, context: GraphqlContext) => {
        const created = await callRoute(runtime, 'user.create', context, { body: { ...args.data } });
        return userEntity(created.id, context);
      },
      [names.updateUser]: async (_: unknown, args: { id: string; data: Json }, context: GraphqlContext) => {
        await callRoute(runtime, 'user.update', context, { body: { ...args.data }, params: { id: String(args.id) } });
        return userEntity(args.id, context);
      },
      [names.deleteUser]: async (_: unknown, args: { id: string }, context: GraphqlContext) => {
        const before = await userEntity(args.id, context);
        await callRoute(runtime, 'user.destroy', context, { params: { id: String(args.id) } });
        return before;
      },
    });
  }
  return {
    Query: {
      me(_: unknown, _args: unknown, context: GraphqlContext) {
        const user = context.state.user;
        if (!user) throw new Error('Authentication requested');
        return { ...user, role: user.role ? { ...user.role, description: null } : null };
      },
    },
    Mutation: mutations,
  };
}

function uploadResolvers(runtime: PluginRuntime, registry: Registry): ResolverMap {
  const upload = runtime.upload!;
  const files = () => runtime.service(fileUid);
  const entity = async (id: unknown, context: GraphqlContext) => {
    const entry = await files().findOne(id, {}, accessOf(context));
    return { data: entry ? entityNode(files().meta, entry) : null };
  };
  /**
   * `ref`/`refId`/`field`: where to link the new files — an entry's media field. Checked
   * before anything is stored; linking updates that entry, so the caller must be allowed to.
   * A component's instance is linked as `POST /api/upload` does it (upload/link.ts), in the
   * upload's transaction.
   */
  const componentLink = (args: Json, context: GraphqlContext): MediaLink | undefined => {
    if (!registry.components.has(String(args.ref))) return undefined;
    const fields = new Map(['ref', 'refId', 'field'].map((name) => [name, args[name] === undefined || args[name] === null ? [] : [String(args[name])]]));
    // verify() refuses with GraphQL's message ("Forbidden access").
    return mediaLinkOf(fields, registry, (action) => (verify(context.state.auth, [action]), true));
  };
  const linkTarget = (args: Json, context: GraphqlContext) => {
    if (args.ref === undefined || args.ref === null || registry.components.has(String(args.ref))) return undefined;
    const meta = registry.contentTypes.get(String(args.ref));
    const field = meta?.fields[String(args.field)];
    if (!meta || field?.kind !== 'media' || args.refId === undefined || args.refId === null) {
      throw new ValidationError('ref, refId and field must name an entry and one of its media fields');
    }
    verify(context.state.auth, [`${meta.uid}.update`]);
    return async (ids: number[]) => {
      const value = field.multiple ? { connect: ids } : ids[0];
      await runtime.service(meta.uid).update(args.refId, { data: { [field.name]: value } }, {}, accessOf(context));
    };
  };
  const received = (value: unknown) => (value as Upload).file;
  return {
    Mutation: {
      async upload(_: unknown, args: Json, context: GraphqlContext) {
        const link = linkTarget(args, context);
        const info = (args.info ?? {}) as Json;
        const [stored] = await upload.service.upload([received(args.file)], [info], componentLink(args, context));
        await link?.([stored!.id]);
        return entity(stored!.id, context);
      },
      async multipleUpload(_: unknown, args: Json, context: GraphqlContext) {
        const link = linkTarget(args, context);
        const list = ((args.files as unknown[]) ?? []).filter((f) => f !== null && f !== undefined);
        const stored = await upload.service.upload(list.map(received), [], componentLink(args, context));
        await link?.(stored.map((f) => f.id));
        return Promise.all(stored.map((f) => entity(f.id, context)));
      },
      async updateFileInfo(_: unknown, args: Json, context: GraphqlContext) {
        const updated = await upload.service.updateFileInfo(args.id, (args.info ?? {}) as Json);
        return entity(updated.id, context);
      },
      async removeFile(_: unknown, args: Json, context: GraphqlContext) {
        const before = await entity(args.id, context);
        if (!before.data) return null;
        await upload.service.remove(args.id);
        return before;
      },
    },
  };
}
