/**
 * Reads a Prisma migrations folder (`<dir>/<name>/migration.sql`, plus `migration_lock.toml`),
 * the layout `prisma migrate deploy` reads and the generator writes.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Provider } from './provider.js';

export interface MigrationOnDisk {
  /** Folder name, e.g. `0001_init`; recorded as `migration_name` in `_prisma_migrations`. */
  name: string;
  sql: string;
}

export interface MigrationsOnDisk {
  /** Absolute path of the migrations folder. */
  dir: string;
  /** Sorted by folder name (plain code-unit order, so the result never depends on locale). */
  migrations: MigrationOnDisk[];
  /** Content of `migration_lock.toml`, or null when there is none. */
  lockfile: string | null;
}

export const LOCKFILE_NAME = 'migration_lock.toml';
export const MIGRATION_FILE_NAME = 'migration.sql';

export async function readMigrationsDir(migrationsDir: string): Promise<MigrationsOnDisk> {
  const dir = path.resolve(migrationsDir);
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`Migrations folder not found: ${dir}`, { cause: error });
    }
    throw error;
  }
  const names = entries
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const migrations: MigrationOnDisk[] = [];
  for (const name of names) {
    const file = path.join(dir, name, MIGRATION_FILE_NAME);
    try {
      migrations.push({ name, sql: await readFile(file, 'utf8') });
    } catch (error) {
      // A folder without migration.sql is a half-written migration: applying the others would
      // silently skip it, so stop here.
      throw new Error(`Migration folder "${name}" has no readable ${MIGRATION_FILE_NAME} (${file}).`, {
        cause: error,
      });
    }
  }
  let lockfile: string | null = null;
  try {
    lockfile = await readFile(path.join(dir, LOCKFILE_NAME), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { dir, migrations, lockfile };
}

/**
 * Refuses migrations written for another database: `migration_lock.toml` records the provider
 * the SQL was generated for (`provider = "postgresql"`).
 */
export function checkLockfileProvider(lockfile: string | null, provider: Provider, dir: string): void {
  if (lockfile === null) return;
  const recorded = /^\s*provider\s*=\s*"([^"]+)"/m.exec(lockfile)?.[1];
  if (recorded !== undefined && recorded !== provider) {
    throw new Error(
      `The migrations in ${dir} were written for ${recorded} (${LOCKFILE_NAME}) but the database URL is ${provider}.`,
    );
  }
}

/** The `provider = "…"` of a schema's `datasource` block, if any. */
export function datasourceProvider(schemaText: string): string | undefined {
  const block = /datasource\s+\w+\s*\{([^}]*)\}/.exec(schemaText)?.[1];
  return block === undefined ? undefined : /^\s*provider\s*=\s*"([^"]+)"/m.exec(block)?.[1];
}
