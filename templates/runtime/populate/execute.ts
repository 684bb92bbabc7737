/**
 * Fills populated fields into entries already read. The number of SQL statements depends
 * on the shape of the populate tree, never on the number of rows: each relation or media
 * field costs one statement per level, over all entries of that level at once (a link-table
 * join for content types, an id lookup for relations stored inside components). Components
 * and dynamic zones are read from the JSON already selected with their owner: no statement.
 */
import type { Database } from '../db/database.js';
import { toResponseValue } from '../entity/input.js';
import { ValidationError } from '../errors.js';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, LinkMeta, MorphFieldMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { isSelectableScalar } from '../meta.js';
import { parseFields } from '../query/fields.js';
import { compileFilters } from '../query/filters.js';
import { parsePublicationState, selectList, type PublicationState } from '../query/list.js';
import { compileOrderBy, parseSort } from '../query/sort.js';
import { batches, SqlBuilder } from '../query/sql.js';
import { Slot } from '../slot.js';
import { selected, toEntry, type Entry } from '../rest/transform.js';
import { allOfComponent, matchingInstances, outputKeys, sortInstances, type ComponentQuery } from './component-query.js';
import type { PopulateNode, PopulateTree } from './parse.js';
import { morphByQuery, readMorphRefs, type MorphRef } from '../entity/morph.js';
import { linkSource } from '../entity/drafts.js';

export interface PopulateContext {
  readonly db: Database;
  readonly registry: Registry;
  /** Largest number of entries one populated to-many field may hold; more → 400. */
  readonly maxRelationEntries: number;
  /** Default for draft & publish targets: `live` shows published entries only. */
  readonly publicationState: PublicationState;
  /** A v5 read (`withLocaleOrder`): an unsorted `localizations` comes in locale order. */
  readonly localizationsByLocale?: boolean;
  /**
   * The type whose entries (at the first level only) are read in the draft view: their
   * relations and media are their drafts' links (entity/drafts.ts).
   */
  readonly draftOwner?: ContentTypeMeta | undefined;
}

const localeOrder = Symbol('localeOrder');

/**
 * `query` (a copy) marked as a Strapi 5 read: its populated `localizations`, when not sorted,
 * come in locale order (then row id), as Strapi 5.54.0 answers them. Strapi 5 reads them with
 * no ORDER BY (the i18n plugin's `localizations` is a join on `document_id`, @strapi/database
 * populate `oneToMany` with `joinColumn`), so the database picks: SQLite (Strapi's default and
 * the recordings') walks its `<table>_documents_idx` index on (document_id, locale,
 * published_at), which is locale order (other databases may scan the table instead). Locale
 * order is what a v5 client sees on Strapi's default database, the same on every database here.
 * v4 (Strapi 4.26.2: a join table, in link order) is not marked and keeps its order. GraphQL's
 * `localizations` are read otherwise (graphql-v5/resolvers.ts: row-id order).
 */
export function withLocaleOrder<Q extends object>(query: Q): Q {
  return { ...query, [localeOrder]: true } as Q;
}

export function localeOrderOf(query: object): boolean {
  return (query as { [localeOrder]?: boolean })[localeOrder] === true;
}

/** An entry read at some level: its raw row (JSON columns included) and its output. */
export interface EntryItem {
  readonly id: number;
  readonly row: Record<string, unknown>;
  readonly attributes: Record<string, unknown>;
}

/** A component instance read from JSON: its stored value and its output object. */
export interface InstanceItem {
  readonly stored: Record<string, unknown>;
  readonly out: Record<string, unknown>;
}

/** Component and dynamic-zone fields whose JSON must be selected with the rows. */
export function jsonFieldsFor(tree: PopulateTree): string[] {
  return [...tree.values()].filter((n) => n.field.kind === 'component' || n.field.kind === 'dynamiczone').map((n) => n.field.name);
}

/** `owner`: the items' content type (morph fields read its table); found from the fields when not given. */
export async function populateEntries(ctx: PopulateContext, items: readonly EntryItem[], tree: PopulateTree, owner?: ContentTypeMeta): Promise<void> {
  if (items.length === 0 || tree.size === 0) return;
  reserveKeys(items.map((i) => i.attributes), tree);
  await Promise.all(
    [...tree.values()].map((node) => {
      switch (node.field.kind) {
        case 'relation':
        case 'media':
          return populateLinked(ctx, items, node, owner);
        case 'morph':
          return populateMorph(ctx, items, node, owner);
        case 'component':
          return populateComponent(ctx, items.map((i) => ({ stored: i.row, out: i.attributes })), node);
        case 'dynamiczone':
          return populateZone(ctx, items, node);
      }
    }),
  );
}

/** Fills populated fields into component instances (relations inside components: one lookup by id). */
export async function populateInstances(ctx: PopulateContext, items: readonly InstanceItem[], tree: PopulateTree): Promise<void> {
  if (items.length === 0 || tree.size === 0) return;
  reserveKeys(items.map((i) => i.out), tree);
  await Promise.all(
    [...tree.values()].map((node) => {
      switch (node.field.kind) {
        case 'relation':
        case 'media':
          return populateStoredIds(ctx, items, node);
        case 'component':
          return populateComponent(ctx, items, node);
        case 'morph':
        case 'dynamiczone':
          return undefined; // not allowed inside components
      }
    }),
  );
}

/**
 * Fields are filled concurrently; reserving their keys first (in the order the parser
 * produced) keeps the JSON key order independent of which query finishes first.
 */
function reserveKeys(outputs: readonly Record<string, unknown>[], tree: PopulateTree): void {
  for (const out of outputs) for (const name of tree.keys()) out[name] = null;
}

function isToMany(node: PopulateNode): boolean {
  return node.field.kind === 'relation' || node.field.kind === 'morph' ? node.field.toMany : node.field.kind === 'media' && node.field.multiple;
}

function stateOf(ctx: PopulateContext, node: PopulateNode): PublicationState {
  return node.query.publicationState === undefined ? ctx.publicationState : parsePublicationState(node.query.publicationState);
}

/** WHERE conditions on the target: the populate filters and its publication state. */
function targetConditions(ctx: PopulateContext, node: PopulateNode, sql: SqlBuilder, alias: string): string[] {
  const target = node.target!;
  const conditions: string[] = [];
  const filters = compileFilters(target, node.query.filters, sql, alias, ctx.registry);
  if (filters) conditions.push(filters);
  const publishedAt = target.fields['publishedAt'];
  if (target.draftAndPublish && publishedAt?.kind === 'scalar' && stateOf(ctx, node) === 'live') {
    conditions.push(`${sql.column(publishedAt.column, alias)} IS NOT NULL`);
  }
  return conditions;
}

/** A statement reading a node's targets for some number of ids, whose only parameters are those ids. */
interface TargetRead {
  readonly sql: string;
  readonly fields: string[];
}

/**
 * Statements of populate nodes that take no parameters but the ids, by dialect, publication
 * state and number of ids: a node parsed once (populate/cache.ts) is planned once too.
 */
const plannedReads = new WeakMap<PopulateNode, Map<string, TargetRead>>();
const maxPlannedReadsPerNode = 50;

/**
 * Reads the targets, turns them into entries (one object per target id) and populates inside
 * them. `build` writes the statement; its first parameters must be `ids`.
 */
async function readTargets(
  ctx: PopulateContext,
  node: PopulateNode,
  ids: readonly number[],
  build: (sql: SqlBuilder, select: string) => string,
): Promise<{ rows: Record<string, unknown>[]; entries: Map<number, Entry> }> {
  const target = node.target!;
  // The publication state as given, not yet validated: a kept plan was built (so checked) with it.
  const state = node.query.publicationState === undefined ? ctx.publicationState : node.query.publicationState;
  // The draft view reads its entries' draft links: another statement.
  const key = typeof state === 'string' ? `${ctx.db.dialect} ${state} ${ids.length}${ctx.draftOwner ? ' draft' : ''}` : undefined;
  let planned = plannedReads.get(node);
  let read = key === undefined ? undefined : planned?.get(key);
  let params: readonly unknown[] = ids;
  if (!read) {
    const sql = new SqlBuilder(ctx.db.dialect);
    const fields = withSortedFirst(ctx, node, parseFields(target, node.query.fields));
    const select = selectList(target, fields, sql, 't', jsonFieldsFor(node.children));
    const compiled = sql.finish(build(sql, select));
    read = { sql: compiled.sql, fields };
    params = compiled.params;
    // Filters add parameters of their own: such a statement is not kept.
    if (key !== undefined && params.length === ids.length && params.every((p, i) => p === ids[i])) {
      if (!planned) plannedReads.set(node, (planned = new Map()));
      if (planned.size < maxPlannedReadsPerNode) planned.set(key, read);
    }
  }
  const { fields } = read;
  const rows = await ctx.db.query(read.sql, params);
  const entries = new Map<number, Entry>();
  const items: EntryItem[] = [];
  for (const row of rows) {
    const id = Number(row.id);
    if (entries.has(id)) continue;
    const entry = toEntry(target, row, fields);
    entries.set(id, entry);
    items.push({ id, row, attributes: entry.attributes });
  }
  // Targets are read as they are live: their own links too.
  await populateEntries(ctx.draftOwner ? { ...ctx, draftOwner: undefined } : ctx, items, node.children, target);
  return { rows, entries };
}

/**
 * A sorted populate answers the attributes it is sorted by right after `id`, selected or not,
 * as Strapi 4.26's database layer does (its DISTINCT select puts the ORDER BY columns first):
 * `populate[tags][sort]=name&populate[tags][fields][0]=id` → `{ name }`. Components: see
 * component-query.ts outputKeys.
 */
function withSortedFirst(ctx: PopulateContext, node: PopulateNode, fields: string[]): string[] {
  if (node.query.sort === undefined) return fields;
  const sorted = parseSort(node.target!, node.query.sort, ctx.registry)
    .filter((term) => !term.via && term.field.name !== 'id')
    .map((term) => term.field.name);
  return sorted.length === 0 ? fields : [...new Set(['id', ...sorted, ...fields])];
}

function assertWithinLimit(ctx: PopulateContext, node: PopulateNode, count: number): void {
  if (count > ctx.maxRelationEntries) {
    throw new ValidationError(
      `populate of "${node.field.name}" returns more than ${ctx.maxRelationEntries} entries for one entry; ` +
        `narrow it with populate[${node.field.name}][filters] or raise the server's maxRelationEntries`,
    );
  }
}

/** Relations and media of content-type entries: one join over the link table. */
async function populateLinked(ctx: PopulateContext, items: readonly EntryItem[], node: PopulateNode, owner?: ContentTypeMeta): Promise<void> {
  const field = node.field as Extract<FieldMeta, { kind: 'relation' | 'media' }>;
  const link = field.link;
  if (!link) {
    // A relation with no storage (meta.ts `unstored`): nothing is ever linked.
    for (const item of items) item.attributes[field.name] = node.query.count ? relationCount(0) : { data: isToMany(node) ? [] : null };
    return;
  }
  const ownerIds = [...new Set(items.map((i) => i.id))];
  if (node.query.count) return countLinked(ctx, items, node, link, ownerIds, owner);
  const { rows, entries } = await readTargets(ctx, node, ownerIds, (sql, select) => {
    const l = 'l';
    const conditions = [
      `${sql.column(link.ownerColumn, l)} IN (${ownerIds.map((id) => sql.param(id)).join(', ')})`,
      ...targetConditions(ctx, node, sql, 't'),
    ];
    const sorts = parseSort(node.target!, node.query.sort, ctx.registry);
    const locale = ctx.localizationsByLocale && field.name === 'localizations' ? node.target!.fields['locale'] : undefined;
    const order = node.query.sort !== undefined
      ? compileOrderBy(sorts, sql, 't').replace(/^ORDER BY /, '')
      : locale?.kind === 'scalar'
        ? `${sql.column(locale.column, 't')} ASC, ${sql.column('id', 't')} ASC`
        : `${sql.column(link.orderColumn, l)} ASC, ${sql.column('id', l)} ASC`;
    return (
      `SELECT ${sql.column(link.ownerColumn, l)} AS ${sql.ident('__owner')}, ${select} ` +
      `FROM ${linkSource(sql, owner, field, ctx.draftOwner)} ${sql.ident(l)} JOIN ${sql.ident(node.target!.table)} ${sql.ident('t')} ` +
      `ON ${sql.column('id', 't')} = ${sql.column(link.targetColumn, l)} ` +
      `WHERE ${conditions.join(' AND ')} ORDER BY ${sql.column(link.ownerColumn, l)} ASC, ${order}`
    );
  });
  const byOwner = new Map<number, Entry[]>();
  for (const row of rows) {
    const owner = Number(row.__owner);
    const list = byOwner.get(owner) ?? [];
    list.push(entries.get(Number(row.id))!);
    byOwner.set(owner, list);
  }
  const toMany = isToMany(node);
  for (const item of items) {
    const list = byOwner.get(item.id) ?? [];
    if (toMany) assertWithinLimit(ctx, node, list.length);
    item.attributes[field.name] = { data: relationData(node, toMany, list) };
  }
}

/**
 * `populate[x][count]=true` on a relation: `{ data: { attributes: { count } } }`, the number
 * of entries the populate would answer (its filters and publication state apply), as Strapi
 * 4.26 answers it (its database layer gives `{ count }`, which the REST transform wraps as an
 * entry without id). `countOf` reads the number back (rest-v5 answers `{ count }`).
 */
export function relationCount(count: number): { data: { attributes: { count: number } } } {
  return { data: { attributes: { count } } };
}

export function countOf(value: unknown): number | undefined {
  const data = value !== null && typeof value === 'object' ? (value as { data?: unknown }).data : undefined;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || 'id' in data) return undefined;
  const attributes = (data as { attributes?: unknown }).attributes;
  const keys = attributes !== null && typeof attributes === 'object' ? Object.keys(attributes) : [];
  const count = keys.length === 1 && keys[0] === 'count' ? (attributes as { count: unknown }).count : undefined;
  return typeof count === 'number' ? count : undefined;
}

/** The count of a relation's linked entries per owner: one grouped statement over the link table. */
async function countLinked(ctx: PopulateContext, items: readonly EntryItem[], node: PopulateNode, link: LinkMeta, ownerIds: readonly number[], declaring?: ContentTypeMeta): Promise<void> {
  const sql = new SqlBuilder(ctx.db.dialect);
  const l = 'l';
  const owner = sql.column(link.ownerColumn, l);
  const conditions = [`${owner} IN (${ownerIds.map((id) => sql.param(id)).join(', ')})`, ...targetConditions(ctx, node, sql, 't')];
  const compiled = sql.finish(
    `SELECT ${owner} AS ${sql.ident('__owner')}, COUNT(*) AS ${sql.ident('count')} ` +
      `FROM ${linkSource(sql, declaring, node.field as { name: string; link?: LinkMeta }, ctx.draftOwner)} ${sql.ident(l)} JOIN ${sql.ident(node.target!.table)} ${sql.ident('t')} ` +
      `ON ${sql.column('id', 't')} = ${sql.column(link.targetColumn, l)} WHERE ${conditions.join(' AND ')} GROUP BY ${owner}`,
  );
  const counts = new Map((await ctx.db.query(compiled.sql, compiled.params)).map((row) => [Number(row.__owner), Number(row.count)]));
  for (const item of items) item.attributes[node.field.name] = relationCount(counts.get(item.id) ?? 0);
}

/**
 * A populated relation's `data`: the list, or the one entry (null). A multiple media field
 * without files is `null`, not `[]`, as Strapi answers it (its media are morph links).
 */
function relationData(node: PopulateNode, toMany: boolean, list: readonly Entry[]): Entry | readonly Entry[] | null {
  if (!toMany) return list[0] ?? null;
  return list.length === 0 && node.field.kind === 'media' ? null : list;
}

/**
 * Polymorphic relations of content-type entries. morphOne/morphMany answer like a relation to
 * their target (`{ data }`). morphToOne/morphToMany answer the linked entries' own attributes
 * without `data`/`attributes` wrappers, as Strapi 4.26 does: `[{ __type, id, …}]` and
 * `{ id, … }`; entries of types the caller may not `find`, missing, or drafts in a live read
 * are left out, and (as Strapi's output sanitizer does) a morphToMany left empty is no key at all.
 */
async function populateMorph(ctx: PopulateContext, items: readonly EntryItem[], node: PopulateNode, declaring?: ContentTypeMeta): Promise<void> {
  const field = node.field as MorphFieldMeta;
  const meta = declaring?.fields[field.name]?.kind === 'morph' ? declaring : ownerOf(ctx.registry, field);
  const ownerIds = [...new Set(items.map((i) => i.id))];
  if (node.target) {
    if (!meta) {
      for (const item of items) item.attributes[field.name] = { data: field.toMany ? [] : null };
      return;
    }
    const { rows, entries } = await readTargets(ctx, node, ownerIds, (sql, select) =>
      morphByQuery(ctx.registry, meta, field, ownerIds, sql, select, () => targetConditions(ctx, node, sql, 't'))!,
    );
    const byOwner = new Map<number, Entry[]>();
    for (const row of rows) {
      const list = byOwner.get(Number(row.__owner)) ?? [];
      list.push(entries.get(Number(row.id))!);
      byOwner.set(Number(row.__owner), list);
    }
    for (const item of items) {
      const list = byOwner.get(item.id) ?? [];
      if (field.toMany) assertWithinLimit(ctx, node, list.length);
      item.attributes[field.name] = { data: field.toMany ? list : (list[0] ?? null) };
    }
    return;
  }
  const refs = meta ? await readMorphRefs(ctx.db, meta, field, ownerIds) : new Map<number, MorphRef[]>();
  const found = await readMorphEntries(ctx, [...refs.values()].flat(), node.morphTypes ?? new Set());
  for (const item of items) {
    const list = (refs.get(item.id) ?? []).flatMap((ref) => {
      const entry = found.get(`${ref.uid}\u0000${ref.id}`);
      return entry ? [{ uid: ref.uid, entry }] : [];
    });
    if (field.toMany) {
      assertWithinLimit(ctx, node, list.length);
      if (list.length === 0) delete item.attributes[field.name];
      else item.attributes[field.name] = list.map(({ uid, entry }) => ({ __type: uid, id: entry.id, ...entry.attributes }));
    } else {
      const first = list[0];
      item.attributes[field.name] = first ? { id: first.entry.id, ...first.entry.attributes } : null;
    }
  }
}

/** The content type declaring a morph field (fields are shared objects of one type's metadata). */
function ownerOf(registry: Registry, field: MorphFieldMeta): ContentTypeMeta | undefined {
  for (const meta of registry.contentTypes.values()) if (meta.fields[field.name] === field) return meta;
  return undefined;
}

/**
 * The entries morph links point at, read per type (one statement each), their default
 * attributes; drafts are left out of a live read. Keyed `uid\0id`.
 */
export async function readMorphEntries(
  ctx: Pick<PopulateContext, 'db' | 'registry' | 'publicationState'>,
  refs: readonly MorphRef[],
  allowed: ReadonlySet<string>,
): Promise<Map<string, Entry>> {
  const byType = new Map<string, Set<number>>();
  for (const ref of refs) if (allowed.has(ref.uid)) byType.set(ref.uid, (byType.get(ref.uid) ?? new Set()).add(ref.id));
  const found = new Map<string, Entry>();
  for (const [uid, idSet] of byType) {
    const target = ctx.registry.contentTypes.get(uid);
    if (!target) continue;
    const fields = parseFields(target, undefined);
    for (const ids of batches([...idSet])) {
      const sql = new SqlBuilder(ctx.db.dialect);
      const select = selectList(target, fields, sql, 't', []);
      const conditions = [`${sql.column('id', 't')} IN (${ids.map((id) => sql.param(id)).join(', ')})`];
      const publishedAt = target.fields['publishedAt'];
      if (target.draftAndPublish && publishedAt?.kind === 'scalar' && ctx.publicationState === 'live') conditions.push(`${sql.column(publishedAt.column, 't')} IS NOT NULL`);
      const compiled = sql.finish(`SELECT ${select} FROM ${sql.ident(target.table)} ${sql.ident('t')} WHERE ${conditions.join(' AND ')}`);
      for (const row of await ctx.db.query(compiled.sql, compiled.params)) {
        const entry = toEntry(target, row, fields);
        found.set(`${uid}\u0000${entry.id}`, entry);
      }
    }
  }
  return found;
}

/** Relations and media stored as ids inside component JSON: one lookup by id. */
async function populateStoredIds(ctx: PopulateContext, items: readonly InstanceItem[], node: PopulateNode): Promise<void> {
  const name = node.field.name;
  const idsOf = (item: InstanceItem): number[] => {
    const value = item.stored[name];
    const list = Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];
    return list.map((v) => Number(typeof v === 'object' && v !== null ? (v as { id: unknown }).id : v)).filter(Number.isSafeInteger);
  };
  const allIds = [...new Set(items.flatMap(idsOf))];
  const toMany = isToMany(node);
  let order = new Map<number, number>();
  let entries = new Map<number, Entry>();
  if (allIds.length > 0) {
    const result = await readTargets(ctx, node, allIds, (sql, select) => {
      const conditions = [`${sql.column('id', 't')} IN (${allIds.map((id) => sql.param(id)).join(', ')})`, ...targetConditions(ctx, node, sql, 't')];
      const sorts = parseSort(node.target!, node.query.sort, ctx.registry);
      return `SELECT ${select} FROM ${sql.ident(node.target!.table)} ${sql.ident('t')} WHERE ${conditions.join(' AND ')} ${compileOrderBy(sorts, sql, 't')}`;
    });
    entries = result.entries;
    order = new Map(result.rows.map((row, index) => [Number(row.id), index]));
  }
  for (const item of items) {
    let list = idsOf(item).filter((id) => entries.has(id)).map((id) => entries.get(id)!);
    if (node.query.count) {
      item.out[name] = relationCount(list.length);
      continue;
    }
    if (node.query.sort !== undefined) list = [...list].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    if (toMany) assertWithinLimit(ctx, node, list.length);
    item.out[name] = { data: relationData(node, toMany, list) };
  }
}

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A slot, not a WeakMap: REST makes one output per component instance of every entry it answers. */
const storedValues = new Slot<Record<string, unknown>>('stored component value');

/**
 * The stored JSON a populated component output was made from (GraphQL resolves relations
 * inside components from the ids it holds), or undefined for any other object.
 */
export function storedValueOf(output: object): Record<string, unknown> | undefined {
  return storedValues.get(output);
}

/**
 * `{ id, ...visible scalar fields }` of a stored component instance, or the keys `keys`
 * (component-query.ts `outputKeys`) when given.
 */
function instanceOutput(
  component: ComponentMeta,
  stored: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  keys?: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = { id: stored.id ?? null, ...extra };
  for (const name of keys ?? Object.keys(component.fields)) {
    const field = component.fields[name];
    if (name === 'id' || !field || !isSelectableScalar(field)) continue;
    out[name] = toResponseValue(field as ScalarFieldMeta, stored[name] ?? null);
  }
  storedValues.set(out, stored);
  return out;
}

function asObject(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Stored instances of one field, one list per owner. */
interface OwnedInstances {
  readonly owner: InstanceItem;
  readonly list: Record<string, unknown>[];
}

/** Drops the instances `query.filters` rejects: one statement for every owner's instances. */
async function filterInstances(ctx: PopulateContext, component: ComponentMeta, query: ComponentQuery, owned: readonly OwnedInstances[]): Promise<OwnedInstances[]> {
  if (query.filters === undefined) return [...owned];
  const all = owned.flatMap((o) => o.list);
  const keep = await matchingInstances(ctx.db, ctx.registry, component, query.filters, all);
  let position = 0;
  return owned.map((o) => ({ owner: o.owner, list: o.list.filter(() => keep.has(position++)) }));
}

async function populateComponent(ctx: PopulateContext, owners: readonly InstanceItem[], node: PopulateNode): Promise<void> {
  const field = node.field as Extract<FieldMeta, { kind: 'component' }>;
  const component = ctx.registry.components.get(field.component)!;
  const query = node.component ?? allOfComponent;
  const owned = owners.map((owner) => {
    const value = parseJson(selected(owner.stored, field.name));
    const list = field.repeatable
      ? Array.isArray(value) ? value.map(asObject).filter((v): v is Record<string, unknown> => v !== null) : []
      : [asObject(value)].filter((v): v is Record<string, unknown> => v !== null);
    return { owner, list };
  });
  const kept = await filterInstances(ctx, component, query, owned);
  const keys = outputKeys(component, query, true);
  const instances: InstanceItem[] = [];
  for (const { owner, list } of kept) {
    const outputs = sortInstances(list.map((stored) => ({ stored })), field.repeatable ? query.sort : []).map(({ stored }) => {
      const out = instanceOutput(component, stored, {}, keys);
      instances.push({ stored, out });
      return out;
    });
    owner.out[field.name] = field.repeatable ? outputs : (outputs[0] ?? null);
  }
  await populateInstances(ctx, instances, node.children);
}

async function populateZone(ctx: PopulateContext, items: readonly EntryItem[], node: PopulateNode): Promise<void> {
  const lists = items.map((item) => {
    const value = parseJson(selected(item.row, node.field.name));
    const list = Array.isArray(value) ? value.map(asObject).filter((v): v is Record<string, unknown> => v !== null) : [];
    return list.filter((stored) => node.on.has(String(stored.__component)));
  });
  // Filters per component (one statement each, over every entry's items of that component).
  const rejected = new Set<Record<string, unknown>>();
  await Promise.all(
    [...node.on.keys()].map(async (uid) => {
      const query = node.onQuery?.get(uid) ?? allOfComponent;
      if (query.filters === undefined) return;
      const ofComponent = lists.flat().filter((stored) => String(stored.__component) === uid);
      const keep = await matchingInstances(ctx.db, ctx.registry, ctx.registry.components.get(uid)!, query.filters, ofComponent);
      ofComponent.forEach((stored, i) => {
        if (!keep.has(i)) rejected.add(stored);
      });
    }),
  );
  const byComponent = new Map<string, InstanceItem[]>();
  items.forEach((item, index) => {
    item.attributes[node.field.name] = lists[index]!
      .filter((stored) => !rejected.has(stored))
      .map((stored) => {
        const uid = String(stored.__component);
        const component = ctx.registry.components.get(uid)!;
        // Items keep the zone's order: `sort` changes neither their order nor their keys.
        const out = instanceOutput(component, stored, { __component: uid }, outputKeys(component, node.onQuery?.get(uid) ?? allOfComponent, false));
        const group = byComponent.get(uid) ?? [];
        group.push({ stored, out });
        byComponent.set(uid, group);
        return out;
      });
  });
  await Promise.all([...byComponent].map(([uid, group]) => populateInstances(ctx, group, node.on.get(uid)!)));
}
