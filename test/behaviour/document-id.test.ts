/**
 * Strapi 5's documentId (issue 30, docs/strapi5.md "Identity") on every insert path of a
 * built server: REST and GraphQL creates, the entity service the user's code calls (the app
 * fixture's bootstrap), users-permissions register and the roles and permissions written at
 * start, uploads, and the i18n paths (a create into a group, POST /localizations, GraphQL
 * createXLocalization), which reuse the group's documentId. Read in the database: v4 answers
 * never carry it. Then the runtime lookup by documentId and locale.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../templates/runtime/db/database.js';
import { createAdapterFactory } from '../../templates/runtime/db/provider.js';
import { findEntryIdByDocumentId, documentIdsOf } from '../../templates/runtime/entity/document-id.js';
import type { Registry } from '../../templates/runtime/meta.js';
import { documentIdShape, expectDocumentIds } from '../helpers/document-ids.js';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';


async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function documentIds(built: BuiltServer, table: string): Promise<Map<number, string>> {
  const rows = await built.database.query<{ id: number; document_id: string }>(`SELECT id, document_id FROM "${table}" ORDER BY id`);
  return new Map(rows.map((r) => [Number(r.id), r.document_id]));
}

async function graphql(server: RunningServer, token: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as any;
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

describe('documentId on every insert path (app fixture)', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let token: string;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    built = await buildFixture('app');
    token = await createApiToken(built.dir, { type: 'full-access' });
    server = await startServer(built.dir);
    api = client(server.url, bearer(token));
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('REST and GraphQL creates give each entry its own; v4 answers do not show it', async () => {
    const rest = await ok(api.post('/api/tags', { data: { name: 'rest' } }));
    expect(JSON.stringify(rest)).not.toContain('documentId');
    const gql = await graphql(server, token, 'mutation { createTag(data: { name: "graphql" }) { data { id attributes { name } } } }');
    const ids = await documentIds(built, 'tags');
    const restId = ids.get(rest.data.id)!;
    const gqlId = ids.get(Number(gql.createTag.data.id))!;
    expect(restId).toMatch(documentIdShape);
    expect(gqlId).toMatch(documentIdShape);
    expect(gqlId).not.toBe(restId);
    expect(JSON.stringify((await ok(api.get(`/api/tags/${rest.data.id}`))))).not.toContain('documentId');
  });

  it("the user's code creating through the entity service (bootstrap) gives one", async () => {
    const [bootstrapped] = (await built.database.query<{ document_id: string }>(`SELECT document_id FROM tags WHERE name = ?`, ['bootstrapped']));
    expect(bootstrapped?.document_id).toMatch(documentIdShape);
  });

  it('register, the roles and permissions written at start, and uploads give one', async () => {
    const registered = await ok(client(server.url).post('/api/auth/local/register', { username: 'docid', email: 'docid@example.com', password: 'secret123' }));
    expect(JSON.stringify(registered)).not.toContain('documentId');
    expect((await documentIds(built, 'up_users')).get(registered.user.id)).toMatch(documentIdShape);

    const form = new FormData();
    form.append('files', new Blob([Buffer.from('hello')], { type: 'text/plain' }), 'hello.txt');
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: bearer(token) });
    const [file] = (await uploaded.json()) as any[];
    expect(uploaded.status).toBe(200);
    expect(JSON.stringify(file)).not.toContain('documentId');
    expect((await documentIds(built, 'files')).get(file.id)).toMatch(documentIdShape);

    for (const table of ['up_roles', 'up_permissions', 'tags', 'up_users', 'files']) {
      const ids = [...(await documentIds(built, table)).values()];
      expect(ids.length, table).toBeGreaterThan(0);
      for (const id of ids) expect(id, table).toMatch(documentIdShape);
      expect(new Set(ids).size, `${table}: distinct`).toBe(ids.length);
    }
    await expectDocumentIds(built);
  });
});

describe('documentId of localizations (i18n fixture)', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let token: string;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    built = await buildFixture('i18n');
    token = await createApiToken(built.dir, { type: 'full-access' });
    server = await startServer(built.dir);
    api = client(server.url, bearer(token));
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('the localizations of an entry share its documentId, made by any path; other entries have their own', async () => {
    const en = (await ok(api.post('/api/pages', { data: { heading: 'Hello', slug: 'hello' } }))).data.id;
    const fr = (await ok(api.post(`/api/pages/${en}/localizations`, { heading: 'Bonjour', locale: 'fr' }))).id;
    const de = Number((await graphql(server, token, `mutation($id: ID) { createPageLocalization(id: $id, data: { heading: "Hallo" }, locale: "de") { data { id } } }`, { id: en })).createPageLocalization.data.id);
    const other = (await ok(api.post('/api/pages', { data: { heading: 'Other', slug: 'other' } }))).data.id;
    // A create naming its localizations joins their group.
    const joined = (await ok(api.post('/api/pages', { data: { heading: 'Autre', slug: 'autre', locale: 'fr', localizations: [other] } }))).data.id;
    const single = (await ok(api.put('/api/global', { data: { siteName: 'Site' } }))).data.id;
    const singleFr = (await ok(api.post('/api/global/localizations', { siteName: 'Site fr', locale: 'fr' }))).id;

    const pages = await documentIds(built, 'pages');
    expect(pages.get(en)).toMatch(documentIdShape);
    expect([pages.get(fr), pages.get(de)]).toEqual([pages.get(en), pages.get(en)]);
    expect(pages.get(other)).toMatch(documentIdShape);
    expect(pages.get(other)).not.toBe(pages.get(en));
    expect(pages.get(joined)).toBe(pages.get(other));
    const globals = await documentIds(built, 'globals');
    expect(globals.get(single)).toMatch(documentIdShape);
    expect(globals.get(singleFr)).toBe(globals.get(single));
    const categories = await documentIds(built, 'categories');
    const category = (await ok(api.post('/api/categories', { data: { name: 'News' } }))).data.id;
    expect((await documentIds(built, 'categories')).get(category)).toMatch(documentIdShape);
    expect(categories.size + 1).toBe((await documentIds(built, 'categories')).size);
    await expectDocumentIds(built);
  });

  it('findEntryIdByDocumentId finds an entry by documentId and locale; documentIdsOf reads them by id', async () => {
    const en = (await ok(api.post('/api/pages', { data: { heading: 'Lookup', slug: 'lookup' } }))).data.id;
    const fr = (await ok(api.post(`/api/pages/${en}/localizations`, { heading: 'Recherche', locale: 'fr' }))).id;
    const { PrismaClient } = await import(pathToFileURL(path.join(built.dir, 'src', 'prisma-client', 'client.ts')).href);
    const prisma = new PrismaClient({ adapter: await createAdapterFactory(built.database.url) });
    try {
      const db: Database = createDatabase(prisma, built.provider);
      const { registry } = (await import(pathToFileURL(path.join(built.dir, 'src', 'generated', 'index.ts')).href)) as { registry: Registry };
      const page = registry.contentTypes.get('api::page.page')!;
      const category = registry.contentTypes.get('api::category.category')!;
      const ids = await documentIdsOf(db, page, [en, fr, 999_999]);
      expect([...ids.keys()].sort()).toEqual([en, fr].sort());
      const documentId = ids.get(en)!;
      expect(await findEntryIdByDocumentId(db, page, documentId, 'fr')).toBe(fr);
      expect(await findEntryIdByDocumentId(db, page, documentId, 'en')).toBe(en);
      expect(await findEntryIdByDocumentId(db, page, documentId, 'de')).toBeNull();
      expect(await findEntryIdByDocumentId(db, page, documentId)).toBe(Math.min(en, fr));
      expect(await findEntryIdByDocumentId(db, page, 'zzzzzzzzzzzzzzzzzzzzzzzz', 'en')).toBeNull();
      const news = (await ok(api.post('/api/categories', { data: { name: 'Lookup' } }))).data.id;
      const categoryId = (await documentIdsOf(db, category, [news])).get(news)!;
      // A type that is not localized ignores the locale.
      expect(await findEntryIdByDocumentId(db, category, categoryId, 'fr')).toBe(news);
    } finally {
      await prisma.$disconnect();
    }
  });
});
