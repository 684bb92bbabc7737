/**
 * Documents of the v5 dialect: the stored documentId (column `document_id`, docs/strapi5.md
 * "Identity") an entry answers with, and the row a documentId names. The one module of rest-v5
 * that reads the column; the planner does not know it (it is not in the type's metadata, so v4
 * never sees it), so answers are filled after shaping with one lookup per type, and a filter on
 * documentId becomes a filter on the row ids the column matches.
 *
 * All locales of a document share its documentId: a localized type's row is (documentId,
 * locale), the locale being the request's (`?locale=`), else the default one.
 */
import type { Database } from '../db/database.js';
import { documentIdFilter, documentIdsOf, findEntryIdByDocumentId, rowsOfDocuments } from '../entity/document-id.js';
import { ValidationError } from '../errors.js';
import { i18nOf } from '../i18n/service.js';
import type { ContentTypeMeta, Registry } from '../meta.js';
import { batches, SqlBuilder } from '../query/sql.js';

/** Strapi 5's error for a documentId that names nothing (relation targets, position pivots). */
export function documentNotFound(documentId: unknown, locale: string | null = null): ValidationError {
  return new ValidationError(`Document with id "${String(documentId)}", locale "${String(locale)}" not found`);
}

/** The locale a request reads or writes a document of `meta` in: null for a type without locales. */
export function localeOf(registry: Registry, meta: ContentTypeMeta, locale: unknown): string | null {
  if (!meta.localized) return null;
  if (locale === '*') return null;
  return typeof locale === 'string' && locale ? locale : i18nOf(registry).defaultLocale;
}

/** The row id of document `documentId` in `locale` (null: any locale, the first by id), or null. */
export function findDocument(db: Database, meta: ContentTypeMeta, documentId: unknown, locale: string | null): Promise<number | null> {
  if (typeof documentId !== 'string' || !documentId) return Promise.resolve(null);
  return findEntryIdByDocumentId(db, meta, documentId, locale);
}

/** Every row of document `documentId` (all its locales), by id. */
export async function rowsOfDocument(db: Database, meta: ContentTypeMeta, documentId: unknown): Promise<number[]> {
  return (await rowsOfDocuments(db, meta, [documentId])).map((row) => row.id);
}

/** The first row (by id) of a single type, in `locale` (null: any). */
export async function firstRow(db: Database, meta: ContentTypeMeta, locale: string | null): Promise<number | null> {
  const sql = new SqlBuilder(db.dialect);
  const where = meta.localized && locale !== null ? ` WHERE ${sql.ident('locale')} = ${sql.param(locale)}` : '';
  const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)}${where} ORDER BY ${sql.ident('id')} LIMIT 1`);
  const [row] = await db.query<{ id: unknown }>(compiled.sql, compiled.params);
  return row === undefined ? null : Number(row.id);
}

/**
 * The row ids of the given documentIds of `meta` in `locale` (null or a type without locales:
 * the first row by id): a map from documentId to id. Missing documents are absent from the map.
 */
export async function findDocuments(db: Database, meta: ContentTypeMeta, documentIds: readonly string[], locale: string | null): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (const row of await rowsOfDocuments(db, meta, documentIds, locale)) if (!found.has(row.documentId)) found.set(row.documentId, row.id);
  return found;
}

export { documentIdFilter };

/**
 * The documentIds an answer carries, filled in once it is shaped: each entry is noted with its
 * type and row id while shaping, and `fill` asks the column once per type (in batches).
 */
export class DocumentIds {
  private readonly wanted = new Map<ContentTypeMeta, Map<number, Record<string, unknown>[]>>();
  private readonly before = new Map<ContentTypeMeta, Map<number, string>>();

  /** Reads the documentIds of rows about to be deleted (an answer of a delete names its entry). */
  async remember(db: Database, meta: ContentTypeMeta, ids: readonly number[]): Promise<void> {
    const found = await documentIdsOf(db, meta, ids);
    this.before.set(meta, new Map([...(this.before.get(meta) ?? []), ...found]));
  }

  /** `target.documentId` is to be entry `id` of `meta`'s. */
  want(meta: ContentTypeMeta, id: number, target: Record<string, unknown>): void {
    let byId = this.wanted.get(meta);
    if (!byId) this.wanted.set(meta, (byId = new Map()));
    let targets = byId.get(id);
    if (!targets) byId.set(id, (targets = []));
    targets.push(target);
  }

  async fill(db: Database): Promise<void> {
    for (const [meta, byId] of this.wanted) {
      for (const ids of batches([...byId.keys()])) {
        const found = await documentIdsOf(db, meta, ids);
        for (const id of ids) for (const target of byId.get(id)!) target.documentId = found.get(id) ?? this.before.get(meta)?.get(id) ?? null;
      }
    }
    this.wanted.clear();
  }
}
