/**
 * Statements per write are bounded by the input's shape, not by its size: a create or an
 * update of an article with 1, 5 or 30 tags runs the same number of statements (every link
 * row of a field in one INSERT, every target checked in one SELECT, no round trip per
 * relation). Counted by the server itself: `Server-Timing` counts every statement sent to the
 * database, Prisma's own included (its driver adapter is wrapped, db/count-statements.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client, withStatements } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let author = 0;
let category = 0;
const tags: number[] = [];

const ok = withStatements;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir, { SERVER_TIMING: '1' });
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  author = (await ok(api.post('/api/authors', { data: { name: 'Ann', email: 'ann@example.com' } }))).body.data.id;
  category = (await ok(api.post('/api/categories', { data: { name: 'News' } }))).body.data.id;
  for (let i = 0; i < 60; i++) tags.push((await ok(api.post('/api/tags', { data: { name: `tag-${i}` } }))).body.data.id);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

let serial = 0;
const article = (tagIds: readonly number[]) => ({
  data: {
    title: `Counted article ${++serial}`,
    author,
    category,
    tags: tagIds,
    seo: { metaTitle: 'Counted' },
    links: [{ label: 'a', url: 'https://example.com/a' }],
    blocks: [
      { __component: 'shared.quote', title: 'q', body: 'b' },
      { __component: 'shared.rich-text', body: 'text' },
    ],
  },
});

describe('statements per write', () => {
  it('a create with 1, 5 or 30 tags runs the same number of statements', async () => {
    // The first write of each component starts its id counter (a one-time scan): not counted.
    await ok(api.post('/api/articles', article(tags.slice(0, 1))));
    const counts = [];
    for (const n of [1, 5, 30]) {
      const { body, statements } = await ok(api.post('/api/articles', article(tags.slice(0, n))));
      expect(body.data.attributes.title).toMatch(/^Counted article/);
      counts.push(statements);
    }
    expect(counts[0]).toBeGreaterThan(5);
    expect(counts).toEqual([counts[0], counts[0], counts[0]]);
  });

  it('an update that connects and disconnects 1, 5 or 30 tags runs the same number of statements', async () => {
    const counts = [];
    for (const n of [1, 5, 30]) {
      const id = (await ok(api.post('/api/articles', article(tags.slice(0, n))))).body.data.id;
      const { body, statements } = await ok(
        api.put(`/api/articles/${id}?populate=tags`, {
          data: { tags: { connect: tags.slice(30, 30 + n).map((t) => ({ id: t, position: { start: true } })), disconnect: tags.slice(0, n) } },
        }),
      );
      expect(body.data.attributes.tags.data.map((t: any) => t.id)).toEqual(tags.slice(30, 30 + n).reverse());
      counts.push(statements);
    }
    expect(counts[0]).toBeGreaterThan(3);
    expect(counts).toEqual([counts[0], counts[0], counts[0]]);
  });

  it('a delete of an entry with 1 or 30 tags runs the same number of statements', async () => {
    const counts = [];
    for (const n of [1, 30]) {
      const id = (await ok(api.post('/api/articles', article(tags.slice(0, n))))).body.data.id;
      counts.push((await ok(api.del(`/api/articles/${id}`))).statements);
    }
    expect(counts[1]).toBe(counts[0]);
  });
});
