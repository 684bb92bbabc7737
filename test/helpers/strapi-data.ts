/**
 * Databases that Strapi 4.26.2 itself wrote, restored for a test (fixtures/strapi-data/<set>/,
 * recorded by test/import/recorder/record.ts; see its README).
 *
 * - `restoreStrapiDatabase(set, dialect)`: the dump restored into a new SQLite file or a uniquely
 *   named PostgreSQL/MariaDB database (`cg_<run>_…`, so the global teardown drops leftovers).
 * - `restoreStrapiProject(set, dialect)`: the same, inside a copy of the Strapi project folder
 *   (package.json, config/, src/, `.env` pointing at the restored database, public/uploads with
 *   the files Strapi wrote), as `contentgen build` / `contentgen import` read a real project.
 * - `loadStrapiAnswers`, `loadStrapiSecrets`: what Strapi answered and the secrets it ran with.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';
import { mariadbAdminQuery, mariadbAdminUrl, postgresAdmin, postgresAdminUrl, runPrefix, type TestProvider } from './databases.js';
import { fixturesDir, tempDir } from './paths.js';

/**
 * `import` and `import-i18n`: recorded by test/import/recorder on every dialect. `import-shape-*`:
 * small own-made model shapes of real projects (fixtures/import-shapes/<shape>), filled by the
 * generic seeder of test/real-projects/import-roundtrip.ts through Strapi on SQLite only.
 */
export type StrapiDataSet = 'import' | 'import-i18n' | 'import-shape-plain' | 'import-shape-landing' | 'import-shape-paired';
/** The database Strapi ran on (names of the dump files). */
export type StrapiDialect = 'sqlite' | 'postgres' | 'mariadb';

export const strapiDataSets: readonly StrapiDataSet[] = ['import', 'import-i18n', 'import-shape-plain', 'import-shape-landing', 'import-shape-paired'];
export const strapiDialects: readonly StrapiDialect[] = ['sqlite', 'postgres', 'mariadb'];

/** The test providers' names for the same databases. */
export const providerOfDialect: Record<StrapiDialect, TestProvider> = { sqlite: 'sqlite', postgres: 'postgresql', mariadb: 'mysql' };

export function strapiDataDir(set: StrapiDataSet): string {
  return path.join(fixturesDir, 'strapi-data', set);
}

const dumpFile: Record<StrapiDialect, string> = { sqlite: 'sqlite.sql', postgres: 'postgres.sql', mariadb: 'mariadb.sql' };

export interface RestoredStrapiDatabase {
  dialect: StrapiDialect;
  /** SQLite: the file's absolute path; otherwise the database URL (postgresql://…, mysql://…). */
  url: string;
  /** PostgreSQL/MariaDB: the database's name. */
  name?: string;
  /** Removes the file or drops the database. Safe to call twice. */
  cleanup(): Promise<void>;
}

export interface RecordedRequest {
  name: string;
  method: string;
  path: string;
  /** Request headers beyond auth and content-type (`Strapi-Response-Format: v4` in the Strapi 5 recordings). */
  headers?: Record<string, string>;
  /** `public`, `token:<read-only|full-access|custom>` or `user:<username>`. */
  auth: string;
  body?: unknown;
  status: number;
  answer: any;
}

export interface StrapiAnswers {
  strapiVersion: string;
  dialect: StrapiDialect;
  timeZone: string;
  set: StrapiDataSet;
  recordedAt: string;
  requests: RecordedRequest[];
}

export interface StrapiSecrets {
  strapiVersion: string;
  /** TZ of Strapi's process: PostgreSQL/MariaDB timestamps are wall time in this zone. */
  timeZone: string;
  env: { APP_KEYS: string; JWT_SECRET: string; API_TOKEN_SALT: string; ADMIN_JWT_SECRET: string; TRANSFER_TOKEN_SALT: string };
  admin: { email: string; password: string };
  /** Per dialect, as every recording has its own tokens and JWTs. */
  dialects: Partial<
    Record<
      StrapiDialect,
      {
        apiTokens: { id: number; name: string; type: 'read-only' | 'full-access' | 'custom'; accessKey: string; expiresAt: string | null }[];
        users: { username: string; email: string; password: string; id: number; role: string; blocked: boolean }[];
        userJwt: { username: string; id: number; jwt: string };
      }
    >
  >;
}

/** Whether the set was recorded on that dialect (the shapes: SQLite only). */
export function hasStrapiData(set: StrapiDataSet, dialect: StrapiDialect): boolean {
  return existsSync(path.join(strapiDataDir(set), `answers.${dialect}.json`));
}

export function loadStrapiAnswers(set: StrapiDataSet, dialect: StrapiDialect): StrapiAnswers {
  return JSON.parse(readFileSync(path.join(strapiDataDir(set), `answers.${dialect}.json`), 'utf8'));
}

/** One recorded request by name (e.g. `articles.findOne.1`, `upload.files`, `graphql.me`). */
export function strapiAnswer(answers: StrapiAnswers, name: string): RecordedRequest {
  const found = answers.requests.find((r) => r.name === name);
  if (!found) throw new Error(`no recorded request ${name} in ${answers.set}/${answers.dialect}`);
  return found;
}

export function loadStrapiSecrets(set: StrapiDataSet): StrapiSecrets {
  return JSON.parse(readFileSync(path.join(strapiDataDir(set), 'secrets.json'), 'utf8'));
}

function readDump(set: StrapiDataSet, dialect: StrapiDialect): string {
  return readFileSync(path.join(strapiDataDir(set), dumpFile[dialect]), 'utf8');
}

const uniqueName = () => `${runPrefix()}strapi_${randomBytes(4).toString('hex')}`;

/**
 * Restores a recorded Strapi database. SQLite goes to `sqliteFile` (default: a new temporary
 * folder's data.db); PostgreSQL and MariaDB get a new database on the test servers.
 */
export async function restoreStrapiDatabase(set: StrapiDataSet, dialect: StrapiDialect, sqliteFile?: string): Promise<RestoredStrapiDatabase> {
  return restoreDump(readDump(set, dialect), dialect, sqliteFile);
}

/** A dump of `dialect` (as the recorders write them, test/import/recorder/dump.ts) restored as `restoreStrapiDatabase` does. */
export async function restoreDump(dump: string, dialect: StrapiDialect, sqliteFile?: string): Promise<RestoredStrapiDatabase> {
  if (dialect === 'sqlite') {
    const ownDir = sqliteFile ? undefined : await tempDir('strapi-db');
    const file = sqliteFile ?? path.join(ownDir!, 'data.db');
    mkdirSync(path.dirname(file), { recursive: true });
    const db = new BetterSqlite3(file);
    try {
      db.exec(dump);
    } finally {
      db.close();
    }
    return {
      dialect,
      url: file,
      async cleanup() {
        if (ownDir) rmSync(ownDir, { recursive: true, force: true });
        else for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
      },
    };
  }
  const name = uniqueName();
  let dropped = false;
  if (dialect === 'postgres') {
    await postgresAdmin(`CREATE DATABASE ${name}`);
    const url = new URL(postgresAdminUrl);
    url.pathname = `/${name}`;
    const drop = async () => {
      if (dropped) return;
      dropped = true;
      await postgresAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    };
    try {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query(dump); // one simple query: pg_dump's statements in order
      } finally {
        await client.end();
      }
    } catch (error) {
      await drop();
      throw error;
    }
    return { dialect, url: url.toString(), name, cleanup: drop };
  }
  await mariadbAdminQuery(`CREATE DATABASE ${name}`);
  const url = new URL(mariadbAdminUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    await mariadbAdminQuery(`DROP DATABASE IF EXISTS ${name}`);
  };
  try {
    const conn = await mariadb.createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username || 'root'),
      password: decodeURIComponent(url.password),
      database: name,
      multipleStatements: true,
    });
    try {
      await conn.query(dump);
    } finally {
      await conn.end();
    }
  } catch (error) {
    await drop();
    throw error;
  }
  return { dialect, url: url.toString(), name, cleanup: drop };
}

/** Rows of one statement on a restored database (identifiers in double quotes, no parameters; a write answers none). */
export async function queryStrapiDatabase(db: RestoredStrapiDatabase, sql: string): Promise<Record<string, unknown>[]> {
  if (db.dialect === 'sqlite') {
    const conn = new BetterSqlite3(db.url);
    try {
      const statement = conn.prepare(sql);
      return statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
    } finally {
      conn.close();
    }
  }
  if (db.dialect === 'postgres') {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      return (await client.query(sql)).rows;
    } finally {
      await client.end();
    }
  }
  const url = new URL(db.url);
  const conn = await mariadb.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: db.name,
    initSql: "SET SESSION sql_mode = CONCAT(@@sql_mode, ',ANSI_QUOTES')",
  });
  try {
    const rows = await conn.query(sql);
    return Array.isArray(rows) ? rows : [];
  } finally {
    await conn.end();
  }
}

export interface RestoredStrapiProject extends RestoredStrapiDatabase {
  /** The Strapi project folder: package.json, config/, src/, .env, public/uploads, .tmp/data.db. */
  dir: string;
}

/**
 * A copy of the set's Strapi project folder (package.json, config/, src/) in a new temporary
 * folder, without database or uploads: what `contentgen import --from <archive>` reads the
 * models from (and writes permissions.json and locales.json into). Remove it when done.
 */
export async function copyStrapiProject(set: StrapiDataSet): Promise<string> {
  const dir = await tempDir(`strapi-project-${set}`);
  for (const entry of ['package.json', 'config', 'src']) cpSync(path.join(strapiDataDir(set), entry), path.join(dir, entry), { recursive: true });
  return dir;
}

/**
 * A copy of the set's Strapi project folder with its database restored and `.env` written as a
 * project would have it (DATABASE_CLIENT, DATABASE_NAME/HOST/PORT/USERNAME/PASSWORD or
 * DATABASE_FILENAME, and the secrets), and public/uploads holding the files of that recording.
 */
export async function restoreStrapiProject(set: StrapiDataSet, dialect: StrapiDialect): Promise<RestoredStrapiProject> {
  const dir = await copyStrapiProject(set);
  const uploads = path.join(dir, 'public', 'uploads');
  mkdirSync(uploads, { recursive: true });
  const recorded = path.join(strapiDataDir(set), 'uploads', dialect);
  for (const file of readdirSync(recorded)) cpSync(path.join(recorded, file), path.join(uploads, file));
  let database: RestoredStrapiDatabase;
  try {
    database = await restoreStrapiDatabase(set, dialect, dialect === 'sqlite' ? path.join(dir, '.tmp', 'data.db') : undefined);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const { env } = loadStrapiSecrets(set);
  const lines = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  if (dialect === 'sqlite') lines.push('DATABASE_CLIENT=sqlite', 'DATABASE_FILENAME=.tmp/data.db');
  else {
    const url = new URL(database.url);
    lines.push(
      `DATABASE_CLIENT=${dialect === 'postgres' ? 'postgres' : 'mysql2'}`,
      `DATABASE_HOST=${url.hostname}`,
      `DATABASE_PORT=${url.port || (dialect === 'postgres' ? 5432 : 3306)}`,
      `DATABASE_NAME=${database.name}`,
      `DATABASE_USERNAME=${decodeURIComponent(url.username)}`,
      `DATABASE_PASSWORD=${decodeURIComponent(url.password)}`,
    );
  }
  writeFileSync(path.join(dir, '.env'), `${lines.join('\n')}\n`);
  return {
    ...database,
    dir,
    async cleanup() {
      await database.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
