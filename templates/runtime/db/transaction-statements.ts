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
 * Parameters a read executor would not convert as Prisma does (objects, arrays) send the
 * statement through Prisma as before where the transaction is Prisma's or shares its
 * connection, and so does everything when the connection is unknown (another adapter version).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
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
 * (SQLite: db/sqlite-reader.ts `openSqliteTransaction`; PostgreSQL and MySQL/MariaDB: a
 * connection of the server's pool, db/pg-reader.ts and db/mariadb-reader.ts). The database
 * seam sends its statements, COMMIT or ROLLBACK included, on `connection`, then calls
 * `release`. Prisma's transactions load its query compiler (~50 MB of memory, issue 29),
 * which a server that only writes entries never needs then.
 */
export interface DirectTransaction {
  readonly connection: unknown;
  /**
   * Gives the connection back (after COMMIT or ROLLBACK), to the next transaction waiting for
   * it; `broken`: the ROLLBACK failed, so a pooled connection is closed instead of reused.
   */
  release(broken?: boolean): Promise<void>;
  /**
   * True on SQLite: the Prisma client's own queries run on this same connection, so inside
   * the transaction. On a pool they would run on another connection, outside it.
   */
  readonly sharesPrismaConnection: boolean;
}

/**
 * Opens a direct transaction; undefined when it cannot (another adapter version), or when
 * `withPrisma` asks for one Prisma's queries run in and its connection is not Prisma's: the
 * seam then uses Prisma's.
 */
export type DirectTransactionOpener = (withPrisma: boolean) => Promise<DirectTransaction | undefined>;

/** The factory, its adapters noting each transaction's connection in the scope that opened it. */
export function recordingTransactions<F extends SqlDriverAdapterFactory>(factory: F): F {
  return wrap(factory, {
    connect: (connect: F['connect']) => async () => {
      const adapter = await connect.call(factory);
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

/** No objects or arrays: Prisma serialises them its own way. */
export function plainParameters(params: readonly unknown[]): boolean {
  for (const value of params) {
    if (value === null) continue;
    const type = typeof value;
    if (type === 'number' || type === 'string' || type === 'bigint' || type === 'boolean' || value instanceof Date) continue;
    return false;
  }
  return true;
}

/**
 * Parameters of a direct transaction on PostgreSQL or MySQL/MariaDB that `plainParameters`
 * refuses, where there is no Prisma transaction to send them through: plain objects as their
 * JSON text, as Prisma's raw queries send them; anything else as the driver sends it.
 */
export function jsonParameters(params: readonly unknown[]): unknown[] {
  return params.map((value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date) && !ArrayBuffer.isView(value) ? JSON.stringify(value) : value,
  );
}
