/** Shapes database rows into Strapi's `{ id, attributes }` entries. */
import type { ContentTypeMeta, ScalarFieldMeta } from '../meta.js';
import { toResponseValue } from '../entity/input.js';

export interface Entry {
  id: number;
  attributes: Record<string, unknown>;
}

/**
 * `row` is keyed by attribute name (the SQL aliases columns so); `fields` are the selected
 * attribute names in output order, `id` included.
 */
export function toEntry(meta: ContentTypeMeta, row: Record<string, unknown>, fields: readonly string[]): Entry {
  const attributes: Record<string, unknown> = {};
  for (const name of fields) {
    if (name === 'id') continue;
    const field = meta.fields[name] as ScalarFieldMeta;
    attributes[name] = toResponseValue(field, selected(row, name) ?? null);
  }
  return { id: Number(row.id), attributes };
}

/**
 * The value a select list gave attribute `name` (`… AS "<name>"`). PostgreSQL cuts names to 63
 * bytes, result names too: an attribute name longer than that comes back cut.
 */
export function selected(row: Record<string, unknown>, name: string): unknown {
  if (name in row || Buffer.byteLength(name) <= 63) return row[name];
  let cut = name;
  while (Buffer.byteLength(cut) > 63) cut = cut.slice(0, -1);
  return row[cut];
}
