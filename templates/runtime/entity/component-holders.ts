/**
 * Where instances of a component can be: the component and dynamic-zone columns of the
 * content types whose values can hold it — directly, repeatable, in a zone, or nested in
 * another component. Instances are JSON in those columns (components.ts); component-ids.ts
 * seeds a component's id counter from them, upload/component-owner.ts finds the entry
 * holding one.
 */
import type { ComponentFieldMeta, ContentTypeMeta, DynamicZoneFieldMeta, FieldMeta, Registry } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';

export type NestedField = ComponentFieldMeta | DynamicZoneFieldMeta;
type Json = Record<string, unknown>;

/** Each content type with the fields whose values can hold instances of `component`. */
export function holdersOf(registry: Registry, component: string): [ContentTypeMeta, NestedField[]][] {
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

/**
 * Each instance of a stored component or zone value, nested ones too, with its component uid;
 * stops at the first instance for which `visit` answers true, and answers it.
 */
export function findInstance(registry: Registry, field: NestedField, value: unknown, visit: (uid: string, instance: Json) => boolean): Json | undefined {
  const instances = value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];
  for (const instance of instances) {
    if (!isPlainObject(instance)) continue;
    const uid = field.kind === 'dynamiczone' ? instance.__component : field.component;
    const meta = typeof uid === 'string' ? registry.components.get(uid) : undefined;
    if (!meta) continue;
    if (visit(meta.uid, instance)) return instance;
    for (const nested of Object.values(meta.fields) as FieldMeta[]) {
      if (nested.kind !== 'component') continue;
      const found = findInstance(registry, nested, instance[nested.name], visit);
      if (found) return found;
    }
  }
  return undefined;
}

/** A stored component or zone column: parsed by Prisma and some drivers, text from others. */
export function parseStoredJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}
