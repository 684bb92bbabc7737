/**
 * The i18n plugin (issue 14) on fixtures/i18n: localized `page` (collection, draft &
 * publish, shared attributes, a component, a dynamic zone, a relation to the non-localized
 * `category`) and `global` (single type), locales en (default), fr, de. REST: lists per
 * locale, `locale=all`, create with `data.locale`, POST localizations with Strapi's errors,
 * PUT ignoring `locale`/`localizations`, shared attributes kept equal, `populate`, `fields`,
 * `filters` and `sort` on locale, deletes, `GET /api/i18n/locales`. On SQLite, PostgreSQL
 * and MariaDB.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let anonymous: ReturnType<typeof client>;
let adminHeaders: Record<string, string>;
const enId = () => en;
const deId = () => de;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}${r.status >= 500 ? `\n${server.output().slice(-3000)}` : ''}`);
  return r.body;
}

const localesOf = (body: any) => body.data.map((e: any) => e.attributes.locale);

let en: number;
let fr: number;
let de: number;

beforeAll(async () => {
  built = await buildFixture('i18n');
  server = await startServer(built.dir);
  adminHeaders = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  api = client(server.url, adminHeaders);
  anonymous = client(server.url);
  const category = (await ok(api.post('/api/categories', { data: { name: 'News' } }))).data.id;
  en = (
    await ok(
      api.post('/api/pages', {
        data: {
          heading: 'Hello',
          slug: 'hello',
          code: 'hello-code',
          views: 3,
          featured: true,
          metadata: { metaTitle: 'Hello title' },
          settings: { theme: 'dark', wide: true },
          contentSections: [{ __component: 'sections.hero', title: 'Hero en' }],
          category,
        },
      }),
    )
  ).data.id;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('locales', () => {
  it('GET /api/i18n/locales answers Strapi’s bare array, for a role granted listLocales', async () => {
    const body = await ok(anonymous.get('/api/i18n/locales'));
    expect(body.map((l: any) => [l.code, l.name, l.isDefault])).toEqual([
      ['en', 'English (en)', true],
      ['fr', 'French (fr)', false],
      ['de', 'German (de)', false],
    ]);
    expect(Object.keys(body[0])).toEqual(['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault']);
  });
});

describe('create and localizations', () => {
  it('creates in the default locale; locale is an attribute', async () => {
    const body = await ok(api.get(`/api/pages/${en}`));
    expect(body.data.attributes.locale).toBe('en');
    expect(body.data.attributes).not.toHaveProperty('localizations');
  });

  it('refuses an unknown data.locale', async () => {
    const res = await api.post('/api/pages', { data: { heading: 'X', locale: 'xx' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: "This locale doesn't exist" });
  });

  it('POST /:id/localizations: Strapi’s errors', async () => {
    const missing = await api.post(`/api/pages/${en}/localizations`, { heading: 'Bonjour' });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ name: 'ApplicationError', message: 'locale is missing' });
    const invalid = await api.post(`/api/pages/${en}/localizations`, { heading: 'Bonjour', locale: 'it' });
    expect(invalid.body.error).toMatchObject({ name: 'ApplicationError', message: 'locale is invalid' });
    const used = await api.post(`/api/pages/${en}/localizations`, { heading: 'Hello again', locale: 'en' });
    expect(used.body.error).toMatchObject({ name: 'ApplicationError', message: 'locale is already used' });
    const notFound = await api.post('/api/pages/9999/localizations', { heading: 'Bonjour', locale: 'fr' });
    expect(notFound.status).toBe(404);
    expect(notFound.body.error).toEqual({ status: 404, name: 'NotFoundError', message: 'Entity not found', details: {} });
  });

  it('POST /:id/localizations creates a draft in the group with the shared attributes, answering the bare entry', async () => {
    const body = await ok(api.post(`/api/pages/${en}/localizations`, { heading: 'Bonjour', slug: 'bonjour', locale: 'fr' }));
    fr = body.id;
    expect(body).toMatchObject({ heading: 'Bonjour', slug: 'bonjour', locale: 'fr', views: 3, featured: true, publishedAt: null });
    expect(body).not.toHaveProperty('data');
    expect(body.localizations.map((l: any) => [l.id, l.locale])).toEqual([[en, 'en']]);
    const stored = await ok(api.get(`/api/pages/${fr}?populate=*`));
    expect(stored.data.attributes.settings).toMatchObject({ theme: 'dark', wide: true });
    expect(stored.data.attributes.metadata).toBeNull();
    expect(stored.data.attributes.category.data).toBeNull();
    expect(stored.data.attributes.settings.id).not.toBe((await ok(api.get(`/api/pages/${en}?populate=settings`))).data.attributes.settings.id);
    // A shared attribute sent with the localization is pushed to the group.
    de = (await ok(api.post(`/api/pages/${fr}/localizations`, { heading: 'Hallo', locale: 'de', views: 7, publishedAt: new Date().toISOString() }))).id;
    const all = await ok(api.get('/api/pages?locale=all&sort=id&publicationState=preview&fields[0]=views&fields[1]=locale'));
    expect(all.data.map((e: any) => [e.id, e.attributes.locale, e.attributes.views])).toEqual([
      [en, 'en', 7],
      [fr, 'fr', 7],
      [de, 'de', 7],
    ]);
  });

  it('links every localization to every other', async () => {
    // Drafts among them too (fr is one), as Strapi's i18n lists them, whatever the publication state.
    const body = await ok(api.get(`/api/pages/${de}?populate[localizations][fields][0]=locale&populate[localizations][fields][1]=publishedAt&populate[localizations][sort]=locale`));
    expect(body.data.attributes.localizations.data.map((e: any) => [e.attributes.locale, e.attributes.publishedAt === null])).toEqual([['en', false], ['fr', true]]);
    const preview = await ok(api.get(`/api/pages?locale=all&publicationState=preview&sort=id&populate[localizations][fields][0]=locale&populate[localizations][publicationState]=preview`));
    expect(preview.data.map((e: any) => [e.attributes.locale, e.attributes.localizations.data.map((l: any) => l.id).sort()])).toEqual([
      ['en', [fr, de].sort()],
      ['fr', [en, de].sort()],
      ['de', [en, fr].sort()],
    ]);
  });
});

describe('lists', () => {
  it('answer the default locale without ?locale, one locale with it, all with locale=all', async () => {
    expect(localesOf(await ok(api.get('/api/pages')))).toEqual(['en']);
    expect(localesOf(await ok(api.get('/api/pages?locale=de')))).toEqual(['de']);
    expect(localesOf(await ok(api.get('/api/pages?locale=fr&publicationState=preview')))).toEqual(['fr']);
    expect(localesOf(await ok(api.get('/api/pages?locale=fr')))).toEqual([]); // a draft
    expect(localesOf(await ok(api.get('/api/pages?locale=it')))).toEqual([]);
    expect(localesOf(await ok(api.get('/api/pages?locale=all&sort=locale:desc')))).toEqual(['en', 'de']);
  });

  it('filter, select and sort on locale', async () => {
    expect(localesOf(await ok(api.get('/api/pages?filters[locale][$eq]=de')))).toEqual([]);
    expect(localesOf(await ok(api.get('/api/pages?locale=all&filters[locale][$eq]=de')))).toEqual(['de']);
    const fields = await ok(api.get('/api/pages?fields[0]=locale'));
    expect(fields.data).toEqual([{ id: en, attributes: { locale: 'en' } }]);
  });

  it('find-one ignores ?locale', async () => {
    expect((await ok(api.get(`/api/pages/${de}?locale=en`))).data.attributes.locale).toBe('de');
  });
});

describe('updates', () => {
  it('ignore locale and localizations, and keep shared attributes equal across the group', async () => {
    const body = await ok(api.put(`/api/pages/${fr}?populate[localizations][fields][0]=views`, { data: { heading: 'Bonjour!', locale: 'de', localizations: [], views: 42, featured: false, settings: { theme: 'light' } } }));
    expect(body.data.attributes).toMatchObject({ heading: 'Bonjour!', locale: 'fr', views: 42, featured: false });
    // The answer shows the siblings as the write left them.
    expect(body.data.attributes.localizations.data.map((e: any) => e.attributes.views)).toEqual([42, 42]);
    const all = await ok(api.get('/api/pages?locale=all&publicationState=preview&sort=id&populate[settings]=*&populate[localizations][fields][0]=locale&populate[localizations][publicationState]=preview'));
    expect(all.data.map((e: any) => [e.attributes.heading, e.attributes.views, e.attributes.featured, e.attributes.settings?.theme, e.attributes.localizations.data.length])).toEqual([
      ['Hello', 42, false, 'light', 2],
      ['Bonjour!', 42, false, 'light', 2],
      ['Hallo', 42, false, 'light', 2],
    ]);
  });
});

describe('single type', () => {
  it('PUT creates the default locale; another locale comes from POST /localizations; reads and deletes per locale', async () => {
    expect((await api.get('/api/global')).status).toBe(404);
    const created = await ok(api.put('/api/global', { data: { siteName: 'Site', contactEmail: 'a@example.com' } }));
    expect(created.data.attributes.locale).toBe('en');
    const refused = await api.put('/api/global?locale=fr', { data: { siteName: 'Site FR' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ name: 'ValidationError', message: 'singleType.alreadyExists' });
    const frGlobal = await ok(api.post('/api/global/localizations', { siteName: 'Site FR', locale: 'fr' }));
    expect(frGlobal).toMatchObject({ siteName: 'Site FR', locale: 'fr', contactEmail: 'a@example.com' });
    expect((await ok(anonymous.get('/api/global?locale=fr'))).data.attributes.siteName).toBe('Site FR');
    expect((await ok(anonymous.get('/api/global'))).data.attributes.siteName).toBe('Site');
    expect((await anonymous.get('/api/global?locale=de')).status).toBe(404);
    await ok(api.put('/api/global?locale=fr', { data: { siteName: 'Site FR 2', contactEmail: 'b@example.com' } }));
    expect((await ok(anonymous.get('/api/global'))).data.attributes.contactEmail).toBe('b@example.com');
    const deleted = await ok(api.del('/api/global?locale=fr'));
    expect(deleted.data.attributes.locale).toBe('fr');
    expect((await anonymous.get('/api/global?locale=fr')).status).toBe(404);
    const left = await ok(api.get('/api/global?populate=localizations'));
    expect(left.data.attributes.localizations.data).toEqual([]);
  });
});

describe('deletes', () => {
  it('deleting one localization keeps the others linked to each other', async () => {
    await ok(api.del(`/api/pages/${fr}`));
    const all = await ok(api.get('/api/pages?locale=all&publicationState=preview&sort=id&populate[localizations][fields][0]=locale'));
    expect(all.data.map((e: any) => [e.id, e.attributes.localizations.data.map((l: any) => l.id)])).toEqual([
      [en, [de]],
      [de, [en]],
    ]);
  });
});

describe('unique attributes', () => {
  it('a uid is unique across all locales, as in Strapi', async () => {
    const res = await api.post('/api/pages', { data: { heading: 'Other', code: 'hello-code', locale: 'fr' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('This attribute must be unique');
  });
});

describe('GraphQL', () => {
  async function gql(query: string, variables?: Record<string, unknown>, token = true) {
    const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? adminHeaders : {}) }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as any;
  }

  it('the corporate starter’s query answers the page of a locale with its localizations', async () => {
    const query = `query GetPageBySlug($slug: String!, $locale: I18NLocaleCode!) {
      pages(filters: { slug: { eq: $slug } }, locale: $locale) {
        data { id attributes { heading locale localizations { data { id attributes { locale } } } } }
      }
    }`;
    const en = await gql(query, { slug: 'hello', locale: 'en' }, false);
    expect(en.errors).toBeUndefined();
    expect(en.data.pages.data).toEqual([{ id: String(enId()), attributes: { heading: 'Hello', locale: 'en', localizations: { data: [{ id: String(deId()), attributes: { locale: 'de' } }] } } }]);
    const none = await gql(query, { slug: 'hello', locale: 'de' }, false);
    expect(none.data.pages.data).toEqual([]);
  });

  it('lists per locale; a literal locale must be a known code', async () => {
    const de = await gql('{ pages(locale: "de") { data { attributes { locale } } } }', undefined, false);
    expect(de.data.pages.data).toEqual([{ attributes: { locale: 'de' } }]);
    const all = await gql('{ pages(locale: "all", sort: "id") { data { attributes { locale } } } }', undefined, false);
    expect(all.data.pages.data.map((e: any) => e.attributes.locale)).toEqual(['en', 'de']);
    const es = await gql('{ pages(locale: "es") { data { id } } }', undefined, false);
    expect(es.data.pages.data).toEqual([]);
    const unknown = await gql('{ pages(locale: "xx") { data { id } } }', undefined, false);
    expect(unknown.errors[0].message).toContain('Unknown locale supplied');
    const filtered = await gql('{ pages(locale: "all", filters: { locale: { eq: "de" }, localizations: { locale: { eq: "en" } } }) { data { attributes { locale } } } }', undefined, false);
    expect(filtered.data.pages.data).toEqual([{ attributes: { locale: 'de' } }]);
  });

  it('createXLocalization, create with locale, single type per locale, i18NLocales', async () => {
    const created = await gql(`mutation { createPage(data: { heading: "Salut", slug: "salut" }, locale: "fr") { data { id attributes { locale } } } }`);
    expect(created.data.createPage.data.attributes.locale).toBe('fr');
    const localization = await gql(
      `mutation($id: ID) { createPageLocalization(id: $id, data: { heading: "Hi" }, locale: "en") { data { attributes { heading locale publishedAt localizations(publicationState: PREVIEW) { data { attributes { locale } } } } } } }`,
      { id: created.data.createPage.data.id },
    );
    expect(localization.errors).toBeUndefined();
    expect(localization.data.createPageLocalization.data.attributes).toMatchObject({ heading: 'Hi', locale: 'en', publishedAt: null, localizations: { data: [{ attributes: { locale: 'fr' } }] } });
    const used = await gql(`mutation($id: ID) { createPageLocalization(id: $id, data: { heading: "Hi" }, locale: "fr") { data { id } } }`, { id: created.data.createPage.data.id });
    expect(used.errors[0].message).toBe('locale is already used');
    const globalEn = await gql('{ global { data { attributes { siteName locale } } } }', undefined, false);
    expect(globalEn.data.global.data.attributes).toEqual({ siteName: 'Site', locale: 'en' });
    const globalFr = await gql(`mutation { createGlobalLocalization(data: { siteName: "Site FR" }, locale: "fr") { data { attributes { siteName locale } } } }`);
    expect(globalFr.data.createGlobalLocalization.data.attributes).toEqual({ siteName: 'Site FR', locale: 'fr' });
    const read = await gql('{ global(locale: "fr") { data { attributes { siteName } } } }', undefined, false);
    expect(read.data.global.data.attributes.siteName).toBe('Site FR');
    const updated = await gql(`mutation { updateGlobal(data: { siteName: "Site FR 3" }, locale: "fr") { data { attributes { siteName locale } } } }`);
    expect(updated.data.updateGlobal.data.attributes).toEqual({ siteName: 'Site FR 3', locale: 'fr' });
    const locales = await gql('{ i18NLocales(sort: "id") { data { attributes { code name } } } }');
    expect(locales.data.i18NLocales.data.map((e: any) => e.attributes.code)).toEqual(['en', 'fr', 'de']);
  });
});

describe('GraphQL single type per locale', () => {
  async function gql(query: string) {
    const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...adminHeaders }, body: JSON.stringify({ query }) });
    return (await res.json()) as any;
  }

  it('updateX(locale) of a locale with no entry is refused (Strapi silently creates a default-locale entry); deleteX(locale) deletes that one', async () => {
    const refused = await gql('mutation { updateGlobal(data: { siteName: "Seite" }, locale: "de") { data { id } } }');
    expect(refused.errors[0].message).toBe('singleType.alreadyExists');
    const before = await ok(api.get('/api/global?locale=all'));
    const deleted = await gql('mutation { deleteGlobal(locale: "fr") { data { attributes { locale } } } }');
    expect(deleted.data.deleteGlobal.data.attributes.locale).toBe('fr');
    expect((await ok(api.get('/api/global'))).data.id).toBe(before.data.id);
    const none = await gql('mutation { deleteGlobal(locale: "fr") { data { id } } }');
    expect(none.data.deleteGlobal.data).toBeNull();
  });
});

describe('permissions', () => {
  it('createLocalization is an action of its own, granted by permissions.json', async () => {
    const target = (await ok(api.post('/api/pages', { data: { heading: 'Guarded', code: 'guarded' } }))).data.id;
    const denied = await anonymous.post(`/api/pages/${target}/localizations`, { heading: 'Gardé', locale: 'fr' });
    expect(denied.status).toBe(403);
    const jwt = (await anonymous.post('/api/auth/local/register', { username: 'translator', email: 'translator@example.com', password: 'secret123' })).body.jwt;
    const user = client(server.url, { authorization: `Bearer ${jwt}` });
    const created = await user.post(`/api/pages/${target}/localizations`, { heading: 'Gardé', locale: 'fr' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect((await user.post('/api/pages', { data: { heading: 'No' } })).status).toBe(403);
    const gql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation { createPageLocalization(id: ${target}, data: { heading: "X" }, locale: "de") { data { id } } }` }),
    }).then((r) => r.json() as Promise<any>);
    expect(gql.errors[0].message).toBe('Forbidden access');
  });
});

describe('create with data.localizations', () => {
  it('joins the group of the entries named, both ways, with the group’s shared attributes', async () => {
    const base = (await ok(api.post('/api/pages', { data: { heading: 'Base', code: 'base', views: 5, settings: { theme: 'dark' } } }))).data.id;
    const joined = (await ok(api.post('/api/pages', { data: { heading: 'Basis', locale: 'de', localizations: [base] } }))).data.id;
    const read = await ok(api.get(`/api/pages/${base}?populate[localizations][fields][0]=locale&populate[localizations][fields][1]=views`));
    expect(read.data.attributes.localizations.data).toEqual([{ id: joined, attributes: { locale: 'de', views: 5 } }]);
    const back = await ok(api.get(`/api/pages/${joined}?populate[localizations][fields][0]=locale&populate[settings]=*`));
    expect(back.data.attributes.localizations.data.map((e: any) => e.id)).toEqual([base]);
    expect(back.data.attributes.settings.theme).toBe('dark');
    const filtered = await ok(api.get(`/api/pages/${base}?populate[localizations][filters][locale][$eq]=fr`));
    expect(filtered.data.attributes.localizations.data).toEqual([]);
  });
});

describe('odd locale parameters', () => {
  it('answer 200 or 400, never 500', async () => {
    for (const q of ['locale[0]=fr', 'locale=', 'locale[$eq]=fr', 'locale=%00']) {
      const res = await api.get(`/api/pages?${q}`);
      expect([200, 400], `${q}: ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
    }
    const single = await api.get('/api/global?locale[0]=fr');
    expect([200, 400, 404]).toContain(single.status);
  });
});

describe('openapi.json', () => {
  it('documents the locale parameter, the localization routes and the locales list, and stays valid', async () => {
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const { readFile } = await import('node:fs/promises');
    const path = await import('node:path');
    const document = JSON.parse(await readFile(path.join(built.dir, 'openapi.json'), 'utf8'));
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(document.paths['/api/i18n/locales'].get.operationId).toBe('listLocales');
    expect(document.paths['/api/pages/{id}/localizations'].post.operationId).toBe('createLocalizationPage');
    expect(document.paths['/api/global/localizations'].post.operationId).toBe('createLocalizationGlobal');
    expect(document.paths['/api/pages'].get.parameters).toContainEqual({ $ref: '#/components/parameters/locale' });
    expect(document.components.parameters.locale.schema.enum).toEqual(['en', 'fr', 'de', 'all']);
    for (const [template, methods] of [['/api/pages/1/localizations', 'POST'], ['/api/global/localizations', 'POST'], ['/api/i18n/locales', 'GET']] as const) {
      const res = await fetch(`${server.url}${template}`, { method: 'PATCH', headers: adminHeaders });
      expect(res.status, template).toBe(405);
      expect(res.headers.get('allow'), template).toContain(methods);
    }
  });
});

describe('concurrency', () => {
  it('two localizations of one entry in the same locale at once: one is created, the other answers locale is already used', async () => {
    const source = (await ok(api.post('/api/pages', { data: { heading: 'Race', code: 'race' } }))).data.id;
    const answers = await Promise.all([0, 1, 2].map(() => api.post(`/api/pages/${source}/localizations`, { heading: 'Course', locale: 'fr' })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400]);
    for (const a of answers.filter((a) => a.status === 400)) expect(a.body.error.message).toBe('locale is already used');
    const group = await ok(api.get(`/api/pages?locale=fr&publicationState=preview&filters[localizations][id][$eq]=${source}`));
    expect(group.data).toHaveLength(1);
    // populate=* includes localizations, the draft just created too (Strapi's i18n lists drafts).
    const created = (await ok(api.get(`/api/pages/${source}?populate=*`))).data.attributes.localizations.data;
    expect(created.map((e: any) => [e.attributes.locale, e.attributes.publishedAt])).toEqual([['fr', null]]);
  });
});

describe('shared media', () => {
  it('a shared media attribute is copied into a new localization and kept equal on every write', async () => {
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#224466' } }).png().toBuffer();
    const form = new FormData();
    form.append('files', new Blob([Uint8Array.from(png)], { type: 'image/png' }), 'cover.png');
    const upload = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: adminHeaders });
    expect(upload.status).toBe(200);
    const fileId = ((await upload.json()) as { id: number }[])[0]!.id;
    const source = (await ok(api.post('/api/pages', { data: { heading: 'With cover', code: 'with-cover', cover: fileId } }))).data.id;
    const copy = (await ok(api.post(`/api/pages/${source}/localizations`, { heading: 'Avec couverture', locale: 'fr' }))).id;
    const coverOf = async (id: number) => (await ok(api.get(`/api/pages/${id}?populate=cover`))).data.attributes.cover.data?.id ?? null;
    expect(await coverOf(copy)).toBe(fileId);
    await ok(api.put(`/api/pages/${copy}`, { data: { cover: null } }));
    expect([await coverOf(source), await coverOf(copy)]).toEqual([null, null]);
    await ok(api.put(`/api/pages/${source}`, { data: { cover: fileId } }));
    expect([await coverOf(source), await coverOf(copy)]).toEqual([fileId, fileId]);
  });
});
