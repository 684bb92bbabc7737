import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import mariadb from 'mariadb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffSchemas } from '../../../generator/migrate/diff.js';
import { applyMigrations } from '../../../templates/runtime/db/migrate.js';
import { withPostgresMigrationLock } from '../../../templates/runtime/db/migration-lock.js';
import { createAdapterFactory, type Provider } from '../../../templates/runtime/db/provider.js';
import { repoRoot, tempDir } from '../../helpers/paths.js';
import { articleSchema, MARIADB_ADMIN, tempMariaDb, tempPostgres, type TempDatabase } from './databases.js';

const v1 = (p: Provider) => articleSchema(p);
const v2 = (p: Provider) => articleSchema(p, ['summary     String?', 'slug        String?   @unique']);
const execFileAsync = promisify(execFile);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Temporary folders of this file, removed at the end. */
const scratchDirs: string[] = [];
afterAll(() => Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true }))));
async function scratchDir(prefix: string): Promise<string> {
  const dir = await tempDir(prefix);
  scratchDirs.push(dir);
  return dir;
}

/** A migrations folder the way the generator writes it. */
async function migrationsFolder(provider: Provider): Promise<{ dir: string; add(name: string, sql: string): Promise<void> }> {
  const dir = path.join(await scratchDir('migrate'), 'migrations');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'migration_lock.toml'), `provider = "${provider}"\n`);
  return {
    dir,
    async add(name, sql) {
      await mkdir(path.join(dir, name), { recursive: true });
      await writeFile(path.join(dir, name, 'migration.sql'), sql);
    },
  };
}

/** How each database answers "which columns does this table have?" and "what is recorded?". */
interface Inspect {
  columns(table: string): Promise<string[]>;
  recorded(): Promise<{ migration_name: string; checksum: string; finished: boolean }[]>;
}

function contractTests(provider: Provider, open: () => Promise<{ url: string; inspect: Inspect; cleanup(): Promise<void> }>) {
  let url: string;
  let inspect: Inspect;
  let cleanup: () => Promise<void>;
  let folder: Awaited<ReturnType<typeof migrationsFolder>>;
  let init: string;
  const messages: string[] = [];
  const apply = () => applyMigrations({ databaseUrl: url, migrationsDir: folder.dir, log: (m) => messages.push(m) });

  beforeAll(async () => {
    ({ url, inspect, cleanup } = await open());
    folder = await migrationsFolder(provider);
    init = await diffSchemas({ provider, from: null, to: v1(provider) });
    await folder.add('0001_init', init);
  });
  afterAll(async () => {
    await cleanup?.();
  });

  it('applies the first migration and records it in _prisma_migrations', async () => {
    expect(await apply()).toEqual(['0001_init']);
    expect(await inspect.columns('articles')).toEqual(
      expect.arrayContaining(['id', 'title', 'views', 'created_at', 'updated_at', 'published_at']),
    );
    expect(await inspect.recorded()).toEqual([{ migration_name: '0001_init', checksum: sha256(init), finished: true }]);
    expect(messages).toContain('Applied migration 0001_init');
  });

  it('applies nothing the second time', async () => {
    expect(await apply()).toEqual([]);
    expect(await inspect.recorded()).toHaveLength(1);
  });

  it('applies only a newly added migration', async () => {
    await folder.add('0002_article', await diffSchemas({ provider, from: v1(provider), to: v2(provider) }));
    expect(await apply()).toEqual(['0002_article']);
    expect(await inspect.columns('articles')).toEqual(expect.arrayContaining(['summary', 'slug']));
    expect((await inspect.recorded()).map((r) => r.migration_name)).toEqual(['0001_init', '0002_article']);
  });

  it('names the failing migration and the database message, then refuses to go on', async () => {
    await folder.add('0003_broken', 'CREATE TABLE "no_such_syntax" (;\n');
    const failure = await apply().then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/Migration 0003_broken failed to apply: .*syntax/i);
    await expect(apply()).rejects.toThrow(/failed migrations/i);
  });
}

describe('applyMigrations on SQLite', () => {
  contractTests('sqlite', async () => {
    const dir = await scratchDir('migrate-sqlite');
    // A folder that does not exist yet: the adapter factory creates it.
    const file = path.join(dir, 'nested', 'data', 'app.db');
    const query = (sql: string) => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(sql).all() as Record<string, unknown>[];
      } finally {
        db.close();
      }
    };
    return {
      url: `file:${file}`,
      inspect: {
        columns: async (table) => query(`PRAGMA table_info("${table}")`).map((r) => String(r.name)),
        recorded: async () =>
          query('SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY started_at').map((r) => ({
            migration_name: String(r.migration_name),
            checksum: String(r.checksum),
            finished: r.finished_at !== null,
          })),
      },
      cleanup: async () => {
        expect(existsSync(file)).toBe(true);
      },
    };
  });
});

const postgres = await tempPostgres();
if (!postgres.ok) console.warn(`Skipping PostgreSQL migration tests: ${postgres.reason}`);

describe.skipIf(!postgres.ok)('applyMigrations on PostgreSQL', () => {
  const db = postgres.ok ? postgres.value : (undefined as unknown as TempDatabase);
  contractTests('postgresql', async () => ({
    url: db.url,
    inspect: {
      columns: async (table) =>
        (await db.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [table])).map((r) =>
          String(r.column_name),
        ),
      recorded: async () =>
        (await db.query('SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY started_at')).map(
          (r) => ({ migration_name: String(r.migration_name), checksum: String(r.checksum), finished: r.finished_at !== null }),
        ),
    },
    cleanup: () => db.drop(),
  }));
});

const mariaDb = await tempMariaDb();
if (!mariaDb.ok) console.warn(`Skipping MariaDB migration tests: ${mariaDb.reason}`);

describe.skipIf(!mariaDb.ok)('applyMigrations on MariaDB', () => {
  const db = mariaDb.ok ? mariaDb.value : (undefined as unknown as TempDatabase);
  contractTests('mysql', async () => ({
    url: db.url,
    inspect: {
      columns: async (table) =>
        (
          await db.query('SELECT column_name AS c FROM information_schema.columns WHERE table_schema = ? AND table_name = ?', [
            db.name,
            table,
          ])
        ).map((r) => String(r.c)),
      recorded: async () =>
        (await db.query('SELECT migration_name, checksum, finished_at FROM _prisma_migrations ORDER BY started_at')).map(
          (r) => ({ migration_name: String(r.migration_name), checksum: String(r.checksum), finished: r.finished_at !== null }),
        ),
    },
    cleanup: () => db.drop(),
  }));
});

describe.skipIf(!postgres.ok)('applyMigrations on PostgreSQL: scripts and lock', () => {
  let db: TempDatabase;
  beforeAll(async () => {
    const fresh = await tempPostgres();
    if (!fresh.ok) throw new Error(fresh.reason);
    db = fresh.value;
  });
  afterAll(() => db?.drop());

  it('keeps semicolons inside strings and function bodies', async () => {
    const folder = await migrationsFolder('postgresql');
    await folder.add(
      '0001_semicolons',
      "CREATE TABLE \"notes\" (\"body\" TEXT DEFAULT 'a;b');\n" +
        'CREATE FUNCTION one() RETURNS int AS $$ BEGIN RETURN 1; END; $$ LANGUAGE plpgsql;\n',
    );
    expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: folder.dir })).toEqual(['0001_semicolons']);
    expect(await db.query('SELECT one() AS v')).toEqual([{ v: 1 }]);
  });

  it('applies a failing script not at all (one implicit transaction)', async () => {
    const folder = await migrationsFolder('postgresql');
    await folder.add('0001_half', 'CREATE TABLE "half" ("id" INT);\nSELECT 1/0;\n');
    await expect(applyMigrations({ databaseUrl: db.url, migrationsDir: folder.dir })).rejects.toThrow(
      /Migration 0001_half failed to apply: .*division by zero/,
    );
    expect(await db.query("SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
  });

  it('waits for the advisory lock, and says so when it times out', async () => {
    const fresh = await tempPostgres();
    if (!fresh.ok) throw new Error(fresh.reason);
    const url = fresh.value.url;
    try {
      let release = () => {};
      const held = withPostgresMigrationLock(await createAdapterFactory(url), 5, () => new Promise<void>((r) => (release = r)));
      await new Promise((r) => setTimeout(r, 300)); // let the first holder take the lock
      const folder = await migrationsFolder('postgresql');
      await folder.add('0001_init', await diffSchemas({ provider: 'postgresql', from: null, to: v1('postgresql') }));
      await expect(applyMigrations({ databaseUrl: url, migrationsDir: folder.dir, lockTimeoutSeconds: 0.5 })).rejects.toThrow(
        /Timed out after 0.5 s waiting for another process/,
      );
      release();
      await held;
      expect(await applyMigrations({ databaseUrl: url, migrationsDir: folder.dir, lockTimeoutSeconds: 0.5 })).toEqual(['0001_init']);
    } finally {
      await fresh.value.drop();
    }
  });
});

describe.skipIf(!mariaDb.ok)('applyMigrations on MariaDB: lock', () => {
  let db: TempDatabase;
  beforeAll(async () => {
    const fresh = await tempMariaDb();
    if (!fresh.ok) throw new Error(fresh.reason);
    db = fresh.value;
  });
  afterAll(() => db?.drop());

  it('waits for the named lock, and says so when it times out', async () => {
    const holder = await mariadb.createConnection({ ...MARIADB_ADMIN, database: db.name });
    try {
      // The lock is per database: the same name on another database does not block.
      const other = await mariadb.createConnection({ ...MARIADB_ADMIN, database: 'mysql' });
      await other.query("SELECT GET_LOCK('contentgen_migrate:mysql', 5)");
      const empty = await migrationsFolder('mysql');
      expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: empty.dir, lockTimeoutSeconds: 1 })).toEqual([]);
      await other.end();
      await holder.query(`SELECT GET_LOCK('contentgen_migrate:${db.name}', 5)`);
      const folder = await migrationsFolder('mysql');
      await expect(
        applyMigrations({ databaseUrl: db.url, migrationsDir: folder.dir, lockTimeoutSeconds: 1 }),
      ).rejects.toThrow(new RegExp(`Timed out after 1 s waiting for another process to finish applying migrations \\(MySQL lock "contentgen_migrate:${db.name}"\\)`));
      await holder.query(`SELECT RELEASE_LOCK('contentgen_migrate:${db.name}')`);
      expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: folder.dir, lockTimeoutSeconds: 1 })).toEqual([]);
    } finally {
      await holder.end();
    }
  });

  it('skips a comment-only migration without failing', async () => {
    const folder = await migrationsFolder('mysql');
    await folder.add('0001_empty', '-- This is an empty migration.\n');
    expect(await applyMigrations({ databaseUrl: db.url, migrationsDir: folder.dir })).toEqual(['0001_empty']);
  });
});

/**
 * Several servers starting at once on one database, as separate processes released at the same
 * instant: each migration is applied exactly once. (Within one process the wasm engine already
 * runs one command at a time, so only processes show what the locks are for.)
 */
async function concurrentStart(db: TempDatabase, provider: Provider): Promise<void> {
  const folder = await migrationsFolder(provider);
  const schemas = [v1(provider), v2(provider), articleSchema(provider, ['summary     String?', 'slug        String?   @unique', 'rank        Int?'])];
  let previous: string | null = null;
  for (const [i, schema] of schemas.entries()) {
    await folder.add(`000${i + 1}_step`, await diffSchemas({ provider, from: previous, to: schema }));
    previous = schema;
  }
  const child = fileURLToPath(new URL('./apply-migrations-child.ts', import.meta.url));
  const startAt = Date.now() + 3000; // after every process has loaded
  const runs = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', child, db.url, folder.dir, String(startAt)], {
        cwd: repoRoot,
      });
      return JSON.parse(stdout) as string[];
    }),
  );
  expect(runs.flat().sort()).toEqual(['0001_step', '0002_step', '0003_step']);
  const rows = await db.query('SELECT migration_name FROM _prisma_migrations');
  expect(rows).toHaveLength(3);
}

describe.skipIf(!postgres.ok)('concurrent applyMigrations on PostgreSQL', () => {
  it('applies each migration exactly once', async () => {
    const fresh = await tempPostgres();
    if (!fresh.ok) throw new Error(fresh.reason);
    try {
      await concurrentStart(fresh.value, 'postgresql');
    } finally {
      await fresh.value.drop();
    }
  });
});

describe.skipIf(!mariaDb.ok)('concurrent applyMigrations on MariaDB', () => {
  it('applies each migration exactly once', async () => {
    const fresh = await tempMariaDb();
    if (!fresh.ok) throw new Error(fresh.reason);
    try {
      await concurrentStart(fresh.value, 'mysql');
    } finally {
      await fresh.value.drop();
    }
  });
});

describe('applyMigrations errors', () => {
  it('rejects migrations written for another provider', async () => {
    const folder = await migrationsFolder('postgresql');
    await folder.add('0001_init', 'SELECT 1;');
    const dir = await scratchDir('migrate-provider');
    await expect(
      applyMigrations({ databaseUrl: `file:${path.join(dir, 'x.db')}`, migrationsDir: folder.dir }),
    ).rejects.toThrow(/written for postgresql .* sqlite/);
  });

  it('rejects a schema whose provider does not match the URL', async () => {
    const folder = await migrationsFolder('sqlite');
    const dir = await scratchDir('migrate-schema');
    const schemaPath = path.join(dir, 'schema.prisma');
    await writeFile(schemaPath, v1('postgresql'));
    await expect(
      applyMigrations({ databaseUrl: `file:${path.join(dir, 'x.db')}`, migrationsDir: folder.dir, schemaPath }),
    ).rejects.toThrow(/declares provider "postgresql" but the database URL is sqlite/);
  });

  it('names a missing migrations folder', async () => {
    const dir = await scratchDir('migrate-missing');
    await expect(
      applyMigrations({ databaseUrl: `file:${path.join(dir, 'x.db')}`, migrationsDir: path.join(dir, 'nope') }),
    ).rejects.toThrow(/Migrations folder not found/);
  });

  it('names a migration folder without migration.sql', async () => {
    const folder = await migrationsFolder('sqlite');
    await mkdir(path.join(folder.dir, '0001_empty'));
    const dir = await scratchDir('migrate-nosql');
    await expect(
      applyMigrations({ databaseUrl: `file:${path.join(dir, 'x.db')}`, migrationsDir: folder.dir }),
    ).rejects.toThrow(/"0001_empty" has no readable migration.sql/);
  });
});
