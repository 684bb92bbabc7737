/**
 * `fields`, `sort` and `filters` inside the populate object of a component or of a
 * dynamic-zone fragment, answered as Strapi 4.26.2 answers them (recorded against it):
 *
 *   populate[seo][fields][0]=metaTitle                 → seo: { id, metaTitle }
 *   populate[links][sort][0]=label:desc                → links sorted, ties in stored order
 *   populate[links][filters][label][$eq]=x             → only the matching links ([] if none)
 *   populate[seo][filters][metaTitle][$eq]=x           → seo, or null when it does not match
 *   populate[blocks][on][shared.quote][fields][0]=title
 *
 * Validation is Strapi's: unknown, private and non-scalar names are 400 `Invalid parameter
 * <name>`, a blank name too (`fields=`); `*` selects everything, also inside a list.
 *
 * Key order is Strapi's too: `id` (and `__component`), then, on single and repeatable
 * components, the attributes sorted by (Strapi's database layer selects them first), then the
 * selected attributes in request order, then populated ones. Dynamic-zone items ignore `sort`
 * (their order is the zone's).
 *
 * Components are JSON inside their owner's row: `fields` and `sort` are applied in memory;
 * `filters` run as one statement per component field and level over the instances of every
 * owner at once, passed as one JSON parameter, so they mean exactly what entry filters mean.
 */
import type { Database } from '../db/database.js';
import { invalidParameter, ValidationError } from '../errors.js';
import type { ComponentMeta, ContentTypeMeta, Dialect, Registry } from '../meta.js';
import { isSelectableScalar } from '../meta.js';
import { findField, isHiddenField } from '../query/field-lookup.js';
import { compileInstanceFilters } from '../query/filters.js';
import { parseSort, type SortTerm } from '../query/sort.js';
import { SqlBuilder } from '../query/sql.js';

export interface ComponentQuery {
  /** Scalar attributes to output, `id` first; undefined: all of them. */
  readonly fields?: readonly string[];
  readonly sort: readonly SortTerm[];
  /** Validated `filters`, or undefined. */
  readonly filters?: unknown;
}

export const allOfComponent: ComponentQuery = { sort: [] };

const asMeta = (component: ComponentMeta): ContentTypeMeta => component as unknown as ContentTypeMeta;

/** Parses and validates the query keys of a component's populate object (400 on bad names). */
export function parseComponentQuery(component: ComponentMeta, object: Record<string, unknown> | undefined, registry: Registry): ComponentQuery {
  if (!object) return allOfComponent;
  const fields = parseComponentFields(component, object.fields);
  const sort = object.sort === '' ? [] : parseSort(asMeta(component), object.sort, registry);
  const filters = object.filters === '' || object.filters === undefined || object.filters === null ? undefined : object.filters;
  // Validated now (names, operators) so that a bad filter is a 400 before any statement runs.
  if (filters !== undefined) compileInstanceFilters(asMeta(component), filters, new SqlBuilder('sqlite'), 'v', registry);
  return { ...(fields ? { fields } : {}), sort, ...(filters !== undefined ? { filters } : {}) };
}

function parseComponentFields(component: ComponentMeta, raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null || raw === '*') return undefined;
  const items = typeof raw === 'string' ? [raw] : raw;
  // Strapi answers 500 to anything else (`fields[0][a]=b`): it is the client's mistake.
  if (!Array.isArray(items) || !items.every((item): item is string => typeof item === 'string')) {
    throw new ValidationError('Invalid fields parameter. Expected a string or an array of strings');
  }
  const all = Object.values(component.fields).filter(isSelectableScalar).map((f) => f.name);
  const names: string[] = ['id'];
  for (const item of items) {
    const name = item.trim();
    if (name === '*') {
      names.push(...all);
      continue;
    }
    const field = findField(asMeta(component), name);
    if (field === undefined || field.kind !== 'scalar' || isHiddenField(field)) throw invalidParameter(name);
    names.push(name);
  }
  return [...new Set(names)];
}

/** The output keys of an instance, in Strapi's order (see the file comment). */
export function outputKeys(component: ComponentMeta, query: ComponentQuery, sorted: boolean): readonly string[] {
  // Queries are kept with their populate tree (populate/cache.ts) and metadata never changes: computed once for both.
  let byComponent = keysOf.get(query);
  if (!byComponent) keysOf.set(query, (byComponent = new WeakMap()));
  let keys = byComponent.get(component);
  if (!keys) byComponent.set(component, (keys = [spellOutputKeys(component, query, false), spellOutputKeys(component, query, true)]));
  return keys[sorted ? 1 : 0];
}

const keysOf = new WeakMap<ComponentQuery, WeakMap<ComponentMeta, readonly [unsorted: readonly string[], sorted: readonly string[]]>>();

function spellOutputKeys(component: ComponentMeta, query: ComponentQuery, sorted: boolean): readonly string[] {
  const selected = query.fields ?? ['id', ...Object.values(component.fields).filter(isSelectableScalar).map((f) => f.name).filter((n) => n !== 'id')];
  if (!sorted) return selected;
  const sortedNames = query.sort.filter((term) => !term.via && term.field.name !== 'id').map((term) => term.field.name);
  return [...new Set(['id', ...sortedNames, ...selected])];
}

/** Stored instances in the requested order; ties keep their stored order (Strapi's `order`). */
export function sortInstances<T extends { stored: Record<string, unknown> }>(items: readonly T[], sort: readonly SortTerm[]): T[] {
  if (sort.length === 0) return [...items];
  return [...items].sort((a, b) => {
    for (const term of sort) {
      const order = compareValues(valueAt(a.stored, term), valueAt(b.stored, term));
      if (order !== 0) return term.direction === 'asc' ? order : -order;
    }
    return 0;
  });
}

function valueAt(stored: Record<string, unknown>, term: SortTerm): unknown {
  let value: unknown = stored;
  for (const step of term.via ?? []) {
    if (step.kind !== 'component' || value === null || typeof value !== 'object') return null;
    value = (value as Record<string, unknown>)[step.column];
  }
  if (value === null || typeof value !== 'object') return null;
  return (value as Record<string, unknown>)[term.field.name] ?? null;
}

/**
 * The entry sort's rules (query/sort.ts): NULL first ascending, numbers by value, strings by
 * code point, booleans false before true.
 */
function compareValues(a: unknown, b: unknown): number {
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a === true || a === 'true') - Number(b === true || b === 'true');
  const numberA = typeof a === 'number' ? a : undefined;
  const numberB = typeof b === 'number' ? b : undefined;
  if (numberA !== undefined && numberB !== undefined) return numberA - numberB;
  if (isIntegerText(a) && isIntegerText(b)) {
    const bigA = BigInt(String(a));
    const bigB = BigInt(String(b));
    return bigA < bigB ? -1 : bigA > bigB ? 1 : 0;
  }
  if ((typeof a === 'number' || isNumericText(a)) && (typeof b === 'number' || isNumericText(b))) return Number(a) - Number(b);
  return compareCodePoints(String(a), String(b));
}

const isIntegerText = (v: unknown): boolean => (typeof v === 'string' && /^-?\d+$/.test(v)) || (typeof v === 'number' && Number.isSafeInteger(v));
const isNumericText = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v));

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** `FROM` over the elements of a JSON array parameter, with each element's 0-based index. */
function indexedElements(sql: SqlBuilder, dialect: Dialect, json: string): { from: string; index: string; element: string } {
  switch (dialect) {
    case 'sqlite':
      return { from: `json_each(${sql.param(json)}) AS e`, index: 'e.key', element: 'e.value' };
    case 'postgresql':
      return { from: `json_array_elements(CAST(${sql.param(json)} AS json)) WITH ORDINALITY AS e(value, i)`, index: '(e.i - 1)', element: 'e.value' };
    case 'mysql':
      return { from: `JSON_TABLE(${sql.param(json)}, '$[*]' COLUMNS (i FOR ORDINALITY, value JSON PATH '$')) AS e`, index: '(e.i - 1)', element: 'e.value' };
  }
}

/**
 * Which of `instances` match `filters` (one statement for all of them), by position.
 * Undefined filters match everything without a statement.
 */
export async function matchingInstances(
  db: Database,
  registry: Registry,
  component: ComponentMeta,
  filters: unknown,
  instances: readonly Record<string, unknown>[],
): Promise<Set<number>> {
  if (filters === undefined || instances.length === 0) return new Set(instances.map((_, i) => i));
  const sql = new SqlBuilder(db.dialect);
  const { from, index, element } = indexedElements(sql, db.dialect, JSON.stringify(instances));
  const condition = compileInstanceFilters(asMeta(component), filters, sql, element, registry);
  const compiled = sql.finish(`SELECT ${index} AS ${sql.ident('i')} FROM ${from}${condition === undefined ? '' : ` WHERE ${condition}`}`);
  const rows = await db.query(compiled.sql, compiled.params);
  return new Set(rows.map((row) => Number(row.i)));
}
