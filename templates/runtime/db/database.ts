/**
 * The seam between request handling and the database: reads are SQL compiled by
 * query/, writes go through the Prisma client's typed delegates. A faster executor can
 * replace `query` without touching handlers.
 */
import type { Dialect } from '../meta.js';
import { measureQuery } from '../http/server-timing.js';
import type { SqliteReader } from './sqlite-reader.js';

/** The part of a generated PrismaClient the runtime uses (the client itself is per-schema). */
export interface PrismaLike {
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): Promise<T>;
  $executeRawUnsafe(query: string, ...values: unknown[]): Promise<number>;
  $transaction<R>(fn: (tx: any) => Promise<R>, options?: { maxWait?: number; timeout?: number }): Promise<R>;
  $disconnect(): Promise<void>;
}

export interface Database {
  readonly dialect: Dialect;
  /** The Prisma client, or the transaction client inside `transaction`. */
  readonly prisma: any;
  query<T = Record<string, unknown>>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** A statement without rows (INSERT, UPDATE, DELETE); resolves to the affected row count. */
  execute(sql: string, params: readonly unknown[]): Promise<number>;
  /** Runs `fn` in one database transaction: a failure rolls every write back. */
  transaction<R>(fn: (db: Database) => Promise<R>): Promise<R>;
}

export interface DatabaseOptions {
  /** A faster executor for reads outside transactions (see sqlite-reader.ts). */
  readonly reader?: SqliteReader;
}

export function createDatabase(prisma: PrismaLike, dialect: Dialect, options: DatabaseOptions = {}): Database {
  return bind(prisma, dialect, false, options.reader);
}

function bind(client: any, dialect: Dialect, inTransaction: boolean, reader?: SqliteReader): Database {
  // Inside a transaction every statement must see its uncommitted writes: Prisma's connection.
  const read = reader && !inTransaction
    ? (sql: string, params: readonly unknown[]) => measureQuery(async () => reader.query(sql, params))
    : (sql: string, params: readonly unknown[]) => measureQuery(() => client.$queryRawUnsafe(sql, ...params));
  return {
    dialect,
    prisma: client,
    query: read as Database['query'],
    execute: (sql, params) => measureQuery(() => client.$executeRawUnsafe(sql, ...params)),
    transaction: (fn) => (inTransaction ? fn(bind(client, dialect, true)) : client.$transaction((tx: any) => fn(bind(tx, dialect, true)))),
  };
}
