/**
 * A unique violation that slips past the check before a write (two writes at once) is
 * answered as the check answers it, a 400 on the field, whichever runs the entry's INSERT:
 * Prisma (P2002) or a transaction's connection directly (entity/entry-row.ts), where the
 * error is the driver's own. Real errors of each driver, on tables named as Prisma names them.
 */
import BetterSqlite3 from 'better-sqlite3';
import mariadb from 'mariadb';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { ContentTypeMeta } from '../../../../templates/runtime/meta.js';
import { rethrowUniqueViolation } from '../../../../templates/runtime/entity/unique.js';
import { tempMariaDb, tempPostgres } from '../../db/databases.js';

const meta = {
  uid: 'api::article.article',
  table: 'articles',
  fields: {
    id: { kind: 'scalar', name: 'id', type: 'integer', column: 'id', prismaField: 'id' },
    title: { kind: 'scalar', name: 'title', type: 'string', column: 'title', prismaField: 'title' },
    readingTime: { kind: 'scalar', name: 'readingTime', type: 'string', column: 'reading_time', prismaField: 'readingTime', unique: true },
  },
} as unknown as ContentTypeMeta;

/** The error of inserting one reading_time twice. */
type Clash = () => Promise<unknown>;

const sqlite: Clash = async () => {
  const db = new BetterSqlite3(':memory:');
  db.exec('CREATE TABLE "articles" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "reading_time" TEXT); CREATE UNIQUE INDEX "articles_reading_time_key" ON "articles"("reading_time")');
  db.prepare('INSERT INTO "articles" ("reading_time") VALUES (?)').run('5 min');
  try {
    db.prepare('INSERT INTO "articles" ("reading_time") VALUES (?)').run('5 min');
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('no violation');
};

const postgres: Clash = async () => {
  const temp = await tempPostgres();
  if (!temp.ok) return temp.reason;
  const client = new pg.Client({ connectionString: temp.value.url });
  await client.connect();
  try {
    await client.query('CREATE TABLE "articles" ("id" SERIAL PRIMARY KEY, "title" TEXT, "reading_time" TEXT); CREATE UNIQUE INDEX "articles_reading_time_key" ON "articles"("reading_time")');
    await client.query('INSERT INTO "articles" ("reading_time") VALUES ($1)', ['5 min']);
    return await client.query('INSERT INTO "articles" ("reading_time") VALUES ($1)', ['5 min']).then(() => new Error('no violation'), (error: unknown) => error);
  } finally {
    await client.end();
    await temp.value.drop();
  }
};

const maria: Clash = async () => {
  const temp = await tempMariaDb();
  if (!temp.ok) return temp.reason;
  const url = new URL(temp.value.url);
  const conn = await mariadb.createConnection({ host: url.hostname, port: Number(url.port), user: url.username, database: temp.value.name });
  try {
    await conn.query('CREATE TABLE `articles` (`id` INTEGER NOT NULL AUTO_INCREMENT PRIMARY KEY, `title` VARCHAR(191), `reading_time` VARCHAR(191), UNIQUE INDEX `articles_reading_time_key`(`reading_time`))');
    await conn.query('INSERT INTO `articles` (`reading_time`) VALUES (?)', ['5 min']);
    return await conn.query('INSERT INTO `articles` (`reading_time`) VALUES (?)', ['5 min']).then(() => new Error('no violation'), (error: unknown) => error);
  } finally {
    await conn.end();
    await temp.value.drop();
  }
};

describe.each([
  ['SQLite (better-sqlite3)', sqlite],
  ['PostgreSQL (node-postgres)', postgres],
  ['MariaDB (mariadb)', maria],
])('a unique violation of %s', (_name, clash) => {
  it('is the 400 of the field', async (ctx) => {
    const error = await clash();
    if (typeof error === 'string') return ctx.skip(error);
    let thrown: unknown;
    try {
      rethrowUniqueViolation(meta, error);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).details).toEqual({ errors: [{ path: ['readingTime'], message: 'This attribute must be unique', name: 'ValidationError' }] });
  });
});

it('other errors are rethrown as they are', () => {
  const other = Object.assign(new Error('FOREIGN KEY constraint failed'), { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  expect(() => rethrowUniqueViolation(meta, other)).toThrow(other);
});
