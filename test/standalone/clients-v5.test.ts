/**
 * Real clients on the v5 mount of a server installed as production does, outside this
 * repository (issue 30, "Done when"): the blog built into a temporary folder, its lock written,
 * `NODE_ENV=production npm ci`, `npm start` on a fresh database. Strapi's own v5 SDK,
 * `@strapi/client`, reads (filters, populate, sort, pagination, status), creates, updates and
 * deletes documents by documentId, the single type and files, with an API token and with a JWT
 * from v4's login; Apollo Client reads `/v5/graphql` (lists, `_connection`, `status`, a
 * document, its cache keyed by documentId: the v5 GraphQL mutations are not served yet). The
 * build's own v4 client and Apollo on `/graphql` keep working on `/api` of the same server, on
 * the same documents. One build, one install for the file (about 2 minutes of its time).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { HTTPForbiddenError, HTTPNotFoundError, strapi } from '@strapi/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWithUserCode } from '../helpers/build-cache.js';
import { createTestDatabase, providerLabel, testProvider, type TestDatabase } from '../helpers/databases.js';
import { client as jsonClient } from '../helpers/http.js';
import { codeOf, modelsOf, repoRoot } from '../helpers/paths.js';
import { npmCacheEnv, runOrThrow, ServerProcesses, userEnv } from '../helpers/standalone.js';
import type * as ClientModule from '../../out/client/dist/index.js';

const provider = testProvider();
const secrets = { JWT_SECRET: 'clients-v5-test-jwt-secret-0123456789abcdef', API_TOKEN_SALT: 'clients-v5-test-token-salt-0123456789abcdef' };

describe(`clients on the v5 mount of a production install (${providerLabel[provider]})`, () => {
  let base: string;
  let serverDir: string;
  let database: TestDatabase | undefined;
  let url: string;
  let token: string;
  let v4Client: typeof ClientModule;
  const servers = new ServerProcesses();

  beforeAll(async () => {
    const started = performance.now();
    base = await mkdtemp(path.join(os.tmpdir(), 'contentgen-clients-v5-'));
    serverDir = path.join(base, 'server');
    await buildWithUserCode(modelsOf('blog'), serverDir, provider, codeOf('blog'));
    // What a user commits after their first `npm install`, then the production install.
    runOrThrow(serverDir, 'npm', ['install', '--package-lock-only', '--ignore-scripts'], userEnv(npmCacheEnv));
    runOrThrow(serverDir, 'npm', ['ci'], userEnv({ ...npmCacheEnv, NODE_ENV: 'production' }));
    const installed = performance.now();
    database = await createTestDatabase(provider, path.join(serverDir, 'data'), 'clients_v5');
    const env = userEnv({ NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: database.url, ...secrets });
    url = (await servers.start('npm', ['start'], { cwd: serverDir, env })).url;
    const created = JSON.parse(runOrThrow(serverDir, 'npm', ['run', '--silent', 'token', '--', 'create', '--json', '--name', 'clients', '--type', 'full-access'], env)) as { accessKey: string };
    token = created.accessKey;
    v4Client = (await import(pathToFileURL(path.join(serverDir, 'client/dist/index.js')).href)) as typeof ClientModule;
    console.log(`clients-v5: build and install ${((installed - started) / 1000).toFixed(0)} s, start and token ${((performance.now() - installed) / 1000).toFixed(0)} s`);
  }, 1_200_000);

  afterAll(async () => {
    servers.killAll();
    await database?.drop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  /** @strapi/client on the v5 mount, as a frontend configures it. */
  const v5 = (auth?: string) => strapi({ baseURL: `${url}/v5/api`, ...(auth ? { auth } : {}) });
  const documents: { ada?: any; grace?: any; tags?: any[]; cover?: any; first?: any } = {};

  it('is a production install outside the repository', () => {
    expect(path.relative(repoRoot, serverDir).startsWith('..')).toBe(true);
    expect(existsSync(path.join(serverDir, 'node_modules', 'koa'))).toBe(true);
    expect(existsSync(path.join(serverDir, 'node_modules', 'swagger-ui-dist'))).toBe(false);
  });

  it('@strapi/client with an API token: files, creates by documentId, reads with filters, populate, sort and pagination', async () => {
    const client = v5(token);
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();
    const [cover] = await client.files.upload(new Blob([Uint8Array.from(png)], { type: 'image/png' }), { fileInfo: { name: 'cover.png', alternativeText: 'Cover' } });
    expect(cover).toMatchObject({ id: expect.any(Number), documentId: expect.stringMatching(/^[a-z0-9]{24}$/), name: 'cover.png', alternativeText: 'Cover', mime: 'image/png' });
    documents.cover = cover;

    const authors = client.collection('authors');
    const ada = (await authors.create({ name: 'Ada', email: 'ada@example.com' })).data;
    const grace = (await authors.create({ name: 'Grace', email: 'grace@example.com' })).data;
    expect(ada).toMatchObject({ id: expect.any(Number), documentId: expect.stringMatching(/^[a-z0-9]{24}$/), name: 'Ada', publishedAt: expect.any(String) });
    const tags = await Promise.all(['sdk', 'v5'].map(async (name) => (await client.collection('tags').create({ name })).data));
    Object.assign(documents, { ada, grace, tags });

    const articles = client.collection('articles');
    const first = (
      await articles.create(
        {
          title: 'Written by the SDK',
          slug: 'written-by-the-sdk',
          views: 10,
          author: ada.documentId,
          tags: tags.map((t) => t.documentId),
          cover: cover!.id,
          seo: { metaTitle: 'SDK' },
          blocks: [{ __component: 'shared.quote', title: 'Q', body: 'Quoted' }],
        },
        { populate: ['author', 'tags', 'cover'] },
      )
    ).data;
    expect(first).toMatchObject({ title: 'Written by the SDK', author: { documentId: ada.documentId, name: 'Ada' }, cover: { id: cover!.id, documentId: cover!.documentId }, publishedAt: expect.any(String) });
    expect(first.tags.map((t: any) => t.name)).toEqual(['sdk', 'v5']);
    documents.first = first;
    await articles.create({ title: 'Second article', views: 20, author: grace.documentId });
    await articles.create({ title: 'Third article', views: 30, author: { connect: [ada.documentId] } });

    const page = await articles.find({
      fields: ['title', 'views'],
      populate: { author: { fields: ['name'] } },
      filters: { author: { name: { $eq: 'Ada' } }, views: { $gte: 5 } },
      sort: ['views:desc'],
      pagination: { page: 1, pageSize: 1 },
    });
    expect(page.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });
    expect(page.data).toEqual([{ id: expect.any(Number), documentId: expect.any(String), title: 'Third article', views: 30, author: { id: ada.id, documentId: ada.documentId, name: 'Ada' } }]);
    const byStart = await articles.find({ fields: ['title'], sort: 'title:asc', pagination: { start: 1, limit: 1 } });
    expect(byStart.data.map((a: any) => a.title)).toEqual(['Third article']);
    expect(byStart.meta.pagination).toEqual({ start: 1, limit: 1, total: 3 });
    // A page that still holds a v4 id finds the document by it (row ids are stable here).
    const byId = await articles.find({ filters: { id: { $eq: first.id } }, fields: ['title'] });
    expect(byId.data).toEqual([{ id: first.id, documentId: first.documentId, title: 'Written by the SDK' }]);

    const one = await articles.findOne(first.documentId, { populate: { tags: { fields: ['name'], sort: 'name:desc' }, seo: true, blocks: true } });
    expect(one.data.tags.map((t: any) => t.name)).toEqual(['v5', 'sdk']);
    expect(one.data.seo).toMatchObject({ metaTitle: 'SDK' });
    expect(one.data.blocks).toEqual([{ __component: 'shared.quote', id: expect.any(Number), title: 'Q', body: 'Quoted' }]);
  });

  it('@strapi/client: drafts with status, updates and deletes by documentId (204), the single type, files', async () => {
    const client = v5(token);
    const articles = client.collection('articles');
    const draft = (await articles.create({ title: 'A draft from the SDK' }, { status: 'draft' })).data;
    expect(draft.publishedAt).toBeNull();
    const published = await articles.find({ fields: ['title'], sort: 'title:asc' });
    expect(published.data.map((a: any) => a.title)).not.toContain('A draft from the SDK');
    const drafts = await articles.find({ fields: ['title'], status: 'draft' });
    expect(drafts.data.map((a: any) => a.title)).toContain('A draft from the SDK');
    // Not in the SDK's parameter types, passed through as written.
    const never = await articles.find({ fields: ['title'], status: 'draft', publicationFilter: 'never-published' } as never);
    expect(never.data.map((a: any) => a.title)).toEqual(['A draft from the SDK']);

    const updated = await articles.update(documents.first.documentId, { views: 11, tags: { disconnect: [documents.tags![0].documentId] } }, { populate: ['tags'] });
    expect(updated.data).toMatchObject({ documentId: documents.first.documentId, views: 11 });
    expect(updated.data.tags.map((t: any) => t.name)).toEqual(['v5']);

    await articles.delete(draft.documentId);
    await expect(articles.findOne(draft.documentId, { status: 'draft' })).rejects.toBeInstanceOf(HTTPNotFoundError);
    // Strapi 5 answers a delete of nothing as one of something.
    await articles.delete(draft.documentId);

    const global = client.single('global');
    const written = await global.update({ siteName: 'SDK blog', defaultSeo: { metaTitle: 'Home' } }, { populate: ['defaultSeo'] });
    expect(written.data).toMatchObject({ documentId: expect.any(String), siteName: 'SDK blog', defaultSeo: { metaTitle: 'Home' } });
    expect((await global.find({ fields: ['siteName'] })).data).toEqual({ id: written.data.id, documentId: written.data.documentId, siteName: 'SDK blog' });
    await global.delete();
    await expect(global.find()).rejects.toBeInstanceOf(HTTPNotFoundError);

    const files = await client.files.find({ filters: { name: { $eq: 'cover.png' } } });
    expect(files.map((f: any) => f.documentId)).toEqual([documents.cover.documentId]);
    expect(await client.files.findOne(documents.cover.id)).toMatchObject({ id: documents.cover.id, name: 'cover.png' });
    const renamed = await client.files.update(documents.cover.id, { alternativeText: 'The cover' });
    expect(renamed).toMatchObject({ id: documents.cover.id, alternativeText: 'The cover' });
  });

  it('@strapi/client with a JWT from v4’s login: one secret, one permission table', async () => {
    const anonymous = jsonClient(url);
    const registered = await anonymous.post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' });
    expect(registered.status).toBe(200);
    const client = v5(registered.body.jwt);
    const me = await (await client.fetch('/users/me')).json();
    expect(me).toMatchObject({ id: registered.body.user.id, documentId: expect.stringMatching(/^[a-z0-9]{24}$/), username: 'reader' });
    // The authenticated role may create articles, not authors.
    const created = await client.collection('articles').create({ title: 'Written with a JWT' });
    expect(created.data.title).toBe('Written with a JWT');
    await expect(client.collection('authors').create({ name: 'Nope' })).rejects.toBeInstanceOf(HTTPForbiddenError);
    // A JWT from v5's login is valid on v4.
    const login = await anonymous.post('/v5/api/auth/local', { identifier: 'reader', password: 'Passw0rd!' });
    expect(login.status).toBe(200);
    expect((await jsonClient(url, { authorization: `Bearer ${login.body.jwt}` }).get('/api/users/me')).body).toMatchObject({ username: 'reader' });
    await client.collection('articles').delete(created.data.documentId);
  });

  it('Apollo Client on /v5/graphql: lists, _connection, a document, status, a cache keyed by documentId', async () => {
    const apollo = new ApolloClient({
      link: new HttpLink({ uri: `${url}/v5/graphql`, headers: { authorization: `Bearer ${token}` } }),
      cache: new InMemoryCache({ typePolicies: { Article: { keyFields: ['documentId'] }, Author: { keyFields: ['documentId'] }, Tag: { keyFields: ['documentId'] } } }),
    });
    const list = await apollo.query<any>({
      query: gql`
        query Articles {
          articles(sort: "title:asc", filters: { views: { gte: 5 } }) { documentId title views author { documentId name } tags { documentId name } }
        }
      `,
    });
    expect(list.data.articles.map((a: any) => [a.title, a.author?.name])).toEqual([
      ['Second article', 'Grace'],
      ['Third article', 'Ada'],
      ['Written by the SDK', 'Ada'],
    ]);
    expect(list.data.articles[2]).toMatchObject({ documentId: documents.first.documentId, views: 11, tags: [{ documentId: documents.tags![1].documentId, name: 'v5' }] });
    // The cache holds each document once, under its documentId.
    expect(apollo.cache.identify({ __typename: 'Article', documentId: documents.first.documentId })).toBe(`Article:{"documentId":"${documents.first.documentId}"}`);
    expect((apollo.cache.extract() as Record<string, any>)[`Article:{"documentId":"${documents.first.documentId}"}`]).toMatchObject({ title: 'Written by the SDK' });

    const connection = await apollo.query<any>({
      query: gql`
        query Page($page: Int!) {
          articles_connection(sort: "views:desc", pagination: { page: $page, pageSize: 2 }) { nodes { documentId title } pageInfo { total page pageSize pageCount } }
        }
      `,
      variables: { page: 2 },
    });
    expect(connection.data.articles_connection.pageInfo).toMatchObject({ total: 3, page: 2, pageSize: 2, pageCount: 2 });
    expect(connection.data.articles_connection.nodes.map((n: any) => n.title)).toEqual(['Written by the SDK']);

    const one = await apollo.query<any>({
      query: gql`
        query One($documentId: ID!) {
          article(documentId: $documentId) { documentId title seo { metaTitle } blocks { __typename ... on ComponentSharedQuote { body } } }
        }
      `,
      variables: { documentId: documents.first.documentId },
    });
    expect(one.data.article).toMatchObject({ title: 'Written by the SDK', seo: { metaTitle: 'SDK' }, blocks: [{ __typename: 'ComponentSharedQuote', body: 'Quoted' }] });

    await v5(token).collection('articles').create({ title: 'A draft for Apollo' }, { status: 'draft' });
    const statuses = gql`
      query Status($status: PublicationStatus) {
        articles(status: $status, filters: { title: { startsWith: "A draft" } }) { documentId title publishedAt }
      }
    `;
    expect((await apollo.query<any>({ query: statuses, variables: { status: 'PUBLISHED' }, fetchPolicy: 'network-only' })).data.articles).toEqual([]);
    expect((await apollo.query<any>({ query: statuses, variables: { status: 'DRAFT' }, fetchPolicy: 'network-only' })).data.articles).toEqual([
      { __typename: 'Article', documentId: expect.any(String), title: 'A draft for Apollo', publishedAt: null },
    ]);
  });

  it('the v4 clients keep working on /api of the same server, on the same documents', async () => {
    const api = v4Client.createClient({ url, token });
    const first = await api.articles.findOne(documents.first.id, { populate: ['author', 'tags'] });
    expect(first.data.attributes).toMatchObject({ title: 'Written by the SDK', views: 11 });
    expect(first.data.attributes.author.data?.attributes.name).toBe('Ada');
    expect(first.data.attributes.tags.data.map((t) => t.attributes.name)).toEqual(['v5']);
    // A v4 write, read back on v5.
    await api.articles.update(documents.first.id, { views: 12 });
    expect((await v5(token).collection('articles').findOne(documents.first.documentId)).data.views).toBe(12);
    const list = await api.articles.find({ fields: ['title'], sort: 'title:asc', publicationState: 'live' });
    expect(list.data.map((a) => a.attributes.title)).toEqual(['Second article', 'Third article', 'Written by the SDK']);

    const apollo = new ApolloClient({ link: new HttpLink({ uri: `${url}/graphql`, headers: { authorization: `Bearer ${token}` } }), cache: new InMemoryCache() });
    const v4 = await apollo.query<any>({ query: gql`{ articles(sort: "title:asc") { data { id attributes { title } } } }` });
    expect(v4.data.articles.data.map((a: any) => [Number(a.id), a.attributes.title])).toEqual(list.data.map((a) => [a.id, a.attributes.title]));
  });
});
