/**
 * Strapi 5's identity of an entry, its `documentId` (docs/strapi5.md "Identity"): 24
 * characters of `[a-z0-9]` starting with a letter, made by the same generator Strapi 5 uses
 * (`@paralleldrive/cuid2` `createId`, `@strapi/core` `createDocumentId`). Every content type's
 * table has it (column `document_id`), given on every insert; all localizations of an entry
 * share one. v4 answers never show it: it is not a field of the type's metadata.
 */
import { createId } from '@paralleldrive/cuid2';
import type { Database } from '../db/database.js';
import type { ContentTypeMeta } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';

export const documentIdColumn = 'document_id';

/** A new documentId, for an entry that starts a document (not a localization of one). */
export function newDocumentId(): string {
  return createId();
}

/**
 * The row id of the entry of `meta`'s type with `documentId`, or null. A localized type holds
 * one row per locale: `locale` picks it (a code; null or absent: the first row by id, whatever
 * its locale). Non-localized types ignore `locale`, as Strapi 5 does.
 */
export async function findEntryIdByDocumentId(db: Database, meta: ContentTypeMeta, documentId: string, locale?: string | null): Promise<number | null> {
  const sql = new SqlBuilder(db.dialect);
  // Placeholders in the order of their parameters (`?` on SQLite and MySQL).
  let where = `${sql.ident(documentIdColumn)} = ${sql.param(documentId)}`;
  if (meta.localized && typeof locale === 'string') where += ` AND ${sql.ident('locale')} = ${sql.param(locale)}`;
  const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)} WHERE ${where} ORDER BY ${sql.ident('id')} LIMIT 1`);
  const [row] = await db.query<{ id: unknown }>(compiled.sql, compiled.params);
  return row === undefined ? null : Number(row.id);
}

/** The documentIds of the entries `ids` of `meta`'s type, by row id (missing ids are left out). */
export async function documentIdsOf(db: Database, meta: ContentTypeMeta, ids: readonly number[]): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  if (ids.length === 0) return found;
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(
    `SELECT ${sql.ident('id')} AS id, ${sql.ident(documentIdColumn)} AS document_id FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} IN (${ids.map((id) => sql.param(id)).join(', ')})`,
  );
  for (const row of await db.query<{ id: unknown; document_id: string }>(compiled.sql, compiled.params)) found.set(Number(row.id), row.document_id);
  return found;
}
