/**
 * A Strapi 5 project with shapes real Strapi 5 projects have, that Strapi 5.54.0 starts with
 * and contentgen once refused (fixtures/projects/strapi5-shapes, own-made; found trying public
 * Strapi 5 projects, test/real-projects/projects.md):
 *
 *  - a content type's own `locale` attribute (salahgh/leqta_strapi's partner request, not
 *    localized): Strapi 5's i18n, in its core, replaces it on every content type
 *    (`@strapi/i18n` register, extendContentTypes). On a type that is not localized it is a
 *    private string: written from a body, never answered, refused in filters; on a localized
 *    type it is the document's locale.
 *  - a content type's own `createdAt` (Strapi 5's core sets its timestamps and creator fields
 *    over a model's own): the server's timestamp;
 *  - a relation to a content type of an installed plugin that contentgen does not carry over
 *    (SKLINET/strapi-boilerplate's form block → `plugin::form-builder.built-form`): left out of
 *    answers and writes, as a relation to `admin::user` is;
 *  - config/plugins.ts reading a workspace package's file through `require.resolve`
 *    (notum-cz/strapi-next-monorepo-starter's editor theme): built, the file read as empty.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let anonymous: ReturnType<typeof client>;
let token: string;

beforeAll(async () => {
  built = await buildModels(path.join(fixturesDir, 'projects', 'strapi5-shapes'), 'strapi5-shapes');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  api = client(server.url, bearer(token));
  anonymous = client(server.url);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

async function gql(query: string): Promise<any> {
  const res = await fetch(`${server.url}/v5/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify({ query }) });
  return res.json();
}

describe("a content type's own `locale` on a type that is not localized (Strapi 5: a private string)", () => {
  it('is written from a body and never answered, on the v5 mount and on v4', async () => {
    const created = await anonymous.post('/v5/api/enquiries', { data: { name: 'Ada', message: 'Hello', locale: 'fr' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Ada', message: 'Hello', state: 'open', documentId: expect.any(String) });
    expect(created.body.data).not.toHaveProperty('locale');
    // its own `createdAt` (a string) is Strapi 5's timestamp
    expect(created.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const one = await api.get(`/v5/api/enquiries/${created.body.data.documentId}`);
    expect(one.status).toBe(200);
    expect(one.body.data).not.toHaveProperty('locale');
    const v4 = await api.get(`/api/enquiries/${created.body.data.id}`);
    expect(v4.status).toBe(200);
    expect(v4.body.data.attributes).toMatchObject({ name: 'Ada' });
    expect(v4.body.data.attributes).not.toHaveProperty('locale');
  });

  it('is refused in filters and sort, as a private attribute is', async () => {
    const filtered = await api.get('/v5/api/enquiries?filters[locale][$eq]=fr');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key locale' });
    const sorted = await api.get('/v5/api/enquiries?sort=locale');
    expect(sorted.status).toBe(400);
    expect(sorted.body.error.message).toBe('Invalid key locale');
  });

  it('is in the v5 GraphQL input once (where the model declares it), not in the type', async () => {
    const m = await gql('mutation { createEnquiry(data: { name: "Grace", locale: "de" }) { documentId name } }');
    expect(m.errors).toBeUndefined();
    expect(m.data.createEnquiry).toMatchObject({ name: 'Grace', documentId: expect.any(String) });
    const q = await gql('{ enquiries { name locale } }');
    expect(q.errors?.[0]?.message).toBe('Cannot query field "locale" on type "Enquiry".');
  });
});

describe("a localized type's own `locale` (Strapi 5: the document's locale)", () => {
  it('is the locale of ?locale=, answered and filtered as on any localized type', async () => {
    const created = await api.post('/v5/api/landings?locale=fr', { data: { title: 'Bonjour', sections: [{ __component: 'blocks.text', body: 'Texte' }] } });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Bonjour', locale: 'fr' });
    const list = await anonymous.get('/v5/api/landings?locale=fr&filters[locale][$eq]=fr&populate=*');
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: any) => [e.title, e.locale])).toEqual([['Bonjour', 'fr']]);
  });
});

describe('a relation to a content type of an installed plugin contentgen does not carry over', () => {
  it('is left out of a zone item written and read over REST v5, v4 and GraphQL v5', async () => {
    const created = await api.post('/v5/api/landings', { data: { title: 'Contact', sections: [{ __component: 'blocks.form-block', heading: 'Write to us' }] } });
    expect(created.status).toBe(201);
    const doc = created.body.data.documentId as string;
    const one = await anonymous.get(`/v5/api/landings/${doc}?populate[sections][populate]=*`);
    expect(one.status).toBe(200);
    expect(one.body.data.sections).toEqual([{ __component: 'blocks.form-block', id: expect.any(Number), heading: 'Write to us' }]);
    const v4 = await anonymous.get(`/api/landings/${created.body.data.id}?populate=*`);
    expect(v4.status).toBe(200);
    expect(v4.body.data.attributes.sections).toEqual([{ __component: 'blocks.form-block', id: expect.any(Number), heading: 'Write to us' }]);
    const q = await gql(`{ landing(documentId: "${doc}") { title sections { __typename ... on ComponentBlocksFormBlock { heading } } } }`);
    expect(q).toEqual({ data: { landing: { title: 'Contact', sections: [{ __typename: 'ComponentBlocksFormBlock', heading: 'Write to us' }] } } });
  });
});
