/**
 * Component instance ids are unique per component across all entries, as Strapi's (a row
 * of the component's table there): two articles' `seo` never share an id. An update that
 * repeats an instance's id keeps it; one that omits it gets a new id. REST and GraphQL show
 * the same ids (strings in GraphQL).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const article = (title: string) => ({
  title,
  seo: { metaTitle: `${title} seo` },
  links: [{ label: 'one', url: 'https://a.example' }, { label: 'two', url: 'https://b.example' }],
  blocks: [
    { __component: 'shared.quote', body: 'q' },
    { __component: 'shared.rich-text', body: 'r' },
    { __component: 'shared.quote', body: 'q2' },
  ],
});

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const q = '?populate[seo]=*&populate[links]=*&populate[blocks]=*';

describe('component instance ids', () => {
  it('are unique per component across entries, zones included', async () => {
    const a = (await ok(api.post(`/api/articles${q}`, { data: article('First') }))).data.attributes;
    const b = (await ok(api.post(`/api/articles${q}`, { data: article('Second') }))).data.attributes;
    const seoIds = [a.seo.id, b.seo.id];
    expect(new Set(seoIds).size).toBe(2);
    const linkIds = [...a.links, ...b.links].map((l: any) => l.id);
    expect(new Set(linkIds).size).toBe(4);
    const quoteIds = [...a.blocks, ...b.blocks].filter((x: any) => x.__component === 'shared.quote').map((x: any) => x.id);
    expect(new Set(quoteIds).size).toBe(4);
  });

  it('an update keeps the ids it repeats and gives new ids to instances sent without one', async () => {
    const created = (await ok(api.post(`/api/articles${q}`, { data: article('Third') }))).data;
    const [one, two] = created.attributes.links;
    const updated = (
      await ok(api.put(`/api/articles/${created.id}${q}`, { data: { seo: { id: created.attributes.seo.id, metaTitle: 'kept' }, links: [{ id: two.id, label: 'two', url: 'https://b.example' }, { label: 'new', url: 'https://c.example' }] } }))
    ).data.attributes;
    expect(updated.seo).toMatchObject({ id: created.attributes.seo.id, metaTitle: 'kept' });
    expect(updated.links[0].id).toBe(two.id);
    expect([one.id, two.id]).not.toContain(updated.links[1].id);
    const replaced = (await ok(api.put(`/api/articles/${created.id}${q}`, { data: { seo: { metaTitle: 'replaced' } } }))).data.attributes;
    expect(replaced.seo.id).not.toBe(created.attributes.seo.id);
  });

  it('an id of another entry’s instance is not taken over: the instance gets a new id', async () => {
    const a = (await ok(api.post(`/api/articles${q}`, { data: article('Fourth') }))).data;
    const b = (await ok(api.post(`/api/articles${q}`, { data: article('Fifth') }))).data;
    const moved = (await ok(api.put(`/api/articles/${b.id}${q}`, { data: { seo: { id: a.attributes.seo.id, metaTitle: 'stolen?' } } }))).data.attributes;
    expect(moved.seo.id).not.toBe(a.attributes.seo.id);
  });

  it('GraphQL answers the same ids as REST', async () => {
    const rest = await ok(api.get(`/api/articles${q}&sort=id`));
    const graphql = await ok(api.post('/graphql', { query: '{ articles(sort: "id") { data { id attributes { seo { id } links { id } } } } }' }));
    const restIds = rest.data.map((a: any) => ({ seo: a.attributes.seo?.id, links: a.attributes.links.map((l: any) => l.id) }));
    const graphqlIds = graphql.data.articles.data.map((a: any) => ({ seo: a.attributes.seo ? Number(a.attributes.seo.id) : undefined, links: a.attributes.links.map((l: any) => Number(l.id)) }));
    expect(graphqlIds).toEqual(restIds);
  });
});
