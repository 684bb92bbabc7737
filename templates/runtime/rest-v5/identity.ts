/**
 * Documents of the v5 dialect: the documentId an entry answers with, and the row a documentId
 * names. The only module of rest-v5 that knows how documentIds are stored, so the stored
 * `document_id` column (#30 item 1) replaces this in one place.
 *
 * Until then a documentId is derived from the row: 24 characters of `[a-z0-9]` starting with
 * a letter, as Strapi 5's cuid2 ids are: `d`, three characters naming the type, the row id in
 * base 36 padded to 20. Reading it back checks the type and that the row exists.
 */
import type { Database } from '../db/database.js';
import { ValidationError } from '../errors.js';
import type { ContentTypeMeta } from '../meta.js';
import { batches, SqlBuilder } from '../query/sql.js';

const idWidth = 20;

function typeTag(uid: string): string {
  let hash = 0;
  for (const char of uid) hash = (hash * 31 + char.charCodeAt(0)) % 46_656; // 36^3
  return hash.toString(36).padStart(3, '0');
}

/** The documentId of entry `id` of type `uid` (or the one it answered with, once stored). */
export function documentIdOf(uid: string, id: number, stored?: unknown): string {
  if (typeof stored === 'string' && stored) return stored;
  return `d${typeTag(uid)}${id.toString(36).padStart(idWidth, '0')}`;
}

/** The row id a documentId of type `uid` encodes, or null when it is none of that type's. */
export function rowIdOf(uid: string, documentId: unknown): number | null {
  if (typeof documentId !== 'string' || documentId.length !== 24 || !documentId.startsWith(`d${typeTag(uid)}`)) return null;
  const id = parseInt(documentId.slice(4), 36);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Strapi 5's error for a documentId that names nothing (relation targets, position pivots). */
export function documentNotFound(documentId: unknown, locale: string | null = null): ValidationError {
  return new ValidationError(`Document with id "${String(documentId)}", locale "${String(locale)}" not found`);
}

/**
 * The row ids of the given documentIds of `meta` that exist: a map from documentId to id.
 * Missing documents are absent from the map.
 */
export async function findDocuments(db: Database, meta: ContentTypeMeta, documentIds: readonly string[]): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const wanted = new Map<number, string>();
  for (const documentId of documentIds) {
    const id = rowIdOf(meta.uid, documentId);
    if (id !== null) wanted.set(id, documentId);
  }
  for (const ids of batches([...wanted.keys()])) {
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} IN (${ids.map((id) => sql.param(id)).join(', ')})`);
    for (const row of await db.query<{ id: unknown }>(compiled.sql, compiled.params)) {
      const id = Number(row.id);
      found.set(wanted.get(id)!, id);
    }
  }
  return found;
}
