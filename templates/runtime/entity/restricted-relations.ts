/**
 * Strapi v4's `removeRestrictedRelations` on write input (sanitize.contentAPI.input with an
 * auth): a relation whose target the caller may not `find` is dropped from the input, silently,
 * at any depth (components and dynamic zones included); a morphTo link to such a type is
 * dropped from its list, and the field with it when none is left. Media are not relations there
 * and are kept. Without a caller (your own code calling the service) nothing is dropped.
 */
import type { FieldMeta, Registry } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';

export function removeRestrictedRelations(
  fields: Readonly<Record<string, FieldMeta>>,
  input: Record<string, unknown>,
  registry: Registry,
  canFind: (uid: string) => boolean,
): Record<string, unknown> {
  let out = input;
  const set = (name: string, value: unknown) => {
    if (out === input) out = { ...input };
    if (value === undefined) delete out[name];
    else out[name] = value;
  };
  for (const [name, value] of Object.entries(input)) {
    const field = fields[name];
    if (!field || value === undefined || value === null) continue;
    if (field.kind === 'relation') {
      if (!canFind(field.target)) set(name, undefined);
    } else if (field.kind === 'morph') {
      if (field.target !== undefined) {
        if (!canFind(field.target)) set(name, undefined);
        continue;
      }
      const items = Array.isArray(value) ? value : [value];
      // An item naming no content type is left for validation to refuse (a 400, where Strapi stores it).
      const readable = (item: unknown) => !isPlainObject(item) || typeof item['__type'] !== 'string' || !registry.contentTypes.has(item['__type']) || canFind(item['__type']);
      const kept = items.filter(readable);
      if (kept.length === 0) set(name, undefined);
      else if (kept.length < items.length) set(name, Array.isArray(value) ? kept : kept[0]);
    } else if (field.kind === 'component') {
      const component = registry.components.get(field.component);
      if (!component) continue;
      const clean = (item: unknown) => (isPlainObject(item) ? removeRestrictedRelations(component.fields, item, registry, canFind) : item);
      const next = Array.isArray(value) ? mapKeepingIdentity(value, clean) : clean(value);
      if (next !== value) set(name, next);
    } else if (field.kind === 'dynamiczone' && Array.isArray(value)) {
      const next = mapKeepingIdentity(value, (item) => {
        const component = isPlainObject(item) && typeof item['__component'] === 'string' ? registry.components.get(item['__component']) : undefined;
        return component ? removeRestrictedRelations(component.fields, item as Record<string, unknown>, registry, canFind) : item;
      });
      if (next !== value) set(name, next);
    }
  }
  return out;
}

/** `list.map(f)`, or `list` itself when f changed nothing (so unchanged input stays the same object). */
function mapKeepingIdentity(list: readonly unknown[], f: (item: unknown) => unknown): unknown[] {
  const next = list.map(f);
  return next.every((item, i) => item === list[i]) ? (list as unknown[]) : next;
}
