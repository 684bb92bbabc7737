/**
 * MySQL/MariaDB: one `mariadb` pool for the server, shared by Prisma (writes, reads inside a
 * write) and by reads, which go to the pool directly over the text protocol: one round trip
 * per statement, where Prisma's adapter prepares, executes and closes a statement (three).
 *
 * Values are decoded as Prisma decodes them: DECIMAL as Prisma's Decimal, DATE, TIME and
 * DATETIME as UTC Dates (the driver would read them in the process's local time zone),
 * BIGINT as bigint and JSON as parsed values (the driver's own defaults). The driver reads
 * decimals and date-times as text (`dateStrings`), converted afterwards in the columns whose
 * type needs it: a `typeCast` function instead costs the driver a dozen closures per value of
 * every column (its cast wrapper), most of a list's decoding time.
 */
import { Decimal } from '@prisma/client/runtime/client';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { importDriver, type MariaDbColumn, type MariaDbQueryable } from './drivers.js';
import { plainParameters, type DirectTransaction, type DirectTransactionOpener, type TransactionConnector } from './transaction-statements.js';
import { utcDateTimeText, type Reader, type Row } from './reader.js';

export interface MariaDbConnection {
  readonly adapterFactory: SqlDriverAdapterFactory;
  readonly reader: Reader;
  /** A write transaction's statements on its pooled connection (db/transaction-statements.ts). */
  readonly transactionStatements: TransactionConnector;
  /** A write transaction on a connection of the pool, without Prisma's. */
  readonly openTransaction: DirectTransactionOpener;
  /** A short transaction on a connection of its own (db/database.ts `independent`). */
  readonly openIndependent: () => Promise<DirectTransaction>;
}

export async function connectMariaDb(url: string, onPoolError: (error: Error) => void): Promise<MariaDbConnection> {
  const [mariadb, { PrismaMariaDb }] = await Promise.all([importDriver('mariadb'), importDriver('@prisma/adapter-mariadb')]);
  const pool = mariadb.createPool(driverUrl(url));
  // The pool emits 'error' each time it fails to open a connection (the server is away); an
  // event without a listener would end the process. It keeps trying, with a backoff. (The
  // driver's types do not list this event: it is an EventEmitter all the same.)
  (pool as unknown as { on(event: 'error', listener: (error: Error) => void): unknown }).on('error', onPoolError);
  const adapterFactory = new PrismaMariaDb(pool);
  const run = (on: MariaDbQueryable, sql: string, params: readonly unknown[]) => on.query({ sql, dateStrings: true }, params.map(toParameter));
  // As Prisma's adapter opens one: a pooled connection, BEGIN, its errors heard while it is out of the pool.
  const openOn = async (on: typeof pool): Promise<DirectTransaction> => {
    const conn = await on.getConnection();
    conn.on('error', onPoolError);
    const release = async (broken?: boolean) => {
      conn.off('error', onPoolError);
      if (broken) conn.destroy();
      else await conn.release();
    };
    try {
      await conn.query({ sql: 'BEGIN' });
    } catch (error) {
      await release(true);
      throw error;
    }
    return { connection: conn, release, sharesPrismaConnection: false };
  };
  // `independent` transactions get a connection of their own, opened at the first: a writer
  // holding one of the pool's connections asks for one, and all of the pool may be so held.
  let independents: typeof pool | undefined;
  const independentPool = () => {
    if (!independents) {
      const single = new URL(driverUrl(url));
      single.searchParams.set('connectionLimit', '1');
      independents = mariadb.createPool(single.toString());
      (independents as unknown as { on(event: 'error', listener: (error: Error) => void): unknown }).on('error', onPoolError);
    }
    return independents;
  };
  return {
    adapterFactory,
    openTransaction: async (withPrisma) => (withPrisma ? undefined : openOn(pool)),
    openIndependent: () => openOn(independentPool()),
    transactionStatements: (connection) => {
      const conn = connection as MariaDbQueryable | undefined;
      if (!conn || typeof conn.query !== 'function') return undefined;
      return {
        accepts: (params) => plainParameters(params),
        query: async (sql, params) => rowsOf(await run(conn, sql, params)),
        // A statement without rows answers { affectedRows, insertId, warningStatus }.
        execute: async (sql, params) => Number((await run(conn, sql, params) as { affectedRows?: unknown }).affectedRows ?? 0),
        insert: async (sql, params) => Number((await run(conn, sql, params) as { insertId?: unknown }).insertId),
      };
    },
    reader: {
      async query(sql, params): Promise<Row[]> {
        return rowsOf(await run(pool, sql, params));
      },
      // Prisma's disconnect leaves a pool it was given open: the server ends it after Prisma.
      close: async () => {
        await pool.end();
        await independents?.end();
      },
    },
  };
}

/**
 * The driver's URL, as Prisma's adapter would make it from a `mysql://` one: the `mariadb:`
 * scheme, and no server-side prepared-statement cache (Prisma's setting: its statements are
 * prepared and closed per call).
 */
function driverUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'mysql:') parsed.protocol = 'mariadb:';
  if (!parsed.searchParams.has('prepareCacheLength')) parsed.searchParams.set('prepareCacheLength', '0');
  return parsed.toString();
}

const toDecimal = (text: string) => new Decimal(text);
const toDateTime = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

/** Column types (the driver's names) read as text and converted here, as Prisma converts them. */
const fromText: Readonly<Record<string, (text: string) => unknown>> = {
  NEWDECIMAL: toDecimal,
  DECIMAL: toDecimal,
  DATE: (text) => new Date(`${text}T00:00:00Z`),
  TIME: (text) => new Date(`1970-01-01T${text}Z`),
  DATETIME: toDateTime,
  DATETIME2: toDateTime,
  TIMESTAMP: toDateTime,
  TIMESTAMP2: toDateTime,
};

/**
 * Plain rows (the driver's result array also carries the columns, `meta`), each decimal and
 * date-time value converted. A name selected twice holds the last column's value, so the
 * last column of a name decides its conversion.
 */
function rowsOf(result: unknown): Row[] {
  const rows = result as Row[] & { meta?: readonly MariaDbColumn[] };
  if (rows.length === 0) return [];
  const converted = new Map<string, (text: string) => unknown>();
  for (const column of rows.meta ?? []) {
    const convert = fromText[column.type];
    if (convert) converted.set(column.name(), convert);
    else converted.delete(column.name());
  }
  const plain = Array.from(rows);
  if (converted.size === 0) return plain;
  const conversions = [...converted];
  for (const row of plain) {
    for (const [name, convert] of conversions) {
      const text = row[name];
      if (text !== null && text !== undefined) row[name] = convert(text as string);
    }
  }
  return plain;
}

/** Dates as UTC text: the driver would send them in the process's local time zone. */
function toParameter(value: unknown): unknown {
  return value instanceof Date ? utcDateTimeText(value) : value;
}
