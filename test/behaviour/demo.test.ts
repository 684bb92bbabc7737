/**
 * `npm run demo` shows something (issue 28): the committed out/ is the blog fixture's build
 * plus the demo's own code (out/src/index.ts and out/src/demo-data.ts, user-owned files), which
 * writes sample content into an empty database outside production. A server built the same
 * way answers the README's first requests with entries, and `/` links the APIs in development.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';
import { buildModels, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  const code = await tempDir('demo-code');
  await mkdir(path.join(code, 'src'), { recursive: true });
  for (const file of ['index.ts', 'demo-data.ts']) await cp(path.join(repoRoot, 'out/src', file), path.join(code, 'src', file));
  built = await buildModels(modelsOf('blog'), 'demo', undefined, code);
  server = await startServer(built.dir, { NODE_ENV: 'development' });
  api = client(server.url);
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('the demo server', () => {
  it('starts with sample content: published articles with author, tags, cover, components and a zone', async () => {
    expect(server.output()).toContain('demo: sample content written');
    const list = await api.get('/api/articles?populate=*&sort=id');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: any) => a.attributes.title)).toEqual(['Hello from contentgen', 'Querying with GraphQL']);
    const first = list.body.data[0].attributes;
    expect(first.author.data.attributes.name).toBe('Ada Lovelace');
    expect(first.tags.data.map((t: any) => t.attributes.name)).toEqual(['typescript', 'strapi']);
    expect(first.seo).toMatchObject({ metaTitle: 'Hello from contentgen' });
    expect(first.blocks.map((b: any) => b.__component)).toEqual(['shared.quote', 'shared.rich-text']);
    const cover = await fetch(`${server.url}${first.cover.data.attributes.url}`);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/png');
    const search = await api.get('/api/articles?filters[title][$containsi]=hello&sort=createdAt:desc');
    expect(search.body.data).toHaveLength(1);
  });

  it('GraphQL answers the same entries', async () => {
    const res = await api.post('/graphql', { query: '{ articles(sort: "id") { data { attributes { title author { data { attributes { name } } } } } } }' });
    expect(res.body.data.articles.data.map((a: any) => a.attributes.author.data.attributes.name)).toEqual(['Ada Lovelace', 'Alan Turing']);
  });

  it('/ links every REST route, GraphQL and the documentation in development', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    for (const href of ['/api/articles?populate=*', '/api/global?populate=*', '/graphql', '/documentation']) expect(html).toContain(`href="${href}"`);
  });

  it('a restart does not write the content again', async () => {
    await server.stop();
    server = await startServer(built.dir, { NODE_ENV: 'development' });
    api = client(server.url);
    expect(server.output()).not.toContain('demo: sample content written');
    expect((await api.get('/api/articles')).body.meta.pagination.total).toBe(2);
  });

  it("type-checks: npm start compiles the demo's code first", () => {
    const result = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'], { cwd: built.dir, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  }, 120_000);

  it('in production: no sample content, and / is an unknown route', async () => {
    const database = await built.newDatabase();
    const production = await startServer(built.dir, { NODE_ENV: 'production', DATABASE_URL: database.url, JWT_SECRET: 'x'.repeat(32), API_TOKEN_SALT: 'y'.repeat(32) });
    try {
      expect((await fetch(`${production.url}/`)).status).toBe(404);
      expect((await client(production.url).get('/api/articles')).body.meta.pagination.total).toBe(0);
    } finally {
      await production.stop();
    }
  });
});
