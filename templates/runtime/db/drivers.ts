/**
 * The database packages a server may use, loaded by name when its DATABASE_URL needs them.
 *
 * A server is built for one database and its package.json declares only that database's
 * adapter and driver: these modules are never imported statically, and their shapes are
 * described here (only what the runtime calls), so the server compiles without the others.
 * test/unit/db/drivers.test.ts checks these shapes against the packages' own types.
 */
import type { SqlDriverAdapterFactory, SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/** `@prisma/adapter-better-sqlite3` */
export interface BetterSqlite3AdapterModule {
  PrismaBetterSqlite3: new (config: { url: string }) => SqlMigrationAwareDriverAdapterFactory;
}

/**
 * A pool made by the driver module itself (`PgModule`, `MariaDbModule`), handed to its Prisma
 * adapter. The adapters declare the drivers' full pool types, which only the drivers' own
 * type packages describe: to the compiler here, any pool.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type DriverPool = any;

/** `@prisma/adapter-pg`: given connection settings, or the server's own pool (db/pg-reader.ts). */
export interface PgAdapterModule {
  PrismaPg: new (config: { connectionString: string } | DriverPool, options?: { schema?: string }) => SqlMigrationAwareDriverAdapterFactory;
}

/** `@prisma/adapter-mariadb`: given a URL, or the server's own pool (db/mariadb-reader.ts). */
export interface MariaDbAdapterModule {
  PrismaMariaDb: new (config: string | DriverPool) => SqlDriverAdapterFactory;
}

/** How `pg` turns a column's text into a value, chosen per type OID. */
export interface PgTypeParsers {
  getTypeParser(oid: number, format?: string): (text: string) => unknown;
}

/** A pool of `pg` (node-postgres), or one of its connections. */
export interface PgQueryable {
  query(config: { name?: string; text: string; values?: unknown[]; types?: PgTypeParsers }): Promise<{ rows: Record<string, unknown>[]; rowCount?: number | null }>;
}

/** A connection taken from a `pg` pool; `release(error)` closes it instead of returning it. */
export interface PgPoolClient extends PgQueryable {
  release(error?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connection pool of `pg` (node-postgres). */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgPoolClient>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
}

/** `pg` */
export interface PgModule {
  default: { Pool: new (config: { connectionString: string; connectionTimeoutMillis?: number; max?: number }) => PgPool; types: PgTypeParsers };
}

/** A column of a `mariadb` result (its `meta`): the type's name (`DATETIME`, `NEWDECIMAL`…) and the column's name. */
export interface MariaDbColumn {
  readonly type: string;
  name(): string;
}

/** A pool of `mariadb`, or one of its connections. */
export interface MariaDbQueryable {
  query(options: { sql: string; dateStrings?: boolean }, values?: unknown[]): Promise<unknown>;
}

/** A connection taken from a `mariadb` pool: `release` returns it, `destroy` closes it. */
export interface MariaDbPoolConnection extends MariaDbQueryable {
  release(): Promise<void>;
  destroy(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

/** A connection pool of `mariadb`. */
export interface MariaDbPool extends MariaDbQueryable {
  getConnection(): Promise<MariaDbPoolConnection>;
  end(): Promise<void>;
}

/** `mariadb` */
export interface MariaDbModule {
  createPool(config: string): MariaDbPool;
}

/** A prepared statement of `better-sqlite3`. */
export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  safeIntegers(toggle?: boolean): this;
}

/** A connection of `better-sqlite3`. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  pragma(source: string): unknown;
  close(): unknown;
}

/** `better-sqlite3` */
export interface BetterSqlite3Module {
  default: new (file: string, options?: { fileMustExist?: boolean }) => SqliteConnection;
}

export interface DriverModules {
  '@prisma/adapter-better-sqlite3': BetterSqlite3AdapterModule;
  '@prisma/adapter-pg': PgAdapterModule;
  '@prisma/adapter-mariadb': MariaDbAdapterModule;
  'better-sqlite3': BetterSqlite3Module;
  pg: PgModule;
  mariadb: MariaDbModule;
}

/** Imports a database package, with an error that says which package to install when it is missing. */
export async function importDriver<Name extends keyof DriverModules>(name: Name): Promise<DriverModules[Name]> {
  const specifier: string = name; // a plain string: the compiler must not resolve (or require) the package
  try {
    return (await import(specifier)) as DriverModules[Name];
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(name)) {
      throw new Error(
        `This database URL needs the ${name} package, which this server was not built with: ` +
          `rebuild it for this database (contentgen build --db …) or install it (npm install ${name}).`,
        { cause: error },
      );
    }
    throw error;
  }
}
