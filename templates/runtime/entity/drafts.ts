/**
 * Drafts of published documents (Strapi 5, docs/strapi5.md "Drafts"): a v5 write with
 * `status=draft` to a published entry keeps its edits in a row of `<table>_drafts` (one per
 * live row, `live_id`, deleted with it), while the live row keeps being served. The draft
 * table has the live table's own columns (scalars, components, zones) and no links: a draft's
 * relations and media are its live row's. Nothing of v4 reads the draft table; the planner
 * reads it only for a query marked with `documentView` (query/list.ts), as the rows of the
 * draft view: every entry, its draft's values where it has one, `publishedAt` null.
 *
 * Publishing copies the draft's columns onto the live row (its id never changes, unlike
 * Strapi 5's) and deletes the draft; discarding deletes it.
 */
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, FieldMeta } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { documentIdColumn } from './document-id.js';

/** The draft table of a draft & publish type (the generator's `draftTableOf`, generator/ir/drafts.ts). */
export function draftTableOf(meta: ContentTypeMeta): string {
  return `${meta.table}_drafts`;
}

export const liveIdColumn = 'live_id';

/**
 * Marks a query (a symbol key: no query string can spell it, so v4 requests never carry it)
 * with the Strapi 5 document view it reads: `draft` reads the draft view, `published` the live
 * rows; `filter` is Strapi 5's `publicationFilter`, relative to that status.
 */
export const documentView = Symbol('documentView');

export type PublicationFilter =
  | 'never-published'
  | 'has-published-version'
  | 'modified'
  | 'unmodified'
  | 'never-published-document'
  | 'has-published-version-document'
  | 'published-without-draft'
  | 'published-with-draft';

export interface DocumentView {
  readonly status: 'draft' | 'published';
  readonly filter?: PublicationFilter;
}

/** `query` marked with `view` (a copy). */
export function withDocumentView<Q extends object>(query: Q, view: DocumentView): Q {
  return { ...query, [documentView]: view } as Q;
}

export function documentViewOf(query: object): DocumentView | undefined {
  return (query as { [documentView]?: DocumentView })[documentView];
}

/** The columns a draft keeps: every column of the entry's own row but its id. */
function draftColumns(meta: ContentTypeMeta): string[] {
  const columns: string[] = [];
  for (const field of Object.values(meta.fields) as FieldMeta[]) {
    if (field.kind === 'scalar' && field.name !== 'id') columns.push(field.column);
    else if (field.kind === 'component' || field.kind === 'dynamiczone') columns.push(field.column);
  }
  return columns;
}

/** What publishing copies onto the live row: a draft's values, not its creation, publication or locale. */
function publishedColumns(meta: ContentTypeMeta): string[] {
  const keep = new Set(['createdAt', 'publishedAt', 'locale']);
  const skipped = new Set((Object.values(meta.fields) as FieldMeta[]).filter((f) => f.kind === 'scalar' && keep.has(f.name)).map((f) => (f as { column: string }).column));
  return draftColumns(meta).filter((c) => !skipped.has(c));
}

/** The draft table as the entity writer sees it (entry-row.ts): the type's fields on another table. */
const draftMetas = new WeakMap<ContentTypeMeta, ContentTypeMeta>();
export function draftMetaOf(meta: ContentTypeMeta): ContentTypeMeta {
  let draft = draftMetas.get(meta);
  if (!draft) draftMetas.set(meta, (draft = { ...meta, table: draftTableOf(meta) }));
  return draft;
}

/**
 * The rows of the draft view, aliased as the type's table so the planner's statements read it
 * as they read the table: each live row's draft where it has one (its live id, documentId and
 * locale), else the live row; `published_at` null throughout, as Strapi 5's draft rows answer.
 * `cg_published`/`cg_pending` say whether the live row is published and has a pending draft
 * (publicationFilter). Static text: no parameters.
 */
export function draftViewFrom(meta: ContentTypeMeta, sql: SqlBuilder): string {
  const published = (meta.fields['publishedAt'] as { column: string } | undefined)?.column;
  const columns = draftColumns(meta);
  const live = sql.ident('l');
  const draft = sql.ident('d');
  // A typed NULL: PostgreSQL would make an untyped one of both branches text.
  const nullTime = sql.dialect === 'postgresql' ? 'CAST(NULL AS TIMESTAMP(3))' : sql.dialect === 'mysql' ? 'CAST(NULL AS DATETIME(3))' : 'NULL';
  const pick = (from: string) =>
    columns.map((c) => (c === published ? `${nullTime} AS ${sql.ident(c)}` : `${from}.${sql.ident(c)} AS ${sql.ident(c)}`)).join(', ');
  const isPublished = published ? `CASE WHEN ${live}.${sql.ident(published)} IS NULL THEN 0 ELSE 1 END` : '1';
  const table = sql.ident(meta.table);
  const drafts = sql.ident(draftTableOf(meta));
  return (
    `(SELECT ${live}.${sql.ident('id')} AS ${sql.ident('id')}, ${live}.${sql.ident(documentIdColumn)} AS ${sql.ident(documentIdColumn)}, ${pick(draft)}, ` +
    `${isPublished} AS ${sql.ident('cg_published')}, 1 AS ${sql.ident('cg_pending')} ` +
    `FROM ${drafts} ${draft} JOIN ${table} ${live} ON ${live}.${sql.ident('id')} = ${draft}.${sql.ident(liveIdColumn)} ` +
    `UNION ALL SELECT ${live}.${sql.ident('id')} AS ${sql.ident('id')}, ${live}.${sql.ident(documentIdColumn)} AS ${sql.ident(documentIdColumn)}, ${pick(live)}, ` +
    `${isPublished} AS ${sql.ident('cg_published')}, 0 AS ${sql.ident('cg_pending')} ` +
    `FROM ${table} ${live} WHERE NOT EXISTS (SELECT 1 FROM ${drafts} ${draft} WHERE ${draft}.${sql.ident(liveIdColumn)} = ${live}.${sql.ident('id')})) ${table}`
  );
}

/**
 * The condition of a `publicationFilter` on the rows of its view (Strapi 5's
 * publication-filter.js as it answers on our models): in the draft view every document has
 * a row; in the published view only published ones, each with a draft (Strapi keeps one per
 * document), modified when it has pending edits. `*-document` filters look at every locale
 * of the document.
 */
export function publicationFilterCondition(meta: ContentTypeMeta, view: DocumentView, sql: SqlBuilder): string | undefined {
  if (!view.filter) return undefined;
  const table = sql.ident(meta.table);
  const none = '1 = 0';
  const published = (meta.fields['publishedAt'] as { column: string } | undefined)?.column ?? 'published_at';
  const pending =
    view.status === 'draft'
      ? `${table}.${sql.ident('cg_pending')} = 1`
      : `EXISTS (SELECT 1 FROM ${sql.ident(draftTableOf(meta))} ${sql.ident('d')} WHERE ${sql.ident('d')}.${sql.ident(liveIdColumn)} = ${table}.${sql.ident('id')})`;
  const isPublished = view.status === 'draft' ? `${table}.${sql.ident('cg_published')} = 1` : '1 = 1';
  const documentPublished =
    `EXISTS (SELECT 1 FROM ${table} ${sql.ident('p')} WHERE ${sql.ident('p')}.${sql.ident(documentIdColumn)} = ${table}.${sql.ident(documentIdColumn)} ` +
    `AND ${sql.ident('p')}.${sql.ident(published)} IS NOT NULL)`;
  switch (view.filter) {
    case 'never-published':
      return `NOT (${isPublished})`;
    case 'has-published-version':
      return isPublished;
    case 'modified':
      return `${isPublished} AND ${pending}`;
    case 'unmodified':
      return `${isPublished} AND NOT (${pending})`;
    case 'never-published-document':
      return `NOT ${documentPublished}`;
    case 'has-published-version-document':
      return documentPublished;
    case 'published-without-draft':
      return none;
    case 'published-with-draft':
      return view.status === 'published' ? '1 = 1' : none;
  }
}

/** The id of the live row's draft, or null. */
export async function draftIdOf(db: Database, meta: ContentTypeMeta, liveId: number): Promise<number | null> {
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(draftTableOf(meta))} WHERE ${sql.ident(liveIdColumn)} = ${sql.param(liveId)}`);
  const [row] = await db.query<{ id: unknown }>(compiled.sql, compiled.params);
  return row ? Number(row.id) : null;
}

/** The live row's draft (a copy of the live row when it has none yet): its id in the draft table. */
export async function ensureDraft(db: Database, meta: ContentTypeMeta, liveId: number): Promise<number> {
  const existing = await draftIdOf(db, meta, liveId);
  if (existing !== null) return existing;
  const sql = new SqlBuilder(db.dialect);
  const columns = draftColumns(meta).map((c) => sql.ident(c));
  const compiled = sql.finish(
    `INSERT INTO ${sql.ident(draftTableOf(meta))} (${sql.ident(liveIdColumn)}, ${columns.join(', ')}) ` +
      `SELECT ${sql.ident('id')}, ${columns.join(', ')} FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} = ${sql.param(liveId)}`,
  );
  await db.execute(compiled.sql, compiled.params);
  return (await draftIdOf(db, meta, liveId))!;
}

/** Publishes the live row's draft, if it has one: its values onto the live row (same id), the draft deleted. */
export async function applyDraft(db: Database, meta: ContentTypeMeta, liveId: number): Promise<boolean> {
  if ((await draftIdOf(db, meta, liveId)) === null) return false;
  const sql = new SqlBuilder(db.dialect);
  const drafts = sql.ident(draftTableOf(meta));
  const sets = publishedColumns(meta).map(
    (c) => `${sql.ident(c)} = (SELECT ${sql.ident('d')}.${sql.ident(c)} FROM ${drafts} ${sql.ident('d')} WHERE ${sql.ident('d')}.${sql.ident(liveIdColumn)} = ${sql.param(liveId)})`,
  );
  const compiled = sql.finish(`UPDATE ${sql.ident(meta.table)} SET ${sets.join(', ')} WHERE ${sql.ident('id')} = ${sql.param(liveId)}`);
  await db.execute(compiled.sql, compiled.params);
  await discardDraft(db, meta, liveId);
  return true;
}

/** Drops the live row's pending draft (Strapi 5's `discardDraft`); the live row is untouched. */
export async function discardDraft(db: Database, meta: ContentTypeMeta, liveId: number): Promise<void> {
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`DELETE FROM ${sql.ident(draftTableOf(meta))} WHERE ${sql.ident(liveIdColumn)} = ${sql.param(liveId)}`);
  await db.execute(compiled.sql, compiled.params);
}
