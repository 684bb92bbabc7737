/**
 * PostgreSQL: one `pg` pool for the server, shared by Prisma (writes, reads inside a write)
 * and by reads, which go to the pool directly. Prisma's raw-query path adds a fixed cost per
 * statement (its request pipeline and value decoding) that dominates a short read.
 *
 * Values are decoded as Prisma decodes them: int8 as bigint, numeric as Prisma's Decimal,
 * date, time and timestamp as UTC Dates (node-postgres would read a zone-less timestamp
 * or a date in the process's local time zone), json as parsed values.
 */
import { Decimal } from '@prisma/client/runtime/client';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { importDriver, type PgQueryable, type PgTypeParsers } from './drivers.js';
import { plainParameters, type DirectTransaction, type DirectTransactionOpener, type TransactionConnector } from './transaction-statements.js';
import { utcDateTimeText, type Reader, type Row } from './reader.js';

const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const TIME = 1083;
const TIMESTAMP = 1114;

export interface PostgresConnection {
  readonly adapterFactory: SqlDriverAdapterFactory;
  readonly reader: Reader;
  /** A write transaction's statements on its pooled connection (db/transaction-statements.ts). */
  readonly transactionStatements: TransactionConnector;
  /** A write transaction on a connection of the pool, without Prisma's. */
  readonly openTransaction: DirectTransactionOpener;
  /** A short transaction on a connection of its own (db/database.ts `independent`). */
  readonly openIndependent: () => Promise<DirectTransaction>;
}

export async function connectPostgres(url: string, onPoolError: (error: Error) => void): Promise<PostgresConnection> {
  const [{ default: pg }, { PrismaPg }] = await Promise.all([importDriver('pg'), importDriver('@prisma/adapter-pg')]);
  // node-postgres waits for a connection without limit by default: a database host that
  // stops answering (a network partition, not a refused connection) would hold requests
  // forever. 5 s, Prisma 6's connect_timeout; past it the request is a 503 (db/unavailable.ts).
  const pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000 });
  // An idle connection that fails (the server restarts, the network drops it) is an 'error'
  // event of the pool, which would end the process unheard; the pool replaces the
  // connection, and the next statement on a dead server fails on its own (answered 503).
  pool.on('error', onPoolError);
  const parsers: Record<number, (text: string) => unknown> = {
    [INT8]: (text) => BigInt(text),
    [NUMERIC]: (text) => new Decimal(text),
    [DATE]: (text) => new Date(`${text}T00:00:00Z`),
    [TIME]: (text) => new Date(`1970-01-01T${text}Z`),
    [TIMESTAMP]: (text) => new Date(`${text.replace(' ', 'T')}Z`),
  };
  const types: PgTypeParsers = {
    getTypeParser: (oid, format) => (format !== 'binary' && parsers[oid]) || pg.types.getTypeParser(oid, format),
  };
  // Prisma URLs name the Postgres schema in `?schema=`; node-postgres ignores it, the adapter takes it as an option.
  const schema = new URL(url).searchParams.get('schema') ?? undefined;
  const adapterFactory = new PrismaPg(pool, schema ? { schema } : undefined);
  // `?pgbouncer=true` (Prisma's own switch for it): a PgBouncer older than 1.21 in transaction
  // mode cannot keep a connection's prepared statements, so statements stay unnamed.
  const statementName = new URL(url).searchParams.get('pgbouncer') === 'true' ? () => undefined : statementNames();
  const run = (on: PgQueryable, sql: string, params: readonly unknown[]) =>
    on.query({ name: statementName(sql), text: sql, values: params.map(toParameter), types });
  // As Prisma's adapter opens one: a pooled connection, BEGIN, its errors heard while it is out of the pool.
  const openOn = async (on: typeof pool): Promise<DirectTransaction> => {
    const client = await on.connect();
    client.on('error', onPoolError);
    const release = async (broken?: boolean) => {
      client.removeListener('error', onPoolError);
      client.release(broken === true);
    };
    try {
      await client.query({ text: 'BEGIN' });
    } catch (error) {
      await release(true);
      throw error;
    }
    return { connection: client, release, sharesPrismaConnection: false };
  };
  // `independent` transactions get a connection of their own, opened at the first: a writer
  // holding one of the pool's connections asks for one, and all of the pool may be so held.
  let independents: typeof pool | undefined;
  const independentPool = () => {
    if (!independents) {
      independents = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5_000, max: 1 });
      independents.on('error', onPoolError);
    }
    return independents;
  };
  return {
    adapterFactory,
    openTransaction: async (withPrisma) => (withPrisma ? undefined : openOn(pool)),
    openIndependent: () => openOn(independentPool()),
    transactionStatements: (connection) => {
      const client = connection as PgQueryable | undefined;
      if (!client || typeof client.query !== 'function') return undefined;
      return {
        accepts: (params) => plainParameters(params),
        query: async (sql, params) => (await run(client, sql, params)).rows,
        execute: async (sql, params) => (await run(client, sql, params)).rowCount ?? 0,
        insert: async (sql, params) => Number((await run(client, `${sql} RETURNING "id"`, params)).rows[0]!['id']),
      };
    },
    reader: {
      async query(sql, params): Promise<Row[]> {
        return (await run(pool, sql, params)).rows;
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
 * Statements are named, so each connection parses and plans a statement once and then only
 * binds and executes it: unnamed, PostgreSQL parses and plans every statement again, which
 * was most of its CPU for the short reads a request sends (populate=* sends seven). The read
 * path builds the same few texts over and over (compiled per type and populate tree), so
 * names are kept per text; a text is never renamed, and past the bound new texts go unnamed
 * (a server building ever new texts, e.g. filters with values inlined, cannot grow the
 * connections' statement caches without limit).
 */
export const maxNamedStatements = 2_000;

function statementNames(): (sql: string) => string | undefined {
  const names = new Map<string, string>();
  return (sql) => {
    let name = names.get(sql);
    if (name === undefined && names.size < maxNamedStatements) {
      name = `cg${names.size}`;
      names.set(sql, name);
    }
    return name;
  };
}

/** Dates as UTC text (node-postgres would send local time); bigints as text. */
function toParameter(value: unknown): unknown {
  if (value instanceof Date) return `${utcDateTimeText(value)}+00`;
  if (typeof value === 'bigint') return value.toString();
  return value;
}
