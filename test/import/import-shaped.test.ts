/**
 * `contentgen import` from a Strapi-shaped SQLite database built by hand from the storage
 * reference (strapi-shaped.ts) into a built server on this run's database (CG_TEST_DB): the
 * server started afterwards answers Strapi's values, orders, component ids and media; a dry
 * run finds each planted problem and writes nothing; a real run on them refuses and leaves the
 * target as it was; --skip-invalid imports the rest and lists what it left out.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport, type ImportOptions } from '../../generator/import/import.js';
import { runCli } from '../helpers/cli.js';
import { client } from '../helpers/http.js';
import { tempDir } from '../helpers/paths.js';
import { buildModels, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { writeModels, writeStrapiDatabase } from './strapi-shaped.js';

let dir: string;
let models: string;
let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;

const options = (extra: Partial<ImportOptions> = {}): ImportOptions => ({
  project: models,
  serverDir: built.dir,
  from: path.join(dir, 'strapi.db'),
  uploads: path.join(dir, 'uploads'),
  dryRun: false,
  replace: false,
  skipInvalid: false,
  env: { ...process.env, DATABASE_URL: built.database.url },
  ...extra,
});

beforeAll(async () => {
  dir = await tempDir('import-shaped');
  models = await writeModels(dir);
  await writeStrapiDatabase(path.join(dir, 'strapi.db'), path.join(dir, 'uploads'));
  built = await buildModels(models, 'import-shaped');
  const result = await runImport(options());
  if (!result.ok) throw new Error(`${result.error} ${JSON.stringify(result.problems)}`);
  server = await startServer(built.dir);
  api = client(server.url);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('import from a Strapi-shaped SQLite database', () => {
  it('answers each published entry with its ids, values and timestamps; drafts stay drafts', async () => {
    const list = await api.get('/api/articles?sort=id');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => e.id)).toEqual([1, 4]);
    const drafts = await api.get('/api/articles?publicationState=preview&sort=id');
    expect(drafts.body.data.map((e: any) => e.id)).toEqual([1, 2, 4]);
    const { body } = await api.get('/api/articles/1');
    expect(body.data.attributes).toMatchObject({
      title: 'Hello World',
      slug: 'hello-world',
      views: 10,
      rating: 4.5,
      price: 9.99,
      impressions: '9007199254740993',
      featured: true,
      publishDate: '2024-01-15',
      readingTime: '10:30:00.000',
      lastReviewedAt: '2024-01-15T10:30:00.000Z',
      metadata: { lang: 'en', n: 1 },
      createdAt: '2026-11-27T05:43:33.420Z',
      publishedAt: '2026-11-27T05:43:33.425Z',
    });
    expect(body.data.attributes.editorNote).toBeUndefined();
  });

  it('keeps relation order on both sides: floats, 0 and ties by link id', async () => {
    const { body } = await api.get('/api/articles/1?populate[tags][sort]=&populate=tags');
    expect(body.data.attributes.tags.data.map((t: any) => t.id)).toEqual([3, 1, 2]);
    const author = await api.get('/api/authors/1?populate[articles][publicationState]=preview&populate=articles');
    expect(author.body.data.attributes.articles.data.map((a: any) => a.id)).toEqual([4, 1]);
    const tag = await api.get('/api/tags/3?populate=articles');
    expect(tag.body.data.attributes.articles.data.map((a: any) => a.id)).toEqual([4, 1]);
  });

  it('folds components and zones with Strapi\'s instance ids, relations and media inside', async () => {
    const { body } = await api.get('/api/articles/1?populate[seo][populate]=shareImage&populate[links][populate]=author&populate[blocks]=*');
    const a = body.data.attributes;
    expect(a.seo).toMatchObject({ id: 2, metaTitle: 'Hello', metaDescription: 'First post' });
    expect(a.seo.shareImage.data).toMatchObject({ id: 1, attributes: { hash: 'cover_c84e4a0ccc', url: '/uploads/cover_c84e4a0ccc.png' } });
    expect(a.links.map((l: any) => [l.id, l.label, l.author.data?.id ?? null])).toEqual([[2, 'Home', 2], [1, 'Docs', null]]);
    expect(a.blocks).toEqual([
      { __component: 'shared.quote', id: 1, title: 'Stay hungry', body: 'SJ' },
      { __component: 'shared.rich-text', id: 1, body: 'Some **rich** text' },
    ]);
    const global = await api.get('/api/global?populate=defaultSeo');
    expect(global.body.data).toMatchObject({ id: 2, attributes: { siteName: 'My blog', defaultSeo: { id: 1, metaTitle: 'Home' } } });
  });

  it('moves files with their formats and links, and copies them into public/uploads', async () => {
    const { body } = await api.get('/api/articles/1?populate=cover');
    expect(body.data.attributes.cover.data).toMatchObject({ id: 1, attributes: { formats: { thumbnail: { hash: 'thumbnail_cover_c84e4a0ccc' } } } });
    for (const name of ['cover_c84e4a0ccc.png', 'thumbnail_cover_c84e4a0ccc.png']) expect(existsSync(path.join(built.dir, 'public', 'uploads', name))).toBe(true);
    const served = await fetch(`${server.url}/uploads/cover_c84e4a0ccc.png`);
    expect(await served.text()).toBe('png cover_c84e4a0ccc.png');
  });

  it('refuses a second import into a database that is no longer empty', async () => {
    const again = await runImport(options());
    expect(again.ok).toBe(false);
    expect(again.error).toMatch(/not empty: .*articles \(3\)/);
  });

  it('--replace empties the target first: the same rows again', async () => {
    const replaced = await runImport(options({ replace: true }));
    expect(replaced.ok, replaced.error).toBe(true);
    expect(replaced.counts.get('articles')).toBe(3);
    const list = await api.get('/api/articles?sort=id&populate=tags');
    expect(list.body.data.map((e: any) => [e.id, e.attributes.tags.data.map((t: any) => t.id)])).toEqual([[1, [3, 1, 2]], [4, [3]]]);
  });
});

describe('the command', () => {
  it('contentgen import --dry-run prints per table what would move and the notes, and writes nothing', async () => {
    const before = await runImport(options({ dryRun: true }));
    const { code, stdout } = await runCli('import', models, '-o', built.dir, '--from', path.join(dir, 'strapi.db'), '--uploads', path.join(dir, 'uploads'), '--dry-run');
    expect(code).toBe(0);
    expect(stdout).toMatch(/would import:\n(.|\n)*articles_tags_links +4\n/);
    expect(stdout).toMatch(/note: files_related_morphs: links a file to api::gone.gone.image/);
    expect(stdout).toMatch(/contentgen import: strapi_workflows: 1 review workflow\(s\) not imported/);
    expect(before.counts).toEqual((await runImport(options({ dryRun: true }))).counts);
  });

  it('contentgen import in a log (not a terminal) writes a plain line per table to stderr, no bar', async () => {
    const saved = process.env.DATABASE_URL;
    process.env.DATABASE_URL = built.database.url;
    try {
      const { code, stdout, stderr } = await runCli('import', models, '-o', built.dir, '--from', path.join(dir, 'strapi.db'), '--uploads', path.join(dir, 'uploads'), '--replace');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/imported:\n(.|\n)*articles_tags_links +4\n/);
      expect(stderr).not.toMatch(/[\r\u001b]/);
      const lines = stderr.split('\n').filter((l) => / rows? \(\d+\.\d s/.test(l));
      for (const table of ['files', 'articles', 'tags', 'up_users', 'articles_tags_links']) {
        expect(lines.filter((l) => l.startsWith(`contentgen import: ${table}: `))).toHaveLength(1);
      }
      expect(lines).toContain(lines.find((l) => /^contentgen import: articles_tags_links: 4 rows \(\d+\.\d s\)$/.test(l)));
      expect(stderr.indexOf('contentgen import: files: ')).toBeLessThan(stderr.indexOf('contentgen import: articles: '));
    } finally {
      if (saved === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = saved;
    }
  });

  it('refuses wrong usage with exit code 2', async () => {
    expect((await runCli('import')).code).toBe(2);
    const zone = await runCli('import', models, '-o', built.dir, '--time-zone', 'Mars/Olympus');
    expect(zone.code).toBe(2);
    expect(zone.stderr).toMatch(/not an IANA time zone/);
  });
});

describe('planted problems', () => {
  let planted: string;
  let plantedModels: string;
  let target: BuiltServer;

  beforeAll(async () => {
    planted = await tempDir('import-planted');
    // Models of its own: an import writes the Strapi database's permissions.json beside them.
    plantedModels = await writeModels(planted);
    await writeStrapiDatabase(path.join(planted, 'strapi.db'), path.join(planted, 'uploads'), { planted: true });
    target = await buildModels(plantedModels, 'import-planted');
  }, 180_000);

  afterAll(async () => {
    await target?.cleanup();
    if (planted) await rm(planted, { recursive: true, force: true });
  });

  const plantedOptions = (extra: Partial<ImportOptions>): ImportOptions => ({
    ...options(extra),
    project: plantedModels,
    serverDir: target.dir,
    from: path.join(planted, 'strapi.db'),
    uploads: path.join(planted, 'uploads'),
    env: { ...process.env, DATABASE_URL: target.database.url },
  });

  it('--dry-run finds each planted problem, with its rows and what to do', async () => {
    const result = await runImport(plantedOptions({ dryRun: true }));
    expect(result.ok).toBe(false);
    const errors = result.problems.filter((p) => p.level === 'error').map((p) => [p.table, p.kind, p.rows]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['tags', 'duplicate unique value', [4]],
        ['articles_tags_links', 'dangling link', [5]],
        ['files', 'missing file', [2]],
      ]),
    );
    expect(result.problems.every((p) => p.fix.length > 0)).toBe(true);
    expect(result.counts.get('tags')).toBe(4);
  });

  it('a real run on them refuses and leaves the target as it was; --skip-invalid imports the rest', async () => {
    const refused = await runImport(plantedOptions({}));
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatch(/nothing was written/);
    // Without --replace: it runs only on a target the refused run left empty.
    const skipped = await runImport(plantedOptions({ skipInvalid: true }));
    expect(skipped.ok).toBe(true);
    expect(skipped.counts.get('articles_tags_links')).toBe(4);
    const report = await readFile(skipped.reportPath!, 'utf8');
    expect(report).toMatch(/articles_tags_links: dangling link/);
    const server2 = await startServer(target.dir);
    try {
      const tags = await client(server2.url).get('/api/tags?sort=id');
      expect(tags.status, `${JSON.stringify(tags.body)}\n${server2.output()}`).toBe(200);
      expect(tags.body.data.map((t: any) => [t.id, t.attributes.name])).toEqual([[1, 'a'], [2, 'b'], [3, 'c'], [4, null]]);
    } finally {
      await server2.stop();
    }
  });
});
