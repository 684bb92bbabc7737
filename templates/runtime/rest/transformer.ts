/**
 * What the community plugin strapi-plugin-transformer (3.1.2) does to Strapi v4's REST API,
 * when the project installs it (src/config.ts, `plugins.transformer`): a middleware on the
 * routes it selects that can wrap request bodies in `{ data }` and flatten answers (no
 * `attributes`, no `data` around relations).
 *
 * Routes, as the plugin picks them when Strapi starts: every route of every API folder
 * (`src/api/<api>`, custom routes included), unless `contentTypeFilter` says otherwise (an
 * API is named by the uid of its content type of the same name, `api::article.article`,
 * else by the folder name); plugins' routes (users-permissions, upload, i18n) only when
 * `plugins.ids` lists them. Filters hold `true`/`false` per API or plugin, or per HTTP
 * method (`{ GET: true }`); in `allow` mode only what is true is transformed (a method not
 * named is), in `deny` mode all but what is true.
 *
 * A request with the header `strapi-transformer-ignore: true` is left alone. Answers without
 * a `data` (errors, users-permissions' bare users, login) are left alone. The answer is
 * changed in place, in the plugin's own order of steps, so odd shapes come out as they do
 * there (e.g. a JSON attribute holding `{ data: … }` or `{ id, attributes }` is flattened too).
 */
import type { Context, Middleware, Next } from 'koa';
import type { TransformerConfig, TransformerFilter } from '../config.js';
import { isMultipart } from '../http/body.js';

export type TransformerTarget = { readonly kind: 'api'; readonly uid: string; readonly uids: ReadonlySet<string> } | { readonly kind: 'plugin'; readonly id: string };

/** Whether the plugin puts its middleware on this route (a route of `target`, answering `method`). */
export function transformsRoute(config: TransformerConfig, target: TransformerTarget, method: string): boolean {
  if (!config.enabled) return false;
  if (target.kind === 'api') {
    const { mode, uids } = config.contentTypeFilter;
    const filterMode = mode === undefined || Object.keys(uids).length === 0 ? 'none' : mode;
    const id = apiFilterId(target.uid, target.uids);
    return allowed(filterMode, valueOf(uids, id)) && allowed(filterMode, methodValue(uids, id, method));
  }
  const { mode = 'allow', ids } = config.plugins;
  if (Object.keys(ids).length === 0) return false;
  return allowed(mode, valueOf(ids, target.id)) && allowed(mode, methodValue(ids, target.id, method));
}

/**
 * The name the plugin files an API under: the uid of the API's content type named like its
 * folder (`api::article.article`), else the folder name (`blog` for `api::blog.post`).
 */
function apiFilterId(uid: string, uids: ReadonlySet<string>): string {
  const api = uid.slice('api::'.length, uid.indexOf('.'));
  const own = `api::${api}.${api}`;
  return uids.has(own) ? own : api;
}

/** lodash's `_.get(filter, [id], false)`: false only when nothing (undefined) is there. */
function valueOf(filter: TransformerFilter, id: string): unknown {
  const value = (filter as Record<string, unknown>)[id];
  return value === undefined ? false : value;
}

function methodValue(filter: TransformerFilter, id: string, method: string): unknown {
  const value = filter[id];
  if (typeof value !== 'object' || value === null) return null;
  return (value as Record<string, unknown>)[method] ?? null;
}

function allowed(mode: string, value: unknown): boolean {
  if (mode === 'allow' && !value && typeof value === 'boolean') return false;
  if (mode === 'deny' && value && typeof value === 'boolean') return false;
  return true;
}

/** The route middleware. Put it after the route's own middlewares, before its handler. */
export function transformer(config: TransformerConfig): Middleware {
  const { responseTransforms, requestTransforms, hooks } = config;
  const transformsAnswers = responseTransforms.removeAttributesKey || responseTransforms.removeDataKey;
  return async function transform(ctx: Context, next: Next) {
    if (ctx.get('strapi-transformer-ignore') === 'true') return next();
    if (requestTransforms.wrapBodyWithDataKey) wrapBody(ctx);
    await next();
    const body = ctx.body as { data?: unknown } | null | undefined;
    if (!body || !body.data) return;
    hooks.preResponseTransform?.(ctx as never);
    if (transformsAnswers) body.data = flatten(responseTransforms, body.data);
    hooks.postResponseTransform?.(ctx as never);
  };
}

function wrapBody(ctx: Context): void {
  if (ctx.method !== 'POST' && ctx.method !== 'PUT') return;
  // A multipart form (an entry with files) is read by its route: its `data` field is the entry, as in Strapi.
  if (isMultipart(ctx)) return;
  const request = ctx.request as { body?: unknown };
  // Strapi's body parser gives an empty body as `{}`; this server's leaves it unset.
  const body = Object.prototype.hasOwnProperty.call(request, 'body') ? request.body : {};
  if (has(body, 'data') && size(body) === 1) return;
  request.body = { data: body };
}

type Transforms = TransformerConfig['responseTransforms'];
type Bag = Record<string | number, unknown>;

/** The plugin's modifyResponseBodyData, step for step (it mutates what it walks). */
function flatten(t: Transforms, data: unknown): unknown {
  if (t.removeAttributesKey) {
    if (has(data, 'attributes')) return flatten(t, { id: (data as Bag).id, ...((data as Bag).attributes as object) });
    if (Array.isArray(data) && data.length && has(data[0], 'attributes')) return data.map((e) => flatten(t, e));
  }
  each(data, (value, key) => {
    if (!value) return;
    const bag = data as Bag;
    if (t.removeDataKey) {
      if (isObject(value)) bag[key] = flatten(t, value);
      if (Array.isArray(value)) bag[key] = value.map((e) => flatten(t, e));
    }
    if (has(value, 'data')) {
      const inner = (value as Bag).data;
      let relation: unknown = null;
      if (isObject(inner)) relation = flatten(t, inner);
      if (Array.isArray(inner)) relation = inner.map((e) => flatten(t, e));
      if (t.removeDataKey) bag[key] = relation;
      else (bag[key] as Bag).data = relation;
    }
    if (has(value, 'id')) bag[key] = flatten(t, value);
    if (Array.isArray(value) && has(value[0], 'id')) bag[key] = value.map((e) => flatten(t, e));
  });
  return data;
}

/** lodash's `_.has(value, key)`: an own property. */
function has(value: unknown, key: string): boolean {
  return value !== null && value !== undefined && Object.prototype.hasOwnProperty.call(value, key);
}

function isObject(value: unknown): value is object {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** lodash's `_.size` on a request body: keys of an object, length of a string or array. */
function size(value: unknown): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  return typeof value === 'object' ? Object.keys(value).length : 0;
}

/**
 * lodash's `_.forEach`: an array, or an object with a whole-number `length` (as lodash takes
 * it), by index up to the length it had at the start; any other object by its own keys.
 */
function each(value: unknown, visit: (value: unknown, key: string | number) => void): void {
  if (!isObject(value) || typeof value === 'function') return;
  const length = (value as { length?: unknown }).length;
  if (Array.isArray(value) || (typeof length === 'number' && Number.isSafeInteger(length) && length >= 0)) {
    const n = length as number;
    for (let i = 0; i < n; i++) visit((value as Bag)[i], i);
    return;
  }
  for (const key of Object.keys(value)) visit((value as Bag)[key], key);
}
