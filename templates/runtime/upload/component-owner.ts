/**
 * The entry that holds a component instance. Strapi keeps each instance as a row of its
 * component's table, so `POST /api/upload` with `ref` a component uid and `refId` an instance
 * id names it directly; here instances are JSON in their entry's component and dynamic-zone
 * columns (entity/components.ts), so the entry is found by looking through every column that
 * can hold that component — directly, repeatable, in a dynamic zone or nested in another
 * component. Instance ids are unique per component across all entries (component-ids.ts), so
 * at most one entry matches.
 *
 * The search reads those columns of every entry of the types concerned: a link to a component
 * is an occasional write, and no index can find an id inside JSON on all three databases.
 */
import type { Database } from '../db/database.js';
import type { ComponentFieldMeta, ContentTypeMeta, DynamicZoneFieldMeta, FieldMeta, Registry } from '../meta.js';
import { parseJson } from '../populate/execute.js';
import { isPlainObject } from '../query/is-plain-object.js';

type NestedField = ComponentFieldMeta | DynamicZoneFieldMeta;
type Json = Record<string, unknown>;

export interface InstanceOwner {
  readonly meta: ContentTypeMeta;
  readonly entryId: number;
  /** The column (Prisma field) holding the instance. */
  readonly field: NestedField;
}

/** The entry holding instance `instanceId` of `component`, or undefined. */
export async function findInstanceOwner(db: Database, registry: Registry, component: string, instanceId: number): Promise<InstanceOwner | undefined> {
  for (const [meta, fields] of holdersOf(registry, component)) {
    const select = Object.fromEntries([['id', true], ...fields.map((f) => [f.name, true])]);
    const rows: Json[] = await db.prisma[meta.delegate].findMany({ select, orderBy: { id: 'asc' } });
    for (const row of rows) {
      const field = fields.find((f) => findInstance(registry, f, parseJson(row[f.name]), component, instanceId));
      if (field) return { meta, entryId: Number(row.id), field };
    }
  }
  return undefined;
}

/** The owner's column value, parsed, and the instance object inside it (to be changed in place). */
export async function readInstance(db: Database, registry: Registry, owner: InstanceOwner, component: string, instanceId: number): Promise<{ value: unknown; instance: Json } | undefined> {
  const row: Json | null = await db.prisma[owner.meta.delegate].findUnique({ where: { id: owner.entryId }, select: { [owner.field.name]: true } });
  const value = parseJson(row?.[owner.field.name]);
  const instance = findInstance(registry, owner.field, value, component, instanceId);
  return instance ? { value, instance } : undefined;
}

/** Each content type with the fields whose values can hold instances of `component`. */
function holdersOf(registry: Registry, component: string): [ContentTypeMeta, NestedField[]][] {
  const holds = canHold(registry, component);
  const out: [ContentTypeMeta, NestedField[]][] = [];
  for (const meta of registry.contentTypes.values()) {
    const fields = (Object.values(meta.fields) as FieldMeta[]).filter(
      (f): f is NestedField => (f.kind === 'component' && holds(f.component)) || (f.kind === 'dynamiczone' && f.components.some(holds)),
    );
    if (fields.length > 0) out.push([meta, fields]);
  }
  return out;
}

/** Whether a component's value can hold `target`: it is `target`, or one of its component fields can (cycles stop). */
function canHold(registry: Registry, target: string): (uid: string) => boolean {
  const known = new Map<string, boolean>();
  const visit = (uid: string): boolean => {
    const cached = known.get(uid);
    if (cached !== undefined) return cached;
    known.set(uid, false);
    const fields = Object.values(registry.components.get(uid)?.fields ?? {}) as FieldMeta[];
    const result = uid === target || fields.some((f) => f.kind === 'component' && visit(f.component));
    known.set(uid, result);
    return result;
  };
  return visit;
}

/** The instance of `component` with id `instanceId` in a stored component or zone value, at any depth. */
function findInstance(registry: Registry, field: NestedField, value: unknown, component: string, instanceId: number): Json | undefined {
  const instances = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  for (const instance of instances) {
    if (!isPlainObject(instance)) continue;
    const uid = field.kind === 'dynamiczone' ? instance.__component : field.component;
    const meta = typeof uid === 'string' ? registry.components.get(uid) : undefined;
    if (!meta) continue;
    if (uid === component && instance.id === instanceId) return instance;
    for (const nested of Object.values(meta.fields) as FieldMeta[]) {
      if (nested.kind !== 'component') continue;
      const found = findInstance(registry, nested, instance[nested.name], component, instanceId);
      if (found) return found;
    }
  }
  return undefined;
}
