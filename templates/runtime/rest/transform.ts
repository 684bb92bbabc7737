/** Shapes database rows into Strapi's `{ id, attributes }` entries. */
import type { ContentTypeMeta, ScalarFieldMeta } from '../meta.js';
import { responseValues } from './response-values.js';

export interface Entry {
  id: number;
  attributes: Record<string, unknown>;
}

/**
 * `row` is keyed by attribute name (the SQL aliases columns so); `fields` are the selected
 * attribute names in output order, `id` included. The type's default selection goes through
 * its emitted converter (`meta.rows`); any other through each field's value function.
 */
export function toEntry(meta: ContentTypeMeta, row: Record<string, unknown>, fields: readonly string[]): Entry {
  const rows = meta.rows;
  if (rows !== undefined && sameNames(fields, rows.fields)) return { id: Number(row.id), attributes: rows.attributes(row) };
  const attributes: Record<string, unknown> = {};
  for (const name of fields) {
    if (name === 'id') continue;
    attributes[name] = responseValues[(meta.fields[name] as ScalarFieldMeta).type](selected(row, name));
  }
  return { id: Number(row.id), attributes };
}

/**
 * The selection is the converter's: the same names in the same order. (A view of a type
 * with fewer fields, such as GraphQL's, keeps the converter but selects other names.)
 */
function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
