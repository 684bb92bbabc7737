/**
 * The server's connection to its database: the driver adapter Prisma runs on, the read
 * executor (db/reader.ts) that serves reads outside write transactions, and the write
 * transactions opened without Prisma (db/transaction-statements.ts). On PostgreSQL and
 * MySQL/MariaDB all use one pool; on SQLite the reader is a second, read-only connection
 * to the file (an in-memory database has only the writer's), and the writer's connection
 * is the adapter's, opened by the first write whether Prisma's or not: Prisma connects
 * (and loads its query compiler, ~50 MB) only when something sends it a query.
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { countingAdapterFactory, wrap } from './count-statements.js';
import { connectMariaDb } from './mariadb-reader.js';
import { connectPostgres } from './pg-reader.js';
import { createAdapterFactory, providerFromUrl, sqliteFilePath } from './provider.js';
import type { Reader } from './reader.js';
import { openSqliteReader, openSqliteTransaction, sqliteTransactionStatements } from './sqlite-reader.js';
import { recordingTransactions, type DirectTransaction, type DirectTransactionOpener, type TransactionConnector } from './transaction-statements.js';

export interface DatabaseConnection {
  readonly adapterFactory: SqlDriverAdapterFactory;
  /**
   * Opens the read executor. SQLite's needs the database file, which Prisma's first
   * connection creates: call this after the Prisma client is made.
   */
  openReader(): Promise<Reader | undefined>;
  /** A write transaction's raw statements on its own connection directly (db/transaction-statements.ts). */
  readonly transactionStatements: TransactionConnector;
  /** Write transactions without Prisma's. */
  readonly openTransaction?: DirectTransactionOpener;
  /** `independent` transactions, on a connection of their own (db/database.ts). */
  readonly openIndependent?: () => Promise<DirectTransaction>;
  /** Closes what Prisma's disconnect does not (SQLite: the writer's connection when Prisma never connected). Call after it. */
  close?(): Promise<void>;
}

export interface ConnectOptions {
  /**
   * A pool's connection failed outside any statement (the server restarted, the network
   * dropped it), or the pool could not open one: the pool replaces it, and statements on a
   * dead server fail on their own. Default: logged.
   */
  readonly onPoolError?: (error: Error) => void;
}

export async function connectDatabase(url: string, options: ConnectOptions = {}): Promise<DatabaseConnection> {
  const connection = await connectDriver(url, options);
  if (providerFromUrl(url) !== 'sqlite') return { ...connection, adapterFactory: countingAdapterFactory(recordingTransactions(connection.adapterFactory)) };
  const writer = sharedAdapter(connection.adapterFactory);
  return {
    ...connection,
    adapterFactory: countingAdapterFactory(recordingTransactions(writer.factory)),
    openTransaction: async () => openSqliteTransaction(await writer.connect()),
    close: () => writer.close(),
  };
}

/**
 * The factory, connecting one adapter for all who ask (Prisma and the direct transactions) until
 * it is disposed: SQLite has one writer, whose lock orders Prisma's transactions and the direct
 * ones (db/sqlite-reader.ts `openSqliteTransaction`).
 */
function sharedAdapter<F extends SqlDriverAdapterFactory>(factory: F): { factory: F; connect(): Promise<SqlDriverAdapter>; close(): Promise<void> } {
  let connecting: Promise<SqlDriverAdapter> | undefined;
  const connect = () =>
    (connecting ??= factory.connect().then(
      (adapter) => wrap(adapter, { dispose: (dispose: SqlDriverAdapter['dispose']) => () => ((connecting = undefined), dispose.call(adapter)) }),
      (error: unknown) => {
        connecting = undefined;
        throw error;
      },
    ));
  return {
    factory: wrap(factory, { connect: () => connect }),
    connect,
    close: async () => {
      if (connecting) await (await connecting).dispose();
    },
  };
}

async function connectDriver(url: string, options: ConnectOptions): Promise<DatabaseConnection> {
  const onPoolError = options.onPoolError ?? ((error: Error) => console.error(`database: a pooled connection failed: ${error.message}`));
  switch (providerFromUrl(url)) {
    case 'sqlite': {
      const file = sqliteFilePath(url);
      return {
        adapterFactory: await createAdapterFactory(url),
        transactionStatements: sqliteTransactionStatements,
        openReader: async () => (file === ':memory:' ? undefined : openSqliteReader(file)),
      };
    }
    case 'postgresql': {
      const { adapterFactory, reader, transactionStatements, openTransaction, openIndependent } = await connectPostgres(url, onPoolError);
      return { adapterFactory, transactionStatements, openTransaction, openIndependent, openReader: async () => reader };
    }
    case 'mysql': {
      const { adapterFactory, reader, transactionStatements, openTransaction, openIndependent } = await connectMariaDb(url, onPoolError);
      return { adapterFactory, transactionStatements, openTransaction, openIndependent, openReader: async () => reader };
    }
  }
}
