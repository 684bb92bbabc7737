/**
 * Compiles Strapi v4 REST `filters` into a parameterised SQL boolean expression.
 *
 * Shape of the input (after qs parsing):
 *   where      := { [attribute | '$and' | '$or' | '$not']: ... } | where[]
 *   attribute  := scalar (implicit $eq) | array (implicit $in) | null (IS NULL)
 *               | { [operator]: value }
 * Validation follows Strapi's validateQuery: unknown keys, unknown `$operators` at object
 * level, misspelled-case operators, private/password attributes and dynamic zones are
 * 400 `Invalid parameter <key>`; unknown operators directly under an attribute and empty
 * objects are dropped silently.
 *
 * One `filters` value (REST or GraphQL) compares at most 1,000 values, holds at most 1,000
 * conditions and nests at most 32 levels (`filterLimits`); past that, a 400 before any SQL
 * runs, rather than a statement over the database's bound-parameter limit (SQLite 32,766) or
 * its expression depth (SQLite 1,000), or a stack overflow. A REST query string stays well
 * inside them (qs: 1,000 parameters, lists of 100, 20 levels of brackets).
 */
import { invalidParameter, ValidationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, MorphFieldMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { comparableColumn, comparableOperand } from './collation.js';
import { and, not, or } from './conditions.js';
import { encodeText, toTruthy } from './encode.js';
import { findField, isHiddenField } from './field-lookup.js';
import { isPlainObject } from './is-plain-object.js';
import { linkSource } from '../entity/drafts.js';
import { jsonElements, jsonScalar } from './json.js';
import {
  type AttributeOperator,
  type ComparisonOperator,
  type TextOperator,
  isAttributeOperator,
  isMiscasedOperator,
  isTextOperator,
} from './operators.js';
import { isComparableType, isTextMatchableType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';
import { compileTextMatch, type TextMatch } from './text-match.js';

/** What one `filters` value may hold (see the file comment). */
export const filterLimits = { maxValues: 1000, maxConditions: 1000, maxDepth: 32 } as const;

/** Counts what one compileFilters call has used against `filterLimits`. */
class FilterBudget {
  #values = 0;
  #conditions = 0;
  #depth = 0;

  /** Before binding `count` more values. */
  values(count: number): void {
    this.#values += count;
    if (this.#values > filterLimits.maxValues) {
      throw new ValidationError(`Too many values in filters: at most ${filterLimits.maxValues}`);
    }
  }

  /** Before compiling one more condition (a comparison, a null test, a relation test). */
  condition(): void {
    this.#conditions += 1;
    if (this.#conditions > filterLimits.maxConditions) {
      throw new ValidationError(`Too many conditions in filters: at most ${filterLimits.maxConditions}`);
    }
  }

  /** `compile` one level deeper. */
  nested<T>(compile: () => T): T {
    if (this.#depth >= filterLimits.maxDepth) throw new ValidationError(`Filters are nested too deeply: at most ${filterLimits.maxDepth} levels`);
    this.#depth += 1;
    try {
      return compile();
    } finally {
      this.#depth -= 1;
    }
  }
}

interface FilterContext {
  readonly meta: ContentTypeMeta;
  readonly sql: SqlBuilder;
  readonly budget: FilterBudget;
  readonly alias: string | undefined;
  /** Needed to filter through relations and media; without it they are 400s. */
  readonly registry: Registry | undefined;
  /** Filtering through a type the caller may not `find` is a 400, as in Strapi. */
  readonly canFind?: ((uid: string) => boolean) | undefined;
  /** Inside component JSON: the expression of a scalar field (instead of a column). */
  readonly columnOf?: (field: ScalarFieldMeta) => string;
  /** Inside component JSON: the JSON expression holding the component's object. */
  readonly json?: { readonly base: string; readonly keys: readonly string[] };
  /** The type whose entries are read in the draft view: its relations are its drafts' links (entity/drafts.ts). */
  readonly draftOwner?: ContentTypeMeta | undefined;
}

/** One attribute being filtered: its metadata and its quoted column. */
interface AttributeContext {
  readonly sql: SqlBuilder;
  readonly budget: FilterBudget;
  readonly field: ScalarFieldMeta;
  readonly column: string;
  /**
   * Strapi validates the value of `id` (which is not a schema attribute) as a filters
   * object, so any unknown key under `id` is a 400, while under a real attribute it is
   * dropped.
   */
  readonly strictOperators: boolean;
}

const comparisonSql: Record<ComparisonOperator, string> = {
  $eq: '=',
  $ne: '<>',
  $lt: '<',
  $lte: '<=',
  $gt: '>',
  $gte: '>=',
};

const textMatches: Record<TextOperator, TextMatch> = {
  $eqi: { kind: 'equals', caseSensitive: false, negated: false },
  $nei: { kind: 'equals', caseSensitive: false, negated: true },
  $contains: { kind: 'contains', caseSensitive: true, negated: false },
  $notContains: { kind: 'contains', caseSensitive: true, negated: true },
  $containsi: { kind: 'contains', caseSensitive: false, negated: false },
  $notContainsi: { kind: 'contains', caseSensitive: false, negated: true },
  $startsWith: { kind: 'startsWith', caseSensitive: true, negated: false },
  $startsWithi: { kind: 'startsWith', caseSensitive: false, negated: false },
  $endsWith: { kind: 'endsWith', caseSensitive: true, negated: false },
  $endsWithi: { kind: 'endsWith', caseSensitive: false, negated: false },
};

function isEmptyObject(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

/**
 * The SQL condition for `filters`, or undefined when nothing filters. Parameters are
 * added to `sql`; columns are qualified with `alias` when given.
 */
export function compileFilters(
  meta: ContentTypeMeta,
  filters: unknown,
  sql: SqlBuilder,
  alias?: string,
  registry?: Registry,
  canFind?: (uid: string) => boolean,
  draftOwner?: ContentTypeMeta,
): string | undefined {
  if (filters === undefined || filters === null) return undefined;
  return compileWhere({ meta, sql, alias, registry, canFind, budget: new FilterBudget(), draftOwner }, filters, 'filters');
}

/** A where object, or an array of them (implicitly AND-ed, as Strapi does). */
function compileWhere(ctx: FilterContext, where: unknown, key: string): string | undefined {
  return ctx.budget.nested(() => {
    if (Array.isArray(where)) return and(where.map((member) => compileWhere(ctx, member, key)));
    if (!isPlainObject(where)) throw invalidParameter(key);
    return and(Object.entries(where).map(([entryKey, value]) => compileWhereEntry(ctx, entryKey, value)));
  });
}

/** `$and`/`$or` take an array of conditions; anything else is a 400. */
function groupMembers(key: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw invalidParameter(key);
  return value;
}

function compileWhereEntry(ctx: FilterContext, key: string, value: unknown): string | undefined {
  switch (key) {
    case '$and':
      return and(groupMembers(key, value).map((member) => compileWhere(ctx, member, key)));
    case '$or':
      return or(groupMembers(key, value).map((member) => compileWhere(ctx, member, key)));
    case '$not':
      return not(compileWhere(ctx, value, key));
  }
  // Attribute operators ($eq...) mean nothing without an attribute; unknown ones are typos.
  if (key.startsWith('$')) throw invalidParameter(key);

  const field = findField(ctx.meta, key);
  if (field === undefined || isHiddenField(field)) throw invalidParameter(key);
  switch (field.kind) {
    case 'scalar':
      return compileAttribute(
        {
          sql: ctx.sql,
          budget: ctx.budget,
          field,
          column: ctx.columnOf ? ctx.columnOf(field) : ctx.sql.column(field.column, ctx.alias),
          strictOperators: key === 'id',
        },
        value,
      );
    case 'relation':
    case 'media':
    case 'component':
      return compileNestedField(ctx, key, field, value);
    case 'dynamiczone':
    case 'morph':
      // Strapi refuses filters on morphTo relations, and has no join for morphOne/morphMany.
      throw invalidParameter(key);
  }
}

/**
 * Filters that reach through a relation or media field (`filters[author][name][$eq]=x`)
 * compile to an `id IN (subquery)` over the link table, the nested where compiled against the
 * target's metadata under fresh aliases. Operators directly under the relation apply to the
 * target's id (`filters[author]=3`, `filters[author][$in]=…`), and `$null`/`$notNull` ask
 * whether any target is linked. Component fields (JSON) are not filterable yet: 400.
 */
function compileNestedField(ctx: FilterContext, key: string, field: Exclude<FieldMeta, ScalarFieldMeta | MorphFieldMeta>, value: unknown): string | undefined {
  if (field.kind === 'component') return compileComponentField(ctx, key, field, value);
  if (field.kind === 'dynamiczone' || !field.link || !ctx.registry || ctx.json) throw invalidParameter(key);
  const target = ctx.registry.contentTypes.get(field.kind === 'relation' ? field.target : 'plugin::upload.file');
  if (!target || (ctx.canFind && !ctx.canFind(target.uid))) throw invalidParameter(key);
  if (value === undefined || isEmptyObject(value)) return undefined;

  const { sql } = ctx;
  ctx.budget.condition();
  const link = field.link;
  const l = sql.alias('l');
  const t = sql.alias('t');
  const links = linkSource(sql, ctx.meta, field, ctx.draftOwner);
  // `id IN (SELECT owner …)` rather than a correlated EXISTS: the subquery runs once, not once per row.
  const exists = (condition: string | undefined): string =>
    `${sql.column('id', ctx.alias ?? ctx.meta.table)} IN (SELECT ${sql.column(link.ownerColumn, l)} FROM ${links} ${sql.ident(l)} ` +
    `JOIN ${sql.ident(target.table)} ${sql.ident(t)} ON ${sql.column('id', t)} = ${sql.column(link.targetColumn, l)}` +
    `${condition === undefined ? '' : ` WHERE ${condition}`})`;

  // `filters[author][$null]=true`: no linked target at all.
  if (isPlainObject(value) && Object.keys(value).length === 1 && ('$null' in value || '$notNull' in value)) {
    const wantsNull = '$null' in value ? toTruthy(value.$null) : !toTruthy(value.$notNull);
    return wantsNull ? `NOT ${exists(undefined)}` : exists(undefined);
  }
  // Scalars, arrays and operator objects compare the target's id; attribute keys filter the target.
  const nested = !isPlainObject(value) || Object.keys(value).every((k) => k.startsWith('$') && isAttributeOperator(k)) ? { id: value } : value;
  const condition = compileWhere({ meta: target, sql, alias: t, registry: ctx.registry, canFind: ctx.canFind, budget: ctx.budget }, nested, key);
  if (condition === undefined || !mayMatchMissingTarget(nested)) return exists(condition);
  // Strapi LEFT JOINs the relation: an entry without a target is tested against a row of
  // NULLs, so `filters[author][id][$null]=true` matches the entries that have no author.
  const o = sql.alias('o');
  return (
    `${sql.column('id', ctx.alias ?? ctx.meta.table)} IN (SELECT ${sql.column('id', o)} FROM ${sql.ident(ctx.meta.table)} ${sql.ident(o)} ` +
    `LEFT JOIN ${links} ${sql.ident(l)} ON ${sql.column(link.ownerColumn, l)} = ${sql.column('id', o)} ` +
    `LEFT JOIN ${sql.ident(target.table)} ${sql.ident(t)} ON ${sql.column('id', t)} = ${sql.column(link.targetColumn, l)} WHERE ${condition})`
  );
}

/** Operators that a NULL operand may satisfy; without any, only linked targets can match. */
const nullMatchingKeys = new Set(['$null', '$notNull', '$not', '$ne', '$nei', '$notIn', '$notContains', '$notContainsi']);

/**
 * Whether a nested where may hold for a missing target (every column NULL). Conservative:
 * true when it holds a null value or an operator that NULL can satisfy. When false, the
 * cheaper inner join answers the same.
 */
function mayMatchMissingTarget(where: unknown): boolean {
  if (where === null) return true;
  if (Array.isArray(where)) return where.some(mayMatchMissingTarget);
  if (!isPlainObject(where)) return false;
  return Object.entries(where).some(([k, v]) => nullMatchingKeys.has(k) || mayMatchMissingTarget(v));
}

/**
 * `filters[seo][metaTitle][$eq]=x` (single component) reads the JSON of the owner's column;
 * `filters[parts][label][$eq]=x` (repeatable) asks whether any element matches.
 * Relations inside components are not filterable (their ids live in JSON): 400.
 */
function compileComponentField(ctx: FilterContext, key: string, field: Extract<FieldMeta, { kind: 'component' }>, value: unknown): string | undefined {
  const component = ctx.registry?.components.get(field.component);
  if (!component) throw invalidParameter(key);
  if (value === undefined || isEmptyObject(value)) return undefined;
  if (!isPlainObject(value) || Object.keys(value).some((k) => k.startsWith('$') && isAttributeOperator(k))) throw invalidParameter(key);
  const { sql } = ctx;
  const inner = (base: string, keys: readonly string[]): FilterContext => ({
    meta: component as ContentTypeMeta,
    sql,
    budget: ctx.budget,
    alias: undefined,
    registry: ctx.registry,
    canFind: ctx.canFind,
    json: { base, keys },
    columnOf: (scalar) => jsonScalar(sql, base, [...keys, scalar.name], scalar),
  });
  // The JSON holding this component: a column of the owner, or a key inside the parent's JSON.
  const here = ctx.json
    ? { base: ctx.json.base, keys: [...ctx.json.keys, field.column] }
    : { base: sql.column(field.column, ctx.alias), keys: [] as string[] };
  if (!field.repeatable) return compileWhere(inner(here.base, here.keys), value, key);
  if (here.keys.length > 0) throw invalidParameter(key); // a repeatable component inside another component's JSON
  const { from, element } = jsonElements(sql, here.base);
  const condition = compileWhere(inner(element, []), value, key);
  return `EXISTS (SELECT 1 FROM ${from}${condition === undefined ? '' : ` WHERE ${condition}`})`;
}

/** The value under an attribute key. */
function compileAttribute(ctx: AttributeContext, value: unknown): string | undefined {
  return ctx.budget.nested(() => {
    if (value === null) {
      ctx.budget.condition();
      return `${ctx.column} IS NULL`;
    }
    if (Array.isArray(value)) return compileOperator(ctx, '$in', value);
    if (isPlainObject(value)) return compileAttributeOperators(ctx, value);
    return compileOperator(ctx, '$eq', value);
  });
}

function compileAttributeOperators(ctx: AttributeContext, operators: Record<string, unknown>): string | undefined {
  const conditions = Object.entries(operators).map(([key, value]) => {
    if (isAttributeOperator(key)) return compileOperator(ctx, key, value);
    switch (key) {
      case '$not':
        return not(compileAttribute(ctx, value));
      // Under an attribute the members are attribute values: `title[$or][0]=a&title[$or][1]=b`.
      case '$and':
        return and(groupMembers(key, value).map((member) => compileAttribute(ctx, member)));
      case '$or':
        return or(groupMembers(key, value).map((member) => compileAttribute(ctx, member)));
    }
    if (ctx.strictOperators || isMiscasedOperator(key)) throw invalidParameter(key);
    return undefined; // Strapi drops unknown operators under an attribute.
  });
  return and(conditions);
}

function compileOperator(ctx: AttributeContext, operator: AttributeOperator, value: unknown): string | undefined {
  if (isEmptyObject(value)) return undefined;
  const { sql, field, column } = ctx;
  // Several values under a comparison fan out below (a condition each); anything else is one.
  if (!Array.isArray(value) || !fansOut(operator)) ctx.budget.condition();

  switch (operator) {
    case '$null':
      return toTruthy(value) ? `${column} IS NULL` : `${column} IS NOT NULL`;
    case '$notNull':
      return toTruthy(value) ? `${column} IS NOT NULL` : `${column} IS NULL`;
  }
  if (!isComparableType(field.type)) throw invalidParameter(field.name);

  switch (operator) {
    case '$in':
    case '$notIn':
      return compileList(ctx, operator, Array.isArray(value) ? value : [value]);
    case '$between':
      return compileBetween(ctx, value);
  }
  // Any other operator given several values means "any of them".
  if (Array.isArray(value)) return ctx.budget.nested(() => or(value.map((member) => compileOperator(ctx, operator, member))));

  switch (operator) {
    case '$eq':
    case '$eqi':
      if (value === null) return `${column} IS NULL`;
      break;
    case '$ne':
    case '$nei':
      if (value === null) return `${column} IS NOT NULL`;
      break;
  }

  if (isTextOperator(operator)) {
    if (!isTextMatchableType(field.type)) throw invalidParameter(operator);
    ctx.budget.values(1);
    return compileTextMatch(sql, field, column, textMatches[operator], encodeText(field, value));
  }

  const ordering = operator !== '$eq' && operator !== '$ne';
  const left = comparableColumn(sql, field, column, ordering);
  ctx.budget.values(1);
  return `${left} ${comparisonSql[operator]} ${comparableOperand(sql, field, sql.value(field, value))}`;
}

/** Operators that, given several values, mean "any of them" (one condition per value). */
function fansOut(operator: AttributeOperator): boolean {
  return operator !== '$in' && operator !== '$notIn' && operator !== '$between' && operator !== '$null' && operator !== '$notNull';
}

function compileList(ctx: AttributeContext, operator: '$in' | '$notIn', values: readonly unknown[]): string | undefined {
  const { sql, field, column } = ctx;
  // `IN ()` is a syntax error on PostgreSQL and MySQL: nothing is in an empty list.
  if (values.length === 0) return operator === '$in' ? '1 = 0' : undefined;
  ctx.budget.values(values.length);
  const operands = values.map((value) => comparableOperand(sql, field, sql.value(field, value)));
  const left = comparableColumn(sql, field, column, false);
  return `${left} ${operator === '$in' ? 'IN' : 'NOT IN'} (${operands.join(', ')})`;
}

function compileBetween(ctx: AttributeContext, value: unknown): string {
  const { sql, field, column } = ctx;
  if (!Array.isArray(value) || value.length !== 2) {
    throw new ValidationError(`Invalid parameter $between: expected exactly 2 values for ${field.name}`);
  }
  ctx.budget.values(2);
  const [low, high] = value.map((bound) => comparableOperand(sql, field, sql.value(field, bound)));
  return `${comparableColumn(sql, field, column, true)} BETWEEN ${low} AND ${high}`;
}

/**
 * `filters` over one component instance held in the JSON expression `json` (populate
 * filters on components and dynamic-zone items: populate/component-query.ts), or undefined
 * when nothing filters. Same validation and meaning as the entry filters.
 */
export function compileInstanceFilters(
  component: ContentTypeMeta,
  filters: unknown,
  sql: SqlBuilder,
  json: string,
  registry?: Registry,
): string | undefined {
  if (filters === undefined || filters === null) return undefined;
  return compileWhere(
    {
      meta: component,
      sql,
      budget: new FilterBudget(),
      alias: undefined,
      registry,
      json: { base: json, keys: [] },
      columnOf: (scalar) => jsonScalar(sql, json, [scalar.name], scalar),
    },
    filters,
    'filters',
  );
}
