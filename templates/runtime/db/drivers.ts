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

/** `@prisma/adapter-pg` */
export interface PgAdapterModule {
  PrismaPg: new (config: { connectionString: string }, options?: { schema?: string }) => SqlMigrationAwareDriverAdapterFactory;
}

/** `@prisma/adapter-mariadb` */
export interface MariaDbAdapterModule {
  PrismaMariaDb: new (config: string) => SqlDriverAdapterFactory;
}

/** A prepared statement of `better-sqlite3`. */
export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
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
