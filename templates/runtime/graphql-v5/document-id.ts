/**
 * How the v5 schema reads and matches a `documentId`, in one place. Until every content type
 * stores its own documentId (#30 item 1), the documentId of an entry is its row id as a string:
 * unique per type, stable, and what a v5 client echoes back. When the column lands, these two
 * functions read and filter the stored value instead.
 */
import type { Entry } from '../rest/transform.js';

/** The documentId of an entry read through the entity service. */
export function documentIdOf(entry: Entry): string {
  return String(entry.id);
}

/** A `documentId` filter operand (`"12"`, `["12", "13"]`) as a filter on the stored key: `[key, operand]`. */
export function documentIdFilter(operand: unknown): [string, unknown] {
  const toId = (value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value === null || value === undefined ? value : -1);
  return ['id', Array.isArray(operand) ? operand.map(toId) : toId(operand)];
}
