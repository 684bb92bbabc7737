/**
 * The server's database, written in one transaction: multi-row INSERTs of encoded values,
 * sequences moved past the ids written (PostgreSQL does not move them on explicit ids; SQLite
 * and MySQL do, but Strapi's counters may be further on: deleted rows' ids are not reused).
 */
import Database from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';
import type { Provider } from '../../ir/scalars.js';
import { sqliteFilePath } from '../../../templates/runtime/db/provider.js';

export interface TargetDatabase {
  readonly dialect: Provider;
  tables(): Promise<ReadonlySet<string>>;
  count(table: string): Promise<number>;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  insert(table: string, columns: readonly string[], rows: readonly unknown[][]): Promise<void>;
  clear(table: string): Promise<void>;
  /** Moves the table's id sequence so the next id is above `lastId` and every stored id. */
  setSequence(table: string, lastId: number): Promise<void>;
  /** Sets contentgen_component_ids rows (inside the transaction). */
  setComponentIds(ids: ReadonlyMap<string, number>): Promise<void>;
  close(): Promise<void>;
}

/** Rows per INSERT: SQLite allows 32766 parameters a statement. */
function chunkSize(columns: number): number {
  return Math.max(1, Math.min(500, Math.floor(30000 / Math.max(1, columns))));
}

export async function openTarget(url: string, serverDir: string): Promise<TargetDatabase> {
  if (url.startsWith('file:')) return openSqliteTarget(sqliteFilePath(url, serverDir));
  if (/^postgres(ql)?:/i.test(url)) return openPostgresTarget(url);
  return openMysqlTarget(url);
}

function openSqliteTarget(file: string): TargetDatabase {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return {
    dialect: 'sqlite',
    async tables() {
      return new Set((db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[]).map((r) => r.name));
    },
    async count(table) {
      return Number((db.prepare(`SELECT COUNT(*) AS n FROM ${q(table)}`).get() as { n: number }).n);
    },
    async begin() {
      db.exec('BEGIN IMMEDIATE');
    },
    async commit() {
      db.exec('COMMIT');
    },
    async rollback() {
      if (db.inTransaction) db.exec('ROLLBACK');
    },
    async insert(table, columns, rows) {
      const size = chunkSize(columns.length);
      const one = `(${columns.map(() => '?').join(', ')})`;
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size);
        db.prepare(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${chunk.map(() => one).join(', ')}`).run(...chunk.flat());
      }
    },
    async clear(table) {
      db.prepare(`DELETE FROM ${q(table)}`).run();
    },
    async setSequence(table, lastId) {
      const max = Number((db.prepare(`SELECT COALESCE(MAX(id), 0) AS m FROM ${q(table)}`).get() as { m: number }).m);
      const seq = Math.max(max, lastId);
      const has = db.prepare(`SELECT 1 FROM sqlite_sequence WHERE name = ?`).get(table);
      // As an integer (a JS number binds as REAL).
      if (has) db.prepare(`UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = ?`).run(BigInt(seq), table);
      else if (seq > 0) db.prepare(`INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`).run(table, BigInt(seq));
    },
    async setComponentIds(ids) {
      const statement = db.prepare(`INSERT INTO contentgen_component_ids (component, last_id) VALUES (?, ?) ON CONFLICT (component) DO UPDATE SET last_id = MAX(last_id, excluded.last_id)`);
      for (const [uid, last] of ids) statement.run(uid, last);
    },
    async close() {
      db.close();
    },
  };
}

async function openPostgresTarget(url: string): Promise<TargetDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return {
    dialect: 'postgresql',
    async tables() {
      const { rows } = await client.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`);
      return new Set(rows.map((r: { table_name: string }) => r.table_name));
    },
    async count(table) {
      return Number((await client.query(`SELECT COUNT(*) AS n FROM ${q(table)}`)).rows[0].n);
    },
    async begin() {
      await client.query('BEGIN');
    },
    async commit() {
      await client.query('COMMIT');
    },
    async rollback() {
      await client.query('ROLLBACK');
    },
    async insert(table, columns, rows) {
      const size = chunkSize(columns.length);
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size);
        let n = 0;
        const values = chunk.map((row) => `(${row.map(() => `$${++n}`).join(', ')})`).join(', ');
        await client.query(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${values}`, chunk.flat());
      }
    },
    async clear(table) {
      await client.query(`DELETE FROM ${q(table)}`);
    },
    async setSequence(table, lastId) {
      const { rows } = await client.query(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [q(table)]);
      const sequence = rows[0]?.seq as string | null;
      if (!sequence) return;
      const max = Number((await client.query(`SELECT COALESCE(MAX(id), 0) AS m FROM ${q(table)}`)).rows[0].m);
      const value = Math.max(max, lastId);
      if (value > 0) await client.query(`SELECT setval($1, $2, true)`, [sequence, value]);
    },
    async setComponentIds(ids) {
      for (const [uid, last] of ids) {
        await client.query(
          `INSERT INTO contentgen_component_ids (component, last_id) VALUES ($1, $2) ON CONFLICT (component) DO UPDATE SET last_id = GREATEST(contentgen_component_ids.last_id, excluded.last_id)`,
          [uid, last],
        );
      }
    },
    async close() {
      await client.end();
    },
  };
}

async function openMysqlTarget(url: string): Promise<TargetDatabase> {
  const parsed = new URL(url.replace(/^mariadb:/i, 'mysql:'));
  const conn = await mariadb.createConnection({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')),
    timezone: '+00:00',
    bigIntAsNumber: false,
  });
  const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;
  /** ALTER TABLE commits on MySQL: sequences are moved after the transaction. */
  const pendingSequences = new Map<string, number>();
  return {
    dialect: 'mysql',
    async tables() {
      const rows = (await conn.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')) as { name: string }[];
      return new Set(rows.map((r) => r.name));
    },
    async count(table) {
      return Number(((await conn.query(`SELECT COUNT(*) AS n FROM ${q(table)}`)) as { n: bigint }[])[0]!.n);
    },
    async begin() {
      await conn.beginTransaction();
    },
    async commit() {
      await conn.commit();
      for (const [table, next] of pendingSequences) await conn.query(`ALTER TABLE ${q(table)} AUTO_INCREMENT = ${next}`);
    },
    async rollback() {
      await conn.rollback();
      pendingSequences.clear();
    },
    async insert(table, columns, rows) {
      const size = chunkSize(columns.length);
      const one = `(${columns.map(() => '?').join(', ')})`;
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size);
        await conn.query(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${chunk.map(() => one).join(', ')}`, chunk.flat());
      }
    },
    async clear(table) {
      await conn.query(`DELETE FROM ${q(table)}`);
    },
    async setSequence(table, lastId) {
      const max = Number(((await conn.query(`SELECT COALESCE(MAX(id), 0) AS m FROM ${q(table)}`)) as { m: unknown }[])[0]!.m);
      pendingSequences.set(table, Math.max(max, lastId) + 1);
    },
    async setComponentIds(ids) {
      for (const [uid, last] of ids) {
        await conn.query(`INSERT INTO contentgen_component_ids (component, last_id) VALUES (?, ?) ON DUPLICATE KEY UPDATE last_id = GREATEST(last_id, VALUES(last_id))`, [uid, last]);
      }
    },
    async close() {
      await conn.end();
    },
  };
}
