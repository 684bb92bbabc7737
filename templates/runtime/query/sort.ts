/**
 * `sort`: parsing every Strapi v4 notation, and the ORDER BY clause.
 *
 *   sort=title                  sort=title:desc            sort=title:asc,id:desc
 *   sort[0]=title:asc&sort[1]=id                           sort[title]=desc
 *   sort[0][title]=asc
 */
import { invalidParameter, ValidationError } from '../errors.js';
import type { ComponentMeta, ContentTypeMeta, LinkMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { jsonScalar } from './json.js';
import { sortKey } from './collation.js';
import { findField, isHiddenField } from './field-lookup.js';
import { isPlainObject } from './is-plain-object.js';
import { isComparableType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';
import { linkSource } from '../entity/drafts.js';

export type SortDirection = 'asc' | 'desc';

export interface SortTerm {
  readonly field: ScalarFieldMeta;
  readonly direction: SortDirection;
  /** To-one relations and single components between the sorted type and `field`. */
  readonly via?: readonly SortStep[];
}

/** One hop of a deep sort path (`author.name`, `seo.metaTitle`). */
export type SortStep =
  | { readonly kind: 'relation'; readonly link: LinkMeta; readonly target: ContentTypeMeta }
  | { readonly kind: 'component'; readonly column: string };

/** A path as written (`['title']`, `['author', 'name']`) with its raw direction. */
interface SortRequest {
  readonly path: readonly string[];
  readonly direction: unknown;
}

/** Sort terms in request order; `[]` when `raw` is absent. Deep paths need the registry. */
export function parseSort(meta: ContentTypeMeta, raw: unknown, registry?: Registry): SortTerm[] {
  return collectSortRequests(raw).map((request) => resolveSortRequest(meta, request, registry));
}

function collectSortRequests(raw: unknown): SortRequest[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw === 'string') return raw.split(',').flatMap(parseSortString);
  if (Array.isArray(raw)) return raw.flatMap(collectSortRequests);
  if (isPlainObject(raw)) return Object.entries(raw).flatMap(([key, value]) => objectSortRequests([key], value));
  throw invalidParameter('sort');
}

/** `title`, `title:desc`, `author.name:asc`; blank items (`sort=`) sort nothing. */
function parseSortString(item: string): SortRequest[] {
  const trimmed = item.trim();
  if (trimmed === '') return [];
  const [path = '', ...direction] = trimmed.split(':');
  return [{ path: path.trim().split('.'), direction: direction.length === 0 ? 'asc' : direction.join(':').trim() }];
}

/** `sort[title]=desc`, and the nested `sort[author][name]=asc`. */
function objectSortRequests(path: readonly string[], value: unknown): SortRequest[] {
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, nested]) => objectSortRequests([...path, key], nested));
  }
  return [{ path, direction: value }];
}

function parseDirection(path: readonly string[], direction: unknown): SortDirection {
  const normalized = typeof direction === 'string' ? direction.toLowerCase() : undefined;
  if (normalized === 'asc' || normalized === 'desc') return normalized;
  // Strapi throws a plain Error (500) here; a bad direction is the client's mistake.
  throw new ValidationError(
    `Invalid sort direction ${JSON.stringify(direction)} for ${path.join('.')}. Expected "asc" or "desc"`,
  );
}

/**
 * Resolves a path to the sorted scalar. Paths may go through to-one relations and single
 * components (`author.name`, `seo.metaTitle`, `author.category.name`); through a to-many
 * relation, a repeatable component, media or a dynamic zone there is no single value to
 * sort by: 400, like an unknown or private field.
 */
function resolveSortRequest(meta: ContentTypeMeta, { path, direction }: SortRequest, registry: Registry | undefined): SortTerm {
  const name = path.join('.');
  const via: SortStep[] = [];
  let owner: ContentTypeMeta | ComponentMeta = meta;
  for (const [index, segment] of path.entries()) {
    const field = findField(owner as ContentTypeMeta, segment);
    if (field === undefined || isHiddenField(field)) throw invalidParameter(name);
    const last = index === path.length - 1;
    if (field.kind === 'scalar') {
      if (!last || !isComparableType(field.type)) throw invalidParameter(name);
      return { field, direction: parseDirection(path, direction), ...(via.length ? { via } : {}) };
    }
    const inComponent = via.some((step) => step.kind === 'component');
    if (last || !registry) throw invalidParameter(name);
    if (field.kind === 'relation' && !field.toMany && field.link && !inComponent) {
      const target = registry.contentTypes.get(field.target);
      if (!target) throw invalidParameter(name);
      via.push({ kind: 'relation', link: field.link, target });
      owner = target;
    } else if (field.kind === 'component' && !field.repeatable) {
      const component = registry.components.get(field.component);
      if (!component) throw invalidParameter(name);
      via.push({ kind: 'component', column: field.column });
      owner = component;
    } else {
      throw invalidParameter(name);
    }
  }
  throw invalidParameter(name);
}

/**
 * The value a term sorts by: a column, a value inside component JSON, or a correlated
 * subquery through to-one relations (`qualifier` names the row being sorted).
 */
function termExpression(sql: SqlBuilder, field: ScalarFieldMeta, via: readonly SortStep[], alias: string | undefined, qualifier: string | undefined, firstLinks?: (link: LinkMeta) => string): string {
  const [step, ...rest] = via;
  if (step === undefined) return sql.column(field.column, alias);
  if (step.kind === 'component') {
    const keys = [...rest.map((s) => (s.kind === 'component' ? s.column : '')), field.name];
    return jsonScalar(sql, sql.column(step.column, alias), keys, field);
  }
  if (qualifier === undefined) throw new Error('a deep sort needs the sorted table or alias');
  const l = sql.alias('l');
  const t = sql.alias('t');
  const { link } = step;
  return (
    `(SELECT ${termExpression(sql, field, rest, t, t)} FROM ${firstLinks ? firstLinks(link) : sql.ident(link.table)} ${sql.ident(l)} ` +
    `JOIN ${sql.ident(step.target.table)} ${sql.ident(t)} ON ${sql.column('id', t)} = ${sql.column(link.targetColumn, l)} ` +
    `WHERE ${sql.column(link.ownerColumn, l)} = ${sql.column('id', qualifier)} ORDER BY ${sql.column(link.orderColumn, l)} LIMIT 1)`
  );
}

/**
 * The ORDER BY clause. The order is deterministic and the same on every database:
 * - strings compare by code point (see collation.ts);
 * - NULLs come first ascending and last descending (SQLite's and MySQL's native rule;
 *   PostgreSQL does the opposite by default, so it is spelled out there);
 * - `id ASC` breaks ties, unless id is already a sort key, so pages never overlap.
 */
export function compileOrderBy(sorts: readonly SortTerm[], sql: SqlBuilder, alias?: string, table?: string, draftOwner?: ContentTypeMeta): string {
  // The draft view (entity/drafts.ts): the sorted entries' own relations are their drafts' links.
  const firstLinks = draftOwner
    ? (link: LinkMeta) => {
        const field = Object.values(draftOwner.fields).find((f) => (f.kind === 'relation' || f.kind === 'media') && f.link === link);
        return field ? linkSource(sql, draftOwner, field as { name: string; link: LinkMeta }, draftOwner) : sql.ident(link.table);
      }
    : undefined;
  const keys = sorts.map(({ field, direction, via = [] }) => {
    const key = `${sortKey(sql, field, termExpression(sql, field, via, alias, alias ?? table, firstLinks))} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
    if (sql.dialect !== 'postgresql') return key;
    return `${key} ${direction === 'asc' ? 'NULLS FIRST' : 'NULLS LAST'}`;
  });
  if (!sorts.some(({ field, via }) => field.name === 'id' && !via)) keys.push(`${sql.column('id', alias)} ASC`);
  return `ORDER BY ${keys.join(', ')}`;
}
