/**
 * Renames (`--rename`): a model change that would otherwise drop a table or a column and add
 * another, losing the data. Three kinds:
 *
 *   api::post.post=api::article.article     a content type: its table, the link tables of its
 *                                           relations and media, and the columns of other types'
 *                                           link tables that point at it
 *   shared.quote=shared.pull-quote          a component: its instances live as JSON in their
 *                                           owners, so the dynamic zones' `__component` values
 *                                           and its id counter are rewritten
 *   api::article.article.author=writer      an attribute of a content type: its column, or its
 *                                           link table and columns for a relation or media
 *
 * Planned from the models, not from emitted text: the previous build's model summary says
 * where each type kept its data (`storage` in .contentgen/model.json) and the new IR says
 * where it keeps it now. The migration renames those tables and columns in place, then the
 * previous Prisma schema, rewritten to the state the renames leave (new names, the old names of
 * indexes and constraints spelt out), is diffed against the new one: Prisma's diff then renames
 * the indexes and constraints too, and adds or drops whatever else changed.
 */
import type { Provider } from '../ir/scalars.js';
import type { Attribute, ContentType, Schema } from '../ir/types.js';
import { attributeSummary, describeAttribute, type AttributeSummary, type LinkSummary, type ModelSummary } from '../changes/summary.js';
import { constraintName } from './mysql-tables.js';
import { argValue, listValue, parseAttributes, parsePrismaSchema, type PrismaAttribute, type PrismaModel, type PrismaSchema } from './prisma-schema.js';
import { draftLinksTableOf, draftTableOf } from '../emit/prisma/schema.js';

export type Rename =
  | { readonly kind: 'type'; readonly from: string; readonly to: string }
  | { readonly kind: 'component'; readonly from: string; readonly to: string }
  /** `owner`: the content type's uid (the new one, or the old one when the type is renamed too). */
  | { readonly kind: 'attribute'; readonly owner: string; readonly from: string; readonly to: string };

const typeUid = String.raw`(?:api|plugin)::[\w-]+\.[\w-]+`;
const componentUid = String.raw`[\w-]+\.[\w-]+`;
const attributeName = String.raw`[\w-]+`;

/** `--rename` text → the rename, or an error message. */
export function parseRename(spec: string): Rename | string {
  const text = spec.trim();
  let match = new RegExp(`^(${typeUid})=(${typeUid})$`).exec(text);
  if (match) return { kind: 'type', from: match[1]!, to: match[2]! };
  match = new RegExp(`^(${typeUid}|${componentUid})\\.(${attributeName})=(${attributeName})$`).exec(text);
  if (match) return { kind: 'attribute', owner: match[1]!, from: match[2]!, to: match[3]! };
  match = new RegExp(`^(${componentUid})=(${componentUid})$`).exec(text);
  if (match) return { kind: 'component', from: match[1]!, to: match[2]! };
  return (
    `--rename ${spec}: expected <old uid>=<new uid> for a content type (api::post.post=api::article.article), ` +
    `<old>=<new> for a component (shared.quote=shared.pull-quote) or <uid>.<old>=<new> for an attribute (api::article.article.subtitle=subheading)`
  );
}

export function renameText(rename: Rename): string {
  return rename.kind === 'attribute' ? `--rename ${rename.owner}.${rename.from}=${rename.to}` : `--rename ${rename.from}=${rename.to}`;
}

/** The renames as lookups: old → new names. */
export class RenameMap {
  readonly types = new Map<string, string>();
  readonly components = new Map<string, string>();
  /** New owner uid → old attribute name → new. */
  readonly attributes = new Map<string, Map<string, string>>();

  constructor(renames: readonly Rename[]) {
    for (const r of renames) if (r.kind === 'type') this.types.set(r.from, r.to);
    for (const r of renames) if (r.kind === 'component') this.components.set(r.from, r.to);
    for (const r of renames) {
      if (r.kind !== 'attribute') continue;
      const owner = this.type(r.owner);
      if (!this.attributes.has(owner)) this.attributes.set(owner, new Map());
      this.attributes.get(owner)!.set(r.from, r.to);
    }
  }

  type(uid: string): string {
    return this.types.get(uid) ?? uid;
  }

  component(uid: string): string {
    return this.components.get(uid) ?? uid;
  }

  /** The new name of `name`, an attribute of the type now named `owner`. */
  attribute(owner: string, name: string): string {
    return this.attributes.get(owner)?.get(name) ?? name;
  }

  /** The old uid of the type now named `uid`. */
  previousType(uid: string): string {
    for (const [from, to] of this.types) if (to === uid) return from;
    return uid;
  }
}

/** Checks renames against the previous and the new models; returns error messages. */
export function checkRenames(renames: readonly Rename[], ir: Schema, previous: ModelSummary | undefined): string[] {
  if (renames.length === 0) return [];
  if (!previous?.storage) {
    return [`${renameText(renames[0]!)}: the previous build kept no model summary with storage (.contentgen/model.json) to rename from; build once without --rename first, then make the change`];
  }
  const errors: string[] = [];
  const map = new RenameMap(renames);
  const seen = new Set<string>();
  const types = new Map(ir.contentTypes.map((ct) => [ct.uid, ct]));
  const components = new Set(ir.components.map((c) => c.uid));
  for (const rename of renames) {
    const label = renameText(rename);
    const key = rename.kind === 'attribute' ? `${map.type(rename.owner)}.${rename.from}` : `${rename.kind}:${rename.from}`;
    if (seen.has(key)) errors.push(`${label}: ${rename.from} is renamed twice`);
    seen.add(key);
    if (rename.kind === 'type') {
      const [before, now] = [previous.contentTypes[rename.from], types.get(rename.to)];
      if (!before) errors.push(`${label}: the previous build has no content type ${rename.from}`);
      else if (types.has(rename.from)) errors.push(`${label}: ${rename.from} is still in the models`);
      else if (!now) errors.push(`${label}: the models have no content type ${rename.to}`);
      else if (previous.contentTypes[rename.to]) errors.push(`${label}: the previous build already has a content type ${rename.to}`);
      else if (now.plugin || rename.from.startsWith('plugin::')) errors.push(`${label}: a plugin's content type cannot be renamed`);
      else if (before.kind !== now.kind) errors.push(`${label}: ${rename.from} was a ${before.kind}, ${rename.to} is a ${now.kind}; a rename keeps the kind`);
    } else if (rename.kind === 'component') {
      if (!previous.components[rename.from]) errors.push(`${label}: the previous build has no component ${rename.from}`);
      else if (components.has(rename.from)) errors.push(`${label}: ${rename.from} is still in the models`);
      else if (!components.has(rename.to)) errors.push(`${label}: the models have no component ${rename.to}`);
      else if (previous.components[rename.to]) errors.push(`${label}: the previous build already has a component ${rename.to}`);
    } else {
      errors.push(...checkAttributeRename(rename, label, map, ir, previous));
    }
  }
  return errors;
}

function checkAttributeRename(rename: Extract<Rename, { kind: 'attribute' }>, label: string, map: RenameMap, ir: Schema, previous: ModelSummary): string[] {
  if (!rename.owner.includes('::')) {
    return [`${label}: renaming an attribute of a component is not supported (its values are keys inside JSON in every entry that holds the component); rename it in two builds: add the new attribute, copy the values, then remove the old one`];
  }
  const owner = map.type(rename.owner);
  const ct = ir.contentTypes.find((c) => c.uid === owner);
  const previousOwner = previous.contentTypes[map.previousType(owner)];
  const before = previousOwner?.attributes[rename.from];
  const now = ct?.attributes.find((a) => a.name === rename.to);
  if (!ct) return [`${label}: no content type ${owner} in the models`];
  if (!previousOwner || !before) return [`${label}: the previous build has no attribute ${rename.from} in ${map.previousType(owner)}`];
  if (ct.attributes.some((a) => a.name === rename.from)) return [`${label}: ${rename.from} is still in the models`];
  if (!now) return [`${label}: the models have no attribute ${rename.to} in ${owner}`];
  if (previousOwner.attributes[rename.to]) return [`${label}: the previous build already has an attribute ${rename.to}`];
  const after = attributeShape(now);
  const was = attributeShape(before, map);
  if (after !== was) return [`${label}: ${rename.from} was ${was}, ${rename.to} is ${after}; a rename keeps the kind of attribute`];
  return [];
}

/**
 * What a rename must keep: the kind of attribute, a scalar's type, a relation's kind and
 * target, a component; `previousMap` names a previous attribute's target and component by
 * their new uids.
 */
function attributeShape(a: Attribute | AttributeSummary, previousMap?: RenameMap): string {
  const summary = 'kind' in a ? attributeSummary(a) : a;
  const mapped = previousMap
    ? { ...summary, ...(summary.target ? { target: previousMap.type(summary.target) } : {}), ...(summary.component ? { component: previousMap.component(summary.component) } : {}) }
    : summary;
  const { enum: _values, components: _zone, required: _required, private: _private, ...shape } = mapped;
  return describeAttribute(shape);
}

/**
 * The likely renames of a refused change, as `--rename` flags: a content type or component
 * that disappeared while one of the same kind appeared, and per type an attribute that
 * disappeared while one of the same kind appeared.
 */
export function suggestRenames(previous: ModelSummary | undefined, ir: Schema): string[] {
  if (!previous) return [];
  const out: string[] = [];
  const typePairs = pairUp(
    Object.keys(previous.contentTypes).filter((uid) => uid.startsWith('api::') && !ir.contentTypes.some((ct) => ct.uid === uid)),
    ir.contentTypes.filter((ct) => !ct.plugin && !previous.contentTypes[ct.uid]).map((ct) => ct.uid),
    (before, after) => previous.contentTypes[before]!.kind === ir.contentTypes.find((ct) => ct.uid === after)!.kind,
  );
  for (const [from, to] of typePairs) out.push(`--rename ${from}=${to}`);
  const componentPairs = pairUp(
    Object.keys(previous.components).filter((uid) => !ir.components.some((c) => c.uid === uid)),
    ir.components.filter((c) => !previous.components[c.uid]).map((c) => c.uid),
    () => true,
  );
  for (const [from, to] of componentPairs) out.push(`--rename ${from}=${to}`);
  const map = new RenameMap([...typePairs.map(([from, to]) => ({ kind: 'type' as const, from, to })), ...componentPairs.map(([from, to]) => ({ kind: 'component' as const, from, to }))]);
  for (const ct of ir.contentTypes) {
    const before = previous.contentTypes[map.previousType(ct.uid)]?.attributes;
    if (!before) continue;
    const names = new Set(ct.attributes.map((a) => a.name));
    const gone = Object.keys(before).filter((name) => !names.has(name));
    const added = ct.attributes.filter((a) => !(a.kind === 'scalar' && a.builtIn) && !(a.name in before)).map((a) => a.name);
    const pairs = pairUp(gone, added, (old, now) => attributeShape(before[old]!, map) === attributeShape(ct.attributes.find((a) => a.name === now)!));
    for (const [from, to] of pairs) out.push(`--rename ${ct.uid}.${from}=${to}`);
  }
  return out;
}

/**
 * Components of the previous build that are gone and not renamed: their instances stay in
 * their owners' JSON but are no longer served. Data-losing, though no table changes.
 */
export function droppedComponents(previous: ModelSummary, ir: Schema, renames: readonly Rename[]): string[] {
  const renamed = new Set(renames.flatMap((r) => (r.kind === 'component' ? [r.from] : [])));
  return Object.keys(previous.components)
    .filter((uid) => !renamed.has(uid) && !ir.components.some((c) => c.uid === uid))
    .map((uid) => `drops component ${uid}: the instances entries hold are no longer served`);
}

/** Pairs each of `gone` with the first still unpaired of `added` that `matches`. */
function pairUp(gone: readonly string[], added: readonly string[], matches: (gone: string, added: string) => boolean): [string, string][] {
  const free = [...added];
  const pairs: [string, string][] = [];
  for (const name of gone) {
    const index = free.findIndex((candidate) => matches(name, candidate));
    if (index < 0) continue;
    pairs.push([name, free[index]!]);
    free.splice(index, 1);
  }
  return pairs;
}

export interface RenamePlan {
  /** The previous Prisma schema as the renames leave the database: new names, old index and constraint names. */
  readonly previousSchema: string;
  /** Statements that rename tables and columns and rewrite renamed components in stored values, in order. */
  readonly sql: string;
  /** One line per step, for the build's output and the change report. */
  readonly described: readonly string[];
  readonly errors: readonly string[];
}

interface StorageRenames {
  /** Old table → new table. */
  readonly tables: Map<string, string>;
  /** Old table → old column → new column. */
  readonly columns: Map<string, Map<string, string>>;
  readonly described: string[];
}

export function planRenames(renames: readonly Rename[], ir: Schema, previous: ModelSummary, previousSchema: string, provider: Provider): RenamePlan {
  const map = new RenameMap(renames);
  const parsed = parsePrismaSchema(previousSchema);
  const errors: string[] = [];
  const oldTables = new Set(parsed.models.map((m) => m.table));
  const storage = storageRenames(map, ir, previous, oldTables);
  for (const [from, to] of storage.tables) {
    if (oldTables.has(to) && !storage.tables.has(to)) errors.push(`a rename moves table "${from}" to "${to}", which the previous build already has`);
    if (!oldTables.has(from)) errors.push(`a rename moves table "${from}", which the previous build's schema does not have`);
  }
  const q = (name: string) => quoted(provider, name);
  const statements: string[] = [];
  for (const [from, to] of storage.tables) {
    if (provider === 'mysql') statements.push(`RENAME TABLE ${q(from)} TO ${q(to)};`);
    else statements.push(`ALTER TABLE ${q(from)} RENAME TO ${q(to)};`);
    // The id column's sequence is named after its table; keep it with the table.
    if (provider === 'postgresql') statements.push(`ALTER SEQUENCE IF EXISTS ${q(`${from}_id_seq`)} RENAME TO ${q(`${to}_id_seq`)};`);
  }
  for (const [table, columns] of storage.columns) {
    const current = storage.tables.get(table) ?? table;
    const rename = (from: string, to: string) => statements.push(`ALTER TABLE ${q(current)} RENAME COLUMN ${q(from)} TO ${q(to)};`);
    // Names that trade places (a self-referencing link's two order columns) go through temporary ones.
    const trades = [...columns.values()].some((to) => columns.has(to));
    if (!trades) for (const [from, to] of columns) rename(from, to);
    else {
      const pairs = [...columns].map(([from, to], i) => ({ from, to, temporary: `contentgen_rename_${i + 1}` }));
      for (const { from, temporary } of pairs) rename(from, temporary);
      for (const { to, temporary } of pairs) rename(temporary, to);
    }
  }
  const data = dataRewrites(map, ir, provider);
  statements.push(...data.statements);
  const sql = statements.length ? `-- Renames: tables, columns and stored names follow the models (--rename) and Strapi's naming, keeping every row\n${statements.join('\n')}\n\n` : '';
  return {
    previousSchema: rewriteSchema(previousSchema, parsed, storage, provider),
    sql,
    described: [...storage.described, ...data.described],
    errors,
  };
}

/**
 * The tables and columns whose names follow a renamed type, attribute or relation target, and
 * those the previous build named otherwise than this one for the same attribute (contentgen
 * now names them as Strapi does: `h_1_title` where it had `h1_title`, a self-referencing link's
 * order columns).
 */
function storageRenames(map: RenameMap, ir: Schema, previous: ModelSummary, oldTables: ReadonlySet<string>): StorageRenames {
  const result: StorageRenames = { tables: new Map(), columns: new Map(), described: [] };
  const renameColumn = (table: string, from: string, to: string, why: string) => {
    if (from === to) return;
    if (!result.columns.has(table)) result.columns.set(table, new Map());
    result.columns.get(table)!.set(from, to);
    result.described.push(`renames column "${from}" of table "${table}" to "${to}" (${why})`);
  };
  const renameTable = (from: string, to: string, why: string) => {
    if (from === to) return;
    result.tables.set(from, to);
    result.described.push(`renames table "${from}" to "${to}" (${why})`);
  };
  for (const [uid, stored] of Object.entries(previous.storage ?? {})) {
    const owner = map.type(uid);
    const ct = ir.contentTypes.find((c) => c.uid === owner);
    if (!ct) continue;
    const typeRenamed = owner !== uid;
    renameTable(stored.table, ct.names.table, typeRenamed ? `${uid} → ${owner}` : `${owner}: the name the database keeps`);
    // Its pending drafts (docs/strapi5.md "Drafts") have its own columns in a table named after its.
    const drafts = ct.draftAndPublish && oldTables.has(draftTableOf(stored.table)) ? draftTableOf(stored.table) : undefined;
    if (drafts) renameTable(drafts, draftTableOf(ct.names.table), `drafts of ${owner}`);
    if (ct.draftAndPublish && oldTables.has(draftLinksTableOf(stored.table))) renameTable(draftLinksTableOf(stored.table), draftLinksTableOf(ct.names.table), `links of the drafts of ${owner}`);
    for (const [name, column] of Object.entries(stored.columns)) {
      const now = attributeOf(ct, map.attribute(owner, name));
      if (!now || !('column' in now)) continue;
      const why = now.name !== name ? `${owner} ${name} → ${now.name}` : `${owner}.${name}, named as Strapi names it`;
      renameColumn(stored.table, column, now.column, why);
      if (drafts && (now.kind === 'scalar' || now.kind === 'component' || now.kind === 'dynamiczone')) renameColumn(drafts, column, now.column, `${why}, in its drafts`);
    }
    for (const [name, link] of Object.entries(stored.links)) {
      const now = attributeOf(ct, map.attribute(owner, name));
      if (!now || !('link' in now) || !now.link?.owning) continue;
      // A relation to another type is another table, not this one renamed.
      if (map.type(link.target) !== (now.kind === 'media' ? 'plugin::upload.file' : now.target)) continue;
      const involved = typeRenamed || now.name !== name || map.types.has(link.target);
      const why = involved ? `links of ${owner}.${now.name}` : `links of ${owner}.${now.name}, named as Strapi names them`;
      renameLink(link, now.link, why, renameTable, renameColumn);
    }
  }
  return result;
}

function renameLink(
  before: LinkSummary,
  after: NonNullable<Extract<Attribute, { kind: 'relation' }>['link']>,
  why: string,
  renameTable: (from: string, to: string, why: string) => void,
  renameColumn: (table: string, from: string, to: string, why: string) => void,
): void {
  renameTable(before.table, after.table, why);
  renameColumn(before.table, before.ownerColumn, after.ownerColumn, why);
  renameColumn(before.table, before.targetColumn, after.targetColumn, why);
  renameColumn(before.table, before.orderColumn, after.orderColumn, why);
  renameColumn(before.table, before.inverseOrderColumn, after.inverseOrderColumn, why);
}

function attributeOf(ct: ContentType, name: string): Attribute | undefined {
  return ct.attributes.find((a) => a.name === name);
}

/**
 * Names stored in values: a renamed component's uid in dynamic-zone items (`__component`) and
 * its id counter; a renamed type's uid in API tokens' permissions (`api::post.post.find`).
 */
function dataRewrites(map: RenameMap, ir: Schema, provider: Provider): { statements: string[]; described: string[] } {
  const statements: string[] = [];
  const described: string[] = [];
  const q = (name: string) => quoted(provider, name);
  const text = (column: string) => (provider === 'postgresql' ? `${q(column)}::text` : q(column));
  const cast = (sql: string, type: 'json' | 'jsonb') => (provider === 'postgresql' ? `(${sql})::${type}` : sql);
  const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
  for (const [from, to] of map.components) {
    for (const ct of ir.contentTypes) {
      for (const zone of ct.attributes) {
        if (zone.kind !== 'dynamiczone' || !zone.components.includes(to)) continue;
        // Zones are stored as the text the server wrote (JSON.stringify's, `"k":"v"`): `json`
        // on PostgreSQL keeps it, SQLite and MariaDB store text.
        const [before, after] = [`"__component":"${from}"`, `"__component":"${to}"`];
        const pattern = literal(`%${before.replace(/[%_\\]/g, (c) => `\\${c}`)}%`);
        statements.push(
          `UPDATE ${q(ct.names.table)} SET ${q(zone.column)} = ${cast(`REPLACE(${text(zone.column)}, ${literal(before)}, ${literal(after)})`, 'json')} WHERE ${text(zone.column)} LIKE ${pattern}${provider === 'mysql' ? '' : " ESCAPE '\\'"};`,
        );
        described.push(`rewrites the items of component ${from} to ${to} in ${ct.uid}.${zone.name} (table "${ct.names.table}", column "${zone.column}")`);
      }
    }
    statements.push(`UPDATE ${q('contentgen_component_ids')} SET ${q('component')} = ${literal(to)} WHERE ${q('component')} = ${literal(from)};`);
  }
  for (const [from, to] of map.types) {
    const [before, after] = [`"${from}.`, `"${to}.`];
    statements.push(`UPDATE ${q('strapi_api_tokens')} SET ${q('permissions')} = ${cast(`REPLACE(${text('permissions')}, ${literal(before)}, ${literal(after)})`, 'jsonb')} WHERE ${q('permissions')} IS NOT NULL;`);
    described.push(`renames the actions of ${from} to ${to} in API tokens' permissions`);
  }
  return { statements, described };
}

/**
 * The previous schema with renamed tables and columns, and with the names its indexes and
 * constraints had before (Prisma's defaults, derived from the old table and column names)
 * spelt out, so the diff to the new schema renames them.
 */
function rewriteSchema(text: string, schema: PrismaSchema, storage: StorageRenames, provider: Provider): string {
  const touched = new Map(schema.models.filter((m) => storage.tables.has(m.table) || storage.columns.has(m.table)).map((m) => [m.name, m]));
  if (touched.size === 0) return text;
  const lines = text.split('\n');
  let model: PrismaModel | undefined;
  for (let i = 0; i < lines.length; i++) {
    const header = /^model (\w+) \{\s*$/.exec(lines[i]!);
    if (header) {
      model = touched.get(header[1]!);
      continue;
    }
    if (/^\}/.test(lines[i]!)) model = undefined;
    if (model) lines[i] = rewriteLine(lines[i]!, model, storage, provider);
  }
  return lines.join('\n');
}

function quoted(provider: Provider, name: string): string {
  return provider === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

const identifierLimit: Record<Provider, number> = { postgresql: 63, mysql: 64, sqlite: 10_000 };

function rewriteLine(line: string, model: PrismaModel, storage: StorageRenames, provider: Provider): string {
  const columns = storage.columns.get(model.table);
  const oldColumn = (field: string) => model.fields.find((f) => f.name === field)?.column ?? field;
  const name = (cols: string[], suffix: 'key' | 'idx' | 'fkey' | 'pkey') => constraintName(model.table, cols, suffix, identifierLimit[provider]);
  const block = /^(\s*)@@(\w+)(.*)$/.exec(line);
  if (block) {
    const [attribute] = parseAttributes(line.trim());
    if (!attribute) return line;
    if (attribute.name === 'map') return `${block[1]}@@map("${storage.tables.get(model.table) ?? model.table}")`;
    if ((attribute.name === 'unique' || attribute.name === 'index') && argValue(attribute.args, 'map') === undefined) {
      const cols = listValue(argValue(attribute.args, 'fields') ?? argValue(attribute.args)).map(oldColumn);
      return `${block[1]}@@${attribute.name}(${attribute.args}, map: "${name(cols, attribute.name === 'unique' ? 'key' : 'idx')}")`;
    }
    return line;
  }
  const field = /^(\s*)(\w+)(\s+)(\S+)(.*)$/.exec(line);
  if (!field) return line;
  const [, indent, fieldName, gap, type, rest] = field as unknown as [string, string, string, string, string, string];
  const parsed = model.fields.find((f) => f.name === fieldName);
  if (!parsed) return line;
  const attributes: PrismaAttribute[] = parseAttributes(rest).map((a) => ({ ...a }));
  const newColumn = columns?.get(parsed.column);
  if (newColumn) {
    const map = attributes.find((a) => a.name === 'map');
    if (map) map.args = `"${newColumn}"`;
    else attributes.push({ name: 'map', args: `"${newColumn}"` });
  }
  for (const a of attributes) {
    if (argValue(a.args, 'map') !== undefined) continue;
    const withMap = (value: string) => (a.args === '' ? `map: "${value}"` : `${a.args}, map: "${value}"`);
    if (a.name === 'id' && provider === 'postgresql') a.args = withMap(name([], 'pkey'));
    else if (a.name === 'unique') a.args = withMap(name([parsed.column], 'key'));
    else if (a.name === 'relation' && provider !== 'sqlite' && argValue(a.args, 'fields') !== undefined) {
      a.args = withMap(name(listValue(argValue(a.args, 'fields')).map(oldColumn), 'fkey'));
    }
  }
  const rendered = attributes.map((a) => `@${a.name}${a.args === '' && a.name !== 'relation' ? '' : `(${a.args})`}`).join(' ');
  return `${indent}${fieldName}${gap}${type}${rendered ? ` ${rendered}` : ''}`;
}
