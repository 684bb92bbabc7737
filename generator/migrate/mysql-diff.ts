/**
 * MySQL migration SQL between two Prisma schemas, written by contentgen because Prisma's
 * WebAssembly schema engine has no MySQL connector.
 *
 * The output follows Prisma's MySQL migrations: the same types, default constraint names,
 * `-- Step` comments and step order (foreign keys and indexes dropped first, so MySQL lets go of
 * the columns they use; tables created before the indexes and foreign keys that refer to them).
 * Renames are not detected: a renamed column is dropped and added, as in Prisma, and
 * data-loss.ts reports it.
 */
import {
  mysqlTablesFromSchema,
  type MysqlColumn,
  type MysqlForeignKey,
  type MysqlIndex,
  type MysqlTable,
} from './mysql-tables.js';

type StepKind = 'DropForeignKey' | 'DropIndex' | 'AlterTable' | 'DropTable' | 'CreateTable' | 'RenameIndex' | 'CreateIndex' | 'AddForeignKey';
const stepOrder: StepKind[] = ['DropForeignKey', 'DropIndex', 'AlterTable', 'DropTable', 'CreateTable', 'RenameIndex', 'CreateIndex', 'AddForeignKey'];

/** Returns the migration SQL, or `''` when the two schemas give the same tables. */
export function diffMysqlSchemas(from: string | null, to: string): string {
  const before = new Map((from === null ? [] : mysqlTablesFromSchema(from)).map((t) => [t.name, t]));
  const after = new Map(mysqlTablesFromSchema(to).map((t) => [t.name, t]));
  const steps = new Map<StepKind, string[]>(stepOrder.map((kind) => [kind, []]));
  const add = (kind: StepKind, sql: string) => steps.get(kind)?.push(sql);

  for (const [name, old] of before) {
    const next = after.get(name);
    if (next) {
      diffTable(old, next, add);
      continue;
    }
    // Drop a dropped table's foreign keys first, so dropped tables referring to each other can
    // go in any order. Foreign keys of kept tables that point here vanish from the new schema
    // with the relation, and diffTable drops them.
    for (const fk of old.foreignKeys) add('DropForeignKey', `ALTER TABLE ${q(name)} DROP FOREIGN KEY ${q(fk.name)}`);
    add('DropTable', `DROP TABLE ${q(name)}`);
  }
  for (const [name, next] of after) {
    if (before.has(name)) continue;
    add('CreateTable', renderCreateTable(next));
    for (const fk of next.foreignKeys) add('AddForeignKey', renderAddForeignKey(next.name, fk));
  }

  const rendered = stepOrder.flatMap((kind) => (steps.get(kind) ?? []).map((sql) => `-- ${kind}\n${sql};\n`));
  return rendered.join('\n');
}

function diffTable(old: MysqlTable, next: MysqlTable, add: (kind: StepKind, sql: string) => void): void {
  const table = old.name;

  const oldFks = new Map(old.foreignKeys.map((fk) => [fk.name, fk]));
  const nextFks = new Map(next.foreignKeys.map((fk) => [fk.name, fk]));
  for (const [name, fk] of oldFks) {
    const kept = nextFks.get(name);
    if (!kept || !sameForeignKey(fk, kept)) add('DropForeignKey', `ALTER TABLE ${q(table)} DROP FOREIGN KEY ${q(name)}`);
  }
  for (const [name, fk] of nextFks) {
    const was = oldFks.get(name);
    if (!was || !sameForeignKey(was, fk)) add('AddForeignKey', renderAddForeignKey(table, fk));
  }

  const oldIndexes = new Map(old.indexes.map((index) => [index.name, index]));
  const nextIndexes = new Map(next.indexes.map((index) => [index.name, index]));
  // An index that only changes its name is renamed, as Prisma does: dropping it could fail
  // while a foreign key relies on it (after a table or column rename, say).
  const renamed = new Map<string, string>();
  for (const [name, index] of nextIndexes) {
    if (oldIndexes.has(name)) continue;
    const was = [...oldIndexes.values()].find((o) => !nextIndexes.has(o.name) && ![...renamed.values()].includes(o.name) && sameIndex(o, index));
    if (was) renamed.set(name, was.name);
  }
  for (const [next, was] of renamed) add('RenameIndex', `ALTER TABLE ${q(table)} RENAME INDEX ${q(was)} TO ${q(next)}`);
  for (const [name, index] of oldIndexes) {
    const kept = nextIndexes.get(name);
    if ([...renamed.values()].includes(name)) continue;
    if (!kept || !sameIndex(index, kept)) add('DropIndex', `DROP INDEX ${q(name)} ON ${q(table)}`);
  }
  for (const [name, index] of nextIndexes) {
    const was = oldIndexes.get(name);
    if (renamed.has(name)) continue;
    if (!was || !sameIndex(was, index)) add('CreateIndex', renderCreateIndex(table, index));
  }

  const clauses: string[] = [];
  const pkChanged = old.primaryKey.join('\0') !== next.primaryKey.join('\0');
  if (pkChanged && old.primaryKey.length > 0) clauses.push('DROP PRIMARY KEY');
  const oldColumns = new Map(old.columns.map((c) => [c.name, c]));
  const nextColumns = new Map(next.columns.map((c) => [c.name, c]));
  for (const column of next.columns) {
    if (!oldColumns.has(column.name)) clauses.push(`ADD COLUMN ${renderColumn(column)}`);
  }
  for (const column of old.columns) {
    if (!nextColumns.has(column.name)) clauses.push(`DROP COLUMN ${q(column.name)}`);
  }
  for (const column of next.columns) {
    const was = oldColumns.get(column.name);
    if (was && renderColumn(was) !== renderColumn(column)) clauses.push(`MODIFY ${renderColumn(column)}`);
  }
  if (pkChanged && next.primaryKey.length > 0) clauses.push(`ADD PRIMARY KEY (${next.primaryKey.map(q).join(', ')})`);
  if (clauses.length > 0) add('AlterTable', `ALTER TABLE ${q(table)} ${clauses.join(',\n    ')}`);
}

/**
 * Binary, not Prisma's `utf8mb4_unicode_ci`: a `_ci` collation makes `=`, unique indexes and
 * ORDER BY ignore case and accents, so `Hello` would clash with a unique `hello` and match
 * `filters[title][$eq]=hello`, unlike on SQLite and PostgreSQL. `utf8mb4_bin` compares code
 * points, like they do (it pads trailing spaces in `=` and unique indexes, which the query
 * compiler's binary comparisons do not; `utf8mb4_nopad_bin` would fix that but MySQL lacks it).
 */
export const tableCollation = 'utf8mb4_bin';

function renderCreateTable(table: MysqlTable): string {
  const lines = table.columns.map((c) => `    ${renderColumn(c)}`);
  const keys = table.indexes.map((index) => `    ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name)}(${index.columns.map(q).join(', ')})`);
  if (table.primaryKey.length > 0) keys.push(`    PRIMARY KEY (${table.primaryKey.map(q).join(', ')})`);
  const body = keys.length > 0 ? `${lines.join(',\n')},\n\n${keys.join(',\n')}` : lines.join(',\n');
  return `CREATE TABLE ${q(table.name)} (\n${body}\n) DEFAULT CHARACTER SET utf8mb4 COLLATE ${tableCollation}`;
}

function renderColumn(column: MysqlColumn): string {
  const defaultSql = column.default === undefined ? '' : ` DEFAULT ${column.default}`;
  return `${q(column.name)} ${column.type} ${column.notNull ? 'NOT NULL' : 'NULL'}${defaultSql}${column.autoIncrement ? ' AUTO_INCREMENT' : ''}`;
}

function renderCreateIndex(table: string, index: MysqlIndex): string {
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${q(index.name)} ON ${q(table)}(${index.columns.map(q).join(', ')})`;
}

function renderAddForeignKey(table: string, fk: MysqlForeignKey): string {
  return (
    `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(fk.name)} FOREIGN KEY (${fk.columns.map(q).join(', ')}) ` +
    `REFERENCES ${q(fk.referencedTable)}(${fk.referencedColumns.map(q).join(', ')}) ` +
    `ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate}`
  );
}

function sameIndex(a: MysqlIndex, b: MysqlIndex): boolean {
  return a.unique === b.unique && a.columns.join('\0') === b.columns.join('\0');
}

function sameForeignKey(a: MysqlForeignKey, b: MysqlForeignKey): boolean {
  return (
    a.columns.join('\0') === b.columns.join('\0') &&
    a.referencedTable === b.referencedTable &&
    a.referencedColumns.join('\0') === b.referencedColumns.join('\0') &&
    a.onDelete === b.onDelete &&
    a.onUpdate === b.onUpdate
  );
}

function q(identifier: string): string {
  return `\`${identifier.replace(/`/g, '``')}\``;
}
