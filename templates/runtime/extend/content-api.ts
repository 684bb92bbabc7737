/**
 * One content type's customisation, as Strapi v4's `src/api/<name>/`: controllers
 * (createCoreController), services (createCoreService), routes (createCoreRouter config and
 * custom routes) and lifecycle hooks — in one user-owned file per type, src/api/<name>.ts,
 * typed with that type's entries (src/generated/content-types/<name>.ts).
 */
import type { AuthState } from '../auth/authenticate.js';
import type { Access, CreateOptions, FindResult } from '../entity/service.js';
import type { RouteContext } from '../rest/routes.js';
import type { Lifecycles } from './lifecycles.js';
import type { MiddlewareReference } from './middlewares.js';
import type { PolicyReference } from './policies.js';

export type CoreAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

type Query = Record<string, unknown>;

/**
 * The entity service REST and GraphQL call (Strapi's core service). `query` is the REST
 * query (`filters`, `sort`, `fields`, `populate`, `pagination`, `publicationState`);
 * `access` says what the caller may read (absent: everything).
 */
export interface ContentService<Entry = unknown, Input = Record<string, unknown>> {
  find(query: Query, access?: Access): Promise<{ data: Entry[]; meta: FindResult['meta'] }>;
  findOne(id: unknown, query: Query, access?: Access): Promise<Entry | null>;
  /** `options.publish: false` (GraphQL): an entry created without `publishedAt` is a draft. */
  create(body: { data: Input } | unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry>;
  update(id: unknown, body: { data: Input } | unknown, query: Query, access?: Access): Promise<Entry>;
  delete(id: unknown, query: Query, access?: Access): Promise<Entry>;
  /** Single types: the entry, or null. */
  findSingle(query: Query, access?: Access): Promise<Entry | null>;
  /** Single types: creates or updates the entry. */
  upsertSingle(body: { data: Input } | unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry>;
  deleteSingle(query: Query, access?: Access): Promise<Entry>;
  /** Drops the pending draft of a published entry (Strapi 5's `discardDraft`, docs/strapi5.md "Drafts"); the live entry stays. */
  discardDraft(id: number): Promise<void>;
}

/** The service methods a `services` override may replace. */
export const serviceMethods = ['find', 'findOne', 'create', 'update', 'delete', 'findSingle', 'upsertSingle', 'deleteSingle', 'discardDraft'] as const;

/**
 * A controller action: reads the request from Koa's `ctx`, answers by returning the body
 * (or by setting `ctx.body` and returning nothing). Errors it throws become Strapi's envelope.
 */
export type Controller<Entry = unknown, Input = Record<string, unknown>> = (ctx: RouteContext & { state: AuthState & { service: ContentService<Entry, Input> } }) => unknown;

/** The core actions of the type's routes; each returns Strapi's answer (`{ data, meta }`). */
export type CoreController<Entry = unknown, Input = Record<string, unknown>> = Record<CoreAction, Controller<Entry, Input>>;

/** Strapi's route config: `auth: false` opens the route to anyone; policies and middlewares run before the action. */
export interface RouteConfig {
  readonly auth?: false;
  readonly policies?: readonly PolicyReference[];
  readonly middlewares?: readonly MiddlewareReference[];
}

export interface CustomRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Under the REST prefix, in @koa/router syntax: `/articles/:id/publish`. */
  readonly path: string;
  /**
   * A controller action of this file (core or your own). Its permission is
   * `<uid>.<handler>`: grant it in permissions.json like a core action.
   */
  readonly handler: string;
  readonly config?: RouteConfig;
}

export interface ContentApiDefinition<Entry = unknown, Input = Record<string, unknown>> {
  /**
   * Wrap or replace core actions and add your own: `({ core }) => ({ async find(ctx) { const
   * answer = await core.find(ctx); …; return answer; }, async featured(ctx) { … } })`.
   */
  readonly controllers?: (tools: { core: CoreController<Entry, Input> }) => Partial<CoreController<Entry, Input>> & Record<string, Controller<Entry, Input>>;
  /**
   * Wrap or replace the core service, for REST and GraphQL alike: `(core) => ({ async
   * find(query, access) { return core.find({ ...query, sort: 'title' }, access); } })`.
   */
  readonly services?: (core: ContentService<Entry, Input>) => Partial<ContentService<Entry, Input>>;
  readonly routes?: {
    /** Per core route: `{ find: { auth: false }, create: { policies: ['global::is-owner'] } }`. */
    readonly config?: Partial<Record<CoreAction, RouteConfig>>;
    /** Core routes not served. */
    readonly except?: readonly CoreAction[];
    /** Your own routes; they are matched before the core routes. */
    readonly custom?: readonly CustomRoute[];
  };
  readonly lifecycles?: Lifecycles<Entry, Input>;
}

export interface ContentApi<Entry = unknown, Input = Record<string, unknown>> extends ContentApiDefinition<Entry, Input> {
  readonly uid: string;
}

/** The default export of src/api/<name>.ts. */
export function defineContentApi<Entry = unknown, Input = Record<string, unknown>>(uid: string, definition: ContentApiDefinition<Entry, Input>): ContentApi<Entry, Input> {
  return { uid, ...definition };
}

/** The permission actions of a type's custom routes (what the policy table must know). */
export function customActions(api: ContentApi<any, any>): string[] {
  return [...new Set((api.routes?.custom ?? []).map((route) => route.handler))].sort();
}

/**
 * The service REST and GraphQL use: the core service with the user's overrides. Methods not
 * overridden run on the core service itself, so its own calls never reach an override.
 */
export function customizeService<S extends ContentService<any, any>>(core: S, api: ContentApi<any, any> | undefined): S {
  if (!api?.services) return core;
  const bound = Object.fromEntries(serviceMethods.map((m) => [m, (core[m] as (...args: unknown[]) => unknown).bind(core)])) as unknown as ContentService;
  const overrides = api.services(bound);
  const custom = Object.create(core) as S;
  for (const method of serviceMethods) (custom as Record<string, unknown>)[method] = overrides[method] ?? bound[method];
  return custom;
}
