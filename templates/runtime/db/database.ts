/**
 * The seam between request handling and the database: reads are SQL compiled by query/,
 * run by a read executor (db/reader.ts); writes are SQL too, in transactions opened on the
 * driver's connection (db/transaction-statements.ts). The Prisma client stays `db.prisma`
 * for the few writers that still use its typed delegates, and for project code.
 */
import type { Dialect } from '../meta.js';
import { measureQuery } from '../http/server-timing.js';
import type { Reader } from './reader.js';
import { inTransactionScope, jsonParameters, transactionConnection, type DirectTransaction, type DirectTransactionOpener, type TransactionConnector } from './transaction-statements.js';
import { DatabaseUnreachableError } from './unavailable.js';

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
  /** An INSERT of one row into a table keyed by an auto-increment `id`; resolves to the row's id. */
  insert(sql: string, params: readonly unknown[]): Promise<number>;
  /** Runs `fn` in one database transaction: a failure rolls every write back. */
  transaction<R>(fn: (db: Database) => Promise<R>, options?: TransactionOptions): Promise<R>;
  /**
   * Runs `fn` (statements of this interface only) in a short transaction of its own that
   * commits at once, whatever becomes of the transaction it is called in: for reservations
   * (component ids) that other writers must not wait for until that transaction ends. It runs
   * on a connection kept for them, never one a transaction holds (ten writers holding a pool's
   * ten connections may all ask). Where there is none (SQLite: one writer connection), `fn`
   * runs in the current transaction.
   */
  independent<R>(fn: (db: Database) => Promise<R>): Promise<R>;
}

export interface TransactionOptions {
  /**
   * `fn` runs only this interface's statements (`query`, `execute`, `insert`), never `db.prisma`:
   * on PostgreSQL and MySQL/MariaDB the transaction then runs on a pooled connection of the
   * driver, without Prisma's transaction machinery (nor its query compiler, ~25 MB, loaded on
   * first use), and `db.prisma` in it throws. The runtime's own writes use it; a transaction
   * without it is Prisma's, where `db.prisma` works as it always did, so code written for
   * `db.transaction(fn)` keeps working. (A nested call joins the outer one.)
   */
  readonly direct?: boolean;
}

export interface DatabaseOptions {
  /** A faster executor for reads outside transactions (db/reader.ts). */
  readonly reader?: Reader;
  /** Told every statement run through this seam (config `diagnostics.logQueries`). */
  readonly log?: (entry: StatementLog) => void;
  /**
   * True while the database is known to be away (db/unavailable.ts): statements and
   * transactions then fail at once with DatabaseUnreachableError.
   */
  readonly unreachable?: () => boolean;
  /** Runs a write transaction's raw statements on its connection directly (db/transaction-statements.ts). */
  readonly transactionStatements?: TransactionConnector;
  /**
   * Opens write transactions on the driver's connection, without Prisma's transaction
   * machinery; their statements then all go through `transactionStatements`.
   */
  readonly openTransaction?: DirectTransactionOpener;
  /** Opens `independent`'s transactions, on a connection of their own (PostgreSQL, MySQL/MariaDB). */
  readonly openIndependent?: () => Promise<DirectTransaction>;
}

export interface StatementLog {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly ms: number;
  /**
   * Which path ran it: the read executor, Prisma's, or a write transaction's connection directly
   * (db/transaction-statements.ts).
   */
  readonly via: 'reader' | 'prisma' | 'direct';
}

export function createDatabase(prisma: PrismaLike, dialect: Dialect, options: DatabaseOptions = {}): Database {
  return bind(prisma, dialect, false, options);
}

/**
 * `client`: the Prisma client, or a Prisma transaction's client. `connection`: the driver
 * connection of the transaction `inTransaction` says this is in (noted by the adapter for
 * Prisma's transactions, db/transaction-statements.ts; the direct transaction's own).
 */
function bind(
  client: any,
  dialect: Dialect,
  inTransaction: boolean,
  options: DatabaseOptions,
  connection: unknown = inTransaction ? transactionConnection() : undefined,
  withoutPrisma = false,
): Database {
  const { reader, log, unreachable } = options;
  const run = <T>(via: StatementLog['via'], sql: string, params: readonly unknown[], statement: () => Promise<T> | T): Promise<T> => {
    if (unreachable?.()) return Promise.reject(new DatabaseUnreachableError());
    const logged = log
      ? async () => {
          const started = performance.now();
          try {
            return await statement();
          } finally {
            log({ sql, params, ms: performance.now() - started, via });
          }
        }
      : async () => statement();
    // Prisma's statements are counted by its driver adapter (db/count-statements.ts), the typed delegates' too.
    return via === 'prisma' ? logged() : measureQuery(logged);
  };
  // Inside a transaction every statement must see its uncommitted writes: the transaction's connection.
  const direct = connection === undefined ? undefined : options.transactionStatements?.(connection);
  // `withoutPrisma`: a direct transaction on a pool's connection, which Prisma cannot send statements on.
  const prismaQuery = withoutPrisma
    ? (sql: string, params: readonly unknown[]) => run('direct', sql, params, () => direct!.query(sql, jsonParameters(params)))
    : (sql: string, params: readonly unknown[]) => run('prisma', sql, params, () => client.$queryRawUnsafe(sql, ...params));
  const prismaExecute = withoutPrisma
    ? (sql: string, params: readonly unknown[]) => run('direct', sql, params, () => direct!.execute(sql, jsonParameters(params)))
    : (sql: string, params: readonly unknown[]) => run('prisma', sql, params, () => client.$executeRawUnsafe(sql, ...params));
  const read = reader && !inTransaction
    ? (sql: string, params: readonly unknown[]) => run('reader', sql, params, () => reader.query(sql, params))
    : direct
      ? (sql: string, params: readonly unknown[]) => (direct.accepts(params) ? run('direct', sql, params, () => direct.query(sql, params)) : prismaQuery(sql, params))
      : prismaQuery;
  // Outside a transaction a write is a transaction of its own (what autocommit makes of it), opened without Prisma where it can be.
  const alone = !inTransaction && options.openTransaction;
  const execute = direct
    ? (sql: string, params: readonly unknown[]) => (direct.accepts(params) ? run('direct', sql, params, () => direct.execute(sql, params)) : prismaExecute(sql, params))
    : alone
      ? (sql: string, params: readonly unknown[]) => database.transaction((tx) => tx.execute(sql, params), { direct: true })
      : prismaExecute;
  // Through Prisma: RETURNING where the database has it; MySQL's LAST_INSERT_ID() is the connection's, a transaction's own.
  const prismaInsert = async (sql: string, params: readonly unknown[]): Promise<number> => {
    if (withoutPrisma) return run('direct', sql, params, () => direct!.insert(sql, jsonParameters(params)));
    if (dialect !== 'mysql') return Number((await prismaQuery(`${sql} RETURNING "id"`, params) as Record<string, unknown>[])[0]!['id']);
    if (!inTransaction) throw new Error('An INSERT through Prisma on MySQL/MariaDB needs a transaction to read its id.');
    await prismaExecute(sql, params);
    return Number((await prismaQuery('SELECT LAST_INSERT_ID() AS id', []) as Record<string, unknown>[])[0]!['id']);
  };
  const insert = direct
    ? (sql: string, params: readonly unknown[]) => (direct.accepts(params) ? run('direct', sql, params, () => direct.insert(sql, params)) : prismaInsert(sql, params))
    : alone
      ? (sql: string, params: readonly unknown[]) => database.transaction((tx) => tx.insert(sql, params), { direct: true })
      : prismaInsert;
  const database: Database = {
    dialect,
    prisma: client,
    query: read as Database['query'],
    execute,
    insert,
    transaction: (fn, transaction) =>
      inTransaction
        ? fn(bind(client, dialect, true, options, connection, withoutPrisma))
        : unreachable?.()
          ? Promise.reject(new DatabaseUnreachableError())
          : withConflictRetries(async () => {
              const opened = options.openTransaction ? await options.openTransaction(transaction?.direct !== true) : undefined;
              if (opened) return runDirectTransaction(opened, (on) => bind(client, dialect, true, options, on, !opened.sharesPrismaConnection), fn);
              return inTransactionScope(() => client.$transaction((tx: any) => fn(bind(tx, dialect, true, options)), transactionOptions));
            }),
    independent: (fn) => {
      const { openIndependent } = options;
      if (!openIndependent) return inTransaction ? fn(database) : database.transaction(fn, { direct: true });
      if (unreachable?.()) return Promise.reject(new DatabaseUnreachableError());
      return withConflictRetries(async () => {
        const opened = await openIndependent();
        return runDirectTransaction(opened, (on) => bind(client, dialect, true, options, on, true), fn);
      });
    },
  };
  if (withoutPrisma) {
    Object.defineProperty(database, 'prisma', {
      get() {
        throw new Error('This transaction was opened with { direct: true } on a pooled connection Prisma does not use: open it without `direct` to use db.prisma inside.');
      },
    });
  }
  return database;
}

/**
 * `fn` in a transaction opened on the driver's connection (db/transaction-statements.ts
 * DirectTransaction): COMMIT when it resolves, ROLLBACK when it or the COMMIT fails, as
 * Prisma's `$transaction` does. On SQLite the Prisma client stays `db.prisma` in it: its
 * queries outside transactions run on the same connection, so inside this one. On a pool's
 * connection (PostgreSQL, MySQL/MariaDB) they would not: `db.prisma` throws there.
 */
async function runDirectTransaction<R>(opened: DirectTransaction, bound: (connection: unknown) => Database, fn: (db: Database) => Promise<R>): Promise<R> {
  const tx = bound(opened.connection);
  let broken = false;
  try {
    const result = await fn(tx);
    await tx.execute('COMMIT', []);
    return result;
  } catch (error) {
    // The database may have ended the transaction itself (some SQLite errors do): nothing to roll back then.
    // A ROLLBACK that fails on PostgreSQL/MariaDB (the connection died) leaves a connection not to reuse.
    await tx.execute('ROLLBACK', []).catch(() => (broken = true));
    throw error;
  } finally {
    await opened.release(broken);
  }
}

/** A statement log line for stderr: duration, connection, SQL on one line, parameters as JSON. */
export function formatStatementLog(entry: StatementLog): string {
  const params = JSON.stringify(entry.params, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  return `sql ${entry.ms.toFixed(2)} ms ${entry.via}: ${entry.sql.replace(/\s+/g, ' ')} -- ${params}`;
}

/**
 * Waiting for a pooled connection is normal under load, and a transaction may wait for a
 * row another process holds (see EntityService's row lock): Prisma's defaults (2 s, 5 s) are
 * too short for several processes on one database.
 */
const transactionOptions = { maxWait: 10_000, timeout: 30_000 };

/** Attempts of a transaction that the database aborted to break a deadlock or a conflict. */
const conflictAttempts = 5;

/**
 * Runs a whole transaction again when the database chose it as a deadlock victim or refused
 * it for a write conflict (MySQL/MariaDB 1213 and 1205, PostgreSQL 40P01 and 40001): InnoDB's
 * gap locks make concurrent inserts into one index deadlock now and then, and the answer the
 * database asks for is "try restarting transaction". The transaction's work is rolled back
 * first, so running it again is safe; it reads everything it needs inside.
 */
export async function withConflictRetries<R>(run: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= conflictAttempts || !isConflict(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** Whether `error` (a Prisma or driver adapter error, or anything it wraps) is a deadlock or write conflict. */
export function isConflict(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  const e = error as { code?: unknown; kind?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (e.code === 'P2034' || e.kind === 'TransactionWriteConflict') return true;
  if (e.kind === 'postgres' && (e.code === '40P01' || e.code === '40001')) return true;
  if (e.kind === 'mysql' && (e.code === 1213 || e.code === 1205)) return true;
  // The drivers' own errors, from a transaction's statements run on its connection directly (node-postgres, mariadb).
  const driver = error as { code?: unknown; errno?: unknown; severity?: unknown; sqlState?: unknown };
  if (driver.severity !== undefined && (driver.code === '40P01' || driver.code === '40001')) return true;
  if (driver.sqlState !== undefined && (driver.errno === 1213 || driver.errno === 1205)) return true;
  return isConflict(e.cause, depth + 1) || isConflict(e.meta?.driverAdapterError, depth + 1);
}
