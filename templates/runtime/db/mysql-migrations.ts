/**
 * Applies migrations to MySQL/MariaDB without the schema engine.
 *
 * Prisma's WebAssembly schema engine has no MySQL connector (it panics with "Unsupported adapter
 * provider: Mysql"), so this does what `prisma migrate deploy` does, in the same bookkeeping
 * table: `_prisma_migrations`, with the same columns, a SHA-256 checksum of each script, and a
 * row left unfinished when a script fails, so later runs (and the Prisma CLI) refuse to continue
 * until it is resolved.
 *
 * Everything runs on one connection that holds `GET_LOCK('contentgen_migrate:<database>')`, so
 * concurrent server starts apply each migration exactly once. (MySQL's named locks are
 * server-wide, unlike PostgreSQL's advisory locks: the database's name keeps servers of other
 * databases on the same MySQL server from waiting on each other.) Scripts run as one multi-statement query, like
 * Prisma's native engine; MySQL commits DDL implicitly, so a failed script may leave part of its
 * statements applied — the same as with Prisma.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { SqlDriverAdapter } from '@prisma/driver-adapter-utils';
import type { MigrationOnDisk } from './migration-files.js';
import { createAdapterFactory } from './provider.js';

export const MYSQL_MIGRATION_LOCK_NAME = 'contentgen_migrate';

/** The lock's name for the connection's database (names are at most 64 characters). */
const lockNameSql = `LEFT(CONCAT('${MYSQL_MIGRATION_LOCK_NAME}:', DATABASE()), 64)`;

/** The same definition Prisma's native engine creates. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS \`_prisma_migrations\` (
    \`id\` VARCHAR(36) NOT NULL,
    \`checksum\` VARCHAR(64) NOT NULL,
    \`finished_at\` DATETIME(3) NULL,
    \`migration_name\` VARCHAR(255) NOT NULL,
    \`logs\` TEXT NULL,
    \`rolled_back_at\` DATETIME(3) NULL,
    \`started_at\` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    \`applied_steps_count\` INTEGER UNSIGNED NOT NULL DEFAULT 0,

    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`;

/** The parts of the mariadb driver used here (its types stay out of the runtime's imports). */
interface MariaConnection {
  query(sql: string, values?: unknown[]): Promise<unknown>;
  release(): Promise<void>;
}
interface MariaPool {
  getConnection(): Promise<MariaConnection>;
}

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

export interface MysqlMigrateOptions {
  log: (message: string) => void;
  lockTimeoutSeconds: number;
}

export async function applyMysqlMigrations(
  databaseUrl: string,
  migrations: readonly MigrationOnDisk[],
  options: MysqlMigrateOptions,
): Promise<string[]> {
  const factory = await createAdapterFactory(withMultipleStatements(databaseUrl));
  const adapter = await factory.connect();
  try {
    const pool = (adapter as SqlDriverAdapter & { underlyingDriver(): MariaPool }).underlyingDriver();
    const conn = await pool.getConnection();
    try {
      await acquireLock(conn, options.lockTimeoutSeconds);
      try {
        return await applyPending(conn, migrations, options.log);
      } finally {
        await conn.query(`SELECT RELEASE_LOCK(${lockNameSql})`);
      }
    } finally {
      await conn.release();
    }
  } finally {
    await adapter.dispose();
  }
}

/** Migration scripts hold many statements; the mariadb driver runs them only with this option. */
function withMultipleStatements(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('multipleStatements', 'true');
  return url.toString();
}

async function acquireLock(conn: MariaConnection, timeoutSeconds: number): Promise<void> {
  const rows = (await conn.query(`SELECT GET_LOCK(${lockNameSql}, ?) AS acquired, ${lockNameSql} AS name`, [
    Math.max(0, Math.round(timeoutSeconds)),
  ])) as Array<{ acquired: unknown; name: unknown }>;
  const acquired = rows[0]?.acquired;
  const name = String(rows[0]?.name ?? MYSQL_MIGRATION_LOCK_NAME);
  if (acquired === null || acquired === undefined) {
    throw new Error(`Could not take the MySQL lock "${name}" for applying migrations.`);
  }
  if (Number(acquired) !== 1) {
    throw new Error(
      `Timed out after ${timeoutSeconds} s waiting for another process to finish applying migrations ` +
        `(MySQL lock "${name}").`,
    );
  }
}

async function applyPending(
  conn: MariaConnection,
  migrations: readonly MigrationOnDisk[],
  log: (message: string) => void,
): Promise<string[]> {
  await conn.query(CREATE_MIGRATIONS_TABLE);
  const rows = (await conn.query(
    'SELECT migration_name, checksum, finished_at, rolled_back_at FROM `_prisma_migrations` ORDER BY started_at',
  )) as MigrationRow[];
  const live = rows.filter((row) => row.rolled_back_at === null);
  const failed = live.filter((row) => row.finished_at === null);
  if (failed.length > 0) {
    throw new Error(
      `The database has failed migrations (${failed.map((row) => row.migration_name).join(', ')}) in ` +
        '_prisma_migrations; new migrations will not be applied until they are resolved ' +
        '(fix the database, then mark them rolled back or applied).',
    );
  }
  const applied = new Map(live.map((row) => [row.migration_name, row.checksum]));
  const appliedNow: string[] = [];
  for (const migration of migrations) {
    const checksum = sha256(migration.sql);
    const recorded = applied.get(migration.name);
    if (recorded !== undefined) {
      if (recorded !== checksum) log(`Migration ${migration.name} was edited after it was applied (checksum differs).`);
      continue;
    }
    await applyOne(conn, migration, checksum);
    log(`Applied migration ${migration.name}`);
    appliedNow.push(migration.name);
  }
  return appliedNow;
}

async function applyOne(conn: MariaConnection, migration: MigrationOnDisk, checksum: string): Promise<void> {
  const id = randomUUID();
  await conn.query(
    'INSERT INTO `_prisma_migrations` (id, checksum, migration_name, started_at, applied_steps_count) ' +
      'VALUES (?, ?, ?, NOW(3), 0)',
    [id, checksum, migration.name],
  );
  try {
    // The driver rejects a query with no statement ("Query was empty"), e.g. a comment-only
    // "-- This is an empty migration." script.
    if (hasStatements(migration.sql)) await conn.query(migration.sql);
  } catch (error) {
    // `sqlMessage` is the server's own text; `message` repeats the whole script after it.
    const message =
      (error as { sqlMessage?: string }).sqlMessage ?? (error instanceof Error ? error.message : String(error));
    await conn.query('UPDATE `_prisma_migrations` SET logs = ? WHERE id = ?', [message, id]);
    throw new Error(`Migration ${migration.name} failed to apply: ${message}`, { cause: error });
  }
  await conn.query(
    'UPDATE `_prisma_migrations` SET finished_at = NOW(3), applied_steps_count = 1 WHERE id = ?',
    [id],
  );
}

/** Same checksum as Prisma: SHA-256 of the script, lowercase hex. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function hasStatements(sql: string): boolean {
  const stripped = sql
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(--|#)[^\n]*/g, '')
    .trim();
  return stripped.replace(/;/g, '').trim().length > 0;
}
