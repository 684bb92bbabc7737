/**
 * Route tables for a content type. Each route names the permission action it needs
 * (`api::article.article.find`), so the auth layer can guard routes from the table alone.
 */
import type { ParameterizedContext } from 'koa';
import type { ContentTypeMeta } from '../meta.js';
import type { Access, EntityService } from '../entity/service.js';
import { NotFoundError } from '../errors.js';
import { isMultipart } from '../http/body.js';
import { parseQueryString } from '../query/parse.js';
import type { EntryFiles, EntryWrite } from '../upload/entry-files.js';
import type { Entry } from './transform.js';
import { localizationRoutes } from '../i18n/routes.js';

export type ContentAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

/**
 * The permission that lets a caller read entries of a type: what populate and deep filters
 * check. The upload and i18n plugins name their actions after their controllers, not their
 * content types (i18n's one action lists and reads locales).
 */
export function findActionOf(uid: string): string {
  if (uid === 'plugin::i18n.locale') return 'plugin::i18n.locales.listLocales';
  return uid === 'plugin::upload.file' ? 'plugin::upload.content-api.find' : `${uid}.find`;
}

export interface RouteState {
  /** Resolved per request from the route's content type. */
  service: EntityService;
  /** What the caller may read (set by authentication); absent means no restriction. */
  access?: Access;
  /** Entry writes sent as multipart forms, with files (the upload plugin's); absent without it. */
  entryFiles?: EntryFiles;
}

export type RouteContext = ParameterizedContext<RouteState>;

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under the REST prefix, in @koa/router syntax. */
  readonly path: string;
  readonly meta: ContentTypeMeta;
  /** `<uid>.<action>`, the permission string this route requires. */
  readonly action: string;
  /** Answers with the body it returns (or sets `ctx.body` itself and returns nothing). */
  readonly handler: (ctx: RouteContext) => Promise<unknown>;
}

/** The action's own name: `api::article.article.find` → `find`. */
export function actionName(route: Route): string {
  return route.action.slice(route.action.lastIndexOf('.') + 1);
}

function query(ctx: RouteContext): Record<string, unknown> {
  return parseQueryString(ctx.querystring);
}

function body(ctx: RouteContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

/**
 * Runs an entry write with the request's `{ data }` body: the parsed JSON, or a multipart
 * form (`data` + `files.<path>`) whose files are uploaded and linked in the same
 * transaction (see upload/entry-files.ts).
 */
function writeEntry(ctx: RouteContext, write: EntryWrite<Entry>): Promise<Entry> {
  const { service, entryFiles } = ctx.state;
  if (entryFiles && isMultipart(ctx)) return entryFiles.write(ctx, service, write);
  return write(service, body(ctx));
}

/** Strapi answers every single-entry route with `{ data, meta: {} }`, and 200 even for create. */
function single(data: unknown): { data: unknown; meta: Record<string, never> } {
  return { data, meta: {} };
}

export function collectionTypeRoutes(meta: ContentTypeMeta): Route[] {
  const base = `/${meta.pluralName}`;
  const route = (method: Route['method'], path: string, action: ContentAction, handler: Route['handler']): Route => ({
    method,
    path,
    meta,
    action: `${meta.uid}.${action}`,
    handler,
  });
  return [
    route('GET', base, 'find', async (ctx) => ctx.state.service.find(query(ctx), ctx.state.access)),
    route('GET', `${base}/:id`, 'findOne', async (ctx) => {
      const entry = await ctx.state.service.findOne(ctx.params.id, query(ctx), ctx.state.access);
      if (!entry) throw new NotFoundError();
      return single(entry);
    }),
    route('POST', base, 'create', async (ctx) => single(await writeEntry(ctx, (service, input) => service.create(input, query(ctx), ctx.state.access)))),
    route('PUT', `${base}/:id`, 'update', async (ctx) =>
      single(await writeEntry(ctx, (service, input) => service.update(ctx.params.id, input, query(ctx), ctx.state.access))),
    ),
    route('DELETE', `${base}/:id`, 'delete', async (ctx) => single(await ctx.state.service.delete(ctx.params.id, query(ctx), ctx.state.access))),
    ...localizationRoutes(meta),
  ];
}

export function singleTypeRoutes(meta: ContentTypeMeta): Route[] {
  const path = `/${meta.singularName}`;
  const route = (method: Route['method'], action: ContentAction, handler: Route['handler']): Route => ({
    method,
    path,
    meta,
    action: `${meta.uid}.${action}`,
    handler,
  });
  return [
    route('GET', 'find', async (ctx) => {
      const entry = await ctx.state.service.findSingle(query(ctx), ctx.state.access);
      if (!entry) throw new NotFoundError();
      return single(entry);
    }),
    route('PUT', 'update', async (ctx) => single(await writeEntry(ctx, (service, input) => service.upsertSingle(input, query(ctx), ctx.state.access)))),
    route('DELETE', 'delete', async (ctx) => single(await ctx.state.service.deleteSingle(query(ctx), ctx.state.access))),
    ...localizationRoutes(meta),
  ];
}
