/**
 * Two server processes on one database write the same entries at once: updates that connect
 * and disconnect the same tags, move the category, replace a component, publish and
 * unpublish, and creates linking the same targets. No write may fail (no deadlock surfacing
 * as a 500, no lost update of a link list), and the stored state must stay consistent: each
 * link once, to-one fields holding one target, each entry's links in a dense order.
 *
 * Runs in every database project; the bar is PostgreSQL and MariaDB, where row locks and
 * InnoDB's gap locks can deadlock writes that lock in different orders.
 */
import { cp, rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const secrets = { JWT_SECRET: 'concurrent-writes-jwt-secret-0123456789', API_TOKEN_SALT: 'concurrent-writes-salt-0123456789' };

let built: BuiltServer;
let secondDir: string;
let a: RunningServer;
let b: RunningServer;
let token: string;
const admin = (s: RunningServer) => client(s.url, bearer(token));
const ids = { authors: [] as number[], categories: [] as number[], tags: [] as number[], articles: [] as number[] };

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  secondDir = `${built.dir}-writes`;
  await cp(built.dir, secondDir, { recursive: true });
  [a, b] = await Promise.all([
    startServer(built.dir, { NODE_ENV: 'production', ...secrets, DATABASE_URL: built.database.url }),
    startServer(secondDir, { NODE_ENV: 'production', ...secrets, DATABASE_URL: built.database.url }),
  ]);
  token = await createApiToken(built.dir, { type: 'full-access' }, secrets);
  const api = admin(a);
  for (let i = 0; i < 2; i++) ids.authors.push((await ok(api.post('/api/authors', { data: { name: `Author ${i}`, email: `a${i}@example.com` } }))).data.id);
  for (let i = 0; i < 3; i++) ids.categories.push((await ok(api.post('/api/categories', { data: { name: `Category ${i}` } }))).data.id);
  for (let i = 0; i < 6; i++) ids.tags.push((await ok(api.post('/api/tags', { data: { name: `tag ${i}` } }))).data.id);
  for (let i = 0; i < 3; i++) {
    ids.articles.push(
      (await ok(api.post('/api/articles', { data: { title: `Shared article ${i}`, author: ids.authors[0], category: ids.categories[0], tags: ids.tags.slice(0, 3), seo: { metaTitle: 'start' } } }))).data.id,
    );
  }
}, 240_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await built?.cleanup();
  if (secondDir) await rm(secondDir, { recursive: true, force: true });
});

/** The i-th write of one client: a mix of every kind of write on the shared entries. */
function write(s: RunningServer, client: number, i: number) {
  const api = admin(s);
  const article = ids.articles[(i + client) % ids.articles.length]!;
  const tag = (k: number) => ids.tags[(i * 2 + client + k) % ids.tags.length]!;
  switch (i % 5) {
    case 0:
      return api.put(`/api/articles/${article}`, { data: { tags: { connect: [{ id: tag(0), position: { start: true } }, tag(1)], disconnect: [tag(2)] } } });
    case 1:
      return api.put(`/api/articles/${article}`, { data: { title: `Edited ${client}-${i}`, category: ids.categories[i % 3], author: ids.authors[i % 2], seo: { metaTitle: `seo ${client}-${i}` } } });
    case 2:
      return api.put(`/api/articles/${article}`, { data: { publishedAt: i % 2 ? null : '2025-01-01T00:00:00.000Z', tags: { disconnect: [tag(3)] } } });
    case 3:
      return api.post('/api/articles', { data: { title: `New ${client}-${i}`, category: ids.categories[i % 3], tags: [tag(0), tag(1), tag(2)], blocks: [{ __component: 'shared.quote', title: 'q' }] } });
    default:
      return api.put(`/api/articles/${article}`, { data: { tags: [tag(4), tag(0)] } });
  }
}

describe('two processes writing the same entries', () => {
  it('every write answers 200 (no deadlock, no 500) and the stored links stay consistent', async () => {
    const clientsPerServer = 4;
    const writesPerClient = 15;
    const failures: string[] = [];
    await Promise.all(
      [a, b].flatMap((s, server) =>
        Array.from({ length: clientsPerServer }, async (_, c) => {
          const clientId = server * clientsPerServer + c;
          for (let i = 0; i < writesPerClient; i++) {
            const res = await write(s, clientId, i);
            if (res.status !== 200) failures.push(`${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
          }
        }),
      ),
    );
    expect(failures).toEqual([]);

    const q = (sql: string) => built.database.query<Record<string, unknown>>(sql);
    // Each link once.
    expect(await q('SELECT article_id, tag_id, COUNT(*) AS n FROM articles_tags_links GROUP BY article_id, tag_id HAVING COUNT(*) > 1')).toEqual([]);
    // To-one fields: one target each.
    for (const table of ['articles_category_links', 'articles_author_links']) {
      expect(await q(`SELECT article_id, COUNT(*) AS n FROM ${table} GROUP BY article_id HAVING COUNT(*) > 1`)).toEqual([]);
    }
    // Each entry's tags in a dense order 1..n, as one writer left them.
    const rows = await q('SELECT article_id, tag_order FROM articles_tags_links ORDER BY article_id, tag_order');
    const orders = new Map<number, number[]>();
    for (const row of rows) orders.set(Number(row.article_id), [...(orders.get(Number(row.article_id)) ?? []), Number(row.tag_order)]);
    for (const [, list] of orders) expect(list).toEqual(list.map((_, i) => i + 1));
    // Both processes read the same final entries, and what they answer matches the link rows.
    for (const article of ids.articles) {
      const [fromA, fromB] = await Promise.all([a, b].map((s) => ok(admin(s).get(`/api/articles/${article}?populate=tags&publicationState=preview`))));
      expect(fromB).toEqual(fromA);
      expect(fromA.data.attributes.tags.data.length).toBe(orders.get(article)?.length ?? 0);
    }
  }, 300_000);
});
