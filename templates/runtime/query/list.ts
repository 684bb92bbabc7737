/**
 * The read plan for a list (find) or a single entry (findOne): validated query
 * parameters compiled into SELECT and COUNT statements whose rows come back keyed by
 * attribute name.
 *
 * Recognised top-level parameters: filters, sort, fields, pagination, publicationState,
 * _q. `populate` is planned elsewhere, `locale` by i18n; anything else is ignored, as
 * Strapi ignores unknown top-level parameters.
 */
import { invalidParameter, ValidationError } from '../errors.js';
import type { ContentTypeMeta, Dialect, Registry, ScalarFieldMeta } from '../meta.js';
import { and } from './conditions.js';
import { idField } from './field-lookup.js';
import { parseFields } from './fields.js';
import { compileFilters } from './filters.js';
import { type Pagination, type PaginationConfig, resolvePagination } from './pagination.js';
import { compileSearch } from './search.js';
import { compileOrderBy, parseSort } from './sort.js';
import { type CompiledSql, SqlBuilder } from './sql.js';
import { documentViewOf, draftViewFrom, publicationFilterCondition, type DocumentView } from '../entity/drafts.js';

export interface ReadOptions extends PaginationConfig {
  readonly dialect: Dialect;
  /** Every type and component, so filters can reach through relations. */
  readonly registry?: Registry;
  /** May the caller `find` this type? Filters through types it may not are 400s. */
  readonly canFind?: (uid: string) => boolean;
  /**
   * Component and dynamic-zone fields to select too (their JSON columns), for population.
   * They are not attributes of the default response.
   */
  readonly extraFields?: readonly string[];
}

export interface FindQuery {
  readonly select: CompiledSql;
  /** `SELECT COUNT(*) AS count ...` with the same conditions; null without withCount. */
  readonly count: CompiledSql | null;
  /** Selected attribute names, `id` first; the keys of each selected row. */
  readonly fields: string[];
  readonly pagination: Pagination;
}

export interface FindOneQuery {
  readonly select: CompiledSql;
  readonly fields: string[];
}

export type PublicationState = 'live' | 'preview';

export function parsePublicationState(raw: unknown): PublicationState {
  if (raw === undefined) return 'live';
  if (raw === 'live' || raw === 'preview') return raw;
  // Strapi throws a plain Error (500) here; it is the client's mistake, so 400.
  throw new ValidationError(`Invalid publicationState. Expected one of "preview","live"`);
}

/** Live reads of draft & publish types see published entries only. */
function compilePublicationState(meta: ContentTypeMeta, state: PublicationState, sql: SqlBuilder): string | undefined {
  if (!meta.draftAndPublish || state === 'preview') return undefined;
  const publishedAt = meta.fields['publishedAt'];
  if (publishedAt?.kind !== 'scalar') throw new Error(`${meta.uid} has draftAndPublish but no publishedAt field`);
  return `${sql.column(publishedAt.column)} IS NOT NULL`;
}

function compileSearchParam(meta: ContentTypeMeta, raw: unknown, sql: SqlBuilder): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string') throw invalidParameter('_q');
  if (raw.includes('\u0000')) throw new ValidationError('Invalid parameter _q: expected text without the NUL character (%00)');
  return compileSearch(meta, raw, sql);
}

/**
 * `"column" AS "name"` for each selected attribute (and extra JSON columns), so rows are
 * keyed by attribute name.
 */
export function selectList(meta: ContentTypeMeta, fields: readonly string[], sql: SqlBuilder, alias?: string, extraFields: readonly string[] = []): string {
  // The same few lists are selected over and over: each is spelt once (names are identifiers, so the key is unambiguous).
  let lists = selectLists.get(meta);
  if (!lists) selectLists.set(meta, (lists = new Map()));
  const key = `${sql.dialect} ${alias ?? ''} ${fields.join(',')} ${extraFields.join(',')}`;
  let list = lists.get(key);
  if (list === undefined) {
    list = spellSelectList(meta, fields, sql, alias, extraFields);
    if (lists.size < maxSelectListsPerType) lists.set(key, list);
  }
  return list;
}

/** Select lists kept per type (the `fields` requests ask for, with and without aliases). */
const maxSelectListsPerType = 200;
const selectLists = new WeakMap<ContentTypeMeta, Map<string, string>>();

function spellSelectList(meta: ContentTypeMeta, fields: readonly string[], sql: SqlBuilder, alias?: string, extraFields: readonly string[] = []): string {
  const scalars = fields.map((name) => {
    const field: ScalarFieldMeta = name === 'id' ? idField(meta) : (meta.fields[name] as ScalarFieldMeta);
    // SQLite gives JSON columns numeric affinity: a json value that is a bare number is stored
    // as one, which Prisma's raw-query reader (reads inside a write) refuses for a Json column.
    if (sql.dialect === 'sqlite' && (field.type === 'json' || field.type === 'array')) {
      return `CAST(${sql.column(field.column, alias)} AS TEXT) AS ${sql.ident(name)}`;
    }
    return `${sql.column(field.column, alias)} AS ${sql.ident(name)}`;
  });
  const extras = extraFields.map((name) => {
    const field = meta.fields[name];
    if (field?.kind !== 'component' && field?.kind !== 'dynamiczone') throw new Error(`${meta.uid}.${name} has no JSON column`);
    return `${sql.column(field.column, alias)} AS ${sql.ident(name)}`;
  });
  return [...scalars, ...extras].join(', ');
}

// MySQL has no "no limit" spelling; its manual recommends the largest BIGINT UNSIGNED.
const mysqlNoLimit = '18446744073709551615';

/**
 * LIMIT/OFFSET as integer literals (they are validated integers): MySQL accepts no
 * expressions there, and an OFFSET needs a LIMIT on SQLite and MySQL.
 */
function compileLimit(sql: SqlBuilder, pagination: Pagination): string | undefined {
  const { limit, offset } = pagination;
  const offsetClause = offset > 0 ? ` OFFSET ${offset}` : '';
  if (limit !== null) return `LIMIT ${limit}${offsetClause}`;
  if (offset === 0) return undefined;
  switch (sql.dialect) {
    case 'sqlite':
      return `LIMIT -1${offsetClause}`;
    case 'mysql':
      return `LIMIT ${mysqlNoLimit}${offsetClause}`;
    case 'postgresql':
      return offsetClause.trim();
  }
}

function statement(parts: ReadonlyArray<string | undefined>): string {
  return parts.filter((part) => part !== undefined && part !== '').join(' ');
}

export function buildFindQuery(meta: ContentTypeMeta, query: Record<string, unknown>, options: ReadOptions): FindQuery {
  const sql = new SqlBuilder(options.dialect);
  const fields = parseFields(meta, query['fields']);
  const sorts = parseSort(meta, query['sort'], options.registry);
  const pagination = resolvePagination(query['pagination'], options);
  const publicationState = parsePublicationState(query['publicationState']);
  const view = viewOf(meta, query);

  const from = `FROM ${tableOf(meta, view, sql)}`;
  const draftOwner = view?.status === 'draft' ? meta : undefined;
  const condition = and([
    compileFilters(meta, query['filters'], sql, undefined, options.registry, options.canFind, draftOwner),
    view?.status === 'draft' ? undefined : compilePublicationState(meta, publicationState, sql),
    view ? publicationFilterCondition(meta, view, sql) : undefined,
    compileSearchParam(meta, query['_q'], sql),
  ]);
  const where = condition === undefined ? undefined : `WHERE ${condition}`;

  // Both statements share the WHERE clause and so the same parameters.
  const select = sql.finish(
    statement([`SELECT ${selectList(meta, fields, sql, undefined, options.extraFields)}`, from, where, compileOrderBy(sorts, sql, undefined, meta.table, draftOwner), compileLimit(sql, pagination)]),
  );
  const count = pagination.withCount ? sql.finish(statement([`SELECT COUNT(*) AS ${sql.ident('count')}`, from, where])) : null;
  return { select, count, fields, pagination };
}

/**
 * One entry by id. Only `fields` applies: findOne ignores filters, sort, pagination and
 * publicationState, so drafts are found by id (Strapi v4 behaviour). `filters` are still
 * validated as find validates them (Strapi's validateQuery): an unknown or private key, or a
 * relation to a type the caller may not find, is 400 `Invalid parameter <key>`.
 */
export function buildFindOneQuery(
  meta: ContentTypeMeta,
  id: number | string,
  query: Record<string, unknown>,
  options: Pick<ReadOptions, 'dialect' | 'extraFields' | 'registry' | 'canFind'>,
): FindOneQuery {
  const sql = new SqlBuilder(options.dialect);
  const fields = parseFields(meta, query['fields']);
  compileFilters(meta, query['filters'], new SqlBuilder(options.dialect), undefined, options.registry, options.canFind);
  const key = idField(meta);
  const condition = `${sql.column(key.column)} = ${sql.value(key, id)}`;
  const from = tableOf(meta, viewOf(meta, query), sql);
  const select = sql.finish(`SELECT ${selectList(meta, fields, sql, undefined, options.extraFields)} FROM ${from} WHERE ${condition}`);
  return { select, fields };
}

/**
 * The Strapi 5 document view a query reads (entity/drafts.ts), on a draft & publish type; v4
 * queries have none, so they read the type's table: the live rows, never a draft of one.
 */
function viewOf(meta: ContentTypeMeta, query: object): DocumentView | undefined {
  return meta.draftAndPublish ? documentViewOf(query) : undefined;
}

/** What a read selects from: the table, or the draft view's rows under the table's name. */
function tableOf(meta: ContentTypeMeta, view: DocumentView | undefined, sql: SqlBuilder): string {
  return view?.status === 'draft' ? draftViewFrom(meta, sql) : sql.ident(meta.table);
}
