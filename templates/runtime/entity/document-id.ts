/**
 * Strapi 5's identity of an entry, its `documentId` (docs/strapi5.md "Identity"): 24
 * characters of `[a-z0-9]` starting with a letter, made by the same generator Strapi 5 uses
 * (`@paralleldrive/cuid2` `createId`, `@strapi/core` `createDocumentId`). Every content type's
 * table has it (column `document_id`), given on every insert; all localizations of an entry
 * share one. v4 answers never show it: it is not a field of the type's metadata.
 */
import { createId } from '@paralleldrive/cuid2';
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, ScalarFieldMeta } from '../meta.js';
import { compileFilters } from '../query/filters.js';
import { batches, SqlBuilder } from '../query/sql.js';

import { documentIdColumn } from '../meta.js';

export { documentIdColumn };

/** A new documentId, for an entry that starts a document (not a localization of one). */
export function newDocumentId(): string {
  return createId();
}

/** A row of a document: a localized type holds one per locale, all with the document's documentId. */
export interface DocumentRow {
  readonly id: number;
  readonly documentId: string;
}

/**
 * The rows of the documents `documentIds` of `meta`'s type, by id, in one statement per batch:
 * every locale's, or on a localized type only `locale`'s (a code; null or absent: every
 * locale; non-localized types ignore it, as Strapi 5 does). Values that are not documentIds
 * (not a non-empty string) name nothing.
 */
export async function rowsOfDocuments(db: Database, meta: ContentTypeMeta, documentIds: readonly unknown[], locale?: string | null): Promise<DocumentRow[]> {
  const wanted = [...new Set(documentIds.filter((value): value is string => typeof value === 'string' && value !== ''))];
  const rows: DocumentRow[] = [];
  for (const batch of batches(wanted)) {
    const sql = new SqlBuilder(db.dialect);
    // Placeholders in the order of their parameters (`?` on SQLite and MySQL).
    let where = `${sql.ident(documentIdColumn)} IN (${batch.map((documentId) => sql.param(documentId)).join(', ')})`;
    if (meta.localized && typeof locale === 'string') where += ` AND ${sql.ident('locale')} = ${sql.param(locale)}`;
    const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id, ${sql.ident(documentIdColumn)} AS document_id FROM ${sql.ident(meta.table)} WHERE ${where}`);
    for (const row of await db.query<{ id: unknown; document_id: string }>(compiled.sql, compiled.params)) rows.push({ id: Number(row.id), documentId: row.document_id });
  }
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * The row id of the entry of `meta`'s type with `documentId`, or null: in `locale` (see
 * rowsOfDocuments), else the first row by id, whatever its locale.
 */
export async function findEntryIdByDocumentId(db: Database, meta: ContentTypeMeta, documentId: string, locale?: string | null): Promise<number | null> {
  const [first] = await rowsOfDocuments(db, meta, [documentId], locale);
  return first?.id ?? null;
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

const documentIdField: ScalarFieldMeta = { kind: 'scalar', name: 'documentId', type: 'string', column: documentIdColumn, prismaField: 'documentId', writable: false };

/** Beyond this many matching rows a documentId filter names the rows it leaves out instead. */
const listedRows = 500;

/**
 * A documentId condition in the REST filter language (`{ $eq }`, `{ $in }`, `{ $startsWith }`,
 * any operator) of `meta` as a condition on row ids, for the planner, which does not know the
 * column: its own operators compile it on the column, and the rows it matches (or, when most
 * rows match, the ones it does not) become `{ $in | $notIn: ids }`. Both v5 dialects filter
 * documentIds so (REST `filters[documentId]`, GraphQL `filters: { documentId }`).
 */
export async function documentIdFilter(db: Database, meta: ContentTypeMeta, condition: unknown): Promise<Record<string, unknown>> {
  const column = { ...meta, fields: { documentId: documentIdField } } as ContentTypeMeta;
  const idsWhere = async (negate: boolean, limit?: number): Promise<number[]> => {
    const sql = new SqlBuilder(db.dialect);
    const where = compileFilters(column, { documentId: condition }, sql) ?? '1 = 1';
    const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)} WHERE ${negate ? `NOT (${where})` : where} ORDER BY ${sql.ident('id')}${limit === undefined ? '' : ` LIMIT ${limit}`}`);
    return (await db.query<{ id: unknown }>(compiled.sql, compiled.params)).map((row) => Number(row.id));
  };
  const matching = await idsWhere(false, listedRows + 1);
  if (matching.length <= listedRows) return { $in: matching.length ? matching : [0] };
  const others = await idsWhere(true);
  return { $notIn: others.length ? others : [0] };
}
