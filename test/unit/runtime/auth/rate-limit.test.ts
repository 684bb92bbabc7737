/**
 * The database-backed rate limiter on each dialect: its upsert counts atomically when
 * several limiters (several server processes) hit one key at once, restarts an elapsed
 * window, and keeps keys apart. SQLite through better-sqlite3; PostgreSQL and MariaDB on
 * throwaway databases (skipped when the server is not reachable).
 */
import BetterSqlite3 from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../templates/runtime/db/database.js';
import type { Dialect } from '../../../../templates/runtime/meta.js';
import { normalizeTarget, RateLimiter } from '../../../../templates/runtime/auth/rate-limit.js';
import { tempMariaDb, tempPostgres, type TempDatabase } from '../../db/databases.js';

interface Backend {
  db: Database;
  close(): Promise<void>;
}

type Connection = { all(sql: string, params: readonly unknown[]): Promise<Record<string, unknown>[]>; run(sql: string, params: readonly unknown[]): Promise<number> };

/** A Database over a raw driver: what the limiter uses (raw statements, transactions). */
function database(dialect: Dialect, connection: Connection, transaction: <R>(fn: (c: Connection) => Promise<R>) => Promise<R>): Database {
  const bind = (c: Connection): Database => ({
    dialect,
    prisma: {},
    query: <T>(sql: string, params: readonly unknown[]) => c.all(sql, params) as Promise<T[]>,
    execute: (sql: string, params: readonly unknown[]) => c.run(sql, params),
    insert: () => Promise.reject(new Error('the limiter inserts no keyed rows')),
    transaction: (fn) => transaction((tx) => fn(bind(tx))),
    independent: () => Promise.reject(new Error('the limiter reserves nothing')),
  });
  return bind(connection);
}

const ddl: Record<Dialect, string> = {
  sqlite: 'CREATE TABLE "up_rate_limits" ("key" TEXT NOT NULL PRIMARY KEY, "hits" INTEGER NOT NULL, "reset_at" BIGINT NOT NULL)',
  postgresql: 'CREATE TABLE "up_rate_limits" ("key" TEXT NOT NULL, "hits" INTEGER NOT NULL, "reset_at" BIGINT NOT NULL, CONSTRAINT "up_rate_limits_pkey" PRIMARY KEY ("key"))',
  mysql: 'CREATE TABLE `up_rate_limits` (`key` VARCHAR(64) NOT NULL, `hits` INTEGER NOT NULL, `reset_at` BIGINT NOT NULL, PRIMARY KEY (`key`))',
};

async function sqliteBackend(): Promise<Backend> {
  const sqlite = new BetterSqlite3(':memory:');
  sqlite.exec(ddl.sqlite);
  const c: Connection = {
    all: async (sql, params) => sqlite.prepare(sql).all(...(params as unknown[])) as Record<string, unknown>[],
    run: async (sql, params) => sqlite.prepare(sql).run(...(params as unknown[])).changes,
  };
  return { db: database('sqlite', c, async (fn) => fn(c)), close: async () => void sqlite.close() };
}

async function postgresBackend(temp: TempDatabase): Promise<Backend> {
  const pool = new pg.Pool({ connectionString: temp.url, max: 4 });
  await pool.query(ddl.postgresql);
  const over = (q: pg.Pool | pg.PoolClient): Connection => ({
    all: async (sql, params) => (await q.query(sql, params as unknown[])).rows,
    run: async (sql, params) => (await q.query(sql, params as unknown[])).rowCount ?? 0,
  });
  return {
    db: database('postgresql', over(pool), async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(over(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK');
        throw err;
      } finally {
        client.release();
      }
    }),
    close: () => pool.end(),
  };
}

async function mariaBackend(temp: TempDatabase): Promise<Backend> {
  const url = new URL(temp.url);
  const pool = mariadb.createPool({ host: url.hostname, port: Number(url.port), user: url.username, database: temp.name, connectionLimit: 4, bigIntAsNumber: true });
  await pool.query(ddl.mysql);
  const over = (q: mariadb.Pool | mariadb.PoolConnection): Connection => ({
    all: async (sql, params) => (await q.query(sql, params as unknown[])) as Record<string, unknown>[],
    run: async (sql, params) => Number(((await q.query(sql, params as unknown[])) as { affectedRows: number }).affectedRows),
  });
  return {
    db: database('mysql', over(pool), async (fn) => {
      const conn = await pool.getConnection();
      try {
        await conn.beginTransaction();
        const result = await fn(over(conn));
        await conn.commit();
        return result;
      } catch (err) {
        await conn.rollback();
        throw err;
      } finally {
        await conn.release();
      }
    }),
    close: () => pool.end(),
  };
}

const backends: [string, () => Promise<Backend | string>][] = [
  ['sqlite', sqliteBackend],
  [
    'postgresql',
    async () => {
      const temp = await tempPostgres();
      if (!temp.ok) return temp.reason;
      const backend = await postgresBackend(temp.value);
      return { db: backend.db, close: async () => (await backend.close(), await temp.value.drop()) };
    },
  ],
  [
    'mysql',
    async () => {
      const temp = await tempMariaDb();
      if (!temp.ok) return temp.reason;
      const backend = await mariaBackend(temp.value);
      return { db: backend.db, close: async () => (await backend.close(), await temp.value.drop()) };
    },
  ],
];

describe.each(backends)('rate limiter on %s', (_name, open) => {
  let backend: Backend | undefined;
  let skipped = '';
  let clock = 1_800_000_000_000;
  const settings = { enabled: true, interval: 60_000, max: 3 };

  beforeAll(async () => {
    const opened = await open();
    if (typeof opened === 'string') skipped = opened;
    else backend = opened;
  });
  afterAll(async () => backend?.close());

  it('counts atomically across limiters sharing the database', async (ctx) => {
    if (!backend) return ctx.skip(skipped);
    const limiters = [0, 1, 2].map(() => new RateLimiter(backend!.db, settings, () => clock));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 3]!.hit('shared-key')));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetAt))).toEqual(new Set([clock + 60_000]));
  });

  it('restarts the window once it has elapsed, and keeps keys apart', async (ctx) => {
    if (!backend) return ctx.skip(skipped);
    const limiter = new RateLimiter(backend.db, settings, () => clock);
    expect((await limiter.hit('other-key')).hits).toBe(1);
    clock += 59_999;
    expect((await limiter.hit('shared-key')).hits).toBe(13);
    clock += 1;
    expect(await limiter.hit('shared-key')).toEqual({ hits: 1, resetAt: clock + 60_000 });
    expect((await limiter.hit('other-key')).hits).toBe(1);
    expect((await limiter.hit('other-key')).hits).toBe(2);
  });
});

describe('RateLimiter.key: what a route acts on, with the path and IP', () => {
  const ctx = (body: unknown, path = '/api/auth/local/', ip = '10.0.0.1') => ({ request: { body }, path, ip }) as never;

  it('counts per target (trimmed, lower-cased), normalized path and IP', () => {
    const identifier = (c: { request: { body: { identifier?: unknown } } }) => c.request.body.identifier;
    expect(RateLimiter.key(ctx({ identifier: ' Alice@Example.COM ' }), identifier as never)).toBe('alice@example.com:/api/auth/local:10.0.0.1');
    expect(RateLimiter.key(ctx({ identifier: 'alice@example.com', email: 'random@example.com' }), identifier as never)).toBe('alice@example.com:/api/auth/local:10.0.0.1');
  });

  it('Strapi\'s body.email by default; absent, empty or not a string: the path and IP alone', () => {
    expect(RateLimiter.key(ctx({ email: 'Bob@example.com' }))).toBe('bob@example.com:/api/auth/local:10.0.0.1');
    for (const body of [{}, { email: '' }, { email: '   ' }, { email: { $ne: 1 } }, { email: ['a'] }, null, [1], 'text']) {
      expect(RateLimiter.key(ctx(body)), JSON.stringify(body)).toBe('unknownIdentifier:/api/auth/local:10.0.0.1');
    }
    expect(RateLimiter.key(ctx(JSON.parse('{"__proto__": {"email": "x@example.com"}}')))).toBe('unknownIdentifier:/api/auth/local:10.0.0.1');
    expect(normalizeTarget(42)).toBe('42');
  });
});
