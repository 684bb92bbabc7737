/**
 * Polymorphic relations (Strapi v4's morphToOne, morphToMany, morphOne, morphMany): writes,
 * the links an entry holds, and their removal with the entry. Storage as Strapi 4.26's
 * database layer keeps it (entity-manager, metadata/relations):
 *  - morphToOne: the owner's columns `target_id`, `target_type` (the linked entry's uid);
 *  - morphToMany: `<table>_<attr>_morphs (<singular>_id, <attr>_id, <attr>_type, field, order)`,
 *    ordered by `order`; rows written from this side have no `field`;
 *  - morphOne/morphMany: rows (or columns) of the `target` type's morphTo field `morphBy`
 *    that point at this entry; rows of a morphToMany carry this field's name in `field`.
 * Runs inside the caller's transaction.
 */
import type { Database } from '../db/database.js';
import { ValidationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, MorphFieldMeta, Registry } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { batches, maxBoundParameters, SqlBuilder } from '../query/sql.js';
import { assertTargetsExist, parseRelationInput, referencedIds } from './relations.js';
import { printJson } from './yup-messages.js';

/** One linked entry of a morphTo field. */
export interface MorphRef {
  readonly uid: string;
  readonly id: number;
}

/** What a write asks of one morph field: the whole list of links it gets. */
export type MorphInput =
  /** morphToOne/morphToMany: entries of any type, in order (empty: none). */
  | { readonly kind: 'to'; readonly refs: readonly MorphRef[] }
  /** morphOne/morphMany: ids of the target type, in order. */
  | { readonly kind: 'by'; readonly ids: readonly number[] };

function fieldError(field: string, message: string): ValidationError {
  return new ValidationError(message, { errors: [{ path: [field], message, name: 'ValidationError' }] });
}

/**
 * Parses and checks a write of a morph field: every `{ __type, id }` names a content type
 * and an entry of it that exist (Strapi stores whatever it is given, and fails later: a 400
 * here), morphOne/morphMany ids exist in their target type (as Strapi checks).
 */
export async function prepareMorphInput(db: Database, registry: Registry, field: MorphFieldMeta, value: unknown): Promise<MorphInput> {
  if (field.relation === 'morphOne' || field.relation === 'morphMany') {
    const input = parseRelationInput(field.name, value);
    if (input.kind !== 'set') throw fieldError(field.name, `${field.name} takes the whole list of ids (connect and disconnect do not apply to a ${field.relation} relation)`);
    const target = registry.contentTypes.get(field.target!);
    if (target) await assertTargetsExist(db, target, referencedIds(input));
    const ids = [...new Set(input.ids)];
    return { kind: 'by', ids: field.relation === 'morphOne' ? ids.slice(-1) : ids };
  }
  const items = morphItems(field, value);
  const refs: MorphRef[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (!isPlainObject(item)) throw fieldError(field.name, `${field.name} must be ${field.toMany ? 'a list of' : ''} {"__type": "<content type uid>", "id": <id>}${field.toMany ? ' objects' : ''}; got ${printJson(value)}`);
    const uid = item.__type;
    const rawId = typeof item.id === 'number' ? String(item.id) : typeof item.id === 'string' ? item.id.trim() : '';
    if (typeof uid !== 'string' || !/^[1-9]\d{0,15}$/.test(rawId)) {
      throw fieldError(field.name, `${field.name}: each item needs "__type" (a content type uid) and "id"; got ${printJson(item)}`);
    }
    if (!registry.contentTypes.has(uid)) throw fieldError(field.name, `${field.name}: "${uid}" is not a content type`);
    const ref = { uid, id: Number(rawId) };
    const key = `${uid}\u0000${ref.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push(ref);
  }
  const byType = new Map<string, number[]>();
  for (const ref of refs) byType.set(ref.uid, [...(byType.get(ref.uid) ?? []), ref.id]);
  for (const [uid, ids] of byType) await assertTargetsExist(db, registry.contentTypes.get(uid)!, ids);
  return { kind: 'to', refs: field.toMany ? refs : refs.slice(-1) };
}

/** `null` clears; `{ set: [...] }` like the list itself; a morphToOne takes one object. */
function morphItems(field: MorphFieldMeta, value: unknown): unknown[] {
  if (value === null) return [];
  if (isPlainObject(value) && ('connect' in value || 'disconnect' in value)) {
    throw fieldError(field.name, `${field.name} takes the whole ${field.toMany ? 'list' : 'link'} (connect and disconnect do not apply to a ${field.relation} relation)`);
  }
  const items = isPlainObject(value) && 'set' in value ? value.set : value;
  if (items === null || items === undefined) return [];
  if (field.toMany) {
    if (!Array.isArray(items)) throw fieldError(field.name, `${field.name} must be a list of {"__type": "<content type uid>", "id": <id>} objects; got ${printJson(value)}`);
    return items;
  }
  if (Array.isArray(items)) throw fieldError(field.name, `${field.name} must be one {"__type": "<content type uid>", "id": <id>} object or null; got ${printJson(value)}`);
  return [items];
}

async function run(db: Database, build: (sql: SqlBuilder) => string): Promise<void> {
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(build(sql));
  await db.execute(compiled.sql, compiled.params);
}

async function insertRows(db: Database, table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  for (const batch of batches(rows, Math.floor(maxBoundParameters / columns.length))) {
    await run(
      db,
      (sql) =>
        `INSERT INTO ${sql.ident(table)} (${columns.map((c) => sql.ident(c)).join(', ')}) ` +
        `VALUES ${batch.map((row) => `(${row.map((value) => sql.param(value)).join(', ')})`).join(', ')}`,
    );
  }
}

/** The morphTo field a morphOne/morphMany reads, with its type. */
function morphByOf(registry: Registry, field: MorphFieldMeta): { target: ContentTypeMeta; by: MorphFieldMeta } | undefined {
  const target = field.target === undefined ? undefined : registry.contentTypes.get(field.target);
  const by = target?.fields[field.morphBy ?? ''];
  return target && by?.kind === 'morph' ? { target, by } : undefined;
}

/** Writes one morph field of the entry `entryId` of `meta` (replacing what it held). */
export async function writeMorph(db: Database, registry: Registry, meta: ContentTypeMeta, field: MorphFieldMeta, entryId: number, input: MorphInput, created: boolean): Promise<void> {
  if (input.kind === 'to') {
    if (field.columns) {
      const ref = input.refs[0];
      const columns = field.columns;
      await run(db, (sql) =>
        `UPDATE ${sql.ident(meta.table)} SET ${sql.ident(columns.id)} = ${sql.param(ref?.id ?? null)}, ${sql.ident(columns.type)} = ${sql.param(ref?.uid ?? null)} ` +
        `WHERE ${sql.ident('id')} = ${sql.param(entryId)}`);
      return;
    }
    const table = field.morphTable!;
    // Strapi replaces every row of the entry, those its morphOne/morphMany partners wrote included.
    if (!created) await run(db, (sql) => `DELETE FROM ${sql.ident(table.table)} WHERE ${sql.ident(table.ownerColumn)} = ${sql.param(entryId)}`);
    const rows = input.refs.map((ref, index) => [entryId, ref.id, ref.uid, null, index + 1]);
    await insertRows(db, table.table, [table.ownerColumn, table.idColumn, table.typeColumn, 'field', 'order'], rows);
    return;
  }
  const other = morphByOf(registry, field);
  if (!other) return;
  const { target, by } = other;
  if (by.columns) {
    const columns = by.columns;
    if (!created) {
      await run(db, (sql) =>
        `UPDATE ${sql.ident(target.table)} SET ${sql.ident(columns.id)} = NULL, ${sql.ident(columns.type)} = NULL ` +
        `WHERE ${sql.ident(columns.id)} = ${sql.param(entryId)} AND ${sql.ident(columns.type)} = ${sql.param(meta.uid)}`);
    }
    for (const batch of batches(input.ids)) {
      await run(db, (sql) =>
        `UPDATE ${sql.ident(target.table)} SET ${sql.ident(columns.id)} = ${sql.param(entryId)}, ${sql.ident(columns.type)} = ${sql.param(meta.uid)} ` +
        `WHERE ${sql.ident('id')} IN (${batch.map((id) => sql.param(id)).join(', ')})`);
    }
    return;
  }
  const table = by.morphTable!;
  if (!created) {
    await run(db, (sql) =>
      `DELETE FROM ${sql.ident(table.table)} WHERE ${sql.ident(table.idColumn)} = ${sql.param(entryId)} ` +
      `AND ${sql.ident(table.typeColumn)} = ${sql.param(meta.uid)} AND ${sql.ident('field')} = ${sql.param(field.name)}`);
  }
  const rows = input.ids.map((id, index) => [id, entryId, meta.uid, field.name, index + 1]);
  await insertRows(db, table.table, [table.ownerColumn, table.idColumn, table.typeColumn, 'field', 'order'], rows);
}

/**
 * Before the entry is deleted: its morphToMany rows go (its foreign key would take them too),
 * and every link that points at it is removed (morph tables and morphToOne columns of every
 * type): Strapi leaves those dangling (they read as nothing), here they go with the entry.
 */
export async function deleteMorphLinks(db: Database, registry: Registry, meta: ContentTypeMeta, entryId: number): Promise<void> {
  for (const field of Object.values(meta.fields) as FieldMeta[]) {
    if (field.kind === 'morph' && field.morphTable) {
      const table = field.morphTable;
      await run(db, (sql) => `DELETE FROM ${sql.ident(table.table)} WHERE ${sql.ident(table.ownerColumn)} = ${sql.param(entryId)}`);
    }
  }
  for (const other of registry.contentTypes.values()) {
    for (const field of Object.values(other.fields) as FieldMeta[]) {
      if (field.kind !== 'morph') continue;
      if (field.morphTable) {
        const table = field.morphTable;
        await run(db, (sql) =>
          `DELETE FROM ${sql.ident(table.table)} WHERE ${sql.ident(table.idColumn)} = ${sql.param(entryId)} AND ${sql.ident(table.typeColumn)} = ${sql.param(meta.uid)}`);
      } else if (field.columns) {
        const columns = field.columns;
        await run(db, (sql) =>
          `UPDATE ${sql.ident(other.table)} SET ${sql.ident(columns.id)} = NULL, ${sql.ident(columns.type)} = NULL ` +
          `WHERE ${sql.ident(columns.id)} = ${sql.param(entryId)} AND ${sql.ident(columns.type)} = ${sql.param(meta.uid)}`);
      }
    }
  }
}

/** The entries each owner's morphToOne/morphToMany field links, in order, by owner id. */
export async function readMorphRefs(db: Database, meta: ContentTypeMeta, field: MorphFieldMeta, ownerIds: readonly number[]): Promise<Map<number, MorphRef[]>> {
  const out = new Map<number, MorphRef[]>();
  const add = (owner: unknown, id: unknown, uid: unknown) => {
    if (id === null || id === undefined || typeof uid !== 'string') return;
    const list = out.get(Number(owner)) ?? [];
    list.push({ uid, id: Number(id) });
    out.set(Number(owner), list);
  };
  for (const batch of batches([...new Set(ownerIds)])) {
    const sql = new SqlBuilder(db.dialect);
    if (field.columns) {
      const compiled = sql.finish(
        `SELECT ${sql.ident('id')} AS ${sql.ident('owner')}, ${sql.ident(field.columns.id)} AS ${sql.ident('ref_id')}, ${sql.ident(field.columns.type)} AS ${sql.ident('ref_type')} ` +
          `FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} IN (${batch.map((id) => sql.param(id)).join(', ')})`,
      );
      for (const row of await db.query(compiled.sql, compiled.params)) add(row.owner, row.ref_id, row.ref_type);
    } else if (field.morphTable) {
      const table = field.morphTable;
      const compiled = sql.finish(
        `SELECT ${sql.ident(table.ownerColumn)} AS ${sql.ident('owner')}, ${sql.ident(table.idColumn)} AS ${sql.ident('ref_id')}, ${sql.ident(table.typeColumn)} AS ${sql.ident('ref_type')} ` +
          `FROM ${sql.ident(table.table)} WHERE ${sql.ident(table.ownerColumn)} IN (${batch.map((id) => sql.param(id)).join(', ')}) ` +
          `ORDER BY ${sql.ident(table.ownerColumn)} ASC, ${sql.ident('order')} ASC, ${sql.ident('id')} ASC`,
      );
      for (const row of await db.query(compiled.sql, compiled.params)) add(row.owner, row.ref_id, row.ref_type);
    }
  }
  return out;
}

/**
 * morphOne/morphMany: the ids of the `target` entries linking each owner through `morphBy`
 * (rows of a morphToMany: only those this field wrote), in order, by owner id. `target`
 * conditions (`extra`) filter them in the same statement.
 */
export function morphByQuery(
  registry: Registry,
  meta: ContentTypeMeta,
  field: MorphFieldMeta,
  ownerIds: readonly number[],
  sql: SqlBuilder,
  select: string,
  /** Called after the ids are bound (parameters follow text order). */
  conditions: () => readonly string[],
): string | undefined {
  const other = morphByOf(registry, field);
  if (!other) return undefined;
  const { target, by } = other;
  const ids = ownerIds.map((id) => sql.param(id)).join(', ');
  if (by.columns) {
    return (
      `SELECT ${sql.column(by.columns.id, 't')} AS ${sql.ident('__owner')}, ${select} FROM ${sql.ident(target.table)} ${sql.ident('t')} ` +
      `WHERE ${[`${sql.column(by.columns.id, 't')} IN (${ids})`, `${sql.column(by.columns.type, 't')} = ${sql.param(meta.uid)}`, ...conditions()].join(' AND ')} ` +
      `ORDER BY ${sql.column('id', 't')} ASC`
    );
  }
  const table = by.morphTable!;
  return (
    `SELECT ${sql.column(table.idColumn, 'm')} AS ${sql.ident('__owner')}, ${select} FROM ${sql.ident(table.table)} ${sql.ident('m')} ` +
    `JOIN ${sql.ident(target.table)} ${sql.ident('t')} ON ${sql.column('id', 't')} = ${sql.column(table.ownerColumn, 'm')} ` +
    `WHERE ${[
      `${sql.column(table.idColumn, 'm')} IN (${ids})`,
      `${sql.column(table.typeColumn, 'm')} = ${sql.param(meta.uid)}`,
      `${sql.column('field', 'm')} = ${sql.param(field.name)}`,
      ...conditions(),
    ].join(' AND ')} ` +
    `ORDER BY ${sql.column(table.idColumn, 'm')} ASC, ${sql.column('order', 'm')} ASC, ${sql.column('id', 'm')} ASC`
  );
}
