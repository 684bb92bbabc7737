/**
 * The read executor for SQLite: better-sqlite3 prepared statements, cached by SQL text.
 *
 * Prisma's raw-query path costs ~0.3 ms per statement on top of SQLite (it re-prepares every
 * statement and runs its own request pipeline); reads are most of an API's traffic, and
 * every statement they run was compiled by query/ from validated input. Writes, and reads
 * inside a write transaction, stay on Prisma's connection. This connection only ever reads
 * committed data; while Prisma commits, it waits (busy_timeout) rather than failing.
 *
 * Opening it switches the database to write-ahead logging (see `useWriteAheadLog`).
 */
import { toSqliteDateTime } from '../temporal.js';
import { importDriver, type SqliteConnection, type SqliteStatement } from './drivers.js';
import type { Reader, Row } from './reader.js';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import { plainParameters, type DirectTransaction, type TransactionConnector } from './transaction-statements.js';

export interface SqliteReader extends Reader {
  query(sql: string, params: readonly unknown[]): Row[];
  close(): void;
}

/** Distinct statements kept prepared; the query compiler produces a bounded set of shapes. */
const statementCacheSize = 500;

export async function openSqliteReader(file: string): Promise<SqliteReader> {
  const { default: Database } = await importDriver('better-sqlite3');
  const db = new Database(file, { fileMustExist: true });
  db.pragma('busy_timeout = 5000');
  useWriteAheadLog(db, file);
  const statements = preparedStatements(db);
  return {
    query: (sql, params) => statements.all(sql, params),
    close() {
      db.close();
    },
  };
}

/** Statements of one connection, prepared once per SQL text (a bounded cache). */
export interface PreparedStatements {
  /** The rows, small integers as numbers (large ones stay bigint, exact). */
  all(sql: string, params: readonly unknown[]): Row[];
  /** A statement without rows; the number of rows it changed. */
  run(sql: string, params: readonly unknown[]): number;
  /** An INSERT of one row; the rowid it got (the `id` of an INTEGER PRIMARY KEY table). */
  insert(sql: string, params: readonly unknown[]): number;
}

export function preparedStatements(db: SqliteConnection): PreparedStatements {
  const statements = new Map<string, SqliteStatement>();
  const prepare = (sql: string): SqliteStatement => {
    let statement = statements.get(sql);
    if (statement) {
      // Most recently used last: Map iteration order makes the first entry the eviction candidate.
      statements.delete(sql);
    } else {
      statement = db.prepare(sql);
      statement.safeIntegers(true); // BIGINT columns beyond 2^53 must not go through a double
      if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value!);
    }
    statements.set(sql, statement);
    return statement;
  };
  return {
    all(sql, params) {
      const rows = prepare(sql).all(...(params as unknown[])) as Record<string, unknown>[];
      for (const row of rows) {
        for (const key in row) {
          const value = row[key];
          // Small integers as numbers (what the rest of the runtime expects); large ones stay exact.
          if (typeof value === 'bigint' && value >= minSafe && value <= maxSafe) row[key] = Number(value);
        }
      }
      return rows;
    },
    run(sql, params) {
      return prepare(sql).run(...(params as unknown[])).changes;
    },
    insert(sql, params) {
      return Number(prepare(sql).run(...(params as unknown[])).lastInsertRowid);
    },
  };
}

const transactionConnections = new WeakMap<object, PreparedStatements>();

/**
 * A write transaction's statements on the writer's connection (db/transaction-statements.ts),
 * prepared once per SQL text. Booleans and dates are stored as Prisma's adapter stores a raw
 * query's (`sqliteParameters`); objects and arrays still go through Prisma.
 */
export const sqliteTransactionStatements: TransactionConnector = (connection) => {
  const client = connection as SqliteConnection | undefined;
  if (!client || typeof client.prepare !== 'function') return undefined;
  let statements = transactionConnections.get(client);
  if (!statements) transactionConnections.set(client, (statements = preparedStatements(client)));
  const prepared = statements;
  return {
    accepts: (params) => plainParameters(params),
    query: (sql, params) => prepared.all(sql, sqliteParameters(params)),
    execute: (sql, params) => prepared.run(sql, sqliteParameters(params)),
    insert: (sql, params) => prepared.insert(sql, sqliteParameters(params)),
  };
};

/** Booleans as 0/1 and dates as `…T…+00:00` text, as @prisma/adapter-better-sqlite3 binds them. */
export function sqliteParameters(params: readonly unknown[]): readonly unknown[] {
  if (!params.some((value) => typeof value === 'boolean' || value instanceof Date)) return params;
  return params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value instanceof Date ? toSqliteDateTime(value) : value));
}

/**
 * A write transaction on Prisma's SQLite connection without Prisma's transaction machinery
 * (its transaction manager, timers and the COMMIT through its query pipeline cost a create
 * more CPU than its statements, issue 29). The adapter's own `startTransaction` opens it: it
 * takes the adapter's lock on its one connection, so Prisma's transactions and these wait for
 * each other, and sends BEGIN. The seam then runs every statement on that connection, and
 * COMMIT or ROLLBACK; `release` gives the lock back. Prisma's queries outside transactions
 * (typed delegates some writers still call on `db.prisma`) run on the same connection, so
 * inside this transaction, as they did inside Prisma's.
 */
export async function openSqliteTransaction(adapter: SqlDriverAdapter): Promise<DirectTransaction | undefined> {
  const transaction = await adapter.startTransaction();
  const client = (transaction as unknown as { client?: unknown }).client;
  if (!client || typeof (client as SqliteConnection).prepare !== 'function') {
    // Another adapter version: undo the BEGIN and let Prisma run the transaction.
    await transaction.executeRaw({ sql: 'ROLLBACK', args: [], argTypes: [] }).finally(() => transaction.rollback());
    return undefined;
  }
  return { connection: client, release: () => transaction.commit(), sharesPrismaConnection: true };
}

/**
 * WAL journal mode: readers and the writer stop blocking each other (a long list no longer
 * holds up a write, nor a write the lists), and a read starts without the file-lock system
 * calls of the rollback journal (measured here: ~30% less time per statement). The mode is
 * kept in the database file, so this is a no-op after the first start; the -wal and -shm
 * files beside the database belong to it (copy all three, or stop the server, to back it up).
 * This connection only reads; the writer's commits stay durable because db/provider.ts sets
 * synchronous = FULL on Prisma's connection (better-sqlite3's WAL default is NORMAL).
 */
function useWriteAheadLog(db: SqliteConnection, file: string): void {
  try {
    db.pragma('journal_mode = WAL');
  } catch (error) {
    // Another process holding the file at this instant: it stays in its current mode, correct but slower.
    console.error(`SQLite: could not switch ${file} to WAL mode (${(error as Error).message}); continuing in its current mode`);
  }
}

const minSafe = BigInt(Number.MIN_SAFE_INTEGER);
const maxSafe = BigInt(Number.MAX_SAFE_INTEGER);
