/**
 * SQLite: the raw statements of a write transaction run on Prisma's own connection directly,
 * as better-sqlite3 prepared statements kept per SQL text, instead of through Prisma's
 * raw-query pipeline, which re-prepares every statement and costs ~0.3 ms of CPU each (most
 * of a create's CPU: it runs ~20 such statements, the link rows, component ids and the
 * entry read back).
 *
 * Prisma's SQLite adapter runs one transaction at a time on its one connection (a mutex), and
 * its transactions are BEGIN … COMMIT on that connection: a statement run on the same
 * connection while `$transaction`'s callback runs is part of that transaction, sees its
 * writes and is rolled back with it. Rows come back as the SQLite read executor's do
 * (db/sqlite-reader.ts), which the code that reads rows already takes. Parameters that
 * Prisma would convert (booleans, dates, anything but numbers, strings, bigints and null)
 * send the statement through Prisma as before.
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { wrap } from './count-statements.js';
import type { SqliteConnection } from './drivers.js';
import { preparedStatements, type PreparedStatements } from './sqlite-reader.js';

export interface TransactionStatements {
  /** False when the statement must go through Prisma: its parameters need Prisma's conversion. */
  accepts(params: readonly unknown[]): boolean;
  query(sql: string, params: readonly unknown[]): Record<string, unknown>[];
  execute(sql: string, params: readonly unknown[]): number;
}

/** The factory, and the statements of its connection once Prisma opened it. */
export function sqliteTransactionStatements<F extends SqlDriverAdapterFactory>(factory: F): { factory: F; statements: () => TransactionStatements | undefined } {
  let statements: PreparedStatements | undefined;
  const wrapped = wrap(factory, {
    connect: (connect: F['connect']) => async () => {
      const adapter = await connect.call(factory);
      const client = (adapter as unknown as { client?: SqliteConnection }).client;
      // Another adapter version without a `client`: every statement stays on Prisma's path.
      if (client && typeof client.prepare === 'function') statements = preparedStatements(client);
      return adapter;
    },
  });
  const direct: TransactionStatements = {
    accepts: plain,
    query: (sql, params) => statements!.all(sql, params),
    execute: (sql, params) => statements!.run(sql, params),
  };
  return { factory: wrapped, statements: () => (statements ? direct : undefined) };
}

/** Values better-sqlite3 binds as Prisma would. */
function plain(params: readonly unknown[]): boolean {
  for (const value of params) {
    const type = typeof value;
    if (value !== null && type !== 'number' && type !== 'string' && type !== 'bigint') return false;
  }
  return true;
}
