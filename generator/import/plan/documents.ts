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
import type { StrapiSource } from '../source/types.js';
import { all } from '../source/all-rows.js';
import type { LocalizationGroups } from './links.js';

/** `a` and `b` name the same locale (both NULL on a type without locales). */
export const sameLocale = (a: string, b: string) => `(${a}.locale = ${b}.locale OR (${a}.locale IS NULL AND ${b}.locale IS NULL))`;

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
