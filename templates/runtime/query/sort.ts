/**
 * `sort`: parsing every Strapi v4 notation, and the ORDER BY clause.
 *
 *   sort=title                  sort=title:desc            sort=title:asc,id:desc
 *   sort[0]=title:asc&sort[1]=id                           sort[title]=desc
 *   sort[0][title]=asc
 */
import { invalidParameter, ValidationError } from '../errors.js';
import type { ContentTypeMeta, ScalarFieldMeta } from '../meta.js';
import { sortKey } from './collation.js';
import { findField, isHiddenField } from './field-lookup.js';
import { isPlainObject } from './is-plain-object.js';
import { isComparableType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';

export type SortDirection = 'asc' | 'desc';

export interface SortTerm {
  readonly field: ScalarFieldMeta;
  readonly direction: SortDirection;
}

/** A path as written (`['title']`, `['author', 'name']`) with its raw direction. */
interface SortRequest {
  readonly path: readonly string[];
  readonly direction: unknown;
}

/** Sort terms in request order; `[]` when `raw` is absent. */
export function parseSort(meta: ContentTypeMeta, raw: unknown): SortTerm[] {
  return collectSortRequests(raw).map((request) => resolveSortRequest(meta, request));
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
 * Only attributes of the type itself for now: a path through a relation, component or
 * media (`author.name`) is a 400 until joins exist.
 */
function resolveSortRequest(meta: ContentTypeMeta, { path, direction }: SortRequest): SortTerm {
  const name = path.join('.');
  const field = path.length === 1 ? findField(meta, name) : undefined;
  if (field === undefined || field.kind !== 'scalar' || isHiddenField(field) || !isComparableType(field.type)) {
    throw invalidParameter(name);
  }
  return { field, direction: parseDirection(path, direction) };
}

/**
 * The ORDER BY clause. The order is deterministic and the same on every database:
 * - strings compare by code point (see collation.ts);
 * - NULLs come first ascending and last descending (SQLite's and MySQL's native rule;
 *   PostgreSQL does the opposite by default, so it is spelled out there);
 * - `id ASC` breaks ties, unless id is already a sort key, so pages never overlap.
 */
export function compileOrderBy(sorts: readonly SortTerm[], sql: SqlBuilder, alias?: string): string {
  const keys = sorts.map(({ field, direction }) => {
    const key = `${sortKey(sql, field, sql.column(field.column, alias))} ${direction === 'asc' ? 'ASC' : 'DESC'}`;
    if (sql.dialect !== 'postgresql') return key;
    return `${key} ${direction === 'asc' ? 'NULLS FIRST' : 'NULLS LAST'}`;
  });
  if (!sorts.some(({ field }) => field.name === 'id')) keys.push(`${sql.column('id', alias)} ASC`);
  return `ORDER BY ${keys.join(', ')}`;
}
