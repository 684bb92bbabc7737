/**
 * i18n answers checked against Strapi 4.26.2 (issue 27): a GraphQL create is a draft on a
 * draft-and-publish type, with or without `locale` (Strapi's GraphQL create calls the entity
 * service, which sets no `publishedAt`; REST's core service does); each component's instance
 * ids start at 1 (another component's instances do not raise them), and a shared component
 * copied into a new localization leaves the others' ids alone; an unknown locale literal is a
 * validation error of the query. Each answer was checked on Strapi 4.26.2 with these models.
 * On SQLite, PostgreSQL and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let adminHeaders: Record<string, string>;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}${r.status >= 500 ? `\n${server.output().slice(-3000)}` : ''}`);
  return r.body;
}

async function gql(query: string, variables?: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...adminHeaders }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  built = await buildFixture('i18n');
  server = await startServer(built.dir);
  adminHeaders = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  api = client(server.url, adminHeaders);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('component ids of a localized single type', () => {
  it('start at 1 on a new database, as Strapi’s component table', async () => {
    const en = await ok(api.put('/api/global?populate=seo', { data: { siteName: 'Site', seo: { metaTitle: 'en' } } }));
    const fr = await ok(api.post('/api/global/localizations', { siteName: 'Site FR', locale: 'fr', seo: { metaTitle: 'fr' } }));
    const read = await ok(api.get('/api/global?locale=fr&populate=seo'));
    expect([en.data.attributes.seo.id, read.data.attributes.seo.id]).toEqual([1, 2]);
    expect(fr.locale).toBe('fr');
  });
});

describe('component ids of a shared component', () => {
  // The global's seo instances (1, 2) are stored already: another component's ids must not
  // raise this one's first (each component has its own table in Strapi).
  it('start at 1 whatever other components hold; a localization created with it does not renumber the others’ instance (Strapi does not copy it there)', async () => {
    const en = (await ok(api.post('/api/pages?populate=settings', { data: { heading: 'Shared', settings: { theme: 'dark' } } }))).data;
    const fr = await ok(api.post(`/api/pages/${en.id}/localizations`, { heading: 'Partagé', locale: 'fr', settings: { theme: 'light' } }));
    const read = async (id: number) => (await ok(api.get(`/api/pages/${id}?populate=settings`))).data.attributes.settings;
    // Strapi 4.26.2: en keeps 1 (and its value: contentgen keeps shared attributes equal), fr gets 2.
    expect([en.attributes.settings.id, await read(en.id), await read(fr.id)]).toEqual([
      1,
      { id: 1, theme: 'light', wide: null },
      { id: 2, theme: 'light', wide: null },
    ]);
  });
});

describe('GraphQL create on a draft-and-publish type', () => {
  it('creates a draft with locale and without, published only when publishedAt is sent', async () => {
    const withLocale = await gql('mutation { createPage(data: { heading: "Salut" }, locale: "fr") { data { attributes { locale publishedAt } } } }');
    expect(withLocale.body.data.createPage.data.attributes).toEqual({ locale: 'fr', publishedAt: null });
    const withoutLocale = await gql('mutation { createPage(data: { heading: "Hello" }) { data { attributes { locale publishedAt } } } }');
    expect(withoutLocale.body.data.createPage.data.attributes).toEqual({ locale: 'en', publishedAt: null });
    // Validated as a published entry all the same (Strapi's isDraft needs publishedAt: null).
    const required = await gql('mutation { createPage(data: { slug: "no-heading" }) { data { id } } }');
    expect(required.body.errors[0]).toMatchObject({ message: 'heading must be defined.', extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError' } } });
    const published = await gql('mutation { createPage(data: { heading: "Live", publishedAt: "2024-01-01T00:00:00.000Z" }) { data { attributes { publishedAt } } } }');
    expect(published.body.data.createPage.data.attributes.publishedAt).toBe('2024-01-01T00:00:00.000Z');
    const rest = await ok(api.post('/api/pages', { data: { heading: 'REST' } }));
    expect(rest.data.attributes.publishedAt).not.toBeNull();
  });
});

describe('an unknown locale literal', () => {
  it('fails validation of the query as Strapi’s I18NLocaleCode does; a variable is not checked', async () => {
    const unknown = await gql('{ pages(locale: "xx") { data { id } } }');
    // Strapi 4.26.2's answer, byte for byte.
    expect(unknown).toEqual({
      status: 400,
      body: { errors: [{ message: 'Expected value of type "I18NLocaleCode", found "xx"; Unknown locale supplied', locations: [{ line: 1, column: 17 }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] },
    });
    const notConfigured = await gql('{ pages(locale: "es") { data { id } } }');
    expect(notConfigured.body).toEqual({ data: { pages: { data: [] } } });
    const variable = await gql('query($l: I18NLocaleCode) { pages(locale: $l) { data { id } } }', { l: 'xx' });
    expect(variable.status).toBe(200);
  });
});
