/**
 * Strapi 5's pending drafts (docs/strapi5.md "Import from Strapi 5"): a published document's
 * draft row holding edits not published is kept as the draft of the imported live row
 * (`<table>_drafts`), with its own relations and media (`<table>_drafts_lnk`).
 */
import type { StrapiLayout } from '../source/layout.js';
import type { StrapiSource } from '../source/types.js';
import { liveIdColumn } from '../../../templates/runtime/entity/drafts.js';
import { all } from '../source/all-rows.js';
import type { LinkPlan, MorphTablePlan } from './plan.js';
import type { LinkStorage } from '../../ir/types.js';
import { ProblemLog } from '../check/problems.js';
import { keptRows, rowMap, sameLocale } from './documents.js';
import { linkSourceInUse } from './links.js';

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

/** A link field of a draft & publish type (relation with a link table, or media): what its drafts keep in `<table>_drafts_lnk`. */
export interface DraftLinkField {
  readonly name: string;
  readonly kind: 'relation' | 'media';
  /** contentgen's link table of the field (`owning`: the field's type declares it). */
  readonly link: LinkStorage;
  readonly toMany: boolean;
}

/**
 * The link rows of pending drafts (`<table>_drafts_lnk`: live id, field, target id, position
 * from 1): each draft row's own links in Strapi 5 (its rows of the link tables and of
 * `files_related_mph`), in Strapi's order, every target sent to its document's kept row (a
 * draft row links its targets' draft rows; the import keeps their documents' published rows),
 * targets that no longer exist left out. A draft whose links are its published row's gets
 * the live links; every link field is written (a draft without rows for a field has none there).
 */
export async function pendingDraftLinkRows(
  source: StrapiSource,
  tables: ReadonlySet<string>,
  drafts: readonly PendingDraft[],
  fields: readonly DraftLinkField[],
  links: readonly LinkPlan[],
  layout: StrapiLayout,
): Promise<unknown[][]> {
  const q = source.quote;
  const out: unknown[][] = [];
  if (drafts.length === 0) return out;
  const ids = drafts.map((d) => d.draftId).join(', ');
  const uid = drafts[0]!.uid;
  for (const field of fields) {
    let sql: string;
    let params: unknown[] = [];
    if (field.kind === 'media') {
      const plan = links.find((l) => l.kind === 'media' && l.uid === uid && l.attribute === field.name);
      if (!plan || !tables.has(layout.mediaMorphs) || !tables.has(plan.targetTable.source)) continue;
      sql =
        `SELECT l.related_id AS o, m.kept_id AS t FROM ${q(layout.mediaMorphs)} l JOIN ${rowMap(source, plan.targetTable.source)} m ON m.row_id = l.file_id ` +
        `WHERE l.related_type = ? AND l.field = ? AND l.related_id IN (${ids}) ORDER BY l.related_id, l.${q('order')}, l.id`;
      params = [uid, field.name];
    } else {
      const planned = links.find((l) => l.kind === 'relation' && l.target.table === field.link.table);
      if (!planned) continue;
      // The table Strapi keeps a pair inversedBy each other in (its notice is the live links').
      const plan = await linkSourceInUse(source, tables, planned, new ProblemLog());
      const owning = field.link.owning;
      const [ownerColumn, targetColumn, orderColumn] = owning
        ? [plan.source.ownerColumn, plan.source.targetColumn, plan.source.orderColumn]
        : [plan.source.targetColumn, plan.source.ownerColumn, plan.source.inverseOrderColumn];
      const targetTable = owning ? plan.targetTable.source : plan.ownerTable.source;
      if (!tables.has(plan.source.table) || !tables.has(targetTable)) continue;
      const order = (await source.columns(plan.source.table)).includes(orderColumn) ? `l.${q(orderColumn)}, ` : '';
      sql =
        `SELECT l.${q(ownerColumn)} AS o, m.kept_id AS t FROM ${q(plan.source.table)} l JOIN ${rowMap(source, targetTable)} m ON m.row_id = l.${q(targetColumn)} ` +
        `WHERE l.${q(ownerColumn)} IN (${ids}) ORDER BY l.${q(ownerColumn)}, ${order}l.id`;
    }
    const targets = new Map<number, number[]>();
    for (const r of await all(source.select(sql, params, {}))) {
      const list = targets.get(Number(r.o)) ?? [];
      if (!list.includes(Number(r.t))) list.push(Number(r.t));
      targets.set(Number(r.o), list);
    }
    for (const d of drafts) {
      const list = targets.get(d.draftId) ?? [];
      (field.toMany ? list : list.slice(0, 1)).forEach((target, i) => out.push([d.publishedId, field.name, target, i + 1]));
    }
  }
  return out;
}

/**
 * The polymorphic relations (morphToMany tables) of pending drafts that differ from their
 * published rows', by draft row: a draft keeps no polymorphic links of its own (its live
 * row's are read and published), so these are what the import cannot keep.
 */
export async function pendingDraftMorphChanges(source: StrapiSource, tables: ReadonlySet<string>, drafts: readonly PendingDraft[], morphs: readonly MorphTablePlan[]): Promise<Map<number, string[]>> {
  const q = source.quote;
  const changed = new Map<number, string[]>();
  if (drafts.length === 0) return changed;
  const ids = drafts.flatMap((d) => [d.draftId, d.publishedId]).join(', ');
  for (const morph of morphs) {
    const table = morph.source.table;
    if (!tables.has(table)) continue;
    const order = (await source.columns(table)).includes('order') ? `${q('order')}, ` : '';
    const rows = await all(
      source.select(
        `SELECT ${q(morph.source.ownerColumn)} AS o, ${q(morph.source.typeColumn)} AS ty, ${q(morph.source.idColumn)} AS t FROM ${q(table)} WHERE ${q(morph.source.ownerColumn)} IN (${ids}) ORDER BY ${q(morph.source.ownerColumn)}, ${order}id`,
        [],
        {},
      ),
    );
    const targets = new Map<number, string[]>();
    for (const r of rows) targets.set(Number(r.o), [...(targets.get(Number(r.o)) ?? []), `${String(r.ty)}#${String(r.t)}`]);
    for (const d of drafts) {
      if (JSON.stringify(targets.get(d.draftId) ?? []) === JSON.stringify(targets.get(d.publishedId) ?? [])) continue;
      changed.set(d.draftId, [...(changed.get(d.draftId) ?? []), morph.attribute]);
    }
  }
  return changed;
}

/**
 * What the import does with pending drafts (docs/strapi5.md "Import from Strapi 5"): each is
 * written to the type's draft table (`rows`, from `entryBatches` over the draft rows) as the
 * draft of its imported live row; its relations and media are rows of `<table>_drafts_lnk`
 * (`pendingDraftLinkRows`), its polymorphic relations its live row's (`reportPendingDraftLinks`).
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

/** The report of pending drafts whose polymorphic relations could not be kept (`pendingDraftMorphChanges`). */
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
      fix: 'publish the draft in Strapi before importing to keep these edits, or make them again in contentgen (a draft keeps no polymorphic relations of its own)',
    });
  }
}
