/**
 * The entry's own row written in SQL through the database seam (db/database.ts), as links and
 * component ids already are: on SQLite, PostgreSQL and MySQL/MariaDB a write transaction's
 * statements then run on its connection directly (db/transaction-statements.ts) instead of
 * through Prisma's typed delegates, whose query compiler and result mapping were most of
 * what a create still spent outside the database (issue 29).
 *
 * Values are stored in the forms Prisma's driver adapters store them, which are the forms the
 * read side (query/) compares with and the row converters read: on SQLite dates as
 * `2024-05-06T00:00:00.000+00:00` text, booleans as 0/1, decimals as REAL; on PostgreSQL and
 * MySQL/MariaDB dates and times as `YYYY-MM-DD` and `HH:mm:ss.SSS` text for DATE and TIME
 * columns and as Dates for date-times (the seam's executors send them as UTC text), decimals as
 * their exact text. JSON values (json, array, components, zones) as their JSON text.
 *
 * Each type's columns are looked up once (per type and dialect); a statement's text once per
 * set of columns written, so the executors' prepared-statement caches see the same texts.
 */
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, Dialect, FieldMeta, ScalarType } from '../meta.js';
import { documentIdColumn } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { toSqliteDateTime } from '../temporal.js';

/** An entry row's values keyed by Prisma field name (scalars) or field name (components, zones). */
export type EntryData = Record<string, unknown>;

interface Column {
  /** The quoted column name. */
  readonly sql: string;
  readonly store: (value: unknown) => unknown;
}

interface EntryTable {
  readonly table: string;
  readonly id: string;
  readonly columns: ReadonlyMap<string, Column>;
  /** Statement texts by the keys written, in order. */
  readonly inserts: Map<string, string>;
  readonly updates: Map<string, string>;
  readonly deleteSql: string;
}

const tables = new WeakMap<ContentTypeMeta, Partial<Record<Dialect, EntryTable>>>();

function entryTable(meta: ContentTypeMeta, dialect: Dialect): EntryTable {
  let byDialect = tables.get(meta);
  if (!byDialect) tables.set(meta, (byDialect = {}));
  const known = byDialect[dialect];
  if (known) return known;
  const sql = new SqlBuilder(dialect);
  const columns = new Map<string, Column>();
  for (const field of Object.values(meta.fields) as FieldMeta[]) {
    if (field.kind === 'scalar') columns.set(field.prismaField, { sql: sql.ident(field.column), store: storedValue(dialect, field.type) });
    else if (field.kind === 'component' || field.kind === 'dynamiczone') columns.set(field.name, { sql: sql.ident(field.column), store: jsonText });
  }
  // Strapi 5's identity (entity/document-id.ts): a column of every type, not a field of its metadata.
  columns.set('documentId', { sql: sql.ident(documentIdColumn), store: (value) => value });
  const table = sql.ident(meta.table);
  const id = sql.ident('id');
  const placeholder = dialect === 'postgresql' ? '$1' : '?';
  const made: EntryTable = { table, id, columns, inserts: new Map(), updates: new Map(), deleteSql: `DELETE FROM ${table} WHERE ${id} = ${placeholder}` };
  byDialect[dialect] = made;
  return made;
}

/** The columns of `data`'s keys and their stored values, in `data`'s order. */
function columnValues(meta: ContentTypeMeta, table: EntryTable, data: EntryData): { keys: string; columns: Column[]; values: unknown[] } {
  const columns: Column[] = [];
  const values: unknown[] = [];
  let keys = '';
  for (const key in data) {
    const value = data[key];
    if (value === undefined) continue;
    const column = table.columns.get(key);
    if (!column) throw new Error(`${meta.uid} has no column for ${JSON.stringify(key)}`);
    columns.push(column);
    values.push(value === null ? null : column.store(value));
    keys += `${key},`;
  }
  return { keys, columns, values };
}

const placeholders = (dialect: Dialect, count: number, from = 1): string[] =>
  Array.from({ length: count }, (_, i) => (dialect === 'postgresql' ? `$${from + i}` : '?'));

/** Inserts the entry's row; resolves to its new id. */
export async function insertEntryRow(db: Database, meta: ContentTypeMeta, data: EntryData): Promise<number> {
  const table = entryTable(meta, db.dialect);
  const { keys, columns, values } = columnValues(meta, table, data);
  let sql = table.inserts.get(keys);
  if (sql === undefined) {
    sql = `INSERT INTO ${table.table} (${columns.map((c) => c.sql).join(', ')}) VALUES (${placeholders(db.dialect, columns.length).join(', ')})`;
    table.inserts.set(keys, sql);
  }
  return db.insert(sql, values);
}

/** Sets the given columns of the entry's row; resolves to the number of rows changed (0 or 1). */
export async function updateEntryRow(db: Database, meta: ContentTypeMeta, id: number, data: EntryData): Promise<number> {
  const table = entryTable(meta, db.dialect);
  const { keys, columns, values } = columnValues(meta, table, data);
  if (columns.length === 0) return 0;
  let sql = table.updates.get(keys);
  if (sql === undefined) {
    const marks = placeholders(db.dialect, columns.length + 1);
    sql = `UPDATE ${table.table} SET ${columns.map((c, i) => `${c.sql} = ${marks[i]}`).join(', ')} WHERE ${table.id} = ${marks[columns.length]}`;
    table.updates.set(keys, sql);
  }
  return db.execute(sql, [...values, id]);
}

/** Deletes the entry's row (its link rows go with it: their foreign keys cascade). */
export async function deleteEntryRow(db: Database, meta: ContentTypeMeta, id: number): Promise<number> {
  return db.execute(entryTable(meta, db.dialect).deleteSql, [id]);
}

/** A write's value of `key` as the entry's column stores it (for comparisons with stored values). */
export function storedColumnValue(meta: ContentTypeMeta, dialect: Dialect, key: string, value: unknown): unknown {
  const column = entryTable(meta, dialect).columns.get(key);
  if (!column) throw new Error(`${meta.uid} has no column for ${JSON.stringify(key)}`);
  return value === null ? null : column.store(value);
}

const jsonText = (value: unknown): string => JSON.stringify(value);
const same = (value: unknown): unknown => value;

/**
 * How a validated write value (entity/input.ts: strings, numbers, bigints, booleans, Dates,
 * decimal text, JSON values) is stored by `dialect`, as Prisma's adapter for it would store it.
 */
function storedValue(dialect: Dialect, type: ScalarType): (value: unknown) => unknown {
  switch (type) {
    case 'json':
    case 'array':
      return jsonText;
    case 'boolean':
      return dialect === 'sqlite' ? (value) => (value ? 1 : 0) : same;
    case 'decimal':
      // Prisma's SQLite adapter stores a Decimal as a double (REAL); the others keep its digits.
      return dialect === 'sqlite' ? (value) => (typeof value === 'string' ? Number.parseFloat(value) : value) : same;
    case 'date':
      return dialect === 'sqlite' ? sqliteInstant : (value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value);
    case 'time':
      return dialect === 'sqlite' ? sqliteInstant : (value) => (value instanceof Date ? value.toISOString().slice(11, 23) : value);
    case 'datetime':
    case 'timestamp':
      return dialect === 'sqlite' ? sqliteInstant : same;
    default:
      return same;
  }
}

const sqliteInstant = (value: unknown): unknown => (value instanceof Date ? toSqliteDateTime(value) : value);
