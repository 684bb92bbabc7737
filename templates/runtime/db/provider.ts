/**
 * Database URL → Prisma provider and driver adapter factory.
 *
 * The three adapters are imported by name (db/drivers.ts) so an emitted server only needs the
 * adapter (and driver) of its own database installed, and compiles without the others.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { importDriver } from './drivers.js';

/** Prisma datasource provider names. */
export type Provider = 'sqlite' | 'postgresql' | 'mysql';

const schemes: ReadonlyArray<[prefix: string, provider: Provider]> = [
  ['file:', 'sqlite'],
  ['postgres://', 'postgresql'],
  ['postgresql://', 'postgresql'],
  ['mysql://', 'mysql'],
  ['mariadb://', 'mysql'],
];

export function providerFromUrl(url: string): Provider {
  const lower = url.trim().toLowerCase();
  for (const [prefix, provider] of schemes) {
    if (lower.startsWith(prefix)) return provider;
  }
  const shown = url.includes('://') ? `${url.slice(0, url.indexOf('://'))}://…` : JSON.stringify(url.slice(0, 40));
  throw new Error(
    `Unsupported database URL ${shown}: expected file:<path> (SQLite), postgres:// or postgresql:// ` +
      '(PostgreSQL), or mysql:// or mariadb:// (MySQL/MariaDB).',
  );
}

/**
 * The file path of a `file:` URL, resolved against `cwd` (the process's working directory by
 * default, like Prisma), or `:memory:`. Query parameters (`?connection_limit=1`) are dropped.
 */
export function sqliteFilePath(url: string, cwd: string = process.cwd()): string {
  if (providerFromUrl(url) !== 'sqlite') throw new Error('sqliteFilePath expects a file: URL.');
  const target = url.trim().slice('file:'.length).replace(/\?.*$/, '');
  if (target === '' || target === ':memory:') return ':memory:';
  return path.resolve(cwd, target);
}

/**
 * The driver adapter factory Prisma Client (and the schema engine) should use for `url`.
 * For SQLite the database file's folder is created if missing, since SQLite creates the file
 * but not its folder.
 */
export async function createAdapterFactory(url: string): Promise<SqlDriverAdapterFactory> {
  switch (providerFromUrl(url)) {
    case 'sqlite': {
      const file = sqliteFilePath(url);
      if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
      const { PrismaBetterSqlite3 } = await importDriver('@prisma/adapter-better-sqlite3');
      // Durable commits in WAL mode (db/sqlite-reader.ts): better-sqlite3's build would
      // otherwise sync less (NORMAL), and a commit could be lost to a power cut.
      return runOnConnect(new PrismaBetterSqlite3({ url: file }), 'PRAGMA synchronous = FULL');
    }
    case 'postgresql': {
      const { PrismaPg } = await importDriver('@prisma/adapter-pg');
      // Prisma URLs name the Postgres schema in `?schema=`; node-postgres ignores it, the adapter
      // takes it as an option.
      const schema = new URL(url).searchParams.get('schema') ?? undefined;
      return new PrismaPg({ connectionString: url }, schema ? { schema } : undefined);
    }
    case 'mysql': {
      const { PrismaMariaDb } = await importDriver('@prisma/adapter-mariadb');
      // The adapter rewrites mysql:// to the mariadb:// scheme its driver expects.
      return new PrismaMariaDb(url);
    }
  }
}

/** The same factory, running `script` on every connection it opens (not on shadow databases). */
function runOnConnect(factory: SqlMigrationAwareDriverAdapterFactory, script: string): SqlMigrationAwareDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      await adapter.executeScript(script);
      return adapter;
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}
