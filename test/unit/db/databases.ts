/**
 * Throwaway databases for the db and migrate tests: each test file creates its own uniquely
 * named database (`cg_test_<random>`) and drops it afterwards, so parallel runs and leftovers
 * never collide. When a server is not reachable the helpers say why, and the tests skip.
 */
import { randomBytes } from 'node:crypto';
import mariadb from 'mariadb';
import pg from 'pg';

export const POSTGRES_ADMIN_URL = process.env.CG_TEST_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const MARIADB_ADMIN = { host: '127.0.0.1', port: 3306, user: 'root', password: '' };

export interface TempDatabase {
  url: string;
  name: string;
  /** Runs SQL on this database and returns the rows. */
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  drop(): Promise<void>;
}

export type Availability<T> = { ok: true; value: T } | { ok: false; reason: string };

function uniqueName(): string {
  return `cg_test_${randomBytes(6).toString('hex')}`;
}

export async function tempPostgres(): Promise<Availability<TempDatabase>> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    return { ok: false, reason: `PostgreSQL not reachable at ${POSTGRES_ADMIN_URL}: ${(error as Error).message}` };
  }
  const name = uniqueName();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    ok: true,
    value: {
      url: url.toString(),
      name,
      async query(sql, params) {
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        try {
          return (await client.query(sql, params)).rows;
        } finally {
          await client.end();
        }
      },
      async drop() {
        const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await client.connect();
        try {
          await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await client.end();
        }
      },
    },
  };
}

export async function tempMariaDb(): Promise<Availability<TempDatabase>> {
  let admin: mariadb.Connection;
  try {
    admin = await mariadb.createConnection({ ...MARIADB_ADMIN, connectTimeout: 3000 });
  } catch (error) {
    return {
      ok: false,
      reason: `MariaDB not reachable at ${MARIADB_ADMIN.host}:${MARIADB_ADMIN.port}: ${(error as Error).message}`,
    };
  }
  const name = uniqueName();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return {
    ok: true,
    value: {
      url: `mysql://${MARIADB_ADMIN.user}@${MARIADB_ADMIN.host}:${MARIADB_ADMIN.port}/${name}`,
      name,
      async query(sql, params) {
        const conn = await mariadb.createConnection({ ...MARIADB_ADMIN, database: name, multipleStatements: true });
        try {
          return (await conn.query(sql, params)) as Record<string, unknown>[];
        } finally {
          await conn.end();
        }
      },
      async drop() {
        const conn = await mariadb.createConnection(MARIADB_ADMIN);
        try {
          await conn.query(`DROP DATABASE IF EXISTS ${name}`);
        } finally {
          await conn.end();
        }
      },
    },
  };
}

/** A schema shaped like contentgen's output, with extra field lines for the Article model. */
export function articleSchema(provider: 'sqlite' | 'postgresql' | 'mysql', extraFields: string[] = [], extraModels = ''): string {
  const fields = [
    'id          Int       @id @default(autoincrement())',
    'title       String',
    'views       BigInt?',
    'createdAt   DateTime  @map("created_at")',
    'updatedAt   DateTime  @map("updated_at")',
    'publishedAt DateTime? @map("published_at")',
    ...extraFields,
  ];
  return `generator client {
  provider            = "prisma-client"
  output              = "../src/prisma-client"
  moduleFormat        = "esm"
  importFileExtension = "js"
}

datasource db {
  provider = "${provider}"
}

model Article {
${fields.map((f) => `  ${f}`).join('\n')}

  @@map("articles")
}
${extraModels}`;
}
