/**
 * Emits prisma/schema.prisma: one model per content type (columns named like Strapi's),
 * one link model per relation or media field, component and dynamic-zone values as JSON.
 */
import { jsonNativeType, scalarTypes } from '../../ir/scalars.js';
import { constraintMapName, documentIdColumn, documentIdPrismaField } from '../../ir/identifiers.js';
import { asciiSpelling, camelCase, Namespace } from '../../ir/names.js';
import type { Provider } from '../../ir/scalars.js';
import type { ContentType, LinkStorage, MorphAttribute, RelationKind, ScalarAttribute, Schema } from '../../ir/types.js';
import { FileMap } from '../file-map.js';
import { render } from '../templates.js';

export const prismaSchemaPath = 'prisma/schema.prisma';

/** One line of a model: name, type and attributes, laid out in columns when rendered. */
export type FieldRow = [name: string, type: string, attributes: string];

/** A model block; other emitters may contribute some (see `emitPrismaSchema`'s `extraModels`). */
export interface PrismaModel {
  readonly comment: string;
  readonly name: string;
  readonly table: string;
  readonly fields: FieldRow[];
  readonly blockAttributes: string[];
}

/** A link table seen from the schema: who owns it, what it points at, how it is constrained. */
interface LinkTable {
  readonly link: LinkStorage;
  readonly owner: ContentType;
  readonly target: ContentType;
  readonly attribute: string;
  /** Relation kind of the owning attribute; media count as manyToOne or manyToMany. */
  readonly relation: RelationKind;
  readonly twoWay: boolean;
}

/** `extraModels` (tables of plugins that are not content types, e.g. API tokens) come last. */
export function emitPrismaSchema(ir: Schema, extraModels: readonly PrismaModel[] = []): FileMap {
  const links = linkTables(ir);
  // Draft models' names, distinct from every other model's (a type may be called `article-draft`).
  const others = new Namespace([...ir.contentTypes.map((ct) => ct.names.model), ...links.map((l) => l.link.model), ...morphModels(ir).map((m) => m.name), ...extraModels.map((m) => m.name)]);
  const drafts = new Map(ir.contentTypes.filter((ct) => ct.draftAndPublish).map((ct) => [ct.uid, others.claim(`${ct.names.model}Draft`)]));
  const draftLinks = new Map(ir.contentTypes.filter((ct) => ct.draftAndPublish && hasLinks(ct)).map((ct) => [ct.uid, others.claim(`${ct.names.model}DraftLink`)]));
  const models: PrismaModel[] = [
    ...ir.contentTypes.map((ct) => contentTypeModel(ct, ir, links, drafts.get(ct.uid))),
    ...ir.contentTypes.filter((ct) => ct.draftAndPublish).map((ct) => draftModel(ct, ir, drafts.get(ct.uid)!, draftLinks.get(ct.uid))),
    ...ir.contentTypes.filter((ct) => draftLinks.has(ct.uid)).map((ct) => draftLinkModel(ct, ir, draftLinks.get(ct.uid)!, drafts.get(ct.uid)!)),
    ...links.map((l) => linkModel(l, ir.provider)),
    ...morphModels(ir),
    ...extraModels,
  ];
  const view = models.map((m) => ({
    comment: m.comment,
    name: m.name,
    table: m.table,
    fields: alignColumns(m.fields),
    blockAttributes: m.blockAttributes,
  }));
  return new FileMap().add(prismaSchemaPath, render('prisma/schema.prisma.hbs', { provider: ir.provider, models: view }));
}

function linkTables(ir: Schema): LinkTable[] {
  const byUid = new Map(ir.contentTypes.map((ct) => [ct.uid, ct]));
  const tables: LinkTable[] = [];
  for (const owner of ir.contentTypes) {
    for (const a of owner.attributes) {
      if ((a.kind !== 'relation' && a.kind !== 'media') || !a.link?.owning) continue;
      const target = byUid.get(a.kind === 'relation' ? a.target : 'plugin::upload.file')!;
      const relation: RelationKind = a.kind === 'relation' ? a.relation : a.multiple ? 'manyToMany' : 'manyToOne';
      tables.push({ link: a.link, owner, target, attribute: a.name, relation, twoWay: a.kind === 'relation' && a.inversedBy !== undefined });
    }
  }
  return tables;
}

function contentTypeModel(ct: ContentType, ir: Schema, links: readonly LinkTable[], draftModelName?: string): PrismaModel {
  const fields: FieldRow[] = [];
  for (const a of ct.attributes) {
    if (a.kind === 'scalar') fields.push(scalarField(a, ir, ct.names.table));
    if (a.kind === 'scalar' && a.name === 'id') fields.push(documentIdField(ct, ir.provider));
    else if (a.kind === 'component' || a.kind === 'dynamiczone') fields.push([a.prismaField ?? a.name, 'Json?', jsonColumnAttributes(a.prismaField ?? a.name, a.column, ir)]);
  }
  // Prisma needs the back side of every link model's relations; their names must not be an
  // attribute's (an attribute may well be called `tagsLinks`).
  const names = new Namespace(fields.map(([name]) => name));
  // A morphToOne: the linked entry's id and type uid in two columns of the table (Strapi's).
  for (const a of ct.attributes) {
    if (a.kind !== 'morph' || !a.columns) continue;
    fields.push([names.claim(camelCase(a.columns.id)), 'Int?', `@map("${a.columns.id}")`]);
    fields.push([names.claim(camelCase(a.columns.type)), 'String?', [`@map("${a.columns.type}")`, ir.provider === 'mysql' ? '@db.VarChar(255)' : ''].filter(Boolean).join(' ')]);
  }
  for (const a of ct.attributes) {
    if (a.kind === 'morph' && a.table) fields.push([names.claim(`${asciiSpelling(a.name)}Morphs`), `${a.table.model}[]`, `@relation("${a.table.model}_owner")`]);
  }
  if (draftModelName) fields.push([names.claim('draft'), `${draftModelName}?`, `@relation("${draftModelName}_live")`]);
  for (const l of links) {
    if (l.owner.uid === ct.uid) fields.push([names.claim(`${asciiSpelling(l.attribute)}Links`), `${l.link.model}[]`, `@relation("${l.link.model}_owner")`]);
    if (l.target.uid === ct.uid) fields.push([names.claim(`${camelCase(l.link.model)}sTo`), `${l.link.model}[]`, `@relation("${l.link.model}_target")`]);
  }
  // Every list of a draft & publish type filters on `published_at` (live entries by default)
  // and counts them. On SQLite an index keeps that count off the table: 4.4x the requests/s
  // of a list deep in 100,000 articles (bench/large.ts). PostgreSQL's planner ignores it when
  // most entries are published, and MariaDB's picks it over the primary key and sorts (3.8x
  // slower there): SQLite only.
  const indexPublishedAt = ir.provider === 'sqlite' && ct.draftAndPublish && ct.attributes.some((a) => a.kind === 'scalar' && a.name === 'publishedAt');
  const column = (name: string) => (ct.attributes.find((a) => a.name === name) as ScalarAttribute).column;
  const index = (field: string) => `@@index([${field}]${mapArgument(ct.names.table, [column(field)], 'idx', ir.provider)})`;
  const blockAttributes = indexPublishedAt ? [index('publishedAt')] : [];
  // Every list of a localized type filters on its locale (the default one when none is asked).
  if (ct.localized) blockAttributes.push(index('locale'));
  // The localizations of one entry share its documentId (Strapi 5's document): one per locale.
  if (ct.localized) blockAttributes.push(`@@unique([${documentIdPrismaField}, locale]${mapArgument(ct.names.table, [documentIdColumn, column('locale')], 'key', ir.provider)})`);
  return { comment: `${ct.displayName} (${ct.uid})`, name: ct.names.model, table: ct.names.table, fields, blockAttributes };
}

/** The draft table of a draft & publish type's table (the runtime's entity/drafts.ts `draftTableOf`). */
export function draftTableOf(table: string): string {
  return `${table}_drafts`;
}

/** The table of a draft & publish type's drafts' links (the runtime's entity/drafts.ts `draftLinksTableOf`). */
export function draftLinksTableOf(table: string): string {
  return `${table}_drafts_lnk`;
}

/** Whether a type has relations or media kept in link tables (its drafts then have links of their own). */
function hasLinks(ct: ContentType): boolean {
  return ct.attributes.some((a) => (a.kind === 'relation' || a.kind === 'media') && a.link !== undefined);
}

/**
 * `<table>_drafts`: a published entry's pending draft (Strapi 5's draft of a published
 * document, docs/strapi5.md "Drafts"), one row per live row (`live_id`, deleted with it), the
 * type's own columns without their unique constraints (a draft repeats its live row's values).
 * Its relations and media are rows of `<table>_drafts_lnk` (draftLinkModel).
 */
function draftModel(ct: ContentType, ir: Schema, name: string, linkModelName?: string): PrismaModel {
  const table = draftTableOf(ct.names.table);
  const fields: FieldRow[] = [];
  for (const a of ct.attributes) {
    if (a.kind === 'scalar') fields.push(scalarField(a.name === 'id' ? a : { ...a, unique: false }, ir, table));
    if (a.kind === 'scalar' && a.name === 'id') fields.push(['liveId', 'Int', `@unique${mapArgument(table, ['live_id'], 'key', ir.provider, true)} @map("live_id")`]);
    else if (a.kind === 'component' || a.kind === 'dynamiczone') fields.push([a.prismaField ?? a.name, 'Json?', jsonColumnAttributes(a.prismaField ?? a.name, a.column, ir)]);
  }
  const names = new Namespace(fields.map(([name]) => name));
  fields.push([names.claim('live'), ct.names.model, `@relation("${name}_live", fields: [liveId], references: [id], onDelete: Cascade${mapArgument(table, ['live_id'], 'fkey', ir.provider)})`]);
  if (linkModelName) fields.push([names.claim('draftLinks'), `${linkModelName}[]`, `@relation("${linkModelName}_draft")`]);
  return { comment: `Pending drafts of published ${ct.names.model} entries`, name, table, fields, blockAttributes: [] };
}

/**
 * `<table>_drafts_lnk`: the relations and media of the pending drafts (docs/strapi5.md
 * "Drafts"): per draft (`live_id`, its live row's id; deleted with the draft) and field, the
 * target ids in order (`position`). Made from the live links when the draft is made, copied
 * onto them when it is published. One table for every link field of the type: a target id is
 * checked when written and read through a join with its table, not by a foreign key.
 */
function draftLinkModel(ct: ContentType, ir: Schema, name: string, draftModelName: string): PrismaModel {
  const table = draftLinksTableOf(ct.names.table);
  const fields: FieldRow[] = [
    ['id', 'Int', `@id${mapArgument(table, [], 'pkey', ir.provider, true)} @default(autoincrement())`],
    ['liveId', 'Int', '@map("live_id")'],
    ['field', 'String', ir.provider === 'mysql' ? '@db.VarChar(255)' : ''],
    ['targetId', 'Int', '@map("target_id")'],
    ['position', 'Int', ''],
    ['draft', draftModelName, `@relation("${name}_draft", fields: [liveId], references: [liveId], onDelete: Cascade${mapArgument(table, ['live_id'], 'fkey', ir.provider)})`],
  ];
  const blockAttributes = [`@@index([liveId, field]${mapArgument(table, ['live_id', 'field'], 'idx', ir.provider)})`];
  return { comment: `Relations and media of the pending drafts of ${ct.names.model} entries`, name, table, fields, blockAttributes };
}

/**
 * `documentId`: Strapi 5's identity of an entry (docs/strapi5.md "Identity"), 24 characters
 * given by the runtime on every insert (templates/runtime/entity/document-id.ts). Users' own
 * code that creates rows through the Prisma client (a seed, a script: the demo's creates its
 * cover image so) gets one from Prisma's `cuid(2)` default, the same generator and length;
 * the database has no default. Not an attribute of the IR: v4 answers, inputs and filters do
 * not know it. Unique, or unique per locale when localized.
 */
function documentIdField(ct: ContentType, provider: Provider): FieldRow {
  const unique = ct.localized ? '' : `@unique${mapArgument(ct.names.table, [documentIdColumn], 'key', provider, true)} `;
  return [documentIdPrismaField, 'String', `${unique}@default(cuid(2)) @map("${documentIdColumn}")`];
}

/** Component and dynamic-zone columns: JSON kept as written (see jsonNativeType). */
function jsonColumnAttributes(name: string, column: string, ir: Schema): string {
  const attrs = column === name ? [] : [`@map("${column}")`];
  if (ir.provider === 'postgresql') attrs.push(jsonNativeType);
  return attrs.join(' ');
}

/**
 * `, map: "…"` for an index or constraint whose Prisma default name the database would cut
 * (identifiers.ts), else nothing; `alone` spells it as the only argument.
 */
function mapArgument(table: string, columns: readonly string[], suffix: 'key' | 'idx' | 'fkey' | 'pkey', provider: Provider, alone = false): string {
  // MySQL names its primary key PRIMARY.
  if (suffix === 'pkey' && provider !== 'postgresql') return '';
  const name = constraintMapName(table, columns, suffix, provider);
  if (name === undefined) return '';
  return alone ? `(map: "${name}")` : `, map: "${name}"`;
}

function scalarField(attribute: ScalarAttribute, ir: Schema, table: string): FieldRow {
  const mapping = scalarTypes[attribute.type];
  const attrs: string[] = [];
  let type = mapping.prisma;
  if (attribute.name === 'id') {
    attrs.push(`@id${mapArgument(table, [], 'pkey', ir.provider, true)} @default(autoincrement())`);
  } else {
    // Only the timestamps Strapi always sets are NOT NULL; see the schema's header comment.
    if (!(attribute.builtIn && attribute.name !== 'publishedAt')) type += '?';
    if (attribute.unique) attrs.push(`@unique${mapArgument(table, [attribute.column], 'key', ir.provider, true)}`);
  }
  const field = attribute.prismaField ?? attribute.name;
  if (attribute.column !== field) attrs.push(`@map("${attribute.column}")`);
  const native = mapping.nativeType?.[ir.provider];
  if (native && attribute.name !== 'id') attrs.push(native);
  return [field, type, attrs.join(' ')];
}

/**
 * `articles_tags_links (id, article_id, tag_id, tag_order, article_order)`. Deleting either
 * entry deletes the link (never the other entry). Unique constraints encode the relation kind.
 */
function linkModel(l: LinkTable, provider: Provider): PrismaModel {
  const { link } = l;
  const columnOf = (field: string) =>
    field === ownerId ? link.ownerColumn : field === targetId ? link.targetColumn : field === orderField ? link.orderColumn : link.inverseOrderColumn;
  const map = (fields: readonly string[], suffix: 'key' | 'idx' | 'fkey') => mapArgument(link.table, fields.map(columnOf), suffix, provider);
  // Field names from the columns; distinct even when one column's name ends like another's.
  const names = new Namespace(['id']);
  const ownerId = names.claim(camelCase(link.ownerColumn));
  const targetId = names.claim(camelCase(link.targetColumn));
  const orderField = names.claim(camelCase(link.orderColumn));
  const inverseOrderField = names.claim(camelCase(link.inverseOrderColumn));
  const ownerField = names.claim(camelCase(link.ownerColumn).replace(/Id$/, ''));
  const targetField = names.claim(camelCase(link.targetColumn).replace(/Id$/, ''));
  const blockAttributes: string[] = [];
  const unique = (...fields: string[]) => blockAttributes.push(`@@unique([${fields.join(', ')}]${map(fields, 'key')})`);
  // An entry's localizations link it to each of its other localizations, which link back (i18n).
  const localizations = l.owner.localized === true && l.attribute === 'localizations' && l.target.uid === l.owner.uid;
  switch (localizations ? 'manyToMany' : l.relation) {
    case 'oneToOne':
      unique(ownerId);
      if (l.twoWay) unique(targetId);
      break;
    case 'manyToOne':
      unique(ownerId);
      break;
    case 'oneToMany':
      // Only one-way (a two-way oneToMany is the other side's manyToOne): Strapi lets several
      // entries hold the same target (it moves a target away only in a two-way relation), so
      // a pair once, as Strapi's own `_unique` index keeps it.
      unique(ownerId, targetId);
      break;
    case 'manyToMany':
      unique(ownerId, targetId);
      break;
  }
  // An entry's list of targets is read in link order (`ORDER BY owner, order, id`): with the
  // pair indexed the database walks the index instead of sorting the links it found (SQLite
  // appends the rowid, the id, to every index entry). To-one links hold one row per owner.
  if (localizations || l.relation === 'oneToMany' || l.relation === 'manyToMany') {
    blockAttributes.push(`@@index([${ownerId}, ${orderField}]${map([ownerId, orderField], 'idx')})`);
  }
  blockAttributes.push(`@@index([${targetId}]${map([targetId], 'idx')})`);
  const what = l.owner.attributes.find((a) => a.name === l.attribute)!.kind === 'media' ? 'media field' : `${l.relation} relation`;
  return {
    comment: `Links of ${l.owner.names.model}.${l.attribute} (${what} to ${l.target.uid})`,
    name: link.model,
    table: link.table,
    fields: [
      ['id', 'Int', `@id${mapArgument(link.table, [], 'pkey', provider, true)} @default(autoincrement())`],
      [ownerId, 'Int', `@map("${link.ownerColumn}")`],
      [targetId, 'Int', `@map("${link.targetColumn}")`],
      [orderField, 'Float?', `@map("${link.orderColumn}")`],
      [inverseOrderField, 'Float?', `@map("${link.inverseOrderColumn}")`],
      [ownerField, l.owner.names.model, `@relation("${link.model}_owner", fields: [${ownerId}], references: [id], onDelete: Cascade${map([ownerId], 'fkey')})`],
      [targetField, l.target.names.model, `@relation("${link.model}_target", fields: [${targetId}], references: [id], onDelete: Cascade${map([targetId], 'fkey')})`],
    ],
    blockAttributes,
  };
}

/**
 * A morphToMany's table, Strapi's columns: `notes_items_morphs (id, note_id, items_id,
 * items_type, field, order)`. Deleting the owner deletes its rows; `items_id` has no foreign
 * key (it points into any table), the runtime removes rows pointing at a deleted entry.
 */
function morphModels(ir: Schema): PrismaModel[] {
  const models: PrismaModel[] = [];
  for (const owner of ir.contentTypes) {
    for (const a of owner.attributes) {
      if (a.kind !== 'morph' || !a.table) continue;
      models.push(morphModel(owner, a, a.table, ir));
    }
  }
  return models;
}

function morphModel(owner: ContentType, a: MorphAttribute, table: NonNullable<MorphAttribute['table']>, ir: Schema): PrismaModel {
  const names = new Namespace(['id']);
  const ownerId = names.claim(camelCase(table.ownerColumn));
  const morphId = names.claim(camelCase(table.idColumn));
  const morphType = names.claim(camelCase(table.typeColumn));
  const field = names.claim('field');
  const order = names.claim('order');
  const ownerField = names.claim(camelCase(table.ownerColumn).replace(/Id$/, '') || 'owner');
  const varchar = ir.provider === 'mysql' ? ' @db.VarChar(255)' : '';
  return {
    comment: `Links of ${owner.names.model}.${a.name} (morphToMany relation to entries of any type)`,
    name: table.model,
    table: table.table,
    fields: [
      ['id', 'Int', '@id @default(autoincrement())'],
      [ownerId, 'Int', `@map("${table.ownerColumn}")`],
      [morphId, 'Int?', `@map("${table.idColumn}")`],
      [morphType, 'String?', `@map("${table.typeColumn}")${varchar}`],
      [field, 'String?', `@map("field")${varchar}`],
      [order, 'Float?', '@map("order")'],
      [ownerField, owner.names.model, `@relation("${table.model}_owner", fields: [${ownerId}], references: [id], onDelete: Cascade)`],
    ],
    blockAttributes: [`@@index([${ownerId}])`, `@@index([${morphId}])`],
  };
}

/** Lines laid out like `prisma format` does: name, type and attributes in columns. */
function alignColumns(rows: FieldRow[]): { line: string }[] {
  const nameWidth = Math.max(...rows.map((r) => r[0].length));
  const typeWidth = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([name, type, attrs]) => ({
    line: attrs ? `${name.padEnd(nameWidth)} ${type.padEnd(typeWidth)} ${attrs}` : `${name.padEnd(nameWidth)} ${type}`,
  }));
}

/**
 * The last id given to an instance of each component: instance ids are unique per component
 * across all entries, as the rows of Strapi's component tables are (clients such as Apollo
 * cache component objects by type and id). Only when the models have components.
 */
export function componentIdModels(ir: Schema): PrismaModel[] {
  if (ir.components.length === 0) return [];
  return [
    {
      comment: 'Last id given to an instance of each component (ids are unique per component, as in Strapi)',
      name: 'ContentgenComponentId',
      table: 'contentgen_component_ids',
      fields: [
        ['component', 'String', ['@id', ir.provider === 'mysql' ? '@db.VarChar(255)' : ''].filter(Boolean).join(' ')],
        ['lastId', 'BigInt', '@map("last_id")'],
      ],
      blockAttributes: [],
    },
  ];
}
