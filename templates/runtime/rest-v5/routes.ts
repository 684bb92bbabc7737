/**
 * The v5 Content API routes of one content type, on the v4 service (the user's overrides and
 * lifecycle hooks included): documents addressed by documentId, flat answers, create 201,
 * DELETE 204 without a body (a missing document too), `status` instead of `publicationState`.
 * Each route names the same permission action as its v4 twin: one permission table.
 */
import type { ParameterizedContext } from 'koa';
import type { Database } from '../db/database.js';
import type { Access, EntityService } from '../entity/service.js';
import { NotFoundError } from '../errors.js';
import type { ContentTypeMeta, Registry } from '../meta.js';
import { parseQueryString } from '../query/parse.js';
import type { Entry } from '../rest/transform.js';
import { assertOwnComponents } from './components.js';
import { findDocument, firstRow, localeOf, rowsOfDocument } from './identity.js';
import type { InputTranslator } from './input.js';
import { statusOf, type QueryTranslator } from './query.js';
import type { FlatEntry, Shaper } from './shape.js';

export interface V5Context {
  readonly db: Database;
  readonly registry: Registry;
  readonly shaper: Shaper;
  readonly queries: QueryTranslator;
  readonly inputs: InputTranslator;
}

export interface V5RouteState {
  service: EntityService;
  access?: Access;
}

export type V5RouteContext = ParameterizedContext<V5RouteState>;

export interface V5Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly meta: ContentTypeMeta;
  readonly action: string;
  /** Answers with `{ status, body }` (body undefined: none). */
  readonly handler: (ctx: V5RouteContext) => Promise<{ status: number; body?: unknown }>;
}

const single = (data: unknown, status = 200) => ({ status, body: { data, meta: {} } });
/** Strapi 5's Content API stores a document in any `?locale=` code, one of the project's or not. */
const created = { anyLocale: true } as const;
const noContent = { status: 204 } as const;

function query(ctx: V5RouteContext): Record<string, unknown> {
  return parseQueryString(ctx.querystring);
}

function body(ctx: V5RouteContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

export function v5Routes(meta: ContentTypeMeta, v5: V5Context): V5Route[] {
  const route = (method: V5Route['method'], path: string, action: string, handler: V5Route['handler']): V5Route => ({ method, path, meta, action: `${meta.uid}.${action}`, handler });
  const shape = (entry: Entry): Promise<FlatEntry> => v5.shaper.entry(v5.db, meta, entry);
  /** The row of the path's document in the query's locale (a localized type's row is (documentId, locale)). */
  const rowOf = (ctx: V5RouteContext, q: Record<string, unknown>): Promise<number | null> => findDocument(v5.db, meta, ctx.params.documentId, localeOf(v5.registry, meta, q.locale));

  /** The document in the query's status (published by default), or null. */
  const readDocument = async (ctx: V5RouteContext, q: Record<string, unknown>): Promise<Entry | null> => {
    const id = await rowOf(ctx, q);
    if (id === null) return null;
    const v4 = await v5.queries.translate(v5.db, meta, q);
    const filters = v4.filters === undefined ? { id: { $eq: id } } : { $and: [{ id: { $eq: id } }, v4.filters] };
    const found = await ctx.state.service.find({ ...v4, filters, pagination: { page: 1, pageSize: 1, withCount: false } }, ctx.state.access);
    return found.data[0] ?? null;
  };
  /** `id`: the row an update writes (relations inside its kept component instances edit the stored ones). */
  const write = async (ctx: V5RouteContext, kind: 'create' | 'update', id?: number | null) => {
    const q = query(ctx);
    return { input: await v5.inputs.translate(v5.db, meta, body(ctx), statusOf(q), kind, ctx.state.access, q.locale, id), v4: await v5.queries.translate(v5.db, meta, q) };
  };


  if (meta.kind === 'singleType') {
    const path = `/${meta.singularName}`;
    return [
      route('GET', path, 'find', async (ctx) => {
        const q = query(ctx);
        const first = await ctx.state.service.find({ ...(await v5.queries.translate(v5.db, meta, q)), pagination: { page: 1, pageSize: 1, withCount: false } }, ctx.state.access);
        if (!first.data[0]) throw new NotFoundError();
        return single(await shape(first.data[0]));
      }),
      route('PUT', path, 'update', async (ctx) => {
        const locale = localeOf(v5.registry, meta, query(ctx).locale);
        const other = meta.localized && locale !== null && (await firstRow(v5.db, meta, locale)) === null ? await firstRow(v5.db, meta, null) : null;
        if (other !== null) {
          // A locale the document does not have yet: a new localization of it, sharing its documentId.
          const { input, v4 } = await write(ctx, 'create');
          return single(await shape(await ctx.state.service.create({ data: { ...input.data, locale, localizations: [other] } }, v4, ctx.state.access, created)));
        }
        const current = await firstRow(v5.db, meta, locale);
        const { input, v4 } = await write(ctx, 'update', current);
        if (current !== null) await assertOwnComponents(v5.db, meta, current, body(ctx));
        if (current !== null && meta.draftAndPublish) return single(await shape(await ctx.state.service.updateDocument(current, input, v4, ctx.state.access)));
        return single(await shape(await ctx.state.service.upsertSingle(input, v4, ctx.state.access, created)));
      }),
      route('DELETE', path, 'delete', async (ctx) => {
        await ctx.state.service.deleteSingle(await v5.queries.translate(v5.db, meta, query(ctx)), ctx.state.access).catch(ignoreNotFound);
        return noContent;
      }),
    ];
  }
  const base = `/${meta.pluralName}`;
  return [
    route('GET', base, 'find', async (ctx) => {
      const found = await ctx.state.service.find(await v5.queries.translate(v5.db, meta, query(ctx)), ctx.state.access);
      return { status: 200, body: { data: await v5.shaper.entries(v5.db, meta, found.data), meta: found.meta } };
    }),
    route('GET', `${base}/:documentId`, 'findOne', async (ctx) => {
      const entry = await readDocument(ctx, query(ctx));
      if (!entry) throw new NotFoundError();
      return single(await shape(entry));
    }),
    route('POST', base, 'create', async (ctx) => {
      const { input, v4 } = await write(ctx, 'create');
      return single(await shape(await ctx.state.service.create(input, v4, ctx.state.access, created)), 201);
    }),
    route('PUT', `${base}/:documentId`, 'update', async (ctx) => {
      const id = await rowOf(ctx, query(ctx));
      if (id === null) {
        // A locale the document does not have yet: a new localization of it, sharing its documentId.
        const other = meta.localized ? await findDocument(v5.db, meta, ctx.params.documentId, null) : null;
        if (other === null) throw new NotFoundError();
        const { input, v4 } = await write(ctx, 'create');
        return single(await shape(await ctx.state.service.create({ data: { ...input.data, localizations: [other] } }, v4, ctx.state.access, created)));
      }
      const { input, v4 } = await write(ctx, 'update', id);
      await assertOwnComponents(v5.db, meta, id, body(ctx));
      return single(await shape(await ctx.state.service.updateDocument(id, input, v4, ctx.state.access)));
    }),
    route('DELETE', `${base}/:documentId`, 'delete', async (ctx) => {
      const q = query(ctx);
      // `locale=*`: every locale of the document.
      const ids = meta.localized && q.locale === '*' ? await rowsOfDocument(v5.db, meta, ctx.params.documentId) : [await rowOf(ctx, q)];
      for (const id of ids) if (id !== null) await ctx.state.service.delete(id, {}, ctx.state.access).catch(ignoreNotFound);
      return noContent;
    }),
  ];
}

/** Strapi 5 answers a DELETE of a document that is not there as one that was. */
function ignoreNotFound(err: unknown): void {
  if (!(err instanceof NotFoundError)) throw err;
}
