/**
 * The server's connection to its database: the driver adapter Prisma runs on, and the read
 * executor (db/reader.ts) that serves reads outside write transactions. On PostgreSQL and
 * MySQL/MariaDB both use one pool; on SQLite the reader is a second, read-only connection
 * to the file (an in-memory database has only Prisma's).
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { countingAdapterFactory } from './count-statements.js';
import { connectMariaDb } from './mariadb-reader.js';
import { connectPostgres } from './pg-reader.js';
import { createAdapterFactory, providerFromUrl, sqliteFilePath } from './provider.js';
import type { Reader } from './reader.js';
import { openSqliteReader } from './sqlite-reader.js';
import { sqliteTransactionStatements, type TransactionStatements } from './sqlite-transactions.js';

export interface DatabaseConnection {
  readonly adapterFactory: SqlDriverAdapterFactory;
  /**
   * Opens the read executor. SQLite's needs the database file, which Prisma's first
   * connection creates: call this after the Prisma client is made.
   */
  openReader(): Promise<Reader | undefined>;
  /** SQLite: write transactions' raw statements on Prisma's connection directly (db/sqlite-transactions.ts). */
  readonly transactionStatements?: () => TransactionStatements | undefined;
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
  return { ...connection, adapterFactory: countingAdapterFactory(connection.adapterFactory) };
}

async function connectDriver(url: string, options: ConnectOptions): Promise<DatabaseConnection> {
  const onPoolError = options.onPoolError ?? ((error: Error) => console.error(`database: a pooled connection failed: ${error.message}`));
  switch (providerFromUrl(url)) {
    case 'sqlite': {
      const file = sqliteFilePath(url);
      const { factory, statements } = sqliteTransactionStatements(await createAdapterFactory(url));
      return {
        adapterFactory: factory,
        transactionStatements: statements,
        openReader: async () => (file === ':memory:' ? undefined : openSqliteReader(file)),
      };
    }
    case 'postgresql': {
      const { adapterFactory, reader } = await connectPostgres(url, onPoolError);
      return { adapterFactory, openReader: async () => reader };
    }
    case 'mysql': {
      const { adapterFactory, reader } = await connectMariaDb(url, onPoolError);
      return { adapterFactory, openReader: async () => reader };
    }
  }
}
