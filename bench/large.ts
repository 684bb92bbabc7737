/**
 * The large-data scenario: 100,000 articles (seeded directly in the database, not through
 * REST: that would take an hour), each with an author, a category and three tags, then lists
 * deep in the data measured with autocannon, and the query plan of every statement those
 * requests run (the server logs them with LOG_QUERIES=1; each is EXPLAINed on the database).
 *
 *   npm run bench:large                      SQLite
 *   npm run bench:large -- --db postgresql   (or mysql/mariadb) on a throwaway database
 *   options: --articles <n> (100000) --duration <s> (10) --connections <n> (10)
 *            --sql <statement>   run after seeding (repeatable), e.g. to try an index
 *
 * Writes bench/results-large-<db>.json.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createTestDatabase, probe, providerLabel, type TestDatabase, type TestProvider } from '../test/helpers/databases.js';
import { repoRoot } from '../test/helpers/paths.js';
import { toSqliteDateTime } from '../templates/runtime/temporal.js';
import { buildGenerated, startGenerated, type GeneratedServer } from './generated.js';
import { measure, send, type HttpRequest, type Measurement } from './measure.js';
import { killAllNow, stopAll } from './processes.js';

const log = (message: string) => process.stderr.write(`[bench:large] ${message}\n`);

interface Options {
  readonly db: TestProvider;
  readonly articles: number;
  readonly duration: number;
  readonly connections: number;
  /** Statements run after seeding (`--sql`). */
  readonly sql: readonly string[];
}

function parseOptions(argv: readonly string[]): Options {
  const value = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    return i < 0 ? undefined : argv[i + 1];
  };
  const db = (value('--db') ?? 'sqlite').replace(/^mariadb$/, 'mysql');
  if (!['sqlite', 'postgresql', 'mysql'].includes(db)) throw new Error(`--db must be sqlite, postgresql or mysql, got ${db}`);
  const number = (flag: string, fallback: number, max: number) => {
    const n = Number(value(flag) ?? fallback);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`${flag} must be an integer from 1 to ${max}`);
    return n;
  };
  return {
    db: db as TestProvider,
    articles: number('--articles', 100_000, 5_000_000),
    duration: number('--duration', 10, 120),
    connections: number('--connections', 10, 100),
    sql: argv.flatMap((arg, i) => (arg === '--sql' && argv[i + 1] ? [argv[i + 1]!] : [])),
  };
}

const AUTHORS = 500;
const CATEGORIES = 20;
const TAGS = 1000;
const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');

/** Runs one statement on the seeding connection. */
type Exec = (sql: string) => Promise<void>;

/**
 * Deterministic rows, inserted in batches of multi-row INSERTs with literal values (all
 * generated here: numbers, and words without quotes). Titles are two words and a number, so
 * sorting by title is real work; every other article is in categories 1–10.
 */
async function seedDirectly(exec: Exec, provider: TestProvider, articles: number): Promise<void> {
  const now = new Date('2026-01-01T00:00:00.000Z');
  const stamp = provider === 'sqlite' ? `'${toSqliteDateTime(now)}'` : provider === 'mysql' ? `'2026-01-01 00:00:00.000'` : `'2026-01-01T00:00:00.000Z'`;
  const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const insert = async (table: string, columns: readonly string[], count: number, row: (i: number) => string) => {
    const batch = 1000;
    for (let start = 1; start <= count; start += batch) {
      const rows: string[] = [];
      for (let i = start; i < Math.min(start + batch, count + 1); i++) rows.push(`(${row(i)})`);
      await exec(`INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES ${rows.join(', ')}`);
    }
  };
  const word = (i: number) => WORDS[i % WORDS.length]!;
  // Every entry has a documentId (the runtime makes random ones; distinct per table is enough here).
  const documentId = (i: number) => `'d${String(i).padStart(23, '0')}'`;
  await insert('authors', ['id', 'document_id', 'name', 'created_at', 'updated_at'], AUTHORS, (i) => `${i}, ${documentId(i)}, 'Author ${i}', ${stamp}, ${stamp}`);
  await insert('categories', ['id', 'document_id', 'name', 'slug', 'created_at', 'updated_at'], CATEGORIES, (i) => `${i}, ${documentId(i)}, 'Category ${String(i).padStart(2, '0')}', 'category-${i}', ${stamp}, ${stamp}`);
  await insert('tags', ['id', 'document_id', 'name', 'created_at', 'updated_at'], TAGS, (i) => `${i}, ${documentId(i)}, 'tag ${i}', ${stamp}, ${stamp}`);
  log(`inserting ${articles} articles and their links`);
  await insert(
    'articles',
    ['id', 'document_id', 'title', 'slug', 'created_at', 'updated_at', 'published_at'],
    articles,
    (i) => `${i}, ${documentId(i)}, '${word(i * 7919)} ${word(i * 104729)} ${(i * 2654435761) % 1000003}', 'article-${i}', ${stamp}, ${stamp}, ${stamp}`,
  );
  await insert('articles_author_links', ['article_id', 'author_id', 'author_order'], articles, (i) => `${i}, ${(i % AUTHORS) + 1}, 1`);
  await insert('articles_category_links', ['article_id', 'category_id', 'category_order'], articles, (i) => `${i}, ${(i % CATEGORIES) + 1}, 1`);
  for (let k = 0; k < 3; k++) {
    await insert('articles_tags_links', ['article_id', 'tag_id', 'tag_order'], articles, (i) => `${i}, ${((i * 3 + k * 337) % TAGS) + 1}, ${k + 1}`);
  }
  if (provider === 'postgresql') {
    // Explicit ids leave the sequences behind; and fresh statistics, as autovacuum would give.
    for (const table of ['authors', 'categories', 'tags', 'articles']) await exec(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id'), (SELECT MAX("id") FROM "${table}"))`);
    await exec('ANALYZE');
  } else if (provider === 'sqlite') {
    await exec('ANALYZE');
  } else {
    for (const table of ['articles', 'articles_category_links', 'articles_tags_links', 'articles_author_links']) await exec(`ANALYZE TABLE \`${table}\``);
  }
}

interface LargeScenario {
  readonly key: string;
  readonly title: string;
  readonly path: string;
}

function scenariosFor(articles: number): LargeScenario[] {
  const pageSize = 20;
  // Half the articles are in categories 1–10; page 2,000 is 40,000 entries deep (past the
  // middle of 100,000 articles' half, for smaller runs the last page).
  const page = Math.max(1, Math.min(2000, Math.floor(articles / 2 / pageSize)));
  return [
    {
      key: 'filterSortDeepPage',
      title: `relation filter + sort, page ${page}`,
      path: `/api/articles?filters[category][id][$lte]=10&sort=title:asc&pagination[page]=${page}&pagination[pageSize]=${pageSize}&fields[0]=title`,
    },
    {
      key: 'deepPage',
      title: `plain list, page ${page}`,
      path: `/api/articles?pagination[page]=${page}&pagination[pageSize]=${pageSize}&fields[0]=title`,
    },
    {
      key: 'tagFilter',
      title: 'filter through a many-to-many (tag name), first page with author',
      path: `/api/articles?filters[tags][name][$eq]=tag%20500&populate[author][fields][0]=name&fields[0]=title`,
    },
  ];
}

interface Plan {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly plan: readonly string[];
  readonly ms: number;
}

/** The statements one request runs (from the server's LOG_QUERIES lines), and their plans. */
async function plansOf(server: GeneratedServer, scenario: LargeScenario, explain: (sql: string, params: readonly unknown[]) => Promise<string[]>): Promise<Plan[]> {
  const logging = await startGenerated(server, { name: 'generated server (LOG_QUERIES=1)', env: { LOG_QUERIES: '1' } });
  try {
    const before = logging.output().length;
    const response = await send({ url: `${logging.url}${scenario.path}` });
    if (response.status !== 200) throw new Error(`${scenario.path} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    await response.arrayBuffer();
    const lines = logging.output().slice(before).split('\n').filter((line) => line.startsWith('sql '));
    const plans: Plan[] = [];
    for (const line of lines) {
      const match = /^sql ([\d.]+) ms \w+: (.*) -- (.*)$/.exec(line);
      if (!match) continue;
      const sql = match[2]!;
      const params = JSON.parse(match[3]!) as unknown[];
      plans.push({ sql, params, ms: Number(match[1]), plan: await explain(sql, params) });
    }
    return plans;
  } finally {
    await logging.stop();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  let database: TestDatabase | undefined;
  let server: GeneratedServer | undefined;
  try {
    if (options.db !== 'sqlite') {
      const available = await probe(options.db);
      if (!available.ok) throw new Error(available.reason);
      process.env.CG_TEST_RUN = 'bench';
      database = await createTestDatabase(options.db, '');
    }
    log(`building the blog fixture for ${providerLabel[options.db]}`);
    server = await buildGenerated({ provider: options.db, ...(database ? { databaseUrl: database.url } : {}), onTempDir: () => {} });
    // A first start applies the migrations (and syncs the permissions) on the empty database.
    await (await startGenerated(server, { name: 'generated server (migrations)' })).stop();

    let exec: Exec;
    let explain: (sql: string, params: readonly unknown[]) => Promise<string[]>;
    let sqlite: BetterSqlite3.Database | undefined;
    if (options.db === 'sqlite') {
      sqlite = new BetterSqlite3(server.databaseFile!);
      const db = sqlite;
      exec = async (sql) => void db.exec(sql);
      explain = async (sql, params) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(params as unknown[])) as { detail: string }[]).map((r) => r.detail);
    } else {
      const db = database!;
      exec = async (sql) => void (await db.query(sql));
      // The test helper takes `?` placeholders on every database.
      const placeholders = (sql: string) => (options.db === 'postgresql' ? sql.replace(/\$\d+/g, '?') : sql);
      explain = async (sql, params) => {
        const rows = await db.query(`EXPLAIN ${placeholders(sql)}`, [...params]);
        return rows.map((row) => (options.db === 'postgresql' ? String(row['QUERY PLAN']) : `${row.table}: ${row.type} key=${row.key ?? '-'} rows=${row.rows} ${row.Extra ?? ''}`.trim()));
      };
    }
    const seededAt = performance.now();
    await seedDirectly(exec, options.db, options.articles);
    const seedSeconds = Math.round((performance.now() - seededAt) / 100) / 10;
    log(`seeded in ${seedSeconds} s`);
    for (const statement of options.sql) {
      log(`running ${statement}`);
      await exec(statement);
    }

    const results: { key: string; title: string; path: string; generated: Measurement; statements: Plan[] }[] = [];
    for (const scenario of scenariosFor(options.articles)) {
      const statements = await plansOf(server, scenario, explain);
      const generated = await startGenerated(server);
      try {
        const request: HttpRequest = { url: `${generated.url}${scenario.path}` };
        log(`measuring "${scenario.title}" (${options.connections} connections, ${options.duration} s)`);
        const measured = await measure(request, generated.pid, { connections: options.connections, duration: options.duration, warmup: 2 }, log);
        results.push({ ...scenario, generated: measured, statements });
      } finally {
        await generated.stop();
      }
    }

    sqlite?.close();
    const report = { date: new Date().toISOString(), database: providerLabel[options.db], articles: options.articles, seedSeconds, extraSql: options.sql, connections: options.connections, durationSeconds: options.duration, scenarios: results };
    const file = path.join(repoRoot, 'bench', `results-large-${options.db}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    for (const r of results) {
      process.stdout.write(`\n${r.title}: ${r.generated.rps} req/s, p50 ${r.generated.p50} ms, p99 ${r.generated.p99} ms, RSS ${r.generated.maxRssMb} MB\n  ${r.path}\n`);
      for (const s of r.statements) process.stdout.write(`  ${s.ms.toFixed(1)} ms  ${s.sql.slice(0, 160)}${s.sql.length > 160 ? '…' : ''}\n      ${s.plan.join('\n      ')}\n`);
    }
    process.stdout.write(`\nwrote ${path.relative(process.cwd(), file)}\n`);
  } finally {
    await stopAll();
    await database?.drop();
    if (server) rmSync(server.tempRoot, { recursive: true, force: true });
  }
}

process.once('SIGINT', () => {
  killAllNow();
  process.exit(130);
});
try {
  await main();
} catch (error) {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
}
