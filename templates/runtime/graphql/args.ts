/**
 * GraphQL arguments → the REST query the entity service and populate already understand:
 * `filters` (`{ title: { eq: "x" } }` → `{ title: { $eq: "x" } }`), `pagination`
 * (Strapi's `withDefaultPagination`: page/pageSize or start/limit, a default limit, a
 * maximum), `sort`, `publicationState`; and mutation `data` → the REST body.
 */
import { PaginationError, ValidationError } from '../errors.js';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';

type Owner = ContentTypeMeta | ComponentMeta;
type Json = Record<string, unknown>;

const fileUid = 'plugin::upload.file';

/**
 * GraphQL filters of `owner` as REST filters: `and`/`or`/`not` at entity level become
 * `$and`/`$or`/`$not`, every operator of a scalar filter gets its `$`, relations and
 * components recurse into their own type.
 */
export function toRestFilters(filters: unknown, owner: Owner, registry: Registry): unknown {
  if (!isPlainObject(filters)) return filters ?? undefined;
  const out: Json = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined) continue;
    if (key === 'and' || key === 'or') {
      out[`$${key}`] = Array.isArray(value) ? value.map((member) => toRestFilters(member, owner, registry)) : value;
      continue;
    }
    if (key === 'not') {
      out.$not = toRestFilters(value, owner, registry);
      continue;
    }
    const field: FieldMeta | undefined = owner.fields[key];
    if (key === 'id' || field?.kind === 'scalar') out[key] = toRestOperators(value);
    else if (field?.kind === 'relation' || field?.kind === 'media') {
      const target = registry.contentTypes.get(field.kind === 'relation' ? field.target : fileUid);
      out[key] = target ? toRestFilters(value, target, registry) : value;
    } else if (field?.kind === 'component') {
      const component = registry.components.get(field.component);
      out[key] = component ? toRestFilters(value, component, registry) : value;
    } else out[key] = value;
  }
  return out;
}

/** `{ eq: 1, not: { in: [2] } }` → `{ $eq: 1, $not: { $in: [2] } }`. */
export function toRestOperators(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const out: Json = {};
  for (const [op, operand] of Object.entries(value)) {
    if (operand === undefined) continue;
    out[`$${op}`] = op === 'not' ? toRestOperators(operand) : operand;
  }
  return out;
}

export interface ListLimits {
  /** Items of a list when the request gives no pagination (`defaultLimit`, 10). */
  readonly defaultLimit: number;
  /** The most items of one list (`maxLimit`/`amountLimit`, 100); 0 or less: no maximum. */
  readonly maxLimit: number;
}

export interface Window {
  readonly start: number;
  /** -1: no limit (only when there is no maximum). */
  readonly limit: number;
}

/** Strapi's `withDefaultPagination` for a `PaginationArg`. */
export function resolveWindow(pagination: unknown, limits: ListLimits): Window {
  const args = isPlainObject(pagination) ? pagination : {};
  const given = (key: string) => args[key] !== undefined && args[key] !== null;
  const usePage = given('page') || given('pageSize');
  const useOffset = given('start') || given('limit');
  if (usePage && useOffset) throw new PaginationError('Cannot use both page & offset pagination in the same query');
  const clamp = (limit: number): number => {
    if (limit === -1) return limits.maxLimit > 0 ? limits.maxLimit : -1;
    const size = Math.max(1, limit);
    return limits.maxLimit > 0 && size > limits.maxLimit ? limits.maxLimit : size;
  };
  const int = (key: string, fallback: number): number => (given(key) ? Number(args[key]) : fallback);
  if (usePage) {
    const pageSize = clamp(Math.max(1, int('pageSize', limits.defaultLimit)));
    const page = Math.max(1, int('page', 1));
    return { start: (page - 1) * pageSize, limit: pageSize };
  }
  return { start: Math.max(0, int('start', 0)), limit: clamp(int('limit', limits.defaultLimit)) };
}

/** Strapi's collection meta: `page`, `pageSize`, `pageCount` from start, limit and total. */
export function paginationMeta(window: Window, total: number): { total: number; page: number; pageSize: number; pageCount: number } {
  const { start, limit } = window;
  const safeLimit = Math.max(limit, 1);
  if (limit === -1) return { total, page: 1, pageSize: Math.max(0, total - start), pageCount: 1 };
  return { total, page: Math.floor(start / safeLimit) + 1, pageSize: safeLimit, pageCount: Math.ceil(total / safeLimit) };
}

/** `sort: "title:desc"` or `["title:asc", "id:desc"]`; an empty list sorts nothing. */
export function toRestSort(sort: unknown): unknown {
  if (sort === null || sort === undefined) return undefined;
  if (Array.isArray(sort)) {
    const terms = sort.filter((term) => term !== null && term !== undefined);
    return terms.length ? terms : undefined;
  }
  return sort;
}

/** Slices a list to a window. */
export function applyWindow<T>(items: readonly T[], window: Window): T[] {
  return window.limit === -1 ? items.slice(window.start) : items.slice(window.start, window.start + window.limit);
}

/**
 * `populate` for every component and dynamic zone of `owner`, nested: they come from the
 * JSON already selected with the entry, so reading them costs no statement.
 */
export function componentPopulate(owner: Owner, registry: Registry, depth = 0): Json | undefined {
  if (depth > 20) return undefined;
  const spec: Json = {};
  for (const field of Object.values(owner.fields)) {
    if (field.kind === 'component') {
      const component = registry.components.get(field.component);
      if (component) spec[field.name] = { populate: componentPopulate(component, registry, depth + 1) };
    } else if (field.kind === 'dynamiczone') {
      const on: Json = {};
      for (const uid of field.components) {
        const component = registry.components.get(uid);
        if (component) on[uid] = { populate: componentPopulate(component, registry, depth + 1) };
      }
      spec[field.name] = { on };
    }
  }
  return Object.keys(spec).length ? spec : undefined;
}

/**
 * A mutation's `data` as the REST body's `data`: component ids (GraphQL `ID`, a string)
 * become numbers, dynamic-zone items (already `{ __component, … }`) likewise.
 */
export function toRestData(data: unknown, owner: Owner, registry: Registry): Json {
  if (!isPlainObject(data)) return {};
  const out: Json = {};
  for (const [key, value] of Object.entries(data)) {
    const field = owner.fields[key];
    if (field?.kind === 'component') {
      const component = registry.components.get(field.component);
      out[key] = component ? mapNullable(value, (item) => componentData(item, component, registry)) : value;
    } else if (field?.kind === 'dynamiczone') {
      out[key] = Array.isArray(value)
        ? value.map((item) => {
            const component = isPlainObject(item) ? registry.components.get(String(item.__component)) : undefined;
            return component && isPlainObject(item) ? { __component: item.__component, ...(componentData(item, component, registry) as Json) } : item;
          })
        : value;
    } else out[key] = value;
  }
  return out;
}

function componentData(value: unknown, component: ComponentMeta, registry: Registry): unknown {
  if (!isPlainObject(value)) return value;
  const { __component: _ignored, ...rest } = value;
  const out = toRestData(rest, component, registry);
  if (typeof value.id === 'string' && /^\d+$/.test(value.id)) out.id = Number(value.id);
  return out;
}

function mapNullable(value: unknown, map: (item: unknown) => unknown): unknown {
  if (Array.isArray(value)) return value.map(map);
  return value === null || value === undefined ? value : map(value);
}

// ---------------------------------------------------------------------------------------
// Repeatable components take filters and sort too; their items are already in memory.

/** Whether a component instance (its output object) matches GraphQL component filters. */
export function matchesFilters(item: Json, filters: unknown, component: ComponentMeta, registry: Registry): boolean {
  if (!isPlainObject(filters)) return true;
  return Object.entries(filters).every(([key, value]) => {
    if (value === undefined || value === null) return true;
    if (key === 'and') return (value as unknown[]).every((member) => matchesFilters(item, member, component, registry));
    if (key === 'or') return (value as unknown[]).some((member) => matchesFilters(item, member, component, registry));
    if (key === 'not') return !matchesFilters(item, value, component, registry);
    const field = component.fields[key];
    if (field?.kind === 'scalar') return matchesScalar(item[key], value);
    if (field?.kind === 'component') {
      const nested = registry.components.get(field.component);
      if (!nested) return true;
      const values = Array.isArray(item[key]) ? (item[key] as Json[]) : item[key] ? [item[key] as Json] : [];
      return values.some((member) => matchesFilters(member, value, nested, registry));
    }
    throw new ValidationError(`Invalid parameter ${key}: filters of a repeatable component reach its scalars and components only`);
  });
}

function comparable(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
}

function compareValues(a: unknown, b: unknown): number {
  const x = comparable(a);
  const y = comparable(b);
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  const sx = String(x);
  const sy = String(y);
  return sx < sy ? -1 : sx > sy ? 1 : 0;
}

function matchesScalar(actual: unknown, filter: unknown): boolean {
  if (!isPlainObject(filter)) return compareValues(actual, filter) === 0;
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  return Object.entries(filter).every(([op, operand]) => {
    if (operand === undefined) return true;
    const isNull = actual === null || actual === undefined;
    switch (op) {
      case 'eq': return operand === null ? isNull : !isNull && compareValues(actual, operand) === 0;
      case 'ne': return operand === null ? !isNull : isNull || compareValues(actual, operand) !== 0;
      case 'eqi': return !isNull && text(actual).toLowerCase() === text(operand).toLowerCase();
      case 'nei': return isNull || text(actual).toLowerCase() !== text(operand).toLowerCase();
      case 'gt': return !isNull && compareValues(actual, operand) > 0;
      case 'gte': return !isNull && compareValues(actual, operand) >= 0;
      case 'lt': return !isNull && compareValues(actual, operand) < 0;
      case 'lte': return !isNull && compareValues(actual, operand) <= 0;
      case 'startsWith': return !isNull && text(actual).startsWith(text(operand));
      case 'endsWith': return !isNull && text(actual).endsWith(text(operand));
      case 'contains': return !isNull && text(actual).includes(text(operand));
      case 'notContains': return isNull || !text(actual).includes(text(operand));
      case 'containsi': return !isNull && text(actual).toLowerCase().includes(text(operand).toLowerCase());
      case 'notContainsi': return isNull || !text(actual).toLowerCase().includes(text(operand).toLowerCase());
      case 'null': return operand ? isNull : !isNull;
      case 'notNull': return operand ? !isNull : isNull;
      case 'in': return !isNull && (operand as unknown[]).some((v) => compareValues(actual, v) === 0);
      case 'notIn': return isNull || !(operand as unknown[]).some((v) => compareValues(actual, v) === 0);
      case 'between': {
        const [low, high] = operand as unknown[];
        return !isNull && compareValues(actual, low) >= 0 && compareValues(actual, high) <= 0;
      }
      case 'and': return (operand as unknown[]).every((v) => matchesScalar(actual, v));
      case 'or': return (operand as unknown[]).some((v) => matchesScalar(actual, v));
      case 'not': return !matchesScalar(actual, operand);
      default: return true;
    }
  });
}

/** Sorts component instances by `field[:asc|desc]` terms; null first ascending, like the SQL sort. */
export function sortItems(items: readonly Json[], sort: unknown, component: ComponentMeta): Json[] {
  const terms = (Array.isArray(sort) ? sort : sort === undefined || sort === null ? [] : [sort]).flatMap((term) => String(term).split(','));
  if (terms.length === 0) return [...items];
  const keys = terms.map((term) => {
    const [name = '', direction = 'asc'] = term.trim().split(':');
    const field = component.fields[name];
    if (!field || field.kind !== 'scalar' || field.private) throw new ValidationError(`Invalid parameter sort: ${name} is not a sortable field of the component`);
    if (!/^(asc|desc)$/i.test(direction)) throw new ValidationError(`Invalid parameter sort: direction of ${name} must be asc or desc`);
    return { name, sign: direction.toLowerCase() === 'desc' ? -1 : 1 };
  });
  return [...items].sort((a, b) => {
    for (const { name, sign } of keys) {
      const x = a[name];
      const y = b[name];
      const order = x === y ? 0 : x === null || x === undefined ? -1 : y === null || y === undefined ? 1 : compareValues(x, y);
      if (order !== 0) return order * sign;
    }
    return 0;
  });
}
