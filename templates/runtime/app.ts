/**
 * Builds the Koa application: the global middleware stack (error envelope, body reading, …),
 * then the plugins src/server.ts registers (plugin.ts: GraphQL, the documentation, as the
 * project installs them), then one router with every content type's
 * routes and the users-permissions and upload plugins' routes under the REST prefix
 * (uploaded files are served at /uploads). Every route first authenticates the caller and
 * checks the route's action (`ctx.state.auth`, see auth/authenticate.ts); the plugin's auth
 * routes are rate-limited.
 *
 * The user's code (extend/) shapes it: each type's controllers, service, route config and
 * custom routes; the global middleware stack (`middlewares` in src/config.ts, http/stack.ts).
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { Auth, AuthState, UsersPermissions } from './auth/index.js';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { ContentTypeMeta, Registry } from './meta.js';
import type { EntityService } from './entity/service.js';
import { errorMiddleware } from './errors.js';
import type { CoreAction, RouteConfig } from './extend/content-api.js';
import { Extensions } from './extend/extensions.js';
import { resolveMiddlewares } from './extend/middlewares.js';
import { checkPolicies, resolvePolicies, restPolicyContext } from './extend/policies.js';
import { jsonBody } from './http/body.js';
import { allowedMethods } from './http/methods.js';
import { serverTiming } from './http/server-timing.js';
import { landingPage } from './http/landing.js';
import { buildStack, defaultStack } from './http/stack.js';
import { actionName, findActionOf, type Route, type RouteState } from './rest/routes.js';
import { transformer, transformsRoute, type TransformerTarget } from './rest/transformer.js';
import type { UploadPlugin } from './upload/index.js';
import type { Outbox } from './webhooks/index.js';
import { i18nRoutes } from './i18n/locales.js';
import type { ServerPlugin } from './plugin.js';

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
  /** The plugins the server registers (GraphQL, the documentation), mounted in this order. */
  readonly plugins?: readonly ServerPlugin[];
  /** The user's src/api, src/policies and src/middlewares (none: the core behaviour). */
  readonly extensions?: Extensions;
  /** The Koa application to fill (made here when absent). */
  readonly koa?: Koa<AppState>;
  /** The server's folder (openapi.json, schema.graphql), handed to the plugins. */
  readonly root?: string;
  readonly log?: (err: unknown) => void;
  /** Where content writes record their webhook events (webhooks/); absent: none are recorded. */
  readonly events?: Outbox;
}

type AppState = RouteState & AuthState;

export interface App {
  readonly koa: Koa<AppState>;
  /** The service of a content type as REST uses it: overrides and lifecycle hooks included. */
  service(uid: string): EntityService;
}

export function createApp(options: AppOptions): Koa<AppState> {
  return buildApp(options).koa;
}

export function buildApp(options: AppOptions): App {
  const { routes, db, config, auth } = options;
  const app = options.koa ?? new Koa<AppState>();
  app.proxy = false;
  app.silent = true; // errors are logged by errorMiddleware, not twice by Koa
  const extensions = options.extensions ?? Extensions.none(options.registry);
  const tools = { app: app as Koa };

  // The community plugins, when installed (src/config.ts): populate=deep, and the transformer's middleware.
  const { populateDeep } = config.plugins;
  const populate = populateDeep.enabled
    ? { ...config.api.rest.populate, deep: { defaultDepth: populateDeep.defaultDepth, skipCreatorFields: populateDeep.skipCreatorFields } }
    : config.api.rest.populate;
  const transform = transformer(config.plugins.transformer);
  const transforming = (target: TransformerTarget, method: string): Koa.Middleware[] =>
    transformsRoute(config.plugins.transformer, target, method) ? [transform as Koa.Middleware] : [];
  const contentTypeUids = new Set(options.registry.contentTypes.keys());

  const services = new Map<string, EntityService>();
  const serviceFor = (meta: ContentTypeMeta): EntityService => {
    let service = services.get(meta.uid);
    if (!service) {
      service = extensions.entityService(meta, {
        db,
        registry: options.registry,
        limits: config.api.rest,
        populate,
        hashPassword: (plain) => auth.passwords.hash(plain),
        ...(options.events ? { events: options.events } : {}),
      });
      services.set(meta.uid, service);
    }
    return service;
  };

  const router = new Router<AppState>({ prefix: config.api.rest.prefix });
  for (const route of auth.routes) {
    const guard = auth.authenticator.guard(route.action);
    const limit = route.rateLimited ? [auth.rateLimiter.middleware(route.rateLimitTarget ?? (() => undefined))] : [];
    router.register(route.path, [route.method], [guard, ...limit, ...transforming({ kind: 'plugin', id: 'users-permissions' }, route.method), route.handler]);
  }
  const mount = (route: Route, routeConfig: RouteConfig | undefined, where: string, target: TransformerTarget) => {
    const service = serviceFor(route.meta);
    const policies = resolvePolicies(routeConfig?.policies, extensions.policies, `${where}.policies`);
    const middlewares = resolveMiddlewares(routeConfig?.middlewares, extensions.middlewares, tools, `${where}.middlewares`);
    router.register(route.path, [route.method], [
      routeConfig?.auth === false ? openRoute : auth.authenticator.guard(route.action),
      ...(policies.length ? [async (ctx: Koa.ParameterizedContext<AppState>, next: Koa.Next) => {
        await checkPolicies(policies, restPolicyContext(ctx as never));
        await next();
      }] : []),
      ...middlewares,
      ...transforming(target, route.method),
      async function contentRoute(ctx) {
        ctx.state.service = service;
        const { auth: caller } = ctx.state;
        ctx.state.access = { canFind: (uid) => caller.can(findActionOf(uid)) };
        if (options.upload) ctx.state.entryFiles = options.upload.entryFiles;
        const answer = await route.handler(ctx);
        if (answer !== undefined) ctx.body = answer;
      },
    ]);
  };
  for (const [uid, typeRoutes] of groupByType(routes)) {
    const api = extensions.api(uid);
    const where = `src/api (${uid}) routes`;
    const core = Object.fromEntries(typeRoutes.map((route) => [actionName(route), route.handler])) as Record<CoreAction, Route['handler']>;
    const controllers: Record<string, Route['handler'] | undefined> = { ...core, ...(api?.controllers?.({ core: core as never }) as Record<string, Route['handler']> | undefined) };
    const meta = typeRoutes[0]!.meta;
    const target: TransformerTarget = meta.plugin ? { kind: 'plugin', id: meta.plugin } : { kind: 'api', uid, uids: contentTypeUids };
    for (const custom of api?.routes?.custom ?? []) {
      const handler = controllers[custom.handler];
      if (!handler) throw new Error(`${where}: custom route ${custom.method} ${custom.path} names handler "${custom.handler}", which controllers does not define`);
      mount({ method: custom.method, path: custom.path, meta, action: `${uid}.${custom.handler}`, handler }, custom.config, `${where} ${custom.method} ${custom.path}`, target);
    }
    for (const route of typeRoutes) {
      const name = actionName(route) as CoreAction;
      if (api?.routes?.except?.includes(name)) continue;
      mount({ ...route, handler: controllers[name]! }, api?.routes?.config?.[name], `${where}.config.${name}`, target);
    }
  }
  for (const route of options.upload?.routes ?? []) mount(route, undefined, 'upload', { kind: 'plugin', id: 'upload' });
  for (const route of i18nRoutes(options.registry, db)) mount(route, undefined, 'i18n', { kind: 'plugin', id: 'i18n' });

  const log = options.log ?? ((err: unknown) => console.error(err));
  const core = {
    registry: options.registry,
    db,
    config,
    auth,
    extensions,
    tools,
    ...(options.upload ? { upload: options.upload } : {}),
    ...(options.events ? { events: options.events } : {}),
    ...(options.root ? { root: options.root } : {}),
    environment: process.env.NODE_ENV ?? 'development',
    log,
  };
  const mounted = (options.plugins ?? []).map((plugin) => plugin.mount(core));

  for (const middleware of options.before ?? []) app.use(middleware);
  if (config.diagnostics.serverTiming) app.use(serverTiming());
  const stack = buildStack(
    config.middlewares ?? defaultStack,
    {
      errors: errorMiddleware(options.log),
      body: (limit) => jsonBody({ limit }),
      bodyLimit: config.api.rest.bodyLimit,
      public: [
        ...(options.upload?.middleware ?? []),
        ...(core.environment === 'production' ? [] : [landingPage({ registry: options.registry, prefix: config.api.rest.prefix, plugins: (options.plugins ?? []).map((p) => p.name) })]),
      ],
      log: (line) => console.log(line),
    },
    extensions.middlewares,
    tools,
  );
  for (const middleware of stack) app.use(middleware);
  for (const plugin of mounted) if (plugin.middleware) app.use(plugin.middleware);
  app.use(router.routes());
  app.use(allowedMethods(router));
  return { koa: app, service: (uid) => serviceFor(options.registry.contentTypes.get(uid) ?? unknownType(uid)) };
}

/** `auth: false`: no authentication and no permission check; the caller reads as an unrestricted guest. */
async function openRoute(ctx: Koa.ParameterizedContext<AppState>, next: Koa.Next): Promise<void> {
  ctx.state.auth = openAuth;
  await next();
}

const openAuth: Auth = { strategy: 'users-permissions', credentials: null, user: null, token: null, role: null, can: () => true };

function groupByType(routes: readonly Route[]): Map<string, Route[]> {
  const byType = new Map<string, Route[]>();
  for (const route of routes) {
    const list = byType.get(route.meta.uid) ?? [];
    list.push(route);
    byType.set(route.meta.uid, list);
  }
  return byType;
}

function unknownType(uid: string): never {
  throw new Error(`no content type ${uid}`);
}
