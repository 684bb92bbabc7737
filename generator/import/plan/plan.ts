/**
 * What each Strapi table becomes, decided from the IR the build makes, twice: once for the
 * Strapi database's dialect (its table and column names, PostgreSQL's cut ones included) and
 * once for the server's (contentgen's names). contentgen names tables and columns as Strapi
 * does (ir/identifiers.ts), so the two differ only where a database shortens names.
 *
 * Users, roles, permissions, API tokens and webhooks are not planned here (generator/import/auth/).
 */
import { ownedLink } from '../../ir/build-ir.js';
import { cutToBytes } from '../../ir/identifiers.js';
import { snakeCase } from '../../ir/names.js';
import type { Attribute, Component, ContentType, LinkStorage, MorphTableStorage, Schema, ScalarType } from '../../ir/types.js';
import { strapi4Layout, type StrapiLayout } from '../source/layout.js';
import type { SourceDialect } from '../source/types.js';

const userUid = 'plugin::users-permissions.user';

/** Types whose rows the auth import (or the server itself, from files) writes. */
export const notPlannedTypes: ReadonlySet<string> = new Set([
  'plugin::users-permissions.user',
  'plugin::users-permissions.role',
  'plugin::users-permissions.permission',
]);

export interface ColumnMap {
  readonly attribute: string;
  readonly source: string;
  readonly target: string;
  readonly type: ScalarType;
  /** contentgen keeps a unique index on it (Strapi checked `unique` in code only). */
  readonly unique: boolean;
}

export interface ComponentField {
  readonly attribute: string;
  /** JSON column on the owner in contentgen. */
  readonly target: string;
  readonly kind: 'component' | 'dynamiczone';
  readonly repeatable: boolean;
}

export interface EntryPlan {
  readonly uid: string;
  readonly sourceTable: string;
  readonly targetTable: string;
  readonly columns: readonly ColumnMap[];
  /** Columns copied as they are (a morphToOne's `target_id`, `target_type`). */
  readonly rawColumns: readonly { readonly source: string; readonly target: string }[];
  readonly componentFields: readonly ComponentField[];
  /** Strapi's `<table>_components` (Strapi 5: `_cmps`). */
  readonly componentsTable: string;
  readonly localized: boolean;
}

export interface LinkSource {
  readonly table: string;
  readonly ownerColumn: string;
  readonly targetColumn: string;
  /** Strapi's order of targets in the owner's list, when its table has it. */
  readonly orderColumn: string;
  /** Strapi's order of owners in the target's list, when its table has it. */
  readonly inverseOrderColumn: string;
}

export interface LinkPlan {
  readonly uid: string;
  readonly attribute: string;
  /** `relation`: Strapi's link table; `media`: `files_related_morphs` rows of this type and field; `localizations`: groups made whole. */
  readonly kind: 'relation' | 'media' | 'localizations';
  readonly source: LinkSource;
  readonly target: LinkStorage;
  readonly ownerTable: { readonly source: string; readonly target: string };
  readonly targetTable: { readonly source: string; readonly target: string };
  /** The owner holds one target: contentgen keeps UNIQUE(owner). */
  readonly ownerSingle: boolean;
  /**
   * Two relations `inversedBy` each other (both owning sides, as across a plugin type and an
   * api type): Strapi makes a table for each and keeps the pair in the one of the side it
   * registered last, which its parallel loading of api and plugin types decides. `source` is
   * the one the build reads (ir/relations.ts: plugin types last); this is the other side's,
   * read from this side (columns swapped). links.ts `linkSourceInUse` reads the one with rows.
   */
  readonly pairedSource?: LinkSource;
}

/** A morphToMany's table, the same in both: copied row by row. */
export interface MorphTablePlan {
  readonly uid: string;
  readonly attribute: string;
  readonly source: MorphTableStorage;
  readonly target: MorphTableStorage;
}

export interface ComponentPlan {
  readonly uid: string;
  readonly sourceTable: string;
  /** Its own `<table>_components` for nested components. */
  readonly componentsTable: string;
  /** Attributes in declared order, `id` first, as the JSON keys go. */
  readonly attributes: readonly Attribute[];
  /** Source column of each scalar attribute. */
  readonly columns: Readonly<Record<string, string>>;
  /** Relations inside it: Strapi's `<component table>_<attr>_links` (Strapi 5: `_lnk`), and the table of the type they link to. */
  readonly relations: Readonly<Record<string, { readonly table: string; readonly ownerColumn: string; readonly targetColumn: string; readonly orderColumn: string; readonly toMany: boolean; readonly targetTable: string }>>;
}

export interface ImportPlan {
  readonly entries: readonly EntryPlan[];
  readonly links: readonly LinkPlan[];
  readonly morphTables: readonly MorphTablePlan[];
  readonly components: ReadonlyMap<string, ComponentPlan>;
  /** Scalar type of every column of every planned table, for decoding: by source table. */
  readonly sourceTypes: ReadonlyMap<string, Readonly<Record<string, ScalarType>>>;
  /** Strapi 4's or Strapi 5's tables (source/layout.ts). */
  readonly layout: StrapiLayout;
}

/** A name as the Strapi database keeps it: PostgreSQL cut it to 63 bytes, the others never had longer ones. */
export function sourceName(natural: string, dialect: SourceDialect): string {
  return dialect === 'postgresql' ? cutToBytes(natural, 63) : natural;
}

/**
 * `layout`: the source's table names are Strapi 4's as the IR makes them, renamed for Strapi 5.
 * (A PostgreSQL name is renamed after the IR cut it to 63 bytes: right for every name shorter
 * than that, which Strapi 5's `_lnk` makes the common case.)
 */
export function planImport(source: Schema, target: Schema, dialect: SourceDialect, layout: StrapiLayout = strapi4Layout): ImportPlan {
  const targetTypes = new Map(target.contentTypes.map((ct) => [ct.uid, ct]));
  const sourceTypes = new Map(source.contentTypes.map((ct) => [ct.uid, ct]));
  const entries: EntryPlan[] = [];
  const links: LinkPlan[] = [];
  const morphTables: MorphTablePlan[] = [];
  const types = new Map<string, Record<string, ScalarType>>();

  for (const from of source.contentTypes) {
    // The auth import writes users; their own relations and media (an extended user type) are links like any.
    const linksOnly = from.uid === userUid;
    if (notPlannedTypes.has(from.uid) && !linksOnly) continue;
    const to = targetTypes.get(from.uid)!;
    const toAttributes = new Map(to.attributes.map((a) => [a.name, a]));
    const columns: ColumnMap[] = [];
    const rawColumns: { source: string; target: string }[] = [];
    const componentFields: ComponentField[] = [];
    for (const a of from.attributes) {
      const b = toAttributes.get(a.name);
      if (!b) continue;
      if (a.kind === 'scalar' && b.kind === 'scalar') {
        columns.push({ attribute: a.name, source: a.column, target: b.column, type: a.type, unique: b.unique && a.name !== 'id' });
      } else if ((a.kind === 'component' || a.kind === 'dynamiczone') && (b.kind === 'component' || b.kind === 'dynamiczone')) {
        componentFields.push({ attribute: a.name, target: b.column, kind: a.kind, repeatable: a.kind === 'dynamiczone' || (a.kind === 'component' && a.repeatable) });
      } else if (a.kind === 'morph' && b.kind === 'morph') {
        if (a.columns && b.columns) rawColumns.push({ source: a.columns.id, target: b.columns.id }, { source: a.columns.type, target: b.columns.type });
        if (a.table && b.table) morphTables.push({ uid: from.uid, attribute: a.name, source: { ...a.table, table: layout.morphTable(a.table.table) }, target: b.table });
      } else if ((a.kind === 'relation' || a.kind === 'media') && (b.kind === 'relation' || b.kind === 'media') && a.link?.owning && b.link?.owning) {
        if (!linksOnly || a.name !== 'role') links.push(linkPlan(from, a, b.link, sourceTypes, targetTypes, dialect, layout));
      }
    }
    if (linksOnly) continue;
    const uniqueRaw = [...new Map(rawColumns.map((c) => [c.source, c])).values()];
    entries.push({
      uid: from.uid,
      sourceTable: from.names.table,
      targetTable: to.names.table,
      columns,
      rawColumns: uniqueRaw,
      componentFields,
      componentsTable: sourceName(layout.componentsTable(from.names.table), dialect),
      localized: from.localized === true,
    });
    types.set(from.names.table, Object.fromEntries(columns.map((c) => [c.source, c.type])));
  }

  const components = new Map<string, ComponentPlan>();
  for (const c of source.components) components.set(c.uid, componentPlan(c, sourceTypes, dialect, layout));
  for (const c of components.values()) {
    types.set(c.sourceTable, Object.fromEntries(c.attributes.flatMap((a) => (a.kind === 'scalar' ? [[c.columns[a.name]!, a.type]] : []))));
  }
  return { entries, links, morphTables, components, sourceTypes: types, layout };
}

function linkPlan(
  owner: ContentType,
  a: Attribute & { kind: 'relation' | 'media' },
  target: LinkStorage,
  sourceTypes: ReadonlyMap<string, ContentType>,
  targetTypes: ReadonlyMap<string, ContentType>,
  dialect: SourceDialect,
  layout: StrapiLayout,
): LinkPlan {
  const link = a.link!;
  const targetUid = a.kind === 'media' ? 'plugin::upload.file' : a.target;
  const isLocalizations = a.kind === 'relation' && a.name === 'localizations' && owner.localized === true && a.target === owner.uid;
  const relation = a.kind === 'relation' ? a.relation : a.multiple ? 'oneToMany' : 'oneToOne';
  return {
    uid: owner.uid,
    attribute: a.name,
    kind: a.kind === 'media' ? 'media' : isLocalizations ? 'localizations' : 'relation',
    source: { table: layout.linkTable(link.table), ownerColumn: link.ownerColumn, targetColumn: link.targetColumn, orderColumn: layout.orderColumn(link.orderColumn), inverseOrderColumn: layout.orderColumn(link.inverseOrderColumn) },
    target,
    ownerTable: { source: owner.names.table, target: targetTypes.get(owner.uid)!.names.table },
    targetTable: { source: sourceTypes.get(targetUid)!.names.table, target: targetTypes.get(targetUid)!.names.table },
    ownerSingle: relation === 'oneToOne' || relation === 'manyToOne',
    ...(a.kind === 'relation' ? pairedSource(owner, a, sourceTypes, dialect, layout) : {}),
  };
}

/** The other side's own table, when `a` and the attribute it is inversedBy are inversedBy each other. */
function pairedSource(owner: ContentType, a: Attribute & { kind: 'relation' }, sourceTypes: ReadonlyMap<string, ContentType>, dialect: SourceDialect, layout: StrapiLayout): { pairedSource: LinkSource } | {} {
  const other = sourceTypes.get(a.target);
  const back = other?.attributes.find((b) => b.name === a.inversedBy);
  if (!other || back?.kind !== 'relation' || back.inversedBy !== a.name || back.target !== owner.uid || back.link?.owning !== false) return {};
  const natural = ownedLink(other.names, owner.names, snakeCase(`${other.names.table}_${back.name}_links`), '', back.toMany);
  const name = (n: string) => sourceName(n, dialect);
  return {
    pairedSource: {
      table: name(layout.linkTable(natural.table)),
      ownerColumn: name(natural.targetColumn),
      targetColumn: name(natural.ownerColumn),
      orderColumn: name(layout.orderColumn(natural.inverseOrderColumn)),
      inverseOrderColumn: name(layout.orderColumn(natural.orderColumn)),
    },
  };
}

/**
 * Strapi's storage of one component (§2.1, §6.1): its table, `<table>_components` for nested
 * ones, and `<table>_<attr>_links` with `<component name>_id` (the uid's name part) for its
 * relations.
 */
function componentPlan(c: Component, types: ReadonlyMap<string, ContentType>, dialect: SourceDialect, layout: StrapiLayout): ComponentPlan {
  const table = c.names.table;
  const modelName = c.uid.slice(c.uid.indexOf('.') + 1);
  const columns: Record<string, string> = {};
  const relations: Record<string, ComponentPlan['relations'][string]> = {};
  for (const a of c.attributes) {
    if (a.kind === 'scalar') columns[a.name] = sourceName(a.column, dialect);
    if (a.kind === 'relation') {
      const target = types.get(a.target);
      if (!target) continue;
      const singular = target.names.singular;
      relations[a.name] = {
        table: sourceName(layout.linkTable(snakeCase(`${table}_${a.name}_links`)), dialect),
        ownerColumn: sourceName(snakeCase(`${modelName}_id`), dialect),
        targetColumn: sourceName(snakeCase(`${singular}_id`), dialect),
        orderColumn: sourceName(layout.orderColumn(snakeCase(`${singular}_order`)), dialect),
        toMany: a.toMany,
        targetTable: sourceName(target.names.table, dialect),
      };
    }
  }
  return { uid: c.uid, sourceTable: sourceName(table, dialect), componentsTable: sourceName(layout.componentsTable(table), dialect), attributes: c.attributes, columns, relations };
}
