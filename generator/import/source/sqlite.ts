/**
 * A Strapi SQLite database, opened read-only (a live Strapi may keep writing to it). Each read
 * runs on a connection of its own: better-sqlite3 allows no other statement on a connection
 * while an iteration is open, and the plan reads component rows while it reads their owners.
 */
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { decodeRow, type DecodeContext } from './decode.js';
import type { ColumnTypes, NormalizedRow, RowQuery, StrapiSource } from './types.js';

export function openSqliteSource(file: string, timeZone: string): StrapiSource {
  if (!existsSync(file)) throw new Error(`${file}: no such SQLite database file`);
  const open = () => new Database(file, { readonly: true, fileMustExist: true });
  const main = open();
  const context: DecodeContext = { dialect: 'sqlite', timeZone };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

  async function* select(sql: string, params: readonly unknown[], types: ColumnTypes, batchSize = 1000): AsyncGenerator<NormalizedRow[]> {
    const db = open();
    try {
      const statement = db.prepare(sql).safeIntegers(true);
      let batch: NormalizedRow[] = [];
      for (const raw of statement.iterate(...params) as Iterable<Record<string, unknown>>) {
        batch.push(decodeRow(raw, types, context));
        if (batch.length >= batchSize) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length) yield batch;
    } finally {
      db.close();
    }
  }

  return {
    dialect: 'sqlite',
    label: file,
    quote,
    async tables() {
      const rows = main.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as { name: string }[];
      return new Set(rows.map((r) => r.name));
    },
    async columns(table) {
      return (main.prepare(`PRAGMA table_info(${quote(table)})`).all() as { name: string }[]).map((c) => c.name);
    },
    rows(query: RowQuery, types: ColumnTypes, batchSize?: number) {
      const order = (query.orderBy ?? ['id']).map(quote).join(', ');
      return select(`SELECT * FROM ${quote(query.table)} ORDER BY ${order}`, [], types, batchSize);
    },
    select,
    async lastId(table) {
      const hasSequence = main.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get();
      const row = hasSequence ? (main.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined) : undefined;
      return row ? Number(row.seq) : 0;
    },
    async close() {
      main.close();
    },
  };
}
