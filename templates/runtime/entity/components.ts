/**
 * Validates component and dynamic-zone input and turns it into the JSON stored in the
 * owner's column. Components are written whole (PUT replaces the value). Relations and media
 * inside components are stored as ids, checked to exist. Every problem is collected with its
 * full path (`["seo","metaTitle"]`, `["blocks","0","__component"]`); messages name it as yup
 * does (`blocks[0].__component`), as Strapi 4.26.2's.
 *
 * Ids, as Strapi 4.26.2's entity service treats them (observed: docs/rest.md "Component ids
 * in writes"): on create, ids sent are ignored and every instance is new. On update, an
 * instance sent with the `id` of an instance the stored value holds (at its level) is that
 * instance, updated in place: the fields it leaves out keep their stored values. An instance
 * sent without an id is new and gets a new id, unique per component across all entries
 * (component-ids.ts). An id the stored value does not hold (another entry's, a deleted one,
 * `null`, text) is refused once everything else is valid: 400 `Some of the provided components
 * in <field> are not related to the entity` (an ApplicationError; a dynamic zone's is a plain
 * `Error` with no details there). The same id twice is one instance (first place, last values).
 */
import type { Database } from '../db/database.js';
import { ApplicationError, PlainStatusError, ValidationError, type ValidationIssue } from '../errors.js';
import type { ComponentFieldMeta, ComponentMeta, ContentTypeMeta, DynamicZoneFieldMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { prepareWriteData, toResponseValue } from './input.js';
import { assertTargetsExist, parseRelationInput, referencedIds } from './relations.js';
import { notTypeMessage } from './yup-messages.js';
import { assignComponentIds } from './component-ids.js';

export interface NestedWriteContext {
  readonly db: Database;
  readonly registry: Registry;
  readonly hashPassword: (plain: string) => Promise<string>;
  readonly now: Date;
  /**
   * Where the instances that need a new id are put (by component uid), for the caller to give
   * them ids for all its fields at once (component-ids.ts `assignComponentIds`); without it,
   * this field's are given ids here.
   */
  readonly fresh?: Map<string, JsonObject[]>;
  /** The write updates a stored entry: ids sent name stored instances (see above); on create they are ignored. */
  readonly update?: boolean;
  /**
   * Where a field whose input names instances it does not hold puts its refusal, for the
   * caller to throw once every field is valid (Strapi validates the whole input first); without
   * it, this field's refusal is thrown here.
   */
  readonly unrelated?: ApplicationError[];
}

type JsonObject = Record<string, unknown>;

/** State shared while one field's value is prepared. */
interface FieldRun {
  readonly ctx: NestedWriteContext;
  readonly issues: ValidationIssue[];
  /** Target uid → ids referenced from inside components, checked once at the end. */
  readonly references: Map<string, number[]>;
  /** Instances that need a new id, by component uid; ids are reserved once the value is valid. */
  readonly fresh: Map<string, JsonObject[]>;
  /** The first field (in Strapi's order) naming instances it does not hold. */
  unrelated?: ApplicationError;
}

/**
 * The instances a stored value holds directly, by the key an input names them with
 * (`<id>`, in a zone `<id>\0<component>`): the instances an update may name. Undefined when
 * ids are ignored (a create, or inside a new instance).
 */
type Held = Map<string, JsonObject> | undefined;

/**
 * The JSON to store for a component or dynamic-zone field, or a thrown ValidationError.
 * `previous` is the stored value (for id reuse); `null` input clears the field.
 */
export async function prepareNestedValue(
  ctx: NestedWriteContext,
  field: ComponentFieldMeta | DynamicZoneFieldMeta,
  value: unknown,
  previous: unknown,
): Promise<unknown> {
  const run: FieldRun = { ctx, issues: [], references: new Map(), fresh: new Map() };
  const path = [field.name];
  const held = ctx.update ? heldInstances(field, previous) : undefined;
  let stored: unknown;
  if (field.kind === 'dynamiczone') {
    stored = await zoneValue(run, field, value, path, held);
  } else {
    const component = ctx.registry.components.get(field.component)!;
    stored = await componentFieldValue(run, field, component, value, path, held);
  }
  for (const [uid, ids] of run.references) {
    const target = ctx.registry.contentTypes.get(uid);
    if (!target) continue;
    try {
      await assertTargetsExist(ctx.db, target, ids);
    } catch (err) {
      if (err instanceof ValidationError) run.issues.push({ path, message: err.message, name: 'ValidationError' });
      else throw err;
    }
  }
  if (run.issues.length > 0) throw new NestedValidationError(run.issues);
  if (run.unrelated) {
    if (!ctx.unrelated) throw run.unrelated;
    ctx.unrelated.push(run.unrelated);
  }
  if (ctx.fresh) {
    for (const [uid, instances] of run.fresh) ctx.fresh.set(uid, [...(ctx.fresh.get(uid) ?? []), ...instances]);
  } else {
    await assignComponentIds(ctx.db, ctx.registry, run.fresh);
  }
  return stored;
}

/** Carries issues up to the service, which reports them together with scalar issues. */
export class NestedValidationError extends ValidationError {
  constructor(readonly issues: ValidationIssue[]) {
    super(issues.length === 1 ? issues[0]!.message : `${issues.length} errors occurred`, { errors: issues });
  }
}

/** A path as yup names it in messages: `links[0].url`, `seo.metaTitle`. */
export function yupPath(path: readonly string[]): string {
  return path.map((segment, i) => (/^\d+$/.test(segment) ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('');
}

/** How Strapi compares an id sent with the stored ones (its `pickStringifiedId`). */
function idKey(id: unknown): string {
  return typeof id === 'string' ? id : String(id);
}

function heldInstances(field: ComponentFieldMeta | DynamicZoneFieldMeta, value: unknown): Map<string, JsonObject> {
  const held = new Map<string, JsonObject>();
  for (const instance of value === null || value === undefined ? [] : Array.isArray(value) ? value : [value]) {
    if (!isPlainObject(instance) || instance.id === undefined || instance.id === null) continue;
    held.set(field.kind === 'dynamiczone' ? `${idKey(instance.id)}\0${String(instance.__component)}` : idKey(instance.id), instance);
  }
  return held;
}

/** The key an input item names a stored instance with, or undefined when it names none (no `id`). */
function namedKey(field: ComponentFieldMeta | DynamicZoneFieldMeta, item: unknown): string | undefined {
  if (!isPlainObject(item) || !Object.hasOwn(item, 'id') || item.id === undefined) return undefined;
  return field.kind === 'dynamiczone' ? `${idKey(item.id)}\0${String(item.__component)}` : idKey(item.id);
}

/**
 * Strapi checks a field's ids before it writes the field's instances (and their nested
 * components after): the first field naming an instance its stored value does not hold is
 * the one refused.
 */
function checkNamedIds(run: FieldRun, field: ComponentFieldMeta | DynamicZoneFieldMeta, items: readonly unknown[], held: Held): void {
  if (!held || run.unrelated) return;
  for (const item of items) {
    const key = namedKey(field, item);
    if (key === undefined || held.has(key)) continue;
    const message = `Some of the provided components in ${field.name} are not related to the entity`;
    run.unrelated = field.kind === 'dynamiczone' ? new PlainStatusError(message) : new ApplicationError(message);
    return;
  }
}

/**
 * The items of a repeatable component or dynamic zone: `[]` when absent (an issue if
 * required) or not an array (an issue; `null` too, as Strapi's validator), after checking the
 * count against min and max.
 */
function listInput(run: FieldRun, field: ComponentFieldMeta | DynamicZoneFieldMeta, value: unknown, path: string[]): unknown[] {
  const label = yupPath(path);
  if (value === undefined) {
    if (field.required) run.issues.push({ path, message: `${label} must be defined.`, name: 'ValidationError' });
    return [];
  }
  if (!Array.isArray(value)) {
    run.issues.push({ path, message: notTypeMessage(label, 'array', value, value), name: 'ValidationError' });
    return [];
  }
  countIssues(run, field, value, path);
  return value;
}

function countIssues(run: FieldRun, field: ComponentFieldMeta | DynamicZoneFieldMeta, list: unknown[], path: string[]): void {
  const label = yupPath(path);
  // Strapi enforces min only when the field is required or not empty.
  if (field.min !== undefined && list.length < field.min && (field.required || list.length > 0)) {
    run.issues.push({ path, message: `${label} field must have at least ${field.min} items`, name: 'ValidationError' });
  }
  if (field.max !== undefined && list.length > field.max) {
    run.issues.push({ path, message: `${label} field must have less than or equal to ${field.max} items`, name: 'ValidationError' });
  }
}

/**
 * The instances of a list, an instance named twice being one (in its first place, the later
 * values written over the earlier, as Strapi updates the same row twice).
 */
async function listValue(
  run: FieldRun,
  field: ComponentFieldMeta | DynamicZoneFieldMeta,
  items: readonly unknown[],
  path: string[],
  held: Held,
  prepare: (item: unknown, itemPath: string[], at: InstanceAt) => Promise<JsonObject | null>,
): Promise<JsonObject[]> {
  checkNamedIds(run, field, items, held);
  const out: JsonObject[] = [];
  const written = new Map<string, JsonObject>();
  for (const [index, item] of items.entries()) {
    const key = held ? namedKey(field, item) : undefined;
    const kept = key === undefined ? undefined : held!.get(key);
    const again = key === undefined || !kept ? undefined : written.get(key);
    const instance = await prepare(item, [...path, String(index)], { stored: again ?? kept, named: key !== undefined });
    if (!instance) continue;
    if (again) {
      Object.assign(again, instance);
      continue;
    }
    if (kept) written.set(key!, instance);
    out.push(instance);
  }
  return out;
}

async function componentFieldValue(run: FieldRun, field: ComponentFieldMeta, component: ComponentMeta, value: unknown, path: string[], held: Held): Promise<unknown> {
  if (field.repeatable) {
    const items = listInput(run, field, value, path);
    return listValue(run, field, items, path, held, (item, itemPath, at) => instanceValue(run, component, item, itemPath, at));
  }
  if (value === null || value === undefined) {
    if (field.required) run.issues.push({ path, message: `${yupPath(path)} must be defined.`, name: 'ValidationError' });
    return null;
  }
  checkNamedIds(run, field, [value], held);
  const key = held ? namedKey(field, value) : undefined;
  return instanceValue(run, component, value, path, { stored: key === undefined ? undefined : held!.get(key), named: key !== undefined, single: true });
}

async function zoneValue(run: FieldRun, field: DynamicZoneFieldMeta, value: unknown, path: string[], held: Held): Promise<unknown> {
  const items = listInput(run, field, value, path);
  return listValue(run, field, items, path, held, async (item, itemPath, at) => {
    if (!isPlainObject(item)) {
      // Strapi's item schema is a yup object: a non-object is cast to null first.
      run.issues.push({ path: itemPath, message: notTypeMessage(yupPath(itemPath), 'object', null, item), name: 'ValidationError' });
      return null;
    }
    const uid = item.__component;
    const component = typeof uid === 'string' && field.components.includes(uid) ? run.ctx.registry.components.get(uid) : undefined;
    if (!component) {
      const label = yupPath([...itemPath, '__component']);
      // Strapi 4.26.2 lists every component of the project here, in the order it read their
      // files, and accepts any of them: the zone's own are listed and accepted (docs/rest.md).
      const issue = (message: string) => run.issues.push({ path: [...itemPath, '__component'], message, name: 'ValidationError' });
      if (uid === undefined) {
        issue(`${label} is a required field`);
        return null;
      }
      // A null one fails yup's string type and the list both (observed).
      if (uid === null) issue(notTypeMessage(label, 'string', null, null));
      issue(`${label} must be one of the following values: ${field.components.join(', ')}`);
      return null;
    }
    return instanceValue(run, component, item, itemPath, { ...at, inZone: true });
  });
}

/** Where an input instance stands. */
interface InstanceAt {
  /** The stored instance it names: an update keeps its id and the fields the input leaves out. */
  readonly stored?: JsonObject | undefined;
  /**
   * It names an id in an update (held or not): validated as an update, as Strapi validates
   * every instance of an update (a stored instance keeps the required values left out; one
   * not held is refused after validation). New instances are validated as creates: see docs/rest.md.
   */
  readonly named?: boolean;
  /** A dynamic zone's item (it names its component first, `__component`). */
  readonly inZone?: boolean;
  /** A non-repeatable component's value (not cast to an object first). */
  readonly single?: boolean;
}

/** One component instance: scalars validated like an entry's, nested values recursively. */
async function instanceValue(run: FieldRun, component: ComponentMeta, value: unknown, path: string[], at: InstanceAt = {}): Promise<JsonObject | null> {
  const { stored, inZone = false, single = false } = at;
  if (!isPlainObject(value)) {
    // A list's item is cast to an object first (a non-object becomes null); a single component's value is not cast.
    run.issues.push({ path, message: notTypeMessage(yupPath(path), 'object', single ? value : null, value), name: 'ValidationError' });
    return null;
  }
  // A new instance's id is set once the whole value is valid (prepareNestedValue), on this object.
  const out: JsonObject = { ...(inZone ? { __component: component.uid } : {}), id: stored ? stored.id : 0 };
  if (!stored) run.fresh.set(component.uid, [...(run.fresh.get(component.uid) ?? []), out]);

  try {
    const scalars = await prepareWriteData(componentAsType(component), value, {
      mode: stored || at.named ? 'update' : 'create',
      hashPassword: run.ctx.hashPassword,
      now: run.ctx.now,
      jsonNull: null,
    });
    for (const field of Object.values(component.fields)) {
      if (field.kind !== 'scalar' || field.name === 'id') continue;
      const converted = scalars[field.prismaField];
      out[field.name] = converted === undefined ? (stored ? (stored[field.name] ?? null) : null) : toStoredJson(field, converted);
    }
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const nested = (err.details.errors as ValidationIssue[] | undefined) ?? [{ path: [], message: err.message, name: 'ValidationError' }];
    for (const issue of nested) {
      const fullPath = [...path, ...issue.path];
      run.issues.push({ path: fullPath, message: issue.message.replace(new RegExp(`^${escapeRegExp(issue.path.join('.'))}\\b`), yupPath(fullPath)), name: 'ValidationError' });
    }
  }

  for (const field of Object.values(component.fields)) {
    const input = value[field.name];
    if (stored && input === undefined && field.kind !== 'scalar') {
      // Left out of an update of a stored instance: kept.
      if (field.kind === 'component' || field.kind === 'relation' || field.kind === 'media') out[field.name] = stored[field.name] ?? null;
      continue;
    }
    switch (field.kind) {
      case 'component': {
        const nested = run.ctx.registry.components.get(field.component)!;
        // Ids inside a stored instance name its own nested instances; inside a new one they are ignored.
        const nestedHeld = stored ? heldInstances(field, stored[field.name]) : undefined;
        out[field.name] = await componentFieldValue(run, field, nested, input, [...path, field.name], nestedHeld);
        break;
      }
      case 'relation':
      case 'media': {
        const target = field.kind === 'relation' ? field.target : 'plugin::upload.file';
        const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
        if (input === undefined || input === null) {
          out[field.name] = toMany ? [] : null;
          break;
        }
        try {
          const parsed = parseRelationInput(field.name, input);
          const ids = [...new Set(referencedIds(parsed))];
          run.references.set(target, [...(run.references.get(target) ?? []), ...ids]);
          out[field.name] = toMany ? ids : (ids.at(-1) ?? null);
        } catch (err) {
          if (!(err instanceof ValidationError)) throw err;
          run.issues.push({ path: [...path, field.name], message: err.message, name: 'ValidationError' });
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** prepareWriteData validates a content type's scalars; a component's scalars are the same thing. */
function componentAsType(component: ComponentMeta): ContentTypeMeta {
  return {
    uid: component.uid,
    kind: 'collectionType',
    singularName: component.uid,
    pluralName: component.uid,
    table: '',
    delegate: '',
    draftAndPublish: false,
    populateCreatorFields: false,
    fields: component.fields,
  };
}

/** Prisma-ready values (Date, BigInt, decimal strings) → the JSON the response would show. */
function toStoredJson(field: ScalarFieldMeta, value: unknown): unknown {
  if (value === null) return null;
  if (field.type === 'json' || field.type === 'array' || field.type === 'password') return value;
  return toResponseValue(field, value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
