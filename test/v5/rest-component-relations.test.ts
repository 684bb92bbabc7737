/**
 * Relations and media inside components and zone entries on the v5 mount, beyond what the
 * recording (`cr.*`, test/v5/recorder/component-relations.ts) covers: the documentIds of a whole
 * write are looked up together (the statements a write runs do not grow with the instances that
 * name documents: Server-Timing counts every statement), a kept instance's `connect` positions
 * against its stored links, a GraphQL draft read of a component's relation, and v4 writes on
 * `/api` unchanged (components written whole: ids only, `connect` names the whole list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client, withStatements } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
const tags: { id: number; documentId: string }[] = [];
const authors: { id: number; documentId: string }[] = [];

const ok = withStatements;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir, { SERVER_TIMING: '1' });
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  for (let i = 0; i < 12; i++) tags.push((await ok(api.post('/v5/api/tags', { data: { name: `ct-${i}` } }), 201)).body.data);
  for (let i = 0; i < 12; i++) authors.push((await ok(api.post('/v5/api/authors', { data: { name: `Author ${i}`, email: `a${i}@example.com` } }), 201)).body.data);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const names = (list: { name: string }[] | undefined) => (list ?? []).map((t) => t.name);

describe('relations inside components on the v5 mount', () => {
  it('looks every documentId of a write up together: 1, 4 or 12 zone entries naming authors run the same statements', async () => {
    const write = (n: number, serial: number) => ({
      data: {
        title: `Counted ${serial}`,
        seo: { metaTitle: 'm', tags: tags.slice(0, n).map((t) => t.documentId) },
        blocks: authors.slice(0, n).map((a) => ({ __component: 'shared.quote', title: 'q', author: a.documentId })),
      },
    });
    // The first write of each component starts its id counter (a one-time scan): not counted.
    await ok(api.post('/v5/api/articles', write(1, 0)), 201);
    const counts: number[] = [];
    for (const [i, n] of [1, 4, 12].entries()) counts.push((await ok(api.post('/v5/api/articles', write(n, i + 1)), 201)).statements);
    expect(counts[0]).toBeGreaterThan(0);
    expect(counts).toEqual([counts[0], counts[0], counts[0]]);
  });

  it('places `connect` positions of a kept instance among its stored links, and keeps what it omits', async () => {
    const [a, b, c, d] = tags.map((t) => t.documentId);
    const created = (await ok(api.post('/v5/api/articles', { data: { title: 'Kept', seo: { metaTitle: 'm', tags: [a, b], image: null } } }), 201)).body.data;
    const read = async (status?: string) =>
      (await ok(api.get(`/v5/api/articles/${created.documentId}?populate[seo][populate][tags][fields][0]=name${status ? `&status=${status}` : ''}`))).body.data;
    const seo = (await read('draft')).seo;
    await ok(api.put(`/v5/api/articles/${created.documentId}`, { data: { seo: { id: seo.id, metaTitle: 'm2', tags: { connect: [{ documentId: c, position: { before: b } }, { documentId: d, position: { start: true } }], disconnect: [a] } } } }));
    expect(names((await read()).seo.tags)).toEqual(['ct-3', 'ct-2', 'ct-1']);
    // An instance without its id is a new one: its links start empty.
    await ok(api.put(`/v5/api/articles/${created.documentId}`, { data: { seo: { metaTitle: 'm3', tags: { connect: [c] } } } }));
    expect(names((await read()).seo.tags)).toEqual(['ct-2']);
    // A pivot that is not among the links: Strapi's text.
    const kept = (await read('draft')).seo;
    const refused = await api.put(`/v5/api/articles/${created.documentId}`, { data: { seo: { id: kept.id, metaTitle: 'm4', tags: { connect: [{ documentId: a, position: { after: b } }] } } } });
    expect(refused.status).toBe(400);
  });

  it('reads a component relation to a draft-only document as null when published and as the draft on `status: DRAFT` (GraphQL)', async () => {
    const draft = (await ok(api.post('/v5/api/articles?status=draft', { data: { title: 'Only a draft' } }), 201)).body.data;
    const created = (await ok(api.post('/v5/api/articles', { data: { title: 'Links a draft', links: [{ label: 'l', url: '/l', article: draft.documentId }] } }), 201)).body.data;
    const query = (status: string) => `{ article(documentId: "${created.documentId}", status: ${status}) { links { label article { title } } } }`;
    const published = await api.post('/v5/graphql', { query: query('PUBLISHED') });
    expect(published.body).toEqual({ data: { article: { links: [{ label: 'l', article: null }] } } });
    const drafted = await api.post('/v5/graphql', { query: query('DRAFT') });
    expect(drafted.body).toEqual({ data: { article: { links: [{ label: 'l', article: { title: 'Only a draft' } }] } } });
  });

  it('leaves v4 writes on /api as they were: ids only, a kept instance written whole', async () => {
    const [a, b, c] = tags;
    const created = (await ok(api.post('/api/articles', { data: { title: 'v4 write', seo: { metaTitle: 'm', tags: [a!.id, b!.id] } } })) ).body.data;
    const read = async () => (await ok(api.get(`/api/articles/${created.id}?populate[seo][populate][tags][fields][0]=name`))).body.data.attributes.seo;
    const seo = await read();
    await ok(api.put(`/api/articles/${created.id}`, { data: { seo: { id: seo.id, metaTitle: 'm2', tags: { connect: [c!.id] } } } }));
    expect((await read()).tags.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['ct-2']);
    const refused = await api.post('/api/articles', { data: { title: 'v4 documentId', seo: { metaTitle: 'm', tags: [a!.documentId] } } });
    expect(refused.status).toBe(400);
  });
});
