/**
 * Relation and media links (storage reference §5.2, §7.3), renumbered by the Strapi database
 * itself: `ROW_NUMBER()` over each owner's list (Strapi's order column, then link id: floats,
 * 0, ties) and over each target's list (its inverse order column when Strapi keeps one, else
 * link id). NULL orders sort where the source dialect sorts them, as Strapi read them.
 * Links whose owner or target is gone, and links contentgen's unique indexes refuse (a second
 * target of a to-one owner, a pair twice), are problems. A one-way oneToMany's target in
 * several entries is not one: Strapi's API makes such links (it moves targets of two-way
 * relations only) and contentgen keeps them as they are.
 */
import type { ProblemLog } from '../check/problems.js';
import type { StrapiSource } from '../source/types.js';
import type { StrapiLayout } from '../source/layout.js';
import { all } from '../source/all-rows.js';
import { keptLinkRows } from './documents.js';
import type { LinkPlan } from './plan.js';

export interface LinkRow {
  readonly id: number;
  readonly owner: number;
  readonly target: number;
  readonly order: number;
  readonly inverseOrder: number;
}

/**
 * The table a pair of relations `inversedBy` each other keeps its rows in (plan.ts
 * `pairedSource`): the one with rows; when both have some (Strapi started with one order, then
 * the other), the one its last start used, the table it made last (`strapi_database_schema`
 * lists them in the order it made them); the other's rows are said, as Strapi does not show them.
 */
export async function linkSourceInUse(source: StrapiSource, tables: ReadonlySet<string>, plan: LinkPlan, problems: ProblemLog): Promise<LinkPlan> {
  const paired = plan.pairedSource;
  if (!paired || !tables.has(paired.table)) return plan;
  const q = source.quote;
  const ids = async (table: string) => (tables.has(table) ? (await all(source.select(`SELECT id FROM ${q(table)} ORDER BY id`, [], {}))).map((r) => Number(r.id)) : []);
  const [own, other] = [await ids(plan.source.table), await ids(paired.table)];
  if (other.length === 0) return plan;
  if (own.length === 0) return { ...plan, source: paired };
  const made = await tablesInMadeOrder(source, tables);
  const [used, unused, left] = made.indexOf(paired.table) > made.indexOf(plan.source.table) ? [paired, plan.source, own] : [plan.source, paired, other];
  problems.add({
    level: 'notice',
    table: unused.table,
    kind: 'links of the other side of a pair',
    rows: left,
    message: `${plan.uid}.${plan.attribute} and the relation it is inversedBy are inversedBy each other: Strapi keeps their links in "${used.table}" or "${unused.table}", whichever side it registered last, and its last start read "${used.table}"`,
    fix: 'nothing: Strapi does not show these links either; they are left out (make one side mappedBy in Strapi to keep one table)',
  });
  return { ...plan, source: used };
}

/** Strapi's tables in the order its last start made them, from the schema it stored. */
async function tablesInMadeOrder(source: StrapiSource, tables: ReadonlySet<string>): Promise<string[]> {
  if (!tables.has('strapi_database_schema')) return [];
  const [row] = await all(source.select(`SELECT ${source.quote('schema')} AS s FROM ${source.quote('strapi_database_schema')} ORDER BY id DESC`, [], {}, 1));
  if (!row) return [];
  const schema = typeof row.s === 'string' ? JSON.parse(row.s) : row.s;
  return ((schema as { tables?: { name: string }[] })?.tables ?? []).map((t) => t.name);
}

export async function* readLinks(source: StrapiSource, tables: ReadonlySet<string>, plan: LinkPlan, problems: ProblemLog, layout: StrapiLayout): AsyncGenerator<LinkRow[]> {
  const q = source.quote;
  const media = plan.kind === 'media';
  const table = media ? layout.mediaMorphs : plan.source.table;
  if (!tables.has(table) || !tables.has(plan.ownerTable.source) || !tables.has(plan.targetTable.source)) return;
  const columns = new Set(await source.columns(table));
  const ownerColumn = media ? 'related_id' : plan.source.ownerColumn;
  const targetColumn = media ? 'file_id' : plan.source.targetColumn;
  const owner = `l.${q(ownerColumn)}`;
  const target = `l.${q(targetColumn)}`;
  // Strapi 5: the kept rows' links (plan/documents.ts). Links of rows that are gone are left
  // out there too: Strapi 5 leaves a replaced published row's files_related_mph rows behind.
  const from = layout.documents
    ? await keptLinkRows(source, table, { column: ownerColumn, table: plan.ownerTable.source }, { column: targetColumn, table: plan.targetTable.source })
    : q(table);
  const order = media ? `l.${q('order')}, l.id` : columns.has(plan.source.orderColumn) ? `l.${q(plan.source.orderColumn)}, l.id` : 'l.id';
  const inverse = !media && columns.has(plan.source.inverseOrderColumn) ? `l.${q(plan.source.inverseOrderColumn)}, l.id` : 'l.id';
  const sql =
    `SELECT l.id AS id, ${owner} AS o, ${target} AS t, ` +
    `ROW_NUMBER() OVER (PARTITION BY ${owner} ORDER BY ${order}) AS oo, ` +
    `ROW_NUMBER() OVER (PARTITION BY ${target} ORDER BY ${inverse}) AS io, ` +
    `ROW_NUMBER() OVER (PARTITION BY ${owner}, ${target} ORDER BY l.id) AS pn, ` +
    `CASE WHEN ow.id IS NULL THEN 1 ELSE 0 END AS om, CASE WHEN tg.id IS NULL THEN 1 ELSE 0 END AS tm ` +
    `FROM ${from} l LEFT JOIN ${q(plan.ownerTable.source)} ow ON ow.id = ${owner} LEFT JOIN ${q(plan.targetTable.source)} tg ON tg.id = ${target}` +
    (media ? ` WHERE l.related_type = ? AND l.field = ?` : '') +
    ` ORDER BY l.id`;
  const where = `${plan.uid}.${plan.attribute}`;
  for await (const batch of source.select(sql, media ? [plan.uid, plan.attribute] : [], {})) {
    const out: LinkRow[] = [];
    for (const r of batch) {
      const row = { id: Number(r.id), owner: Number(r.o), target: Number(r.t), order: Number(r.oo), inverseOrder: Number(r.io) };
      const refuse = (kind: string, message: string, fix: string) => problems.add({ level: 'error', table, kind, rows: [row.id], message: `${where}: ${message}`, fix });
      if (Number(r.om) || Number(r.tm)) {
        const gone = Number(r.om) ? `${plan.ownerTable.source} id ${row.owner}` : `${plan.targetTable.source} id ${row.target}`;
        refuse('dangling link', `links ${gone}, which does not exist`, 'delete these link rows in Strapi (or --skip-invalid leaves them out): Strapi shows nothing for them either');
      } else if (Number(r.pn) > 1) {
        refuse('duplicate link', `links ${plan.ownerTable.source} id ${row.owner} to ${plan.targetTable.source} id ${row.target} more than once`, 'contentgen keeps a pair once: remove the extra link in Strapi (or --skip-invalid keeps the first)');
      } else if (plan.ownerSingle && row.order > 1) {
        refuse('to-one with several targets', `${plan.ownerTable.source} id ${row.owner} has more than one ${plan.attribute} (a to-one field)`, 'keep one in Strapi (or --skip-invalid keeps the first by Strapi\'s order)');
      } else {
        out.push(row);
      }
    }
    if (out.length) yield out;
  }
}

/** An i18n type's localization groups (§8.3): the entries connected by its links, each member's locale. */
export interface LocalizationGroups {
  /** Strapi's links, in their order (an entry's list keeps it). */
  readonly ranked: readonly LinkRow[];
  /** Each group's entry ids, smallest first. */
  readonly groups: readonly (readonly number[])[];
  readonly locales: ReadonlyMap<number, string>;
}

export async function readLocalizationGroups(source: StrapiSource, tables: ReadonlySet<string>, plan: LinkPlan, problems: ProblemLog, layout: StrapiLayout): Promise<LocalizationGroups> {
  const ranked: LinkRow[] = [];
  for await (const batch of readLinks(source, tables, plan, problems, layout)) ranked.push(...batch);
  const parent = new Map<number, number>();
  const find = (x: number): number => {
    let root = x;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root)!;
    parent.set(x, root);
    return root;
  };
  for (const l of ranked) {
    const [a, b] = [find(l.owner), find(l.target)];
    if (a !== b) parent.set(Math.max(a, b), Math.min(a, b));
  }
  const groups = new Map<number, number[]>();
  for (const id of parent.keys()) {
    const root = find(id);
    groups.set(root, [...(groups.get(root) ?? []), id]);
  }
  for (const members of groups.values()) members.sort((a, b) => a - b);
  const locales = await reportLocaleClashes(source, plan, [...groups.values()], problems);
  return { ranked, groups: [...groups.values()], locales };
}

/**
 * An i18n type's localization links made whole: every member of a group linked to every
 * other both ways. Within an entry's list, Strapi's own order first (its order column, then
 * link id), then the rest by id.
 */
export function localizationLinks({ ranked, groups }: LocalizationGroups): LinkRow[] {
  const rank = new Map(ranked.map((l) => [`${l.owner}#${l.target}`, l.order]));
  const pairs: { owner: number; target: number; order: number }[] = [];
  for (const members of groups) {
    for (const m of members) {
      const others = members.filter((x) => x !== m).sort((x, y) => (rank.get(`${m}#${x}`) ?? Infinity) - (rank.get(`${m}#${y}`) ?? Infinity) || x - y);
      others.forEach((x, i) => pairs.push({ owner: m, target: x, order: i + 1 }));
    }
  }
  const position = new Map(pairs.map((p) => [`${p.owner}#${p.target}`, p.order]));
  return pairs.map((p, i) => ({ id: i + 1, owner: p.owner, target: p.target, order: p.order, inverseOrder: position.get(`${p.target}#${p.owner}`)! }));
}

/**
 * The documentId of every grouped entry (docs/strapi5.md "Identity"): a group's localizations
 * share one; an entry repeating a locale its group already has is a document of its own
 * (documentIds are unique per locale). Entries in no group are left out: each gets a new one.
 */
export function groupDocumentIds({ groups, locales }: LocalizationGroups, newId: () => string): Map<number, string> {
  const ids = new Map<number, string>();
  for (const members of groups) {
    const shared = newId();
    const seen = new Set<string>();
    for (const id of members) {
      const locale = locales.get(id) ?? 'null';
      ids.set(id, seen.has(locale) ? newId() : shared);
      seen.add(locale);
    }
  }
  return ids;
}

/** A localization group with two entries of one locale: kept, but contentgen shows one per locale. */
async function reportLocaleClashes(source: StrapiSource, plan: LinkPlan, groups: readonly number[][], problems: ProblemLog): Promise<Map<number, string>> {
  const ids = groups.flat();
  const locales = new Map<number, string>();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    for await (const batch of source.select(`SELECT id, locale FROM ${source.quote(plan.ownerTable.source)} WHERE id IN (${chunk.join(', ')})`, [], {})) {
      for (const r of batch) locales.set(Number(r.id), String(r.locale));
    }
  }
  for (const members of groups) {
    const seen = new Map<string, number>();
    for (const id of members) {
      const locale = locales.get(id) ?? 'null';
      if (!seen.has(locale)) {
        seen.set(locale, id);
        continue;
      }
      problems.add({
        level: 'notice',
        table: plan.source.table,
        kind: 'locale twice in a group',
        rows: [seen.get(locale)!, id],
        message: `entries ${seen.get(locale)} and ${id} of ${plan.ownerTable.source} are localizations of each other in the same locale "${locale}"`,
        fix: 'kept as they are; unlink one of them in Strapi first if the group should have one entry per locale',
      });
    }
  }
  return locales;
}
