/**
 * Strapi 5 checks a query before it runs it (`validateQuery` of `@strapi/core`) and refuses a
 * name it does not know, or may not show, as `Invalid key <name>` with where it was found
 * (`details: { key, path, source: 'query', param }`); an unknown operator under an attribute is
 * `Invalid key $op at <attribute>`. The v4 planner would say `Invalid parameter …` or ignore it
 * (populate), so the v5 texts are given here, before it runs.
 */
import { ValidationError } from '../errors.js';
import { isSelectableScalar, type FieldMeta, type Registry } from '../meta.js';
import { isAttributeOperator, logicalOperators } from '../query/operators.js';

type Fields = Readonly<Record<string, FieldMeta>>;
type Param = 'filters' | 'sort' | 'fields' | 'populate';

const fileUid = 'plugin::upload.file';
const alwaysKnown = new Set(['id', 'documentId']);

export function invalidKey(key: string, path: string | null, param: Param): ValidationError {
  return new ValidationError(path !== null && param === 'filters' && key.startsWith('$') ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`, { key, path, source: 'query', param });
}

export class QueryValidator {
  constructor(private readonly registry: Registry) {}

  /** One level of a query (the request's, or a populated relation's). */
  level(fields: Fields, query: Record<string, unknown>): void {
    if (query.filters !== undefined) this.filters(fields, query.filters, null);
    if (query.sort !== undefined) this.sort(fields, query.sort);
    if (query.fields !== undefined) this.fields(fields, query.fields);
    if (query.populate !== undefined) this.populate(fields, query.populate);
  }

  private fieldsOf(field: FieldMeta | undefined): Fields | undefined {
    if (!field) return undefined;
    if (field.kind === 'relation') return this.registry.contentTypes.get(field.target)?.fields;
    if (field.kind === 'media') return this.registry.contentTypes.get(fileUid)?.fields;
    if (field.kind === 'component') return this.registry.components.get(field.component)?.fields;
    return undefined;
  }

  private filters(fields: Fields, filters: unknown, path: string | null): void {
    if (Array.isArray(filters)) return filters.forEach((f) => this.filters(fields, f, path));
    if (!isBag(filters)) return;
    for (const [key, value] of Object.entries(filters)) {
      if ((logicalOperators as readonly string[]).includes(key)) {
        this.filters(fields, value, path);
        continue;
      }
      if (key.startsWith('$')) {
        if (path === null || !isAttributeOperator(key)) throw invalidKey(key, path, 'filters');
        continue;
      }
      const field = fields[key];
      if (alwaysKnown.has(key) && (!field || field.kind === 'scalar')) {
        this.operators(value, key);
        continue;
      }
      // A private attribute is named in `path`, an unknown one is not (as Strapi 5 reports them).
      if (!field) throw invalidKey(key, path, 'filters');
      if (field.private || (field.kind === 'scalar' && !isSelectableScalar(field))) throw invalidKey(key, path ?? key, 'filters');
      if (field.kind === 'scalar') this.operators(value, key);
      else {
        const inner = this.fieldsOf(field);
        if (inner) this.filters(inner, value, key);
      }
    }
  }

  /** Under an attribute: operators only (or a value, `filters[title]=x`). */
  private operators(value: unknown, attribute: string): void {
    if (!isBag(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      if ((logicalOperators as readonly string[]).includes(key)) this.operators(inner, attribute);
      else if (!isAttributeOperator(key)) throw invalidKey(key, attribute, 'filters');
    }
  }

  private sort(fields: Fields, sort: unknown): void {
    if (typeof sort === 'string') {
      for (const part of sort.split(',')) this.sortPath(fields, part.split(':')[0]!.trim().split('.'));
      return;
    }
    if (Array.isArray(sort)) return sort.forEach((s) => this.sort(fields, s));
    if (!isBag(sort)) return;
    for (const [key, value] of Object.entries(sort)) {
      const field = fields[key];
      if (alwaysKnown.has(key)) continue;
      if (!field || field.private) throw invalidKey(key, null, 'sort');
      const inner = this.fieldsOf(field);
      if (inner && (isBag(value) || Array.isArray(value))) this.sort(inner, value);
    }
  }

  private sortPath(fields: Fields, names: string[]): void {
    const [name, ...rest] = names;
    if (!name || alwaysKnown.has(name)) return;
    const field = fields[name];
    if (!field || field.private || (field.kind === 'scalar' && !isSelectableScalar(field))) throw invalidKey(name, null, 'sort');
    const inner = this.fieldsOf(field);
    if (inner && rest.length) this.sortPath(inner, rest);
  }

  private fields(fields: Fields, names: unknown): void {
    const list = typeof names === 'string' ? names.split(',') : Array.isArray(names) ? names : [];
    for (const name of list) {
      if (typeof name !== 'string' || name === '*' || alwaysKnown.has(name)) continue;
      const field = fields[name];
      if (!field || !isSelectableScalar(field)) throw invalidKey(name, null, 'fields');
    }
  }

  private populate(fields: Fields, populate: unknown): void {
    if (populate === '*' || populate === true || populate === 'true' || populate === 'deep' || (typeof populate === 'string' && populate.startsWith('deep,'))) return;
    const names = typeof populate === 'string' ? populate.split(',') : Array.isArray(populate) ? populate : undefined;
    if (names) {
      for (const name of names) if (typeof name === 'string') this.populateKey(fields, name.split('.')[0]!);
      return;
    }
    if (!isBag(populate)) return;
    for (const [key, value] of Object.entries(populate)) {
      if (key === '*') continue;
      const field = this.populateKey(fields, key);
      const inner = this.fieldsOf(field);
      if (inner && isBag(value)) this.level(inner, value);
    }
  }

  private populateKey(fields: Fields, key: string): FieldMeta {
    const field = fields[key];
    if (!field || field.kind === 'scalar' || field.private) throw invalidKey(key, key, 'populate');
    return field;
  }
}

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
