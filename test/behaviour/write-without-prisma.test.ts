/**
 * Writing entries does not load Prisma's query compiler (a WebAssembly module of ~50 MB once
 * loaded, issue 29: a server that had written peaked at 176–185 MB RSS, over the 150 MB goal).
 * Write transactions are opened on the driver's connection (db/transaction-statements.ts) on
 * every database, the entry row and everything around it are SQL, and the API token's
 * `lastUsedAt` is set in SQL. The server runs with a preload that logs every WebAssembly
 * module compiled or instantiated (test/helpers/wasm-instances.mjs); a write that still goes
 * through Prisma (here a user's registration, through its typed delegates) shows as one.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

const preload = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/wasm-instances.mjs');

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
/** The server's output up to the end of its start (migrations may load the schema engine's module). */
let started = 0;

/** Prisma's WebAssembly modules compiled or instantiated since `from` (Node's own llhttp is not one). */
const prismaWasmSince = (from: number) =>
  server
    .output()
    .slice(from)
    .split('\n')
    .filter((line) => line.startsWith('[wasm]') && /@prisma|query_compiler/.test(line));

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  // A first start applies the migrations (the schema engine is WebAssembly too): not this test's.
  await (await startServer(built.dir)).stop();
  server = await startServer(built.dir, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${preload}`.trim() });
  started = server.output().length;
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('writes without Prisma', () => {
  it('creates, updates, publishes and deletes entries with relations, components and a zone without loading the query compiler', async () => {
    const author = (await ok(api.post('/api/authors', { data: { name: 'Ann', email: 'ann@example.com' } }))).data.id;
    const category = (await ok(api.post('/api/categories', { data: { name: 'News' } }))).data.id;
    const tags: number[] = [];
    for (let i = 0; i < 3; i++) tags.push((await ok(api.post('/api/tags', { data: { name: `tag-${i}` } }))).data.id);
    const article = (title: string, draft: boolean) => ({
      data: {
        title,
        author,
        category,
        tags,
        featured: true,
        publishDate: '2024-05-06',
        lastReviewedAt: '2025-01-02T03:04:05.006Z',
        metadata: { source: 'test' },
        seo: { metaTitle: title },
        links: [{ label: 'a', url: 'https://example.com/a' }],
        blocks: [
          { __component: 'shared.quote', title: 'q', body: 'b' },
          { __component: 'shared.rich-text', body: 'text' },
        ],
        ...(draft ? { publishedAt: null } : {}),
      },
    });
    const id = (await ok(api.post('/api/articles', article('Written', false)))).data.id;
    const updated = await ok(
      api.put(`/api/articles/${id}?populate=tags`, { data: { title: 'Rewritten', tags: { connect: [{ id: tags[0], position: { end: true } }], disconnect: [tags[1]] } } }),
    );
    expect(updated.data.attributes.title).toBe('Rewritten');
    expect(updated.data.attributes.tags.data.map((t: any) => t.id)).toEqual([tags[2], tags[0]]);
    const draft = (await ok(api.post('/api/articles', article('Draft', true)))).data.id;
    const published = await ok(api.put(`/api/articles/${draft}`, { data: { publishedAt: '2025-06-01T00:00:00.000Z' } }));
    expect(published.data.attributes.publishedAt).toBe('2025-06-01T00:00:00.000Z');
    await ok(api.del(`/api/articles/${id}`));
    expect((await api.get(`/api/articles/${id}`)).status).toBe(404);
    expect((await ok(api.get(`/api/articles/${draft}?populate=*`))).data.attributes.blocks).toHaveLength(2);
    expect(prismaWasmSince(started)).toEqual([]);
  });

  it('the detector sees the query compiler when a write still goes through Prisma (a user registers)', async () => {
    const before = server.output().length;
    const res = await client(server.url).post('/api/auth/local/register', { username: 'wasm-check', email: 'wasm-check@example.com', password: 'Passw0rd!' });
    expect(res.status).toBe(200);
    expect(prismaWasmSince(before).length).toBeGreaterThan(0);
  });
});
