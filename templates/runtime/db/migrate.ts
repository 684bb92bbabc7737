/**
 * Applies pending migrations at server start: the same folders and the same `_prisma_migrations`
 * bookkeeping as `prisma migrate deploy`, but offline, through Prisma's WebAssembly schema engine
 * (SQLite, PostgreSQL) or a small runner of our own (MySQL, which the wasm engine lacks).
 */
import { readFile } from 'node:fs/promises';
import { checkLockfileProvider, datasourceProvider, LOCKFILE_NAME, readMigrationsDir } from './migration-files.js';
import type { MigrationsOnDisk } from './migration-files.js';
import { withPostgresMigrationLock } from './migration-lock.js';
import { applyMysqlMigrations, sha256 } from './mysql-migrations.js';
import { createAdapterFactory, providerFromUrl } from './provider.js';
import type { Provider } from './provider.js';
import { closeSchemaEngine, engineErrorMessage, openSchemaEngine } from './schema-engine.js';
import type { SchemaEngine } from './schema-engine.js';

export interface ApplyMigrationsOptions {
  databaseUrl: string;
  /** Folder of `<name>/migration.sql` folders, e.g. `prisma/migrations`. */
  migrationsDir: string;
  /**
   * The current `schema.prisma`. Applying does not need it; when given, its datasource provider
   * is checked against the URL so a server pointed at the wrong kind of database fails clearly.
   */
  schemaPath?: string;
  /** Progress messages ("Applied migration 0002_add_slug"). */
  log?: (message: string) => void;
  /** How long to wait for another process that is applying migrations. Default 60. */
  lockTimeoutSeconds?: number;
}

/** Applies every migration not yet recorded in the database; returns their names, in order. */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<string[]> {
  const { databaseUrl, migrationsDir, schemaPath } = options;
  const log = options.log ?? (() => {});
  const lockTimeoutSeconds = options.lockTimeoutSeconds ?? 60;
  const provider = providerFromUrl(databaseUrl);
  if (schemaPath !== undefined) await checkSchemaProvider(schemaPath, provider);
  const onDisk = await readMigrationsDir(migrationsDir);
  checkLockfileProvider(onDisk.lockfile, provider, onDisk.dir);

  if (provider === 'mysql') {
    return applyMysqlMigrations(databaseUrl, onDisk.migrations, { log, lockTimeoutSeconds });
  }
  const factory = await createAdapterFactory(databaseUrl);
  // Usually every migration is applied already (every start but the first, every other
  // process of a deployment): one read answers that without the engine, which is slow to
  // load and, on SQLite, needs the file to itself (exclusive locking mode).
  if (await allRecorded(factory, onDisk)) return [];
  const apply = () => applyWithEngine(onDisk, factory, log);
  if (provider === 'postgresql') {
    // A lock connection of its own: the engine's pool must not share the pinned connection.
    // Whoever waited for the lock finds the migrations applied: the engine applies none.
    return withPostgresMigrationLock(await createAdapterFactory(databaseUrl), lockTimeoutSeconds, apply);
  }
  return apply(); // SQLite: the engine holds the file in exclusive locking mode while applying
}

/**
 * Whether `_prisma_migrations` records every migration on disk as applied, unchanged
 * (same SHA-256) and finished, and no failed one. Anything else (no table, a pending, failed
 * or edited migration, a read error) is false: the engine then decides and reports.
 */
async function allRecorded(factory: Awaited<ReturnType<typeof createAdapterFactory>>, onDisk: MigrationsOnDisk): Promise<boolean> {
  let adapter: Awaited<ReturnType<typeof factory.connect>> | undefined;
  try {
    adapter = await factory.connect();
    const result = await adapter.queryRaw({
      sql: 'SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations',
      args: [],
      argTypes: [],
    });
    const column = (name: string) => result.columnNames.indexOf(name);
    const [nameAt, checksumAt, finishedAt, rolledBackAt] = ['migration_name', 'checksum', 'finished_at', 'rolled_back_at'].map(column) as [number, number, number, number];
    const live = result.rows.filter((row) => row[rolledBackAt] === null);
    if (live.some((row) => row[finishedAt] === null)) return false;
    const applied = new Map(live.map((row) => [String(row[nameAt]), String(row[checksumAt])]));
    return onDisk.migrations.every((m) => applied.get(m.name) === sha256(m.sql));
  } catch {
    return false;
  } finally {
    await adapter?.dispose().catch(() => {});
  }
}

async function checkSchemaProvider(schemaPath: string, provider: Provider): Promise<void> {
  const declared = datasourceProvider(await readFile(schemaPath, 'utf8'));
  if (declared !== undefined && declared !== provider) {
    throw new Error(`${schemaPath} declares provider "${declared}" but the database URL is ${provider}.`);
  }
}

async function applyWithEngine(
  onDisk: MigrationsOnDisk,
  factory: Awaited<ReturnType<typeof createAdapterFactory>>,
  log: (message: string) => void,
): Promise<string[]> {
  // The engine logs "Applying `<name>`" before each script: remember it to name a failure.
  let current: string | undefined;
  let engine: SchemaEngine | undefined;
  try {
    engine = await openSchemaEngine(undefined, factory, {
      onLog: (entry) => {
        const message = entry.fields?.message;
        const name = typeof message === 'string' ? /^Applying `(.+)`$/.exec(message)?.[1] : undefined;
        if (name !== undefined) current = name;
      },
    });
    const { appliedMigrationNames } = await engine.applyMigrations({
      migrationsList: {
        baseDir: onDisk.dir,
        lockfile: { path: LOCKFILE_NAME, content: onDisk.lockfile },
        shadowDbInitScript: '',
        migrationDirectories: onDisk.migrations.map((m) => ({
          path: m.name,
          migrationFile: { path: 'migration.sql', content: { tag: 'ok' as const, value: m.sql } },
        })),
      },
      filters: { externalTables: [], externalEnums: [] },
    });
    for (const name of appliedMigrationNames) log(`Applied migration ${name}`);
    return appliedMigrationNames;
  } catch (error) {
    const reason = engineErrorMessage(engine, error);
    const what = current === undefined ? `Applying the migrations in ${onDisk.dir} failed` : `Migration ${current} failed to apply`;
    throw new Error(`${what}: ${reason}`, { cause: error });
  } finally {
    if (engine) await closeSchemaEngine(engine);
  }
}
