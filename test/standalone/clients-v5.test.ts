/**
 * Real clients on the v5 mount of a server installed as production does, outside this
 * repository (issue 30, "Done when"): the blog built into a temporary folder, its lock written,
 * `NODE_ENV=production npm ci`, `npm start` on a fresh database. Strapi's own v5 SDK,
 * `@strapi/client`, reads (filters, populate, sort, pagination, status), creates, updates and
 * deletes documents by documentId (components, a dynamic zone and media among the writes), the
 * single type and files, with an API token and with a JWT from v4's login. Apollo Client
 * (4.x, InMemoryCache keyed by documentId) and urql (@urql/core with graphcache) on
 * `/v5/graphql` do what a v5 frontend does: reads (lists, `_connection`, `status`, a document),
 * mutations (create as a draft with relations by documentId, components and a zone, publish,
 * an edit saved as a draft, delete), register and login then queries with the JWT, and Strapi 5's
 * errors (`extensions.code` and `extensions.error`) as each client surfaces them. A page on
 * another origin in Chromium logs in, reads REST and runs GraphQL on the v5 mount and uses
 * @strapi/client's browser build (CORS). The build's own v4 client and Apollo on `/graphql` keep
 * working on `/api` of the same server, on the same documents. One build, one install for the
 * file (about 2 minutes of its time).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { Client as UrqlClient, CombinedError, fetchExchange, gql as urqlGql } from '@urql/core';
import { cacheExchange as graphcache } from '@urql/exchange-graphcache';
import { HTTPForbiddenError, HTTPNotFoundError, strapi } from '@strapi/client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';
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

  // What a v5 frontend writes. The tests above have read and written their documents; these
  // add their own (titles starting with "W:"), so the lists above keep their answers.

  it('@strapi/client writes components, a dynamic zone and media: create, update in place, replace, unlink', async () => {
    const client = v5(token);
    const png = await sharp({ create: { width: 16, height: 8, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const banner = await client.files.upload(png, { filename: 'banner.png', mimetype: 'image/png', fileInfo: { alternativeText: 'Banner', caption: 'A banner' } });
    expect(banner[0]).toMatchObject({ id: expect.any(Number), documentId: expect.stringMatching(/^[a-z0-9]{24}$/), name: 'banner.png', alternativeText: 'Banner', caption: 'A banner', width: 16, height: 8 });
    const articles = client.collection('articles');
    const populate = { seo: true, links: true, blocks: true, cover: { fields: ['name'] } } as const;
    const created = (
      await articles.create(
        {
          title: 'W: components and a zone',
          cover: documents.cover.id,
          seo: { metaTitle: 'Zone', metaDescription: 'With a zone' },
          links: [
            { label: 'One', url: 'https://one.example' },
            { label: 'Two', url: 'https://two.example' },
          ],
          blocks: [
            { __component: 'shared.quote', title: 'First', body: 'A quote' },
            { __component: 'shared.rich-text', body: '**Rich**' },
          ],
        },
        { populate },
      )
    ).data;
    expect(created).toMatchObject({
      title: 'W: components and a zone',
      seo: { id: expect.any(Number), metaTitle: 'Zone', metaDescription: 'With a zone' },
      links: [
        { id: expect.any(Number), label: 'One', url: 'https://one.example' },
        { id: expect.any(Number), label: 'Two', url: 'https://two.example' },
      ],
      blocks: [
        { __component: 'shared.quote', id: expect.any(Number), title: 'First', body: 'A quote' },
        { __component: 'shared.rich-text', id: expect.any(Number), body: '**Rich**' },
      ],
      cover: { id: documents.cover.id, documentId: documents.cover.documentId, name: 'cover.png' },
    });
    // Strapi 5 answers a zone item with `__component` last and a file with its documentId.
    expect(Object.keys(created.blocks[0]).at(-1)).toBe('__component');

    // An edit form sends back what it read: components with their ids are updated in place,
    // a zone item without id is a new one, and the other media file replaces the cover.
    const updated = (
      await articles.update(
        created.documentId,
        {
          seo: { id: created.seo.id, metaTitle: 'Zone, edited' },
          links: [{ id: created.links[1].id, label: 'Two, first now', url: 'https://two.example' }],
          blocks: [created.blocks[1], { __component: 'shared.quote', title: 'Second', body: 'Another quote' }],
          cover: banner[0]!.id,
        },
        { populate },
      )
    ).data;
    // Fields the edit leaves out keep their values: Strapi updates an instance named by its id with
    // the fields given (@strapi/core document-service/components.js updateOrCreateComponent).
    expect(updated.seo).toEqual({ id: created.seo.id, metaTitle: 'Zone, edited', metaDescription: 'With a zone' });
    expect(updated.links).toEqual([{ id: created.links[1].id, label: 'Two, first now', url: 'https://two.example' }]);
    expect(updated.blocks.map((b: any) => [b.__component, b.title ?? b.body])).toEqual([
      ['shared.rich-text', '**Rich**'],
      ['shared.quote', 'Second'],
    ]);
    expect(updated.cover).toEqual({ id: banner[0]!.id, documentId: banner[0]!.documentId, name: 'banner.png' });
    // A populate of one zone component's fields (`on`), as a page's query writes it.
    const on = await articles.findOne(created.documentId, { populate: { blocks: { on: { 'shared.quote': { fields: ['title'] } } } } } as never);
    expect(on.data.blocks).toEqual([{ __component: 'shared.quote', id: expect.any(Number), title: 'Second' }]);

    // null unlinks the media and empties the component; the file stays in the library.
    const cleared = (await articles.update(created.documentId, { cover: null, seo: null, blocks: [] }, { populate })).data;
    expect(cleared).toMatchObject({ cover: null, seo: null, blocks: [] });
    expect((await client.files.findOne(banner[0]!.id)).name).toBe('banner.png');
    await articles.delete(created.documentId);
    await client.files.delete(banner[0]!.id);
    expect((await client.files.find({ filters: { name: { $eq: 'banner.png' } } })).length).toBe(0);
  });

  /** Apollo Client on /v5/graphql as a v5 frontend sets it up: documentId keys, the zone's possible types. */
  const apolloV5 = (authorization?: string) =>
    new ApolloClient({
      link: new HttpLink({ uri: `${url}/v5/graphql`, headers: authorization ? { authorization: `Bearer ${authorization}` } : {} }),
      cache: new InMemoryCache({
        possibleTypes: { ArticleBlocksDynamicZone: ['ComponentSharedQuote', 'ComponentSharedRichText'] },
        typePolicies: { Article: { keyFields: ['documentId'] }, Author: { keyFields: ['documentId'] }, Tag: { keyFields: ['documentId'] }, UploadFile: { keyFields: ['documentId'] } },
      }),
    });

  const articleFields = `
    documentId title publishedAt
    author { documentId name }
    tags { documentId name }
    cover { documentId name }
    seo { id metaTitle }
    links { id label url }
    blocks { __typename ... on ComponentSharedQuote { id title body } ... on ComponentSharedRichText { id body } }
  `;

  it('Apollo Client mutations: create a draft with relations by documentId, components and a zone; publish; edit as a draft; delete', async () => {
    const apollo = apolloV5(token);
    const create = gql`
      mutation Create($data: ArticleInput!) { createArticle(status: DRAFT, data: $data) { ${articleFields} } }
    `;
    const created = (
      await apollo.mutate<any>({
        mutation: create,
        variables: {
          data: {
            title: 'W: Apollo draft',
            author: documents.ada!.documentId,
            tags: documents.tags!.map((t) => t.documentId),
            cover: String(documents.cover.id),
            seo: { metaTitle: 'Apollo' },
            links: [{ label: 'Docs', url: 'https://docs.example' }],
            blocks: [
              { __typename: 'ComponentSharedQuote', title: 'Q', body: 'From Apollo' },
              { __typename: 'ComponentSharedRichText', body: 'Rich from Apollo' },
            ],
          },
        },
      })
    ).data.createArticle;
    expect(created).toMatchObject({
      __typename: 'Article',
      documentId: expect.stringMatching(/^[a-z0-9]{24}$/),
      title: 'W: Apollo draft',
      publishedAt: null,
      author: { documentId: documents.ada!.documentId, name: 'Ada' },
      cover: { documentId: documents.cover.documentId, name: 'cover.png' },
      seo: { __typename: 'ComponentSharedSeo', id: expect.any(String), metaTitle: 'Apollo' },
      links: [{ label: 'Docs', url: 'https://docs.example' }],
      blocks: [
        { __typename: 'ComponentSharedQuote', title: 'Q', body: 'From Apollo' },
        { __typename: 'ComponentSharedRichText', body: 'Rich from Apollo' },
      ],
    });
    expect(created.tags.map((t: any) => t.name)).toEqual(['sdk', 'v5']);
    const documentId = created.documentId as string;

    const one = gql`
      query One($documentId: ID!, $status: PublicationStatus) { article(documentId: $documentId, status: $status) { documentId title publishedAt } }
    `;
    const read = async (status: 'DRAFT' | 'PUBLISHED') => (await apollo.query<any>({ query: one, variables: { documentId, status }, fetchPolicy: 'network-only' })).data.article;
    expect(await read('PUBLISHED')).toBeNull();
    expect(await read('DRAFT')).toMatchObject({ documentId, title: 'W: Apollo draft', publishedAt: null });

    // Publishing is an update with status PUBLISHED (the default): Strapi 5 has no publish mutation.
    const update = gql`
      mutation Update($documentId: ID!, $status: PublicationStatus, $data: ArticleInput!) { updateArticle(documentId: $documentId, status: $status, data: $data) { ${articleFields} } }
    `;
    const published = (await apollo.mutate<any>({ mutation: update, variables: { documentId, status: 'PUBLISHED', data: {} } })).data.updateArticle;
    expect(published).toMatchObject({ documentId, title: 'W: Apollo draft', publishedAt: expect.any(String), author: { name: 'Ada' }, seo: { metaTitle: 'Apollo' } });
    expect(await read('PUBLISHED')).toMatchObject({ documentId, publishedAt: expect.any(String) });

    // Relations by documentId; the cache's one Article entry follows the mutation's answer.
    const moved = (await apollo.mutate<any>({ mutation: update, variables: { documentId, data: { author: documents.grace!.documentId, tags: [documents.tags![1].documentId] } } })).data.updateArticle;
    expect(moved).toMatchObject({ author: { documentId: documents.grace!.documentId, name: 'Grace' }, tags: [{ documentId: documents.tags![1].documentId, name: 'v5' }] });
    const cached = apollo.cache.readFragment<any>({ id: apollo.cache.identify({ __typename: 'Article', documentId })!, fragment: gql`fragment A on Article { title author { name } tags { name } }` });
    expect(cached).toMatchObject({ title: 'W: Apollo draft', author: { name: 'Grace' }, tags: [{ name: 'v5' }] });

    // An edit saved as a draft: the live version is served until it is published.
    const drafted = (await apollo.mutate<any>({ mutation: update, variables: { documentId, status: 'DRAFT', data: { title: 'W: Apollo draft, edited' } } })).data.updateArticle;
    expect(drafted).toMatchObject({ documentId, title: 'W: Apollo draft, edited', publishedAt: null });
    expect(await read('PUBLISHED')).toMatchObject({ title: 'W: Apollo draft' });
    expect(await read('DRAFT')).toMatchObject({ title: 'W: Apollo draft, edited' });
    const modified = await apollo.query<any>({
      query: gql`query { articles(status: DRAFT, publicationFilter: MODIFIED) { documentId title } }`,
      fetchPolicy: 'network-only',
    });
    expect(modified.data.articles).toEqual([{ __typename: 'Article', documentId, title: 'W: Apollo draft, edited' }]);
    await apollo.mutate<any>({ mutation: update, variables: { documentId, data: {} } });
    expect(await read('PUBLISHED')).toMatchObject({ title: 'W: Apollo draft, edited', publishedAt: expect.any(String) });

    const removed = await apollo.mutate<any>({ mutation: gql`mutation Delete($documentId: ID!) { deleteArticle(documentId: $documentId) { documentId } }`, variables: { documentId } });
    expect(removed.data.deleteArticle).toEqual({ __typename: 'DeleteMutationResponse', documentId });
    apollo.cache.evict({ id: apollo.cache.identify({ __typename: 'Article', documentId })! });
    expect(await read('DRAFT')).toBeNull();
    expect(await read('PUBLISHED')).toBeNull();
  });

  it('Apollo Client: register and login mutations, queries with the JWT, errors as Strapi 5 sends them', async () => {
    const anonymous = apolloV5();
    const registered = (
      await anonymous.mutate<any>({
        mutation: gql`mutation Register($input: UsersPermissionsRegisterInput!) { register(input: $input) { jwt user { id documentId username email confirmed blocked role { name type } } } }`,
        variables: { input: { username: 'apollo', email: 'apollo@example.com', password: 'Passw0rd!' } },
      })
    ).data.register;
    expect(registered).toMatchObject({ jwt: expect.any(String), user: { documentId: expect.stringMatching(/^[a-z0-9]{24}$/), username: 'apollo', email: 'apollo@example.com', confirmed: true, blocked: false, role: null } });
    // Strapi 5 answers the role of login's and register's user as null (its user is read without it); `me` has it.

    const login = gql`mutation Login($identifier: String!, $password: String!) { login(input: { identifier: $identifier, password: $password }) { jwt user { documentId username } } }`;
    // A wrong password: the mutation throws CombinedGraphQLErrors carrying Strapi's error.
    const wrong = await anonymous.mutate<any>({ mutation: login, variables: { identifier: 'apollo', password: 'nope' } }).catch((error: unknown) => error);
    expect(CombinedGraphQLErrors.is(wrong)).toBe(true);
    expect((wrong as CombinedGraphQLErrors).errors).toEqual([
      {
        message: 'Invalid identifier or password',
        path: ['login'],
        extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Invalid identifier or password', details: {} } },
      },
    ]);
    const session = (await anonymous.mutate<any>({ mutation: login, variables: { identifier: 'apollo@example.com', password: 'Passw0rd!' } })).data.login;
    expect(session.user).toEqual({ __typename: 'UsersPermissionsMe', documentId: registered.user.documentId, username: 'apollo' });

    const user = apolloV5(session.jwt);
    const me = await user.query<any>({ query: gql`query { me { documentId username email role { type } } }` });
    expect(me.data.me).toEqual({ __typename: 'UsersPermissionsMe', documentId: registered.user.documentId, username: 'apollo', email: 'apollo@example.com', role: { __typename: 'UsersPermissionsMeRole', type: 'authenticated' } });
    // The authenticated role may create articles, not authors: FORBIDDEN, data null for the field.
    const mine = (await user.mutate<any>({ mutation: gql`mutation { createArticle(data: { title: "W: with a JWT" }) { documentId title } }` })).data.createArticle;
    expect(mine.title).toBe('W: with a JWT');
    const refused = await user.mutate<any>({ mutation: gql`mutation { createAuthor(data: { name: "Nope" }) { documentId } }`, errorPolicy: 'all' });
    expect(refused.data).toEqual({ createAuthor: null });
    expect(CombinedGraphQLErrors.is(refused.error)).toBe(true);
    expect((refused.error as CombinedGraphQLErrors).errors).toEqual([
      { message: 'Forbidden access', path: ['createAuthor'], extensions: { code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } } },
    ]);
    // A validation error: every issue in extensions.error.details, as Strapi 5's yup errors.
    const invalid = await user
      .mutate<any>({ mutation: gql`mutation Update($documentId: ID!) { updateArticle(documentId: $documentId, data: { title: "ab", views: -1 }) { documentId } }`, variables: { documentId: mine.documentId } })
      .catch((error: unknown) => error);
    expect(CombinedGraphQLErrors.is(invalid)).toBe(true);
    const [issue] = (invalid as CombinedGraphQLErrors).errors;
    expect(issue).toMatchObject({ message: '2 errors occurred', path: ['updateArticle'], extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: '2 errors occurred' } } });
    expect((issue!.extensions!.error as any).details.errors).toEqual([
      { path: ['title'], message: 'title must be at least 3 characters', name: 'ValidationError', value: 'ab' },
      { path: ['views'], message: 'views must be greater than or equal to 0', name: 'ValidationError', value: -1 },
    ]);
    // A query the schema refuses (v4's shape on v5) fails as a whole: 400, GRAPHQL_VALIDATION_FAILED.
    const v4Shape = await user.query<any>({ query: gql`query { articles { data { id } } }` }).catch((error: unknown) => error);
    expect(CombinedGraphQLErrors.is(v4Shape)).toBe(true);
    expect((v4Shape as CombinedGraphQLErrors).errors[0]).toMatchObject({ message: 'Cannot query field "data" on type "Article".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    // What the clients asked for: GraphQL over HTTP's media type when preferred (Apollo Client 4
    // and urql list it first), JSON without Accept, 406 when neither is accepted, as Strapi 5
    // (Apollo Server 4) answers; v4's endpoint answers JSON, as Strapi v4 (Apollo Server 3).
    const post = (path: string, accept?: string) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(accept ? { accept } : {}) }, body: JSON.stringify({ query: '{ __typename }' }) });
    const preferred = 'application/graphql-response+json,application/json;q=0.9';
    expect((await post('/v5/graphql', preferred)).headers.get('content-type')).toBe('application/graphql-response+json; charset=utf-8');
    expect((await post('/v5/graphql')).headers.get('content-type')).toBe('application/json; charset=utf-8');
    const plain = await post('/v5/graphql', 'text/plain');
    expect(plain.status).toBe(406);
    expect((await plain.json()).errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    expect((await post('/graphql', preferred)).headers.get('content-type')).toBe('application/json; charset=utf-8');
    // Without a token: me is FORBIDDEN.
    const nobody = await anonymous.query<any>({ query: gql`query { me { username } }`, errorPolicy: 'all' });
    expect(nobody.data).toEqual({ me: null });
    expect((nobody.error as CombinedGraphQLErrors).errors[0]!.extensions).toEqual({ code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } });
    await user.mutate<any>({ mutation: gql`mutation Delete($documentId: ID!) { deleteArticle(documentId: $documentId) { documentId } }`, variables: { documentId: mine.documentId } });
  });

  it('urql with graphcache keyed by documentId: reads, mutations that update the cache, login and the JWT, errors', async () => {
    const keys = { Article: (a: any) => a.documentId, Author: (a: any) => a.documentId, Tag: (t: any) => t.documentId, UploadFile: (f: any) => f.documentId, UsersPermissionsMe: (u: any) => u.documentId };
    const urqlV5 = (jwt?: string) =>
      new UrqlClient({
        url: `${url}/v5/graphql`,
        fetchOptions: (): RequestInit => ({ headers: jwt ? { authorization: `Bearer ${jwt}` } : ({} as Record<string, string>) }),
        exchanges: [graphcache({ keys, possibleTypes: { ArticleBlocksDynamicZone: ['ComponentSharedQuote', 'ComponentSharedRichText'] } } as never), fetchExchange],
      });
    const urql = urqlV5(token);
    const list = urqlGql`query List { articles(sort: "title:asc", filters: { title: { startsWith: "W:" } }) { documentId title views author { documentId name } } }`;
    expect((await urql.query(list, {}).toPromise()).data.articles).toEqual([]);

    const create = urqlGql`mutation Create($data: ArticleInput!) { createArticle(data: $data) { documentId title views author { documentId name } seo { id metaTitle } blocks { __typename ... on ComponentSharedQuote { id title } } } }`;
    const created = await urql.mutation(create, { data: { title: 'W: urql', views: 1, author: documents.ada!.documentId, seo: { metaTitle: 'urql' }, blocks: [{ __typename: 'ComponentSharedQuote', title: 'From urql' }] } }).toPromise();
    expect(created.error).toBeUndefined();
    const article = created.data.createArticle;
    expect(article).toMatchObject({ title: 'W: urql', views: 1, author: { name: 'Ada' }, seo: { metaTitle: 'urql' }, blocks: [{ __typename: 'ComponentSharedQuote', title: 'From urql' }] });
    // graphcache sees that a mutation touched Article and refetches the list.
    expect((await urql.query(list, {}, { requestPolicy: 'network-only' }).toPromise()).data.articles.map((a: any) => a.title)).toEqual(['W: urql']);

    const one = urqlGql`query One($documentId: ID!) { article(documentId: $documentId) { documentId title views author { documentId name } } }`;
    expect((await urql.query(one, { documentId: article.documentId }).toPromise()).data.article).toMatchObject({ title: 'W: urql', views: 1 });
    const update = urqlGql`mutation Update($documentId: ID!, $data: ArticleInput!) { updateArticle(documentId: $documentId, data: $data) { documentId title views author { documentId name } } }`;
    const updated = await urql.mutation(update, { documentId: article.documentId, data: { views: 2, author: documents.grace!.documentId } }).toPromise();
    expect(updated.data.updateArticle).toMatchObject({ views: 2, author: { documentId: documents.grace!.documentId, name: 'Grace' } });
    // The normalised entity was updated by the mutation's answer: a cache-only read sees it.
    const fromCache = await urql.query(one, { documentId: article.documentId }, { requestPolicy: 'cache-only' }).toPromise();
    expect(fromCache.data.article).toMatchObject({ documentId: article.documentId, views: 2, author: { name: 'Grace' } });

    // Errors: urql's CombinedError with Strapi 5's extensions, the field null.
    const invalid = await urql.mutation(update, { documentId: article.documentId, data: { title: 'ab' } }).toPromise();
    expect(invalid.error).toBeInstanceOf(CombinedError);
    expect(invalid.error!.graphQLErrors.map((e) => [e.message, e.path, e.extensions])).toEqual([
      [
        'title must be at least 3 characters',
        ['updateArticle'],
        { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'title must be at least 3 characters', details: { errors: [{ path: ['title'], message: 'title must be at least 3 characters', name: 'ValidationError', value: 'ab' }] } } },
      ],
    ]);
    const missing = await urql.mutation(update, { documentId: 'a'.repeat(24), data: { views: 3 } }).toPromise();
    expect(missing.error).toBeUndefined();
    expect(missing.data).toEqual({ updateArticle: null });

    // Login through urql, then a client with the JWT.
    const login = await urqlV5().mutation(urqlGql`mutation { login(input: { identifier: "reader", password: "Passw0rd!" }) { jwt user { documentId username } } }`, {}).toPromise();
    expect(login.error).toBeUndefined();
    const reader = urqlV5(login.data.login.jwt);
    expect((await reader.query(urqlGql`query { me { documentId username } }`, {}).toPromise()).data.me).toMatchObject({ documentId: login.data.login.user.documentId, username: 'reader' });
    const refused = await reader.mutation(urqlGql`mutation { createTag(data: { name: "nope" }) { documentId } }`, {}).toPromise();
    expect(refused.error!.graphQLErrors[0]!.extensions).toEqual({ code: 'FORBIDDEN', error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} } });

    const removed = await urql.mutation(urqlGql`mutation Delete($documentId: ID!) { deleteArticle(documentId: $documentId) { documentId } }`, { documentId: article.documentId }).toPromise();
    expect(removed.data.deleteArticle).toMatchObject({ documentId: article.documentId });
    expect((await urql.query(list, {}, { requestPolicy: 'network-only' }).toPromise()).data.articles).toEqual([]);
  });

  it.skipIf(chromiumMissing !== undefined)('a page on another origin: login, REST and GraphQL on the v5 mount with the JWT, and @strapi/client’s browser build (CORS)', async () => {
    const api = url.replace('127.0.0.1', 'localhost');
    const sdk = await readFile(path.join(repoRoot, 'node_modules/@strapi/client/dist/bundle.browser.iife.min.js'));
    const page = `<!doctype html><html><head><meta charset="utf-8"><title>v5 frontend</title><script src="/strapi-client.js"></script></head><body><script type="module">
const api = ${JSON.stringify(api)};
async function run() {
  const login = await fetch(api + '/v5/api/auth/local', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: 'reader', password: 'Passw0rd!' }) });
  const { jwt, user } = await login.json();
  const auth = { Authorization: 'Bearer ' + jwt };
  const rest = await (await fetch(api + '/v5/api/articles?fields[0]=title&populate[author][fields][0]=name&sort=title:asc&filters[title][$eq]=Written%20by%20the%20SDK')).json();
  const gql = (query, variables) => fetch(api + '/v5/graphql', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query, variables }) }).then((r) => r.json());
  const created = await gql('mutation($data: ArticleInput!) { createArticle(status: DRAFT, data: $data) { documentId title publishedAt } }', { data: { title: 'W: from the browser' } });
  const me = await gql('{ me { username } }');
  const client = window.strapi.strapi({ baseURL: api + '/v5/api', auth: jwt });
  const drafts = await client.collection('articles').find({ fields: ['title'], status: 'draft', filters: { title: { $eq: 'W: from the browser' } } });
  const deleted = await client.collection('articles').delete(created.data.createArticle.documentId);
  let refused;
  try { await client.collection('tags').create({ name: 'nope' }); } catch (error) { refused = { name: error.name, status: error.response?.status }; }
  return { user: user.username, documentId: user.documentId, rest, created, me, drafts, deleted: deleted ?? null, refused };
}
run().then((result) => { window.result = result; }, (error) => { window.result = { error: String(error) }; });
</script></body></html>`;
    const frontend = http.createServer((req, res) => {
      if (req.url === '/strapi-client.js') return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(sdk);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
    const browser = await launchChromium();
    try {
      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      tab.on('pageerror', (error) => problems.push(error.message));
      const origin = `http://127.0.0.1:${(frontend.address() as AddressInfo).port}`;
      expect(origin).not.toBe(new URL(api).origin);
      await tab.goto(`${origin}/`);
      await tab.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 30_000 });
      const result = (await tab.evaluate(() => (window as unknown as { result: unknown }).result)) as any;
      expect(result.error).toBeUndefined();
      expect(result).toMatchObject({ user: 'reader', documentId: expect.stringMatching(/^[a-z0-9]{24}$/) });
      expect(result.rest.data).toEqual([{ id: documents.first.id, documentId: documents.first.documentId, title: 'Written by the SDK', author: { id: documents.ada!.id, documentId: documents.ada!.documentId, name: 'Ada' } }]);
      expect(result.created).toEqual({ data: { createArticle: { documentId: expect.stringMatching(/^[a-z0-9]{24}$/), title: 'W: from the browser', publishedAt: null } } });
      expect(result.me).toEqual({ data: { me: { username: 'reader' } } });
      expect(result.drafts.data).toEqual([{ id: expect.any(Number), documentId: result.created.data.createArticle.documentId, title: 'W: from the browser' }]);
      // The SDK's delete: 204 without a body.
      expect(result.deleted).toBeNull();
      expect(result.refused).toEqual({ name: 'HTTPForbiddenError', status: 403 });
      // The browser logs the refused request (403) and nothing else: no CORS error.
      expect(problems.filter((p) => !p.includes('403'))).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => frontend.close(resolve));
    }
  });
});
