/**
 * The database a behaviour test runs on, and throwaway databases on it.
 *
 * `CG_TEST_DB` (sqlite | postgresql | mysql, default sqlite) selects the provider: vitest.config.ts
 * runs the behaviour suite once per provider as three projects, each with its own value.
 * Every build gets a database of its own: a SQLite file in its folder, or a uniquely named
 * PostgreSQL/MariaDB database (`cg_<run>_<random>`) dropped by `drop()`; whatever a crashed
 * run leaves behind is dropped by the global teardown (test/helpers/global-setup.ts).
 *
 * Servers: `CG_TEST_POSTGRES_URL` (default postgresql://postgres@127.0.0.1:5432/postgres) and
 * `CG_TEST_MARIADB_URL` (default mysql://root@127.0.0.1:3306), administrator accounts that may
 * create and drop databases.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';

export type TestProvider = 'sqlite' | 'postgresql' | 'mysql';

export const providers: readonly TestProvider[] = ['sqlite', 'postgresql', 'mysql'];

/** How the provider is named in messages. */
export const providerLabel: Record<TestProvider, string> = { sqlite: 'SQLite', postgresql: 'PostgreSQL', mysql: 'MariaDB' };

export const postgresAdminUrl = process.env.CG_TEST_POSTGRES_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
export const mariadbAdminUrl = process.env.CG_TEST_MARIADB_URL || 'mysql://root@127.0.0.1:3306';

/** The provider of this test run (`CG_TEST_DB`), sqlite unless a project says otherwise. */
export function testProvider(): TestProvider {
  const value = process.env.CG_TEST_DB || 'sqlite';
  if (value === 'mariadb') return 'mysql';
  if (!(providers as readonly string[]).includes(value)) throw new Error(`CG_TEST_DB must be one of ${providers.join(', ')}, got ${JSON.stringify(value)}`);
  return value as TestProvider;
}

/**
 * Names created by this run start with `cg_<run>_`: the id comes from vitest.config.ts
 * (`CG_TEST_RUN`) so that the global teardown can drop leftovers of this run only.
 */
export function runPrefix(): string {
  const run = (process.env.CG_TEST_RUN || 'local').replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 12);
  return `cg_${run}_`;
}

export interface TestDatabase {
  readonly provider: TestProvider;
  /** Database name (SQLite: the file's base name). */
  readonly name: string;
  /** The `DATABASE_URL` a server uses for it. */
  readonly url: string;
  /**
   * Runs one statement and returns its rows (none for writes). The same text works on
   * every provider: `?` placeholders and "double-quoted" identifiers (MariaDB sessions run
   * with ANSI_QUOTES). 64-bit integers come back as numbers when safe, else as strings.
   */
  query<T = Record<string, any>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** A datetime as a parameter of a raw statement, stored the way Prisma stores it. */
  datetime(date: Date): string;
  /** Closes connections and removes the database. Safe to call twice. */
  drop(): Promise<void>;
}

export type Availability = { ok: true } | { ok: false; reason: string };

/** Whether the provider's server answers with the administrator account (within 3 s). */
export async function probe(provider: TestProvider): Promise<Availability> {
  try {
    switch (provider) {
      case 'sqlite':
        return { ok: true };
      case 'postgresql': {
        const client = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 3000 });
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return { ok: true };
      }
      case 'mysql': {
        const conn = await mariadb.createConnection({ ...mariadbAdmin(), connectTimeout: 3000 });
        await conn.query('SELECT 1');
        await conn.end();
        return { ok: true };
      }
    }
  } catch (error) {
    const where = provider === 'postgresql' ? redact(postgresAdminUrl) : redact(mariadbAdminUrl);
    return { ok: false, reason: `${providerLabel[provider]} is not reachable at ${where}: ${(error as Error).message || String(error)}` };
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

function mariadbAdmin(): mariadb.ConnectionConfig {
  const url = new URL(mariadbAdminUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password),
  };
}

function uniqueName(): string {
  return `${runPrefix()}${randomBytes(5).toString('hex')}`;
}

/**
 * A new, empty database on `provider`. SQLite files go in `sqliteDir` (the server's data/
 * folder); the file itself is created by whoever opens it first.
 */
export async function createTestDatabase(provider: TestProvider, sqliteDir: string, sqliteName = 'test'): Promise<TestDatabase> {
  switch (provider) {
    case 'sqlite':
      return sqliteDatabase(sqliteDir, sqliteName);
    case 'postgresql':
      return postgresDatabase();
    case 'mysql':
      return mariadbDatabase();
  }
}

function normaliseValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  return value;
}

function normaliseRows<T>(rows: Record<string, unknown>[]): T[] {
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, normaliseValue(v)])) as T);
}

/** `?` → `$1`, `$2`… outside quoted strings and identifiers. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | null = null;
  let out = '';
  for (const char of sql) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '?') {
      out += `$${++n}`;
      continue;
    }
    out += char;
  }
  return out;
}

/** Prisma's text forms of a DateTime. */
const sqliteDateTime = (date: Date) => date.toISOString().replace(/Z$/, '+00:00');
const serverDateTime = (date: Date) => date.toISOString().replace('T', ' ').replace(/Z$/, '');

function sqliteDatabase(dir: string, name: string): TestDatabase {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.db`);
  return {
    provider: 'sqlite',
    name,
    url: `file:${file}`,
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const db = new BetterSqlite3(file);
      try {
        db.pragma('busy_timeout = 5000');
        const statement = db.prepare(sql);
        if (!statement.reader) {
          statement.run(...params);
          return [];
        }
        return normaliseRows<T>(statement.all(...params) as Record<string, unknown>[]);
      } finally {
        db.close();
      }
    },
    datetime: sqliteDateTime,
    async drop() {
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
    },
  };
}

async function postgresDatabase(): Promise<TestDatabase> {
  const name = uniqueName();
  await postgresAdmin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  let pool: pg.Pool | undefined;
  let dropped = false;
  return {
    provider: 'postgresql',
    name,
    url: url.toString(),
    async query<T>(sql: string, params: readonly unknown[] = []) {
      if (!pool) {
        pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
        // drop() ends the pool, then terminates what is left (WITH FORCE): a connection still
        // closing then gets the server's 57P01, which must not become an unhandled error.
        pool.on('error', () => {});
      }
      const result = await pool.query(numberedPlaceholders(sql), params as unknown[]);
      return normaliseRows<T>(result.rows ?? []);
    },
    datetime: serverDateTime,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool?.end();
      await postgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** Runs one statement with the administrator account. */
export async function postgresAdmin(sql: string): Promise<Record<string, unknown>[]> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    return (await admin.query(sql)).rows;
  } finally {
    await admin.end();
  }
}

async function mariadbDatabase(): Promise<TestDatabase> {
  const name = uniqueName();
  await mariadbAdminQuery(`CREATE DATABASE ${name}`); // the server's defaults, as a user would
  const admin = mariadbAdmin();
  const url = new URL(mariadbAdminUrl);
  url.pathname = `/${name}`;
  let pool: mariadb.Pool | undefined;
  let dropped = false;
  return {
    provider: 'mysql',
    name,
    url: url.toString(),
    async query<T>(sql: string, params: readonly unknown[] = []) {
      pool ??= mariadb.createPool({
        ...admin,
        database: name,
        connectionLimit: 2,
        initSql: "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')",
      });
      const result = await pool.query(sql, params as unknown[]);
      return Array.isArray(result) ? normaliseRows<T>(result as Record<string, unknown>[]) : [];
    },
    datetime: serverDateTime,
    async drop() {
      if (dropped) return;
      dropped = true;
      await pool?.end();
      await mariadbAdminQuery(`DROP DATABASE IF EXISTS ${name}`);
    },
  };
}

/** Runs one statement with the administrator account. */
export async function mariadbAdminQuery(sql: string): Promise<Record<string, unknown>[]> {
  const conn = await mariadb.createConnection({ ...mariadbAdmin(), connectTimeout: 5000 });
  try {
    const result = await conn.query(sql);
    return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
  } finally {
    await conn.end();
  }
}

/** Drops every database whose name starts with `prefix` (leftovers of a crashed run). */
export async function dropDatabasesWithPrefix(provider: TestProvider, prefix: string): Promise<string[]> {
  if (!/^cg_[a-z0-9_]+$/.test(prefix)) throw new Error(`refusing to drop databases matching ${prefix}`);
  const like = `${prefix.replace(/_/g, '\\_')}%`;
  if (provider === 'postgresql') {
    const rows = await postgresAdmin(`SELECT datname AS name FROM pg_database WHERE datname LIKE '${like}'`);
    const names = rows.map((r) => String(r.name));
    for (const name of names) await postgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    return names;
  }
  if (provider === 'mysql') {
    const rows = await mariadbAdminQuery(`SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE '${like}'`);
    const names = rows.map((r) => String(r.name));
    for (const name of names) await mariadbAdminQuery(`DROP DATABASE IF EXISTS ${name}`);
    return names;
  }
  return [];
}
