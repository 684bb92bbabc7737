/**
 * Validates component and dynamic-zone input and turns it into the JSON stored in the
 * owner's column. Components are written whole (PUT replaces the value). Instances keep
 * their `id` when the request repeats the id of an instance of the same component in the
 * stored value; new instances get new ids, unique per component across all entries
 * (component-ids.ts), as Strapi's. Relations and media inside components are stored as ids,
 * checked to exist. Every problem is collected with its full path (`["seo","metaTitle"]`,
 * `["blocks","0","__component"]`).
 */
import type { Database } from '../db/database.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import type { ComponentFieldMeta, ComponentMeta, ContentTypeMeta, DynamicZoneFieldMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { prepareWriteData, toResponseValue } from './input.js';
import { assertTargetsExist, parseRelationInput, referencedIds } from './relations.js';
import { printJson } from './yup-messages.js';
import { assignComponentIds } from './component-ids.js';
import { findInstance } from './component-holders.js';

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
}

type JsonObject = Record<string, unknown>;

/** State shared while one field's value is prepared. */
interface FieldRun {
  readonly ctx: NestedWriteContext;
  readonly issues: ValidationIssue[];
  /** Target uid → ids referenced from inside components, checked once at the end. */
  readonly references: Map<string, number[]>;
  /** `<component uid>#<id>` of every instance in the stored value: the ids a request may keep. */
  readonly previousIds: ReadonlySet<string>;
  /** Instances that need a new id, by component uid; ids are reserved once the value is valid. */
  readonly fresh: Map<string, JsonObject[]>;
}

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
  const previousIds = collectInstanceIds(ctx.registry, field, previous);
  const run: FieldRun = { ctx, issues: [], references: new Map(), previousIds, fresh: new Map() };
  const path = [field.name];
  let stored: unknown;
  if (field.kind === 'dynamiczone') {
    stored = await zoneValue(run, field, value, path);
  } else {
    const component = ctx.registry.components.get(field.component)!;
    stored = await componentFieldValue(run, field, component, value, path);
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

/**
 * The items of a repeatable component or dynamic zone: `[]` when absent (an issue if
 * required) or not an array (an issue), after checking the count against min and max.
 */
function listInput(run: FieldRun, field: ComponentFieldMeta | DynamicZoneFieldMeta, value: unknown, path: string[]): unknown[] {
  const label = path.join('.');
  if (value === null || value === undefined) {
    if (field.required) run.issues.push({ path, message: `${label} must be defined.`, name: 'ValidationError' });
    return [];
  }
  if (!Array.isArray(value)) {
    run.issues.push({ path, message: `${label} must be a \`array\` type, but the final value was: \`${printJson(value)}\`.`, name: 'ValidationError' });
    return [];
  }
  countIssues(run, field, value, path);
  return value;
}

function countIssues(run: FieldRun, field: ComponentFieldMeta | DynamicZoneFieldMeta, list: unknown[], path: string[]): void {
  const label = path.join('.');
  // Strapi enforces min only when the field is required or not empty.
  if (field.min !== undefined && list.length < field.min && (field.required || list.length > 0)) {
    run.issues.push({ path, message: `${label} field must have at least ${field.min} items`, name: 'ValidationError' });
  }
  if (field.max !== undefined && list.length > field.max) {
    run.issues.push({ path, message: `${label} field must have less than or equal to ${field.max} items`, name: 'ValidationError' });
  }
}

async function componentFieldValue(run: FieldRun, field: ComponentFieldMeta, component: ComponentMeta, value: unknown, path: string[]): Promise<unknown> {
  if (field.repeatable) {
    const items = listInput(run, field, value, path);
    const out: JsonObject[] = [];
    for (const [index, item] of items.entries()) {
      const instance = await instanceValue(run, component, item, [...path, String(index)]);
      if (instance) out.push(instance);
    }
    return out;
  }
  if (value === null || value === undefined) {
    if (field.required) run.issues.push({ path, message: `${path.join('.')} must be defined.`, name: 'ValidationError' });
    return null;
  }
  return instanceValue(run, component, value, path);
}

async function zoneValue(run: FieldRun, field: DynamicZoneFieldMeta, value: unknown, path: string[]): Promise<unknown> {
  const out: JsonObject[] = [];
  for (const [index, item] of listInput(run, field, value, path).entries()) {
    const itemPath = [...path, String(index)];
    const uid = isPlainObject(item) ? item.__component : undefined;
    const component = typeof uid === 'string' && field.components.includes(uid) ? run.ctx.registry.components.get(uid) : undefined;
    if (!component) {
      const message = `${[...itemPath, '__component'].join('.')} must be one of the following values: ${field.components.join(', ')}`;
      run.issues.push({ path: [...itemPath, '__component'], message, name: 'ValidationError' });
      continue;
    }
    const instance = await instanceValue(run, component, item, itemPath, true);
    if (instance) out.push(instance);
  }
  return out;
}

/**
 * One component instance: scalars validated like an entry's, nested values recursively. A
 * dynamic zone's item names its component first (`__component`).
 */
async function instanceValue(run: FieldRun, component: ComponentMeta, value: unknown, path: string[], inZone = false): Promise<JsonObject | null> {
  if (!isPlainObject(value)) {
    run.issues.push({ path, message: `${path.join('.')} must be a \`object\` type, but the final value was: \`${printJson(value)}\`.`, name: 'ValidationError' });
    return null;
  }
  const requestedId = typeof value.id === 'number' ? value.id : typeof value.id === 'string' && /^\d+$/.test(value.id) ? Number(value.id) : undefined;
  const kept = requestedId !== undefined && run.previousIds.has(`${component.uid}#${requestedId}`);
  // A new instance's id is set once the whole value is valid (prepareNestedValue), on this object.
  const out: JsonObject = { ...(inZone ? { __component: component.uid } : {}), id: kept ? requestedId : 0 };
  if (!kept) run.fresh.set(component.uid, [...(run.fresh.get(component.uid) ?? []), out]);

  try {
    const scalars = await prepareWriteData(componentAsType(component), value, {
      mode: 'create',
      hashPassword: run.ctx.hashPassword,
      now: run.ctx.now,
      jsonNull: null,
    });
    for (const field of Object.values(component.fields)) {
      if (field.kind !== 'scalar' || field.name === 'id') continue;
      const converted = scalars[field.prismaField];
      out[field.name] = converted === undefined ? null : toStoredJson(field, converted);
    }
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    const nested = (err.details.errors as ValidationIssue[] | undefined) ?? [{ path: [], message: err.message, name: 'ValidationError' }];
    for (const issue of nested) {
      const fullPath = [...path, ...issue.path];
      run.issues.push({ path: fullPath, message: issue.message.replace(new RegExp(`^${escapeRegExp(issue.path.join('.'))}\\b`), fullPath.join('.')), name: 'ValidationError' });
    }
  }

  for (const field of Object.values(component.fields)) {
    const input = value[field.name];
    switch (field.kind) {
      case 'component': {
        const nested = run.ctx.registry.components.get(field.component)!;
        out[field.name] = await componentFieldValue(run, field, nested, input, [...path, field.name]);
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

/** `<component uid>#<id>` of every instance in a stored component or zone value, at any depth. */
function collectInstanceIds(registry: Registry, field: ComponentFieldMeta | DynamicZoneFieldMeta, value: unknown, out = new Set<string>()): Set<string> {
  findInstance(registry, field, value, (uid, instance) => {
    if (typeof instance.id === 'number') out.add(`${uid}#${instance.id}`);
    return false;
  });
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
