/**
 * db/drivers.ts describes the database packages instead of importing their types, so an
 * emitted server compiles without the packages of the databases it was not built for.
 * Here, where every package is installed, the descriptions are checked against the real
 * types (by tsc, in `npm test`) and the real modules load through importDriver.
 */
import type * as BetterSqlite3Adapter from '@prisma/adapter-better-sqlite3';
import type * as PgAdapter from '@prisma/adapter-pg';
import type * as MariaDbAdapter from '@prisma/adapter-mariadb';
import type BetterSqlite3 from 'better-sqlite3';
import type * as MariaDb from 'mariadb';
import type * as Pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  importDriver,
  type BetterSqlite3AdapterModule,
  type MariaDbAdapterModule,
  type MariaDbModule,
  type MariaDbPool,
  type PgAdapterModule,
  type PgPool,
  type SqliteConnection,
} from '../../../templates/runtime/db/drivers.js';

// Compile-time: each real module satisfies what the runtime calls of it.
const adapters: [BetterSqlite3AdapterModule, PgAdapterModule, MariaDbAdapterModule] = [
  {} as typeof BetterSqlite3Adapter,
  {} as typeof PgAdapter,
  {} as typeof MariaDbAdapter,
];
const connection: SqliteConnection = {} as BetterSqlite3.Database;
const pools: [PgPool, MariaDbPool] = [{} as Pg.Pool, {} as MariaDb.Pool];
const mariadbModule: MariaDbModule = {} as typeof MariaDb;
void adapters;
void connection;
void pools;
void mariadbModule;

describe('importDriver', () => {
  it('loads each installed database package', async () => {
    expect(typeof (await importDriver('@prisma/adapter-better-sqlite3')).PrismaBetterSqlite3).toBe('function');
    expect(typeof (await importDriver('@prisma/adapter-pg')).PrismaPg).toBe('function');
    expect(typeof (await importDriver('@prisma/adapter-mariadb')).PrismaMariaDb).toBe('function');
    expect(typeof (await importDriver('better-sqlite3')).default).toBe('function');
    expect(typeof (await importDriver('pg')).default.Pool).toBe('function');
    expect(typeof (await importDriver('mariadb')).createPool).toBe('function');
  });
});
