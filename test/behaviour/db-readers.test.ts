/**
 * The read executors of PostgreSQL and MySQL/MariaDB (db/pg-reader.ts, db/mariadb-reader.ts:
 * the drivers' pools) return exactly the values Prisma's $queryRawUnsafe returns for the same
 * statements: every column type Strapi's attributes map to, nulls, 64-bit integers beyond
 * 2^53, aggregates, and date-time parameters. Run in a process whose time zone is not UTC, so
 * a driver reading dates in local time would show here.
 *
 * SQLite's reader returns SQLite's own values instead (text date-times, 0/1): query/ encodes
 * parameters in those forms for SQLite, and every behaviour test reads through it.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase } from '../../templates/runtime/db/connect.js';
import { applyMigrations } from '../../templates/runtime/db/migrate.js';
import type { Reader } from '../../templates/runtime/db/reader.js';
import { buildFixture, type BuiltServer } from '../helpers/server.js';
import { newDocumentId } from '../../templates/runtime/entity/document-id.js';

let built: BuiltServer;
let prisma: any;
let reader: Reader | undefined;
let previousTz: string | undefined;

beforeAll(async () => {
  previousTz = process.env.TZ;
  process.env.TZ = 'America/Los_Angeles';
  if (process.env.CG_TEST_DB === 'sqlite' || !process.env.CG_TEST_DB) return;
  built = await buildFixture('edge');
  const databaseUrl = built.database.url;
  await applyMigrations({ databaseUrl, migrationsDir: path.join(built.dir, 'prisma', 'migrations') });
  const { PrismaClient } = await import(pathToFileURL(path.join(built.dir, 'src', 'prisma-client', 'client.ts')).href);
  const connection = await connectDatabase(databaseUrl);
  prisma = new PrismaClient({ adapter: connection.adapterFactory });
  const now = new Date('2026-11-24T23:59:59.999Z');
  await prisma.kitchenSink.create({
    data: {
      shortText: 'ä "quoted" \u{1F600}',
      day: new Date('2024-03-05T00:00:00Z'),
      clock: new Date('1970-01-01T23:30:05.120Z'),
      moment: new Date('2024-03-05T23:30:00.100Z'),
      stamp: new Date('2024-12-31T23:59:59Z'),
      count: -2147483648,
      huge: 9007199254740993n,
      ratio: 1.5,
      money: '12.340000000000000000000000000001',
      flag: true,
      data: { a: [1, { b: null }] },
      list: '123',
      parts: [1, 2],
      documentId: newDocumentId(),
      createdAt: now,
      updatedAt: now,
    },
  });
  await prisma.kitchenSink.create({ data: { shortText: 'b', huge: -12n, flag: false, data: 'x', documentId: newDocumentId(), createdAt: now, updatedAt: now } });
  await prisma.kitchenSink.create({ data: { documentId: newDocumentId(), createdAt: now, updatedAt: now } });
  reader = await connection.openReader();
}, 180_000);

afterAll(async () => {
  await reader?.close();
  await prisma?.$disconnect();
  await built?.cleanup();
  if (previousTz === undefined) delete process.env.TZ;
  else process.env.TZ = previousTz;
});

function q(name: string): string {
  return built.provider === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

function placeholder(index: number): string {
  return built.provider === 'postgresql' ? `$${index}` : '?';
}

async function same(sql: string, params: unknown[] = []): Promise<unknown[]> {
  const viaPrisma = await prisma.$queryRawUnsafe(sql, ...params);
  const viaReader = await reader!.query(sql, params);
  expect(viaReader).toEqual(viaPrisma);
  // toEqual does not tell a Decimal from an equal-looking object: compare the kinds too.
  const kinds = (rows: Record<string, unknown>[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v?.constructor?.name ?? String(v)])));
  expect(kinds(viaReader as Record<string, unknown>[])).toEqual(kinds(viaPrisma));
  return viaReader;
}

describe.skipIf(process.env.CG_TEST_DB === 'sqlite' || !process.env.CG_TEST_DB)('read executors return what Prisma returns', () => {
  it('has a reader on every database with a file or a server', () => {
    expect(reader).toBeDefined();
  });

  it('every column type, nulls included', async () => {
    const rows = await same(`SELECT * FROM ${q('kitchen_sinks')} ORDER BY ${q('id')}`);
    expect(rows).toHaveLength(3);
  });

  it('aggregates and 64-bit integers', async () => {
    await same(`SELECT COUNT(*) AS ${q('n')}, SUM(${q('count')}) AS ${q('s')}, MAX(${q('huge')}) AS ${q('h')}, MIN(${q('huge')}) AS ${q('l')} FROM ${q('kitchen_sinks')}`);
  });

  it('date-time, number and text parameters', async () => {
    const rows = await same(
      `SELECT ${q('id')} FROM ${q('kitchen_sinks')} WHERE ${q('moment')} = ${placeholder(1)} OR ${q('huge')} = ${placeholder(2)} OR ${q('short_text')} = ${placeholder(3)} ORDER BY ${q('id')}`,
      [new Date('2024-03-05T23:30:00.100Z'), -12n, 'nothing'],
    );
    expect(rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('no rows', async () => {
    expect(await same(`SELECT ${q('id')} FROM ${q('kitchen_sinks')} WHERE ${q('id')} = ${placeholder(1)}`, [999])).toEqual([]);
  });

  // PostgreSQL's reader names its statements (prepared once per pooled connection, then bound
  // and executed): the same text, sent more often than the pool has connections, concurrently
  // and with other parameters each time, still answers each call's own parameters, and a text
  // the database refuses is refused every time without breaking the connections.
  it('the same statement many times, concurrently, with other parameters; a refused one again and again', async () => {
    const sql = `SELECT ${q('id')}, ${q('huge')} FROM ${q('kitchen_sinks')} WHERE ${q('id')} = ${placeholder(1)} OR ${q('id')} = ${placeholder(2)} ORDER BY ${q('id')}`;
    const pairs = Array.from({ length: 40 }, (_, i) => [(i % 3) + 1, ((i + 1) % 3) + 1] as const);
    const answers = await Promise.all(pairs.map(([a, b]) => reader!.query(sql, [a, b])));
    answers.forEach((rows, i) => expect(rows.map((r) => r.id)).toEqual([...new Set(pairs[i]!)].sort()));
    expect(await same(sql, [2, 3])).toHaveLength(2);
    const refused = `SELECT ${q('no_such_column')} FROM ${q('kitchen_sinks')} WHERE ${q('id')} = ${placeholder(1)}`;
    for (let i = 0; i < 3; i++) await expect(Promise.all(Array.from({ length: 12 }, () => reader!.query(refused, [1])))).rejects.toThrow(/no_such_column/);
    expect(await same(sql, [1, 1])).toHaveLength(1);
  });
});

describe.skipIf(process.env.CG_TEST_DB !== 'postgresql')('PostgreSQL: named statements, and none behind PgBouncer', () => {
  const preparedHere = async (on: Reader) => (await on.query('SELECT name FROM pg_prepared_statements', [])).map((row) => String(row.name));

  it('each connection prepares a statement text once (names kept per text)', async () => {
    // One statement at a time: the pool hands back the connection it got last.
    await reader!.query(`SELECT ${q('id')} FROM ${q('kitchen_sinks')} WHERE ${q('id')} = $1`, [1]);
    expect((await preparedHere(reader!)).some((name) => /^cg\d+$/.test(name))).toBe(true);
  });

  it('`pgbouncer=true` in DATABASE_URL, as Prisma has it: statements stay unnamed', async () => {
    const url = new URL(built.database.url);
    url.searchParams.set('pgbouncer', 'true');
    const bouncer = (await (await connectDatabase(url.href)).openReader())!;
    try {
      expect(await bouncer.query(`SELECT ${q('id')} FROM ${q('kitchen_sinks')} WHERE ${q('id')} = $1`, [2])).toEqual([{ id: 2 }]);
      expect(await preparedHere(bouncer)).toEqual([]);
    } finally {
      await bouncer.close();
    }
  });
});
