/**
 * The v4 service's errors in Strapi 5's words, where they differ. Strapi 5 validates a write
 * twice: the draft it writes (types, enumerations, zone components, lengths), then, to publish,
 * the draft read back (required attributes, min and max): so a missing required attribute of a
 * draft-and-publish type is a `null` of its type there, and a component value that fails then
 * carries the ids its instances were given (the write is rolled back: the ids are the ones the
 * instances would get). Paths in messages are yup's (`links[0].url`), yup issues carry the
 * `value` that failed, a zone item's component must be one of every component of the project
 * (yup's `oneOf(Object.keys(strapi.components))`), and an unknown one also fails Strapi's
 * relation check (`Invalid relations`, with the value it validated). Page-and-offset is a
 * PaginationError.
 */
import type { Database } from '../db/database.js';
import { nextComponentIds } from '../entity/component-ids.js';
import { ApplicationError, PaginationError, ValidationError } from '../errors.js';
import { componentsInStrapi5Order, type ComponentMeta, type ContentTypeMeta, type FieldMeta, type Registry } from '../meta.js';
import { mixedPaginationMessage } from '../query/pagination.js';

const yupTypes: Record<string, string> = {
  string: 'string', text: 'string', richtext: 'string', email: 'string', uid: 'string', enumeration: 'string', password: 'string',
  integer: 'number', float: 'number', decimal: 'number', boolean: 'boolean',
};

interface Issue {
  path: (string | number)[];
  message: string;
  name: string;
  value?: unknown;
}

type Bag = Record<string, unknown>;
type Fields = Readonly<Record<string, FieldMeta>>;

export interface V5Write {
  readonly db: Database;
  readonly registry: Registry;
  readonly meta: ContentTypeMeta;
  readonly body: unknown;
  /** A write that creates the entry (Strapi gives absent attributes their defaults). */
  readonly creates: boolean;
  readonly locale?: string | null;
}

export async function v5Error(err: unknown, write: V5Write): Promise<unknown> {
  if (!(err instanceof ApplicationError)) return err;
  if (err instanceof ValidationError && err.message === mixedPaginationMessage) return new PaginationError('Cannot use both page & offset pagination in the same query');
  const issues = err.details.errors;
  if (!(err instanceof ValidationError) || !Array.isArray(issues)) return err;
  const { registry, meta } = write;
  const data = (write.body as { data?: unknown } | undefined)?.data;
  // A row id that names nothing: Strapi 5's relation check, with the data it checked (relations as `{ set: [{ id }] }`).
  if (issues.length === 1 && missingRelations.test(err.message) && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const value = relationsAsChecked(registry, meta.fields, validatedData(meta, data as Bag, write));
    return new ValidationError(err.message, { errors: [{ path: [], message: err.message, name: 'ValidationError', value }] });
  }
  const draftIds = new DraftIds(write.db, registry);
  const rewritten: Issue[] = [];
  for (const issue of issues as Issue[]) {
    const value = valueAt(data, issue.path);
    const field = fieldAt(registry, meta.fields, issue.path);
    const type = field?.kind === 'scalar' ? yupTypes[field.type] : undefined;
    const label = yupPath(issue.path);
    const dotted = issue.path.join('.');
    let message = issue.message.startsWith(dotted) ? label + issue.message.slice(dotted.length) : issue.message;
    if (isZoneComponentIssue(meta.fields, issue)) message = `${label} must be one of the following values: ${componentsInStrapi5Order(registry).map((c) => c.uid).join(', ')}`;
    // A draft-and-publish document's draft is written first, absent attributes as null, then validated to publish.
    else if (meta.draftAndPublish && type && value === undefined && issue.message === `${dotted} must be defined.`) message = `${label} must be a \`${type}\` type, but the final value was: \`null\`.`;
    // The value that failed; a draft-and-publish type's absent attribute was null in the draft.
    let failed = value === undefined && meta.draftAndPublish ? null : value;
    if (field && (field.kind === 'component' || field.kind === 'dynamiczone') && failed !== null && typeof failed === 'object') failed = await draftIds.value(field, failed);
    rewritten.push({ path: issue.path, message, name: issue.name, ...(failed === undefined ? {} : { value: failed }) });
  }
  if (namesUnknownComponent(registry, meta.fields, data)) {
    rewritten.push({ path: [], message: 'Invalid relations', name: 'ValidationError', value: validatedData(meta, data as Bag, write) });
  }
  return new ValidationError(rewritten.length === 1 ? rewritten[0]!.message : `${rewritten.length} errors occurred`, { ...err.details, errors: rewritten });
}

const missingRelations = /^\d+ relation\(s\) of type \S+ associated with this entity do not exist$/;

/**
 * Relation and media values (at any depth: components, zone items) as Strapi 5's relation
 * check sees them: a shorthand id or list of ids is `{ set: [{ id }] }`, `connect`/`disconnect`/
 * `set` lists keep their items, a single item is a list of one.
 */
function relationsAsChecked(registry: Registry, fields: Fields, data: Bag): Bag {
  const out: Bag = {};
  for (const [key, value] of Object.entries(data)) {
    const field = fields[key];
    if (field?.kind === 'relation' || field?.kind === 'media') out[key] = value === null ? value : checkedRelation(value);
    else if (field?.kind === 'component') {
      const component = registry.components.get(field.component);
      const one = (item: unknown) => (component && isBagValue(item) ? relationsAsChecked(registry, component.fields, item) : item);
      out[key] = Array.isArray(value) ? value.map(one) : one(value);
    } else if (field?.kind === 'dynamiczone' && Array.isArray(value)) {
      out[key] = value.map((item) => {
        const component = isBagValue(item) ? registry.components.get(String(item.__component)) : undefined;
        return component && isBagValue(item) ? relationsAsChecked(registry, component.fields, item) : item;
      });
    } else out[key] = value;
  }
  return out;
}

function checkedRelation(value: unknown): unknown {
  const item = (v: unknown) => (isBagValue(v) ? v : typeof v === 'string' && Number.isNaN(Number.parseInt(v, 10)) ? { documentId: v } : { id: v });
  if (Array.isArray(value)) return { set: value.map(item) };
  if (isBagValue(value)) {
    if ('id' in value || 'documentId' in value) return { set: [value] };
    const out: Bag = { ...value };
    for (const key of ['set', 'disconnect', 'connect']) if (value[key] !== undefined) out[key] = (Array.isArray(value[key]) ? (value[key] as unknown[]) : [value[key]]).map(item);
    return out;
  }
  return { set: [item(value)] };
}

function isBagValue(value: unknown): value is Bag {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** yup's path: `links[0].url`. */
function yupPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' || /^\d+$/.test(String(key)) ? `${out}[${key}]` : out ? `${out}.${key}` : String(key)), '');
}

/** `<zone>.<n>.__component`: a zone item naming no component of the zone. */
function isZoneComponentIssue(fields: Fields, issue: Issue): boolean {
  const [zone, , key] = issue.path;
  return issue.path.length === 3 && key === '__component' && fields[String(zone)]?.kind === 'dynamiczone' && issue.message.includes('must be one of the following values');
}

/** A zone item of the body names a component the project does not have (Strapi's relation check then fails). */
function namesUnknownComponent(registry: Registry, fields: Fields, data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  return Object.entries(data as Bag).some(([name, value]) =>
    fields[name]?.kind === 'dynamiczone' && Array.isArray(value) && value.some((item) => item !== null && typeof item === 'object' && typeof (item as Bag).__component === 'string' && !registry.components.has((item as Bag).__component as string)),
  );
}

/**
 * The data Strapi 5 validated, as yup's cast gives it: the writable attributes in reverse
 * order (yup walks an object's fields so), each with its value or, on a create, its default
 * (`[]` for a repeatable component or a zone), absent ones left out; `publishedAt` (null for a
 * draft) and a localized type's `locale` first, being the last attributes Strapi adds.
 */
function validatedData(meta: ContentTypeMeta, data: Bag, write: V5Write): Bag {
  const own = Object.values(meta.fields).filter((f) => !['id', 'publishedAt', 'locale', 'localizations'].includes(f.name) && !(f.kind === 'scalar' && f.writable === false) && !(f.kind === 'relation' && f.unstored));
  const out: Bag = {};
  if (meta.localized && write.locale) out.locale = write.locale;
  out.publishedAt = meta.draftAndPublish ? null : new Date().toISOString();
  for (const field of [...own].reverse()) {
    const value = data[field.name] !== undefined ? data[field.name] : write.creates ? defaultOf(field) : undefined;
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

function defaultOf(field: FieldMeta): unknown {
  if ((field.kind === 'component' && field.repeatable) || field.kind === 'dynamiczone') return field.required ? undefined : [];
  return field.kind === 'scalar' ? field.default : undefined;
}

/**
 * Component values as the draft holds them once written: each instance with its id (kept, or
 * the next one of its component, in the order given), its attributes in the component's order
 * (absent: its default, else null); a zone item's `__component` last.
 */
class DraftIds {
  private readonly next = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly registry: Registry,
  ) {}

  async value(field: FieldMeta, value: object): Promise<unknown> {
    const wanted = [...this.componentsOf(field)].filter((uid) => !this.next.has(uid));
    for (const [uid, id] of await nextComponentIds(this.db, this.registry, wanted)) this.next.set(uid, id);
    return this.field(field, value);
  }

  /** The components a field's value may hold, nested ones included. */
  private componentsOf(field: FieldMeta, seen = new Set<string>()): Set<string> {
    const uids = field.kind === 'component' ? [field.component] : field.kind === 'dynamiczone' ? field.components : [];
    for (const uid of uids) {
      if (seen.has(uid)) continue;
      seen.add(uid);
      for (const inner of Object.values(this.registry.components.get(uid)?.fields ?? {})) this.componentsOf(inner, seen);
    }
    return seen;
  }

  private field(field: FieldMeta, value: unknown): unknown {
    if (field.kind === 'component') {
      const component = this.registry.components.get(field.component);
      if (!component) return value;
      if (Array.isArray(value)) return value.map((item) => this.instance(component, item));
      return value === null || value === undefined ? (field.repeatable ? [] : null) : this.instance(component, value);
    }
    if (field.kind === 'dynamiczone' && Array.isArray(value)) {
      return value.map((item) => {
        const component = item && typeof item === 'object' ? this.registry.components.get(String((item as Bag).__component)) : undefined;
        return component ? { ...(this.instance(component, item) as Bag), __component: component.uid } : item;
      });
    }
    return value;
  }

  private instance(component: ComponentMeta, value: unknown): unknown {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const given = value as Bag;
    const id = typeof given.id === 'number' ? given.id : this.take(component.uid);
    const out: Bag = { id };
    for (const field of Object.values(component.fields)) {
      if (field.name === 'id') continue;
      if (field.kind === 'scalar') out[field.name] = given[field.name] ?? field.default ?? null;
      else if (field.kind === 'component') out[field.name] = this.field(field, given[field.name]);
      // Relations and media as the draft read back populates them: none is null, or [] for a list.
      else if (field.kind === 'relation' || field.kind === 'media') out[field.name] = given[field.name] ?? ((field.kind === 'relation' ? field.toMany : field.multiple) ? [] : null);
    }
    return out;
  }

  private take(uid: string): number {
    const id = this.next.get(uid) ?? 1;
    this.next.set(uid, id + 1);
    return id;
  }
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let at: unknown = data;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key as string];
  }
  return at;
}

/** The attribute a path ends at (through components; a zone item's own fields are not followed). */
function fieldAt(registry: Registry, fields: Fields, path: readonly (string | number)[]): FieldMeta | undefined {
  let current: Fields | undefined = fields;
  let field: FieldMeta | undefined;
  for (const key of path) {
    if (typeof key === 'number' || /^\d+$/.test(String(key))) continue;
    field = current?.[key];
    if (!field) return undefined;
    current = field.kind === 'component' ? registry.components.get(field.component)?.fields : undefined;
  }
  return field;
}

/** A plugin route's yup issues with the values that failed (its body is not wrapped in `data`). */
export function withFailedValues(err: unknown, body: unknown): unknown {
  if (!(err instanceof ValidationError) || !Array.isArray(err.details.errors)) return err;
  const errors = (err.details.errors as Issue[]).map((issue) => {
    const value = valueAt(body, issue.path);
    return value === undefined || 'value' in issue ? issue : { ...issue, value };
  });
  return new ValidationError(err.message, { ...err.details, errors });
}
