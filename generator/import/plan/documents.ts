/**
 * Strapi 5's documents (docs/moving-from-strapi.md "Strapi 5"): every row of a content type's
 * table carries its document's `document_id` and `locale`; a draft-and-publish document has a
 * draft row (`published_at` NULL) and, once published, a published row with another id; each
 * row has its own components, links and media links. contentgen keeps one entry per document
 * and locale: its **kept row** is the published row when there is one (the live version, which
 * the links of the other published rows point at), else the draft (a never-published entry).
 * Types without draft & publish have one, published, row per document.
 *
 * Links of a kept row may point at a row that is not kept (a draft's link to a document
 * published since): `rowMap` sends every row to its document's kept row. All of it is SQL that
 * SQLite, PostgreSQL and MySQL run alike, so it reads a database of any size where it is.
 */
import type { ProblemLog } from '../check/problems.js';
import type { StrapiLayout } from '../source/layout.js';
import type { NormalizedRow, StrapiSource } from '../source/types.js';
import { liveIdColumn } from '../../../templates/runtime/entity/drafts.js';
import { all } from '../source/all-rows.js';
import type { LocalizationGroups } from './links.js';
import type { LinkPlan } from './plan.js';

/** `a` and `b` name the same locale (both NULL on a type without locales). */
const sameLocale = (a: string, b: string) => `(${a}.locale = ${b}.locale OR (${a}.locale IS NULL AND ${b}.locale IS NULL))`;

/** The condition of a kept row `k` of `table`. */
function keptCondition(source: StrapiSource, table: string, k: string): string {
  const q = source.quote;
  return `(${k}.published_at IS NOT NULL OR NOT EXISTS (SELECT 1 FROM ${q(table)} p WHERE p.document_id = ${k}.document_id AND ${sameLocale('p', k)} AND p.published_at IS NOT NULL))`;
}

/** A derived table (parenthesised, without alias) of the kept rows of `table`, every column. */
export function keptRows(source: StrapiSource, table: string): string {
  return `(SELECT k.* FROM ${source.quote(table)} k WHERE ${keptCondition(source, table, 'k')})`;
}

/** A derived table `(row_id, kept_id)`: every row of `table` and its document's kept row. */
export function rowMap(source: StrapiSource, table: string): string {
  const q = source.quote;
  return `(SELECT s.id AS row_id, k.id AS kept_id FROM ${q(table)} s JOIN ${q(table)} k ON k.document_id = s.document_id AND ${sameLocale('k', 's')} AND ${keptCondition(source, table, 'k')})`;
}

/**
 * A derived table of a link table's rows as Strapi 4 would have held them for the kept rows:
 * rows of owners that are not kept left out (a draft's links, when its document is published),
 * targets sent to their document's kept row. `ownerTable`/`targetTable` undefined: that side
 * is not a content type's row (a component, a file of `files_related_mph`'s owner types…) and
 * is taken as it is.
 */
export async function keptLinkRows(
  source: StrapiSource,
  table: string,
  owner: { readonly column: string; readonly table?: string },
  target: { readonly column: string; readonly table?: string },
): Promise<string> {
  const q = source.quote;
  const columns = (await source.columns(table)).filter((c) => c !== target.column).map((c) => `l.${q(c)}`);
  const targetValue = target.table ? `COALESCE(m.kept_id, l.${q(target.column)})` : `l.${q(target.column)}`;
  return (
    `(SELECT ${[...columns, `${targetValue} AS ${q(target.column)}`].join(', ')} FROM ${q(table)} l` +
    (owner.table ? ` JOIN ${keptRows(source, owner.table)} o ON o.id = l.${q(owner.column)}` : '') +
    (target.table ? ` LEFT JOIN ${rowMap(source, target.table)} m ON m.row_id = l.${q(target.column)}` : '') +
    ')'
  );
}

/**
 * The localization groups of a localized type (links.ts LocalizationGroups): in Strapi 5 the
 * kept rows sharing a `document_id` (there is no localizations link table).
 */
export async function documentLocalizationGroups(source: StrapiSource, table: string): Promise<LocalizationGroups> {
  const rows = await all(source.select(`SELECT d.id AS id, d.document_id AS doc, d.locale AS locale FROM ${keptRows(source, table)} d ORDER BY d.document_id, d.id`, [], {}));
  const byDocument = new Map<string, number[]>();
  const locales = new Map<number, string>();
  for (const r of rows) {
    const doc = String(r.doc);
    byDocument.set(doc, [...(byDocument.get(doc) ?? []), Number(r.id)]);
    locales.set(Number(r.id), String(r.locale));
  }
  return { ranked: [], groups: [...byDocument.values()].filter((ids) => ids.length > 1), locales };
}

/** A published document's draft row holding edits not published (Strapi 5's `publicationFilter=modified`). */
export interface PendingDraft {
  readonly uid: string;
  readonly table: string;
  readonly documentId: string;
  readonly locale: string | null;
  readonly draftId: number;
  readonly publishedId: number;
}

/**
 * The pending drafts of a type: a draft row updated after its document's published row, as
 * Strapi 5 tells them (`modified`: the draft's `updated_at` later than the published row's;
 * publishing copies the draft's `updated_at` onto the published row).
 */
export async function pendingDrafts(source: StrapiSource, uid: string, table: string): Promise<PendingDraft[]> {
  const q = source.quote;
  const sql =
    `SELECT d.id AS draft, p.id AS published, d.document_id AS doc, d.locale AS locale FROM ${q(table)} d ` +
    `JOIN ${q(table)} p ON p.document_id = d.document_id AND ${sameLocale('p', 'd')} AND p.published_at IS NOT NULL ` +
    `WHERE d.published_at IS NULL AND d.updated_at > p.updated_at ORDER BY d.id`;
  return (await all(source.select(sql, [], {}))).map((r) => ({
    uid,
    table,
    documentId: String(r.doc),
    locale: r.locale === null ? null : String(r.locale),
    draftId: Number(r.draft),
    publishedId: Number(r.published),
  }));
}

/**
 * The links of pending drafts that differ from their published rows' (relations of the type's
 * own link tables, media of `files_related_mph`), by draft row: the attributes whose targets
 * (each sent to its document's kept row, in Strapi's order) are not the published row's.
 * contentgen's draft table has no links of its own yet (a draft's relations and media are its
 * live row's, docs/strapi5.md "Drafts"), so these are what the import cannot keep.
 */
export async function pendingDraftLinkChanges(
  source: StrapiSource,
  tables: ReadonlySet<string>,
  drafts: readonly PendingDraft[],
  links: readonly LinkPlan[],
  layout: StrapiLayout,
): Promise<Map<number, string[]>> {
  const q = source.quote;
  const changed = new Map<number, string[]>();
  if (drafts.length === 0) return changed;
  const ids = drafts.flatMap((d) => [d.draftId, d.publishedId]).join(', ');
  const compare = (attribute: string, targets: ReadonlyMap<number, number[]>) => {
    for (const d of drafts) {
      if (JSON.stringify(targets.get(d.draftId) ?? []) === JSON.stringify(targets.get(d.publishedId) ?? [])) continue;
      changed.set(d.draftId, [...(changed.get(d.draftId) ?? []), attribute]);
    }
  };
  const grouped = (rows: readonly NormalizedRow[], key: (r: NormalizedRow) => string) => {
    const out = new Map<string, Map<number, number[]>>();
    for (const r of rows) {
      const byOwner = out.get(key(r)) ?? new Map<number, number[]>();
      out.set(key(r), byOwner);
      byOwner.set(Number(r.o), [...(byOwner.get(Number(r.o)) ?? []), Number(r.t)]);
    }
    return out;
  };
  for (const link of links) {
    if (link.kind === 'localizations') continue;
    if (link.kind === 'media') continue;
    if (!tables.has(link.source.table) || !tables.has(link.targetTable.source)) continue;
    const columns = await source.columns(link.source.table);
    const order = columns.includes(link.source.orderColumn) ? `l.${q(link.source.orderColumn)}, ` : '';
    const rows = await all(
      source.select(
        `SELECT l.${q(link.source.ownerColumn)} AS o, COALESCE(m.kept_id, l.${q(link.source.targetColumn)}) AS t FROM ${q(link.source.table)} l ` +
          `LEFT JOIN ${rowMap(source, link.targetTable.source)} m ON m.row_id = l.${q(link.source.targetColumn)} ` +
          `WHERE l.${q(link.source.ownerColumn)} IN (${ids}) ORDER BY l.${q(link.source.ownerColumn)}, ${order}l.id`,
        [],
        {},
      ),
    );
    compare(link.attribute, grouped(rows, () => link.attribute).get(link.attribute) ?? new Map());
  }
  const media = links.filter((l) => l.kind === 'media');
  if (media.length && tables.has(layout.mediaMorphs)) {
    const rows = await all(
      source.select(
        `SELECT related_id AS o, file_id AS t, field FROM ${q(layout.mediaMorphs)} WHERE related_type = ? AND related_id IN (${ids}) ORDER BY related_id, field, ${q('order')}, id`,
        [drafts[0]!.uid],
        {},
      ),
    );
    const byField = grouped(rows, (r) => String(r.field));
    for (const link of media) compare(link.attribute, byField.get(link.attribute) ?? new Map());
  }
  return changed;
}

/**
 * What the import does with pending drafts (docs/strapi5.md "Import from Strapi 5"): each is
 * written to the type's draft table (`rows`, from `entryBatches` over the draft rows) as the
 * draft of its imported live row. Its relations and media cannot be kept there (`linkChanges`):
 * a draft whose links differ from its published row's is a notice naming them, its links are
 * the live row's.
 */
export function pendingDraftRows(
  drafts: readonly PendingDraft[],
  batch: { readonly columns: readonly string[]; readonly rows: readonly unknown[][] },
  keep: { readonly columns: ReadonlySet<string>; readonly firstId: number },
): { columns: string[]; rows: unknown[][] } {
  const liveOf = new Map(drafts.map((d) => [d.draftId, d.publishedId]));
  const idAt = batch.columns.indexOf('id');
  const kept = batch.columns.map((c, i) => [c, i] as const).filter(([c]) => c !== 'id' && keep.columns.has(c));
  let next = keep.firstId;
  return {
    columns: ['id', liveIdColumn, ...kept.map(([c]) => c)],
    rows: batch.rows.map((row) => [next++, liveOf.get(Number(row[idAt]))!, ...kept.map(([, i]) => row[i])]),
  };
}

/** The report of pending drafts whose relations or media could not be kept (`pendingDraftLinkChanges`). */
export function reportPendingDraftLinks(drafts: readonly PendingDraft[], changes: ReadonlyMap<number, readonly string[]>, problems: ProblemLog): void {
  for (const d of drafts) {
    const fields = changes.get(d.draftId);
    if (!fields?.length) continue;
    problems.add({
      level: 'notice',
      table: d.table,
      kind: 'pending draft links',
      rows: [d.draftId],
      message: `${d.uid} document ${d.documentId}${d.locale ? ` (${d.locale})` : ''} has unpublished edits of ${fields.join(', ')} (draft row ${d.draftId}, published row ${d.publishedId}): its draft is imported with the published version's ${fields.join(', ')}`,
      fix: 'publish the draft in Strapi before importing to keep these edits, or make them again in contentgen once a draft keeps its own relations and media',
    });
  }
}
