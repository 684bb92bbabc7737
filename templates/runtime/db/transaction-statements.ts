/**
 * The raw statements of a write transaction run on the transaction's own driver connection
 * directly, as the read executors run theirs (db/reader.ts), instead of through Prisma's
 * raw-query pipeline: that pipeline costs ~0.3 ms of CPU a statement (SQLite re-prepares every
 * statement there; MariaDB's adapter prepares, executes and closes each one), and a create
 * runs ~15 such statements (targets checked, component ids, link rows, the entry read back).
 *
 * Prisma's driver adapters open a transaction by taking a connection (SQLite: its one
 * connection, under a mutex) and sending BEGIN on it; the transaction object they hand Prisma
 * keeps that connection as `client`. The adapter is wrapped (`recordingTransactions`) so that
 * the connection is noted in the scope of the `$transaction` call that opened it
 * (`inTransactionScope`, an AsyncLocalStorage): a statement sent on it while the transaction's
 * callback runs is part of that transaction, sees its writes and is rolled back with it.
 * Rows come back as the read executors' do, which the code that reads rows already takes.
 * Parameters a read executor would not convert as Prisma does (objects, arrays; on SQLite
 * also booleans and dates) send the statement through Prisma as before, and so does
 * everything when the connection is unknown (another adapter version).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { wrap } from './count-statements.js';
import type { Row } from './reader.js';

export interface TransactionStatements {
  /** False when the statement must go through Prisma: its parameters need Prisma's conversion. */
  accepts(params: readonly unknown[]): boolean;
  query(sql: string, params: readonly unknown[]): Row[] | Promise<Row[]>;
  /** The number of rows the statement changed. */
  execute(sql: string, params: readonly unknown[]): number | Promise<number>;
  /** Runs an INSERT of one row into a table keyed by an auto-increment `id`: the id it got. */
  insert(sql: string, params: readonly unknown[]): number | Promise<number>;
}

/** The statements of one transaction's driver connection; undefined when it is not one this database's driver made. */
export type TransactionConnector = (connection: unknown) => TransactionStatements | undefined;

const scope = new AsyncLocalStorage<{ connection?: unknown }>();

/** Runs `open` (a `$transaction` call) in a scope where the connection its transaction takes is noted. */
export function inTransactionScope<R>(open: () => Promise<R>): Promise<R> {
  return scope.run({}, open);
}

/** The driver connection of the transaction opened in the current scope, if any. */
export function transactionConnection(): unknown {
  return scope.getStore()?.connection;
}

/**
 * A write transaction opened on the driver's connection without Prisma's transaction machinery
 * (SQLite: db/sqlite-reader.ts `openSqliteTransaction`). The database seam sends its
 * statements, COMMIT or ROLLBACK included, on `connection`, then calls `release`.
 */
export interface DirectTransaction {
  readonly connection: unknown;
  /** Gives the connection back (after COMMIT or ROLLBACK), to the next transaction waiting for it. */
  release(): Promise<void>;
}

/** Opens a direct transaction; undefined when it cannot (Prisma has not connected yet): the seam then uses Prisma's. */
export type DirectTransactionOpener = () => Promise<DirectTransaction | undefined>;

/**
 * The factory, its adapters noting each transaction's connection in the scope that opened it;
 * `connected` is told each adapter Prisma connects.
 */
export function recordingTransactions<F extends SqlDriverAdapterFactory>(factory: F, connected?: (adapter: SqlDriverAdapter) => void): F {
  return wrap(factory, {
    connect: (connect: F['connect']) => async () => {
      const adapter = await connect.call(factory);
      connected?.(adapter);
      return wrap(adapter, {
        startTransaction: (start: typeof adapter.startTransaction) => async (isolation?: Parameters<typeof adapter.startTransaction>[0]) => {
          const transaction = await start.call(adapter, isolation);
          const store = scope.getStore();
          if (store) store.connection = (transaction as unknown as { client?: unknown }).client;
          return transaction;
        },
      });
    },
  });
}

/** No objects or arrays (Prisma serialises them its own way); `strict`: also no booleans or dates (SQLite). */
export function plainParameters(params: readonly unknown[], strict: boolean): boolean {
  for (const value of params) {
    if (value === null) continue;
    const type = typeof value;
    if (type === 'number' || type === 'string' || type === 'bigint') continue;
    if (!strict && (type === 'boolean' || value instanceof Date)) continue;
    return false;
  }
  return true;
}
