/**
 * Drafts of published documents (Strapi 5, docs/strapi5.md "Drafts"): a v5 write with
 * `status=draft` to a published entry keeps its edits in a row of `<table>_drafts` (one per
 * live row, `live_id`, deleted with it), while the live row keeps being served. The draft
 * table has the live table's own columns (scalars, components, zones); a draft's relations
 * and media are its own too, rows of `<table>_drafts_lnk` (live id, field, target id,
 * position), copied from the live links when the draft is made and written by a draft save
 * as a live write writes links. Nothing of v4 reads the draft tables; the planner reads them
 * only for a query marked with `documentView` (query/list.ts), as the rows of the draft view:
 * every entry, its draft's values where it has one, `publishedAt` null, and its draft's links
 * where it has one (`draftLinkFrom`: filters, sorts and population of those entries).
 *
 * Publishing copies the draft's columns onto the live row (its id never changes, unlike
 * Strapi 5's) and its links onto the live links (a target only one entry may hold moves away
 * from its other entry then, not while it is a draft), and deletes the draft; discarding
 * deletes it and its links.
 */
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, FieldMeta, LinkMeta, MediaFieldMeta, Registry, RelationFieldMeta } from '../meta.js';
import { documentIdColumn } from '../meta.js';
import { batches, maxBoundParameters, SqlBuilder } from '../query/sql.js';
import { applyEdit, writeLinks, type RelationInput } from './relations.js';

/** The draft table of a draft & publish type (the generator's `draftTableOf`, generator/emit/prisma/schema.ts). */
export function draftTableOf(meta: ContentTypeMeta): string {
  return `${meta.table}_drafts`;
}

export const liveIdColumn = 'live_id';

/** The links of a type's drafts (the generator's `draftLinksTableOf`): one table for all its link fields. */
export function draftLinksTableOf(meta: ContentTypeMeta): string {
  return `${meta.table}_drafts_lnk`;
}

/** A relation or media field kept in a link table. */
export type DraftLinkField = (RelationFieldMeta | MediaFieldMeta) & { readonly link: LinkMeta };

/**
 * The type's fields whose drafts keep links of their own. Not a localized type's
 * `localizations`: the locales of a document, kept by i18n (i18n/service.ts) for the live rows;
 * a draft made before a locale was added would otherwise drop it when published.
 */
export function draftLinkFields(meta: ContentTypeMeta): DraftLinkField[] {
  return (Object.values(meta.fields) as FieldMeta[]).filter((f): f is DraftLinkField => isDraftLinkField(meta, f));
}

function isDraftLinkField(meta: ContentTypeMeta, field: FieldMeta): field is DraftLinkField {
  return (field.kind === 'relation' || field.kind === 'media') && field.link !== undefined && !(meta.localized && field.name === 'localizations');
}

/** A field name as an SQL string literal (names are identifiers; quotes doubled all the same). */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

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
  await copyLiveLinks(db, meta, liveId);
  return (await draftIdOf(db, meta, liveId))!;
}

/**
 * Publishes the live row's draft, if it has one: its values and links onto the live row (same
 * id), the draft deleted. `registry`: draft links to targets deleted since are left out.
 */
export async function applyDraft(db: Database, meta: ContentTypeMeta, liveId: number, registry?: Registry): Promise<boolean> {
  if ((await draftIdOf(db, meta, liveId)) === null) return false;
  const sql = new SqlBuilder(db.dialect);
  const drafts = sql.ident(draftTableOf(meta));
  const sets = publishedColumns(meta).map(
    (c) => `${sql.ident(c)} = (SELECT ${sql.ident('d')}.${sql.ident(c)} FROM ${drafts} ${sql.ident('d')} WHERE ${sql.ident('d')}.${sql.ident(liveIdColumn)} = ${sql.param(liveId)})`,
  );
  const compiled = sql.finish(`UPDATE ${sql.ident(meta.table)} SET ${sets.join(', ')} WHERE ${sql.ident('id')} = ${sql.param(liveId)}`);
  await db.execute(compiled.sql, compiled.params);
  await publishDraftLinks(db, meta, liveId, registry);
  await discardDraft(db, meta, liveId);
  return true;
}

/** Drops the live row's pending draft (Strapi 5's `discardDraft`) and its links; the live row is untouched. */
export async function discardDraft(db: Database, meta: ContentTypeMeta, liveId: number): Promise<void> {
  if (draftLinkFields(meta).length > 0) {
    const links = new SqlBuilder(db.dialect);
    const compiled = links.finish(`DELETE FROM ${links.ident(draftLinksTableOf(meta))} WHERE ${links.ident(liveIdColumn)} = ${links.param(liveId)}`);
    await db.execute(compiled.sql, compiled.params);
  }
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`DELETE FROM ${sql.ident(draftTableOf(meta))} WHERE ${sql.ident(liveIdColumn)} = ${sql.param(liveId)}`);
  await db.execute(compiled.sql, compiled.params);
}

/**
 * What the draft view reads for a link field of `meta` instead of its link table (a derived
 * table to alias as the link table is aliased, with the link table's column names): the
 * draft's links for entries that have a draft, the live links of the others. Static text.
 */
export function draftLinkFrom(meta: ContentTypeMeta, field: DraftLinkField, sql: SqlBuilder): string {
  const link = field.link;
  const dl = sql.ident('dl');
  const x = sql.ident('x');
  const d = sql.ident('d');
  const col = (alias: string, name: string) => `${alias}.${sql.ident(name)}`;
  const as = (expression: string, name: string) => `${expression} AS ${sql.ident(name)}`;
  return (
    `(SELECT ${[as(col(dl, 'id'), 'id'), as(col(dl, liveIdColumn), link.ownerColumn), as(col(dl, 'target_id'), link.targetColumn), as(col(dl, 'position'), link.orderColumn), as(col(dl, 'position'), link.inverseOrderColumn)].join(', ')} ` +
    `FROM ${sql.ident(draftLinksTableOf(meta))} ${dl} WHERE ${col(dl, 'field')} = ${literal(field.name)} ` +
    `UNION ALL SELECT ${[as(col(x, 'id'), 'id'), as(col(x, link.ownerColumn), link.ownerColumn), as(col(x, link.targetColumn), link.targetColumn), as(col(x, link.orderColumn), link.orderColumn), as(col(x, link.inverseOrderColumn), link.inverseOrderColumn)].join(', ')} ` +
    `FROM ${sql.ident(link.table)} ${x} WHERE NOT EXISTS (SELECT 1 FROM ${sql.ident(draftTableOf(meta))} ${d} WHERE ${col(d, liveIdColumn)} = ${col(x, link.ownerColumn)}))`
  );
}

/**
 * How a read spells the link table of `field` of `owner`: the draft view's (draftLinkFrom)
 * when `draftOwner` is that type (it reads its entries' drafts), else the link table.
 */
export function linkSource(sql: SqlBuilder, owner: ContentTypeMeta | undefined, field: { readonly name: string; readonly link?: LinkMeta }, draftOwner: ContentTypeMeta | undefined): string {
  const link = field.link!;
  const own = draftOwner && owner === draftOwner && draftOwner.draftAndPublish ? draftOwner.fields[field.name] : undefined;
  if (own === field && isDraftLinkField(draftOwner!, own)) return draftLinkFrom(draftOwner!, own, sql);
  return sql.ident(link.table);
}

/** The draft's target ids of one field, in order (targets that no longer exist left out when `target` is given). */
export async function draftLinkIds(db: Database, meta: ContentTypeMeta, liveId: number, field: string, target?: ContentTypeMeta): Promise<number[]> {
  const sql = new SqlBuilder(db.dialect);
  const dl = sql.ident('dl');
  const exists = target ? ` AND EXISTS (SELECT 1 FROM ${sql.ident(target.table)} ${sql.ident('t')} WHERE ${sql.ident('t')}.${sql.ident('id')} = ${dl}.${sql.ident('target_id')})` : '';
  const compiled = sql.finish(
    `SELECT ${dl}.${sql.ident('target_id')} AS ${sql.ident('target')} FROM ${sql.ident(draftLinksTableOf(meta))} ${dl} ` +
      `WHERE ${dl}.${sql.ident(liveIdColumn)} = ${sql.param(liveId)} AND ${dl}.${sql.ident('field')} = ${sql.param(field)}${exists} ` +
      `ORDER BY ${dl}.${sql.ident('position')} ASC, ${dl}.${sql.ident('id')} ASC`,
  );
  return (await db.query(compiled.sql, compiled.params)).map((row) => Number(row.target));
}

/**
 * Sets the links of one field of the draft of live row `liveId` (which must have a draft:
 * ensureDraft) to `ids`, in order. A draft without rows for a field has no links there, and
 * publishing it empties the live field: whatever writes drafts writes every link field (the
 * import of Strapi 5 pending drafts writes the same rows, generator/import/plan/documents.ts
 * `pendingDraftLinkRows`; the migration creating the table copies the live links). To-one
 * fields keep the last id. Ids are not checked here: the caller gives existing targets.
 */
export async function setDraftLinks(db: Database, meta: ContentTypeMeta, liveId: number, field: string, ids: readonly number[]): Promise<void> {
  const table = new SqlBuilder(db.dialect).ident(draftLinksTableOf(meta));
  const meta0 = meta.fields[field];
  const toMany = meta0?.kind === 'relation' ? meta0.toMany : meta0?.kind === 'media' ? meta0.multiple : true;
  const list = toMany ? [...new Set(ids)] : ids.slice(-1);
  const del = new SqlBuilder(db.dialect);
  const deleted = del.finish(`DELETE FROM ${table} WHERE ${del.ident(liveIdColumn)} = ${del.param(liveId)} AND ${del.ident('field')} = ${del.param(field)}`);
  await db.execute(deleted.sql, deleted.params);
  const rows = list.map((id, index) => [liveId, field, id, index + 1]);
  for (const batch of batches(rows, Math.floor(maxBoundParameters / 4))) {
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(
      `INSERT INTO ${table} (${[liveIdColumn, 'field', 'target_id', 'position'].map((c) => sql.ident(c)).join(', ')}) ` +
        `VALUES ${batch.map((row) => `(${row.map((value) => sql.param(value)).join(', ')})`).join(', ')}`,
    );
    await db.execute(compiled.sql, compiled.params);
  }
}

/**
 * A draft save's write of one link field (connect/disconnect/set with positions, as a live
 * write): applied to the draft's links only; nothing else moves until the draft is published.
 */
export async function writeDraftLinks(db: Database, meta: ContentTypeMeta, liveId: number, field: DraftLinkField, input: RelationInput): Promise<void> {
  const ids = input.kind === 'set' ? [...input.ids] : applyEdit(field.name, await draftLinkIds(db, meta, liveId, field.name), input);
  await setDraftLinks(db, meta, liveId, field.name, ids);
}

/** The draft's links as the live row's are now (when the draft is made). */
async function copyLiveLinks(db: Database, meta: ContentTypeMeta, liveId: number): Promise<void> {
  for (const field of draftLinkFields(meta)) {
    const link = field.link;
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(
      `SELECT ${sql.ident(link.targetColumn)} AS ${sql.ident('target')} FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(liveId)} ` +
        `ORDER BY ${sql.ident(link.orderColumn)} ASC, ${sql.ident('id')} ASC`,
    );
    const ids = (await db.query(compiled.sql, compiled.params)).map((row) => Number(row.target));
    if (ids.length > 0) await setDraftLinks(db, meta, liveId, field.name, ids);
  }
}

/** The draft's links onto the live links (publishing), as a live `set` of each field writes them. */
async function publishDraftLinks(db: Database, meta: ContentTypeMeta, liveId: number, registry: Registry | undefined): Promise<void> {
  for (const field of draftLinkFields(meta)) {
    const target = registry?.contentTypes.get(field.kind === 'relation' ? field.target : 'plugin::upload.file');
    const ids = await draftLinkIds(db, meta, liveId, field.name, target);
    await writeLinks(db, field, liveId, { kind: 'set', ids });
  }
}
