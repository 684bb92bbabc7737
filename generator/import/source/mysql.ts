/**
 * A Strapi MySQL/MariaDB database, only read: each read streams on a connection of its own in
 * a consistent-snapshot, read-only transaction. Dates come as text (`dateStrings`): DATETIME is
 * the Strapi process's wall time (§3.1); bigints and decimals as exact values.
 */
import mariadb from 'mariadb';
import { decodeRow, type DecodeContext } from './decode.js';
import { withoutPassword } from './postgres.js';
import type { ColumnTypes, NormalizedRow, RowQuery, StrapiSource } from './types.js';

export function openMysqlSource(url: string, timeZone: string): StrapiSource {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const pool = mariadb.createPool({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 3306,
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    database,
    connectionLimit: 4,
    dateStrings: true,
    bigIntAsNumber: false,
    decimalAsNumber: false,
    insertIdAsNumber: true,
    checkDuplicate: false,
  });
  const context: DecodeContext = { dialect: 'mysql', timeZone };
  const quote = (name: string) => `\`${name.replace(/`/g, '``')}\``;

  async function* select(sql: string, params: readonly unknown[], types: ColumnTypes, batchSize = 1000): AsyncGenerator<NormalizedRow[]> {
    const conn = await pool.getConnection();
    try {
      await conn.query('START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY');
      let batch: NormalizedRow[] = [];
      for await (const raw of conn.queryStream(sql, [...params]) as AsyncIterable<Record<string, unknown>>) {
        batch.push(decodeRow(raw, types, context));
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
      await conn.query('COMMIT');
    } finally {
      await conn.release();
    }
  }

  return {
    dialect: 'mysql',
    label: withoutPassword(url),
    quote,
    async tables() {
      const rows = (await pool.query('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()')) as { name: string }[];
      return new Set(rows.map((r) => r.name));
    },
    async columns(table) {
      const rows = (await pool.query('SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? ORDER BY ordinal_position', [table])) as { name: string }[];
      return rows.map((r) => r.name);
    },
    rows(query: RowQuery, types: ColumnTypes, batchSize?: number) {
      const order = (query.orderBy ?? ['id']).map(quote).join(', ');
      return select(`SELECT * FROM ${quote(query.table)} ORDER BY ${order}`, [], types, batchSize);
    },
    select,
    async lastId(table) {
      const rows = (await pool.query('SELECT auto_increment AS next FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?', [table])) as { next: unknown }[];
      const next = rows[0]?.next;
      return next === null || next === undefined ? 0 : Number(next) - 1;
    },
    async close() {
      await pool.end();
    },
  };
}
