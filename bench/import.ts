/**
 * `npm run bench:import` (issue 26, "Large data"): `contentgen import` of a Strapi-shaped SQLite
 * database (test/import/strapi-shaped.ts: the blog models with media and a relation inside
 * components) holding N articles (default 100,000), each with an author, a category, two tags
 * (manyToMany), an seo component with an image, two links (one with an author) and a two-block
 * dynamic zone, into a server built from the same models on SQLite. Measures rows written per
 * second and the import process's peak RSS (sampled), and writes bench/results-import.json.
 *
 *   npm run bench:import                 100,000 articles
 *   npm run bench:import -- --articles 20000
 *   npm run bench:import -- --db postgresql   a server built for PostgreSQL (or mysql/mariadb),
 *                                        importing into a throwaway database on the server of
 *                                        CG_TEST_POSTGRES_URL / CG_TEST_MARIADB_URL (as the tests
 *                                        and `npm run bench` do), dropped at the end; writes
 *                                        bench/results-import-<db>.json
 *   npm run bench:import -- --archive    the same data as a `strapi export` archive (tar.gz in
 *                                        Strapi 4.26.2's format: entities with their components
 *                                        nested, a link per join row), imported with --from it;
 *                                        writes bench/results-import-archive.json
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import tarStream from 'tar-stream';
import { runImport } from '../generator/import/import.js';
import { createTestDatabase, probe, providers, type TestDatabase, type TestProvider } from '../test/helpers/databases.js';
import { strapiShapedDdl, writeModels } from '../test/import/strapi-shaped.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    articles: { type: 'string', default: '100000' },
    keep: { type: 'boolean', default: false },
    archive: { type: 'boolean', default: false },
    db: { type: 'string', default: 'sqlite' },
    'write-archive': { type: 'string' },
  },
});
const provider = (values.db === 'mariadb' ? 'mysql' : values.db) as TestProvider;
if (!providers.includes(provider)) throw new Error(`--db must be sqlite, postgresql or mysql (mariadb), got ${values.db}`);
const articles = Number(values.articles);
const dir = path.join(root, '.tmp', `bench-import-${process.pid}`);

function seed(file: string): number {
  const db = new Database(file);
  db.exec(strapiShapedDdl);
  const t = Date.parse('2026-01-01T00:00:00Z');
  let rows = 0;
  const insert = (table: string, columns: string[]) => {
    const statement = db.prepare(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
    return (...values: unknown[]) => {
      statement.run(...values);
      rows++;
    };
  };
  db.transaction(() => {
    const authors = insert('authors', ['id', 'name', 'email', 'created_at', 'updated_at']);
    const tags = insert('tags', ['id', 'name', 'created_at', 'updated_at']);
    for (let i = 1; i <= 1000; i++) authors(i, `Author ${i}`, `a${i}@example.com`, t, t);
    for (let i = 1; i <= 1000; i++) tags(i, `tag ${i}`, t, t);
    insert('categories', ['id', 'name', 'slug', 'created_at', 'updated_at'])(1, 'News', 'news', t, t);
    insert('files', ['id', 'name', 'hash', 'ext', 'mime', 'size', 'url', 'provider', 'folder_path', 'created_at', 'updated_at'])(1, 'a.png', 'a_1', '.png', 'image/png', 1, 'https://cdn.example.com/a_1.png', 'aws-s3', '/', t, t);
    const article = insert('articles', ['id', 'title', 'slug', 'views', 'price', 'impressions', 'featured', 'publish_date', 'metadata', 'created_at', 'updated_at', 'published_at']);
    const author = insert('articles_author_links', ['article_id', 'author_id', 'article_order']);
    const category = insert('articles_category_links', ['article_id', 'category_id', 'article_order']);
    const tag = insert('articles_tags_links', ['article_id', 'tag_id', 'tag_order', 'article_order']);
    const join = insert('articles_components', ['entity_id', 'component_id', 'component_type', 'field', 'order']);
    const seo = insert('components_shared_seos', ['id', 'meta_title', 'meta_description']);
    const link = insert('components_shared_links', ['id', 'label', 'url']);
    const linkAuthor = insert('components_shared_links_author_links', ['link_id', 'author_id']);
    const quote = insert('components_shared_quotes', ['id', 'title', 'body']);
    const rich = insert('components_shared_rich_texts', ['id', 'body']);
    const morph = insert('files_related_morphs', ['file_id', 'related_id', 'related_type', 'field', 'order']);
    for (let i = 1; i <= articles; i++) {
      article(i, `Article ${i}`, `article-${i}`, i % 1000, 9.99, BigInt(i) * 1_000_000_007n, i % 2, '2024-01-15', '{"n":1}', t + i, t + i, i % 10 ? t + i : null);
      author(i, (i % 1000) + 1, i / 1000);
      category(i, 1, i);
      tag(i, (i % 1000) + 1, 1, i / 1000);
      tag(i, ((i + 7) % 1000) + 1, 2, i / 1000);
      seo(i, `Seo ${i}`, 'description');
      join(i, i, 'shared.seo', 'seo', null);
      morph(1, i, 'shared.seo', 'shareImage', 1);
      link(2 * i - 1, 'Home', 'https://example.com');
      link(2 * i, 'Docs', 'https://example.com/docs');
      linkAuthor(2 * i, (i % 1000) + 1);
      join(i, 2 * i, 'shared.link', 'links', 1);
      join(i, 2 * i - 1, 'shared.link', 'links', 2);
      quote(i, 'Quote', 'Body');
      rich(i, 'Some **rich** text');
      join(i, i, 'shared.quote', 'blocks', 1);
      join(i, i, 'shared.rich-text', 'blocks', 2);
    }
  })();
  db.close();
  return rows;
}

/**
 * The data `seed` writes, as Strapi's export would hold it. tar-stream's packer needs each entry's
 * size first: the JSONL is cut into entries of about 8 MB, as Strapi cuts its own (at 256 MB).
 */
async function seedArchive(file: string): Promise<number> {
  const archive = tarStream.pack();
  const written = pipeline(archive, createGzip(), createWriteStream(file));
  const at = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i).toISOString();
  let lines = 0;
  const jsonl = (kind: string) => {
    let buffer: string[] = [];
    let size = 0;
    let index = 0;
    const flush = () => {
      if (!buffer.length) return;
      archive.entry({ name: `${kind}/${kind}_${String(++index).padStart(5, '0')}.jsonl` }, `${buffer.join('\n')}\n`);
      buffer = [];
      size = 0;
    };
    return {
      add(value: unknown) {
        const line = JSON.stringify(value);
        buffer.push(line);
        size += line.length;
        lines++;
        if (size > 8_000_000) flush();
      },
      flush,
    };
  };
  archive.entry({ name: 'metadata.json' }, JSON.stringify({ createdAt: new Date().toISOString(), strapi: { version: '4.26.2' } }));
  const entities = jsonl('entities');
  const stamps = { createdAt: at(0), updatedAt: at(0) };
  for (let i = 1; i <= 1000; i++) entities.add({ type: 'api::author.author', id: i, data: { name: `Author ${i}`, email: `a${i}@example.com`, ...stamps } });
  for (let i = 1; i <= 1000; i++) entities.add({ type: 'api::tag.tag', id: i, data: { name: `tag ${i}`, ...stamps } });
  entities.add({ type: 'api::category.category', id: 1, data: { name: 'News', slug: 'news', ...stamps } });
  entities.add({ type: 'plugin::upload.file', id: 1, data: { name: 'a.png', hash: 'a_1', ext: '.png', mime: 'image/png', size: 1, url: 'https://cdn.example.com/a_1.png', provider: 'aws-s3', folderPath: '/', ...stamps } });
  for (let i = 1; i <= articles; i++) {
    entities.add({
      type: 'api::article.article',
      id: i,
      data: {
        title: `Article ${i}`,
        slug: `article-${i}`,
        views: i % 1000,
        price: 9.99,
        impressions: String(BigInt(i) * 1_000_000_007n),
        featured: i % 2 === 1,
        publishDate: '2024-01-15',
        metadata: { n: 1 },
        createdAt: at(i),
        updatedAt: at(i),
        publishedAt: i % 10 ? at(i) : null,
        seo: { id: i, metaTitle: `Seo ${i}`, metaDescription: 'description' },
        links: [
          { id: 2 * i, label: 'Docs', url: 'https://example.com/docs' },
          { id: 2 * i - 1, label: 'Home', url: 'https://example.com' },
        ],
        blocks: [
          { __component: 'shared.quote', id: i, title: 'Quote', body: 'Body' },
          { __component: 'shared.rich-text', id: i, body: 'Some **rich** text' },
        ],
      },
    });
  }
  entities.flush();
  const links = jsonl('links');
  const article = (i: number, field: string, pos?: number) => ({ type: 'api::article.article', ref: i, field, ...(pos === undefined ? {} : { pos }) });
  const author = (i: number) => ({ type: 'api::author.author', ref: (i % 1000) + 1, field: 'articles', pos: i / 1000 });
  for (let i = 1; i <= articles; i++) {
    links.add({ kind: 'relation.basic', relation: 'manyToOne', left: article(i, 'author'), right: author(i) });
    links.add({ kind: 'relation.basic', relation: 'manyToOne', left: article(i, 'category'), right: { type: 'api::category.category', ref: 1, field: 'articles', pos: i } });
    links.add({ kind: 'relation.basic', relation: 'manyToMany', left: article(i, 'tags', 1), right: { type: 'api::tag.tag', ref: (i % 1000) + 1, field: 'articles', pos: i / 1000 } });
    links.add({ kind: 'relation.basic', relation: 'manyToMany', left: article(i, 'tags', 2), right: { type: 'api::tag.tag', ref: ((i + 7) % 1000) + 1, field: 'articles', pos: i / 1000 } });
    links.add({ kind: 'relation.basic', relation: 'oneToOne', left: { type: 'shared.link', ref: 2 * i, field: 'author' }, right: { type: 'api::author.author', ref: (i % 1000) + 1 } });
    links.add({ kind: 'relation.morph', relation: 'morphToMany', left: { type: 'plugin::upload.file', ref: 1, field: 'related' }, right: { type: 'shared.seo', ref: i, field: 'shareImage', pos: 1 } });
  }
  links.flush();
  archive.finalize();
  await written;
  return lines;
}

// The archive is written by a process of its own (this file with --write-archive <file>): the
// strings it builds would otherwise count in the import's peak RSS.
if (values['write-archive']) {
  console.log(await seedArchive(values['write-archive']));
  process.exit(0);
}

function writeArchive(file: string): number {
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--write-archive', file, '--articles', String(articles)], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return Number(child.stdout.trim());
}

/** PostgreSQL/MariaDB: a throwaway database named cg_bench_… (never a test run's prefix). */
async function targetDatabase(): Promise<TestDatabase | null> {
  if (provider === 'sqlite') return null;
  const available = await probe(provider);
  if (!available.ok) throw new Error(available.reason);
  process.env.CG_TEST_RUN = 'bench';
  return createTestDatabase(provider, '');
}

const resultsName = values.archive ? 'results-import-archive.json' : provider === 'sqlite' ? 'results-import.json' : `results-import-${provider}.json`;

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
let database: TestDatabase | null = null;
try {
  database = await targetDatabase();
  const models = await writeModels(dir);
  const file = path.join(dir, values.archive ? 'export.tar.gz' : 'strapi.db');
  const sourceRows = values.archive ? writeArchive(file) : seed(file);
  const server = path.join(dir, 'server');
  const built = spawnSync(process.execPath, [path.join(root, 'bin', 'contentgen.js'), 'build', models, '-o', server, '--db', provider], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  // How busy the machine was (a shared 2-core one): the 1-minute load average, before and after.
  const loadBefore = os.loadavg()[0]!;
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
  const started = performance.now();
  const result = await runImport({ project: models, serverDir: server, from: file, dryRun: false, replace: false, skipInvalid: false, env: { ...process.env, DATABASE_URL: database?.url ?? `file:${path.join(server, 'data', 'bench.db')}` } });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  if (!result.ok) throw new Error(result.error);
  const written = [...result.counts.values()].reduce((a, b) => a + b, 0);
  const figures = {
    date: new Date().toISOString(),
    machine: 'this project\'s 2-core machine (shared)',
    loadAverage1m: { before: Math.round(loadBefore * 10) / 10, after: Math.round(os.loadavg()[0]! * 10) / 10 },
    articles,
    database: provider,
    source: values.archive ? 'strapi export archive (tar.gz); sourceRows: its entity and link lines' : 'Strapi SQLite database',
    sourceRows,
    rowsWritten: written,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: Math.round(written / seconds),
    sourceRowsPerSecond: Math.round(sourceRows / seconds),
    peakRssMb: Math.round(peakRss / 1024 / 1024),
    counts: Object.fromEntries(result.counts),
  };
  writeFileSync(path.join(root, 'bench', resultsName), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(figures);
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  if (database && !values.keep) await database.drop();
  else if (database) console.log(`kept database ${database.url}`);
}
