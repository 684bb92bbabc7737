/**
 * Strapi 4's and Strapi 5's table layouts (docs/moving-from-strapi.md "Strapi 5"). Strapi 5
 * (`@strapi/database` utils/identifiers, MAX_DB_IDENTIFIER_LENGTH 0: names are not shortened)
 * keeps v4's tables and columns but renames the suffixes of its own tables:
 *
 *   link tables         `<table>_<field>_links` → `_lnk`, order columns `<x>_order` → `<x>_ord`
 *   component joins     `<table>_components` → `<table>_cmps`, `component_id` → `cmp_id`
 *   morph tables        `files_related_morphs` → `files_related_mph`, `_morphs` → `_mph`
 *
 * and adds `document_id` to every content type's table, with two rows per document of a
 * draft-and-publish type (plan/documents.ts). The plan names source tables through a layout,
 * so every reader after it works on either.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { StrapiSource } from './types.js';

export interface StrapiLayout {
  readonly strapi: 4 | 5;
  /** A link table as this layout names it, from Strapi 4's natural name (`…_links`). */
  linkTable(v4Name: string): string;
  /** An order column of a link table, from Strapi 4's name (`…_order`). */
  orderColumn(v4Name: string): string;
  /** An owner's component join table, from the owner's table. */
  componentsTable(ownerTable: string): string;
  /** A morphToMany's table, from Strapi 4's name (`…_morphs`). */
  morphTable(v4Name: string): string;
  /** The join tables' column naming the component row. */
  readonly componentIdColumn: string;
  /** The table of every media link. */
  readonly mediaMorphs: string;
  /** Rows are documents' versions: `document_id`, a draft and a published row per document. */
  readonly documents: boolean;
}

const suffix = (from: string, to: string) => (name: string) => (name.endsWith(from) ? `${name.slice(0, -from.length)}${to}` : name);

export const strapi4Layout: StrapiLayout = {
  strapi: 4,
  linkTable: (name) => name,
  orderColumn: (name) => name,
  componentsTable: (table) => `${table}_components`,
  morphTable: (name) => name,
  componentIdColumn: 'component_id',
  mediaMorphs: 'files_related_morphs',
  documents: false,
};

export const strapi5Layout: StrapiLayout = {
  strapi: 5,
  linkTable: suffix('_links', '_lnk'),
  orderColumn: suffix('_order', '_ord'),
  componentsTable: (table) => `${table}_cmps`,
  morphTable: suffix('_morphs', '_mph'),
  componentIdColumn: 'cmp_id',
  mediaMorphs: 'files_related_mph',
  documents: true,
};

/**
 * Which Strapi wrote the database: its tables say it (Strapi 5's `files_related_mph`, `_lnk`
 * tables, `document_id` on `up_roles`, which every Strapi 5 database has); an empty database
 * says nothing, so then the project's `@strapi/strapi` version does. `why` is for the report.
 */
export async function detectLayout(source: StrapiSource, tables: ReadonlySet<string>, project: string): Promise<{ layout: StrapiLayout; why: string }> {
  if (tables.has('files_related_mph') || [...tables].some((t) => t.endsWith('_lnk'))) return { layout: strapi5Layout, why: 'its link tables are Strapi 5\'s (`_lnk`, `files_related_mph`)' };
  if (tables.has('up_roles') && (await source.columns('up_roles')).includes('document_id')) return { layout: strapi5Layout, why: 'its tables have Strapi 5\'s `document_id`' };
  if (tables.has('files_related_morphs') || [...tables].some((t) => t.endsWith('_links'))) return { layout: strapi4Layout, why: 'its link tables are Strapi 4\'s (`_links`)' };
  const major = projectStrapiMajor(project);
  return major !== undefined && major >= 5 ? { layout: strapi5Layout, why: `the project depends on @strapi/strapi ${major}` } : { layout: strapi4Layout, why: 'no Strapi 5 table found' };
}

/** The major version of `@strapi/strapi` in the project's package.json, if it says one. */
function projectStrapiMajor(project: string): number | undefined {
  for (const dir of [project, path.dirname(project)]) {
    const file = path.join(dir, 'package.json');
    if (!existsSync(file)) continue;
    try {
      const json = JSON.parse(readFileSync(file, 'utf8')) as { dependencies?: Record<string, string> };
      const match = /(\d+)/.exec(json.dependencies?.['@strapi/strapi'] ?? '');
      if (match) return Number(match[1]);
    } catch {
      return undefined;
    }
  }
  return undefined;
}
