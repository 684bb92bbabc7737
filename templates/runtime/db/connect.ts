/**
 * The server's connection to its database: the driver adapter Prisma runs on, and the read
 * executor (db/reader.ts) that serves reads outside write transactions. On PostgreSQL and
 * MySQL/MariaDB both use one pool; on SQLite the reader is a second, read-only connection
 * to the file (an in-memory database has only Prisma's).
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { countingAdapterFactory } from './count-statements.js';
import { connectMariaDb } from './mariadb-reader.js';
import { connectPostgres } from './pg-reader.js';
import { createAdapterFactory, providerFromUrl, sqliteFilePath } from './provider.js';
import type { Reader } from './reader.js';
import { openSqliteReader, openSqliteTransaction, sqliteTransactionStatements } from './sqlite-reader.js';
import { recordingTransactions, type DirectTransactionOpener, type TransactionConnector } from './transaction-statements.js';

export interface DatabaseConnection {
  readonly adapterFactory: SqlDriverAdapterFactory;
  /**
   * Opens the read executor. SQLite's needs the database file, which Prisma's first
   * connection creates: call this after the Prisma client is made.
   */
  openReader(): Promise<Reader | undefined>;
  /** A write transaction's raw statements on its own connection directly (db/transaction-statements.ts). */
  readonly transactionStatements: TransactionConnector;
  /** Write transactions without Prisma's (SQLite). */
  readonly openTransaction?: DirectTransactionOpener;
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
  // The adapter Prisma connected last (it connects on its first query, and again after a disconnect).
  let adapter: SqlDriverAdapter | undefined;
  const adapterFactory = countingAdapterFactory(recordingTransactions(connection.adapterFactory, (connected) => (adapter = connected)));
  if (providerFromUrl(url) !== 'sqlite') return { ...connection, adapterFactory };
  return { ...connection, adapterFactory, openTransaction: async () => (adapter ? openSqliteTransaction(adapter) : undefined) };
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
      const { adapterFactory, reader, transactionStatements } = await connectPostgres(url, onPoolError);
      return { adapterFactory, transactionStatements, openReader: async () => reader };
    }
    case 'mysql': {
      const { adapterFactory, reader, transactionStatements } = await connectMariaDb(url, onPoolError);
      return { adapterFactory, transactionStatements, openReader: async () => reader };
    }
  }
}
