/**
 * GraphQL on the emitted blog server, over real HTTP: every Shadow CRUD operation with the
 * same data, permissions and errors as REST; relation fields with their own arguments;
 * components, dynamic zones, enums and scalars; a statement count that does not grow with
 * the number of entries; the limits (items per list, depth, document size); GET, the
 * playground page, and schema.graphql matching the served schema.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let fullAccess: Record<string, string>;

interface GraphqlResponse {
  status: number;
  body: any;
  headers: Headers;
}

async function gql(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = fullAccess): Promise<GraphqlResponse> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, ...(variables ? { variables } : {}) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** The data of a successful answer; anything else fails the test with the answer. */
async function data(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any> {
  const res = await gql(query, variables, headers);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

function statements(res: GraphqlResponse): number {
  const header = res.headers.get('server-timing') ?? '';
  const match = /desc="(\d+) queries"/.exec(header);
  if (!match) throw new Error(`no Server-Timing header: ${header}`);
  return Number(match[1]);
}

const ids = { ann: '', bob: '', news: '', tags: [] as string[] };

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir, { SERVER_TIMING: '1' });
  fullAccess = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const created = await data(`mutation {
    ann: createAuthor(data: { name: "Ann", email: "ann@example.com" }) { data { id } }
    bob: createAuthor(data: { name: "Bob", email: "bob@example.com" }) { data { id } }
    news: createCategory(data: { name: "News" }) { data { id } }
    t1: createTag(data: { name: "t1" }) { data { id } }
    t2: createTag(data: { name: "t2" }) { data { id } }
    t3: createTag(data: { name: "t3" }) { data { id } }
  }`);
  ids.ann = created.ann.data.id;
  ids.bob = created.bob.data.id;
  ids.news = created.news.data.id;
  ids.tags = [created.t1.data.id, created.t2.data.id, created.t3.data.id];
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('schema', () => {
  it('schema.graphql of the build is the schema served (no drift warning at start)', async () => {
    const file = await readFile(path.join(built.dir, 'schema.graphql'), 'utf8');
    expect(file).toContain('type ArticleEntityResponseCollection {');
    expect(server.output()).not.toContain('schema.graphql does not match');
    const { __schema } = await data('{ __schema { queryType { name } types { name } } }');
    const served = __schema.types.map((t: { name: string }) => t.name).filter((n: string) => !n.startsWith('__'));
    for (const name of served) if (!['String', 'Int', 'Float', 'Boolean', 'ID'].includes(name)) expect(file).toMatch(new RegExp(`^(type|input|enum|union|scalar) ${name}\\b`, 'm'));
  });
});

describe('mutations and queries (Shadow CRUD)', () => {
  let articleId = '';

  it('createArticle with relations, components, a dynamic zone, an enum and every scalar; ids are strings', async () => {
    const { createArticle } = await data(
      `mutation Create($data: ArticleInput!) {
        createArticle(data: $data) {
          data {
            id
            attributes {
              title slug status views rating price impressions featured publishDate readingTime lastReviewedAt metadata publishedAt
              author { data { id attributes { name } } }
              category { data { id } }
              tags { data { id attributes { name } } }
              seo { id metaTitle }
              links { id label url }
              blocks { __typename ... on ComponentSharedQuote { id title body } ... on ComponentSharedRichText { id body } }
            }
          }
        }
      }`,
      {
        data: {
          title: 'Hello GraphQL',
          status: 'in_review',
          views: 3,
          rating: 4.5,
          price: 9.99,
          impressions: '9007199254740993',
          featured: true,
          publishDate: '2024-02-29',
          readingTime: '00:05:00.000',
          lastReviewedAt: '2024-03-01T10:00:00+01:00',
          metadata: { a: [1, 2] },
          author: ids.ann,
          category: ids.news,
          tags: [ids.tags[1], ids.tags[0]],
          seo: { metaTitle: 'Hello' },
          links: [{ label: 'one', url: 'https://one' }, { label: 'two', url: 'https://two' }],
          blocks: [{ __typename: 'ComponentSharedQuote', title: 'Q', body: 'B' }, { __typename: 'ComponentSharedRichText', body: '*rich*' }],
          publishedAt: '2024-03-02T00:00:00Z',
        },
      },
    );
    const { id, attributes } = createArticle.data;
    articleId = id;
    expect(typeof id).toBe('string');
    expect(attributes).toMatchObject({
      title: 'Hello GraphQL',
      slug: null,
      status: 'in_review',
      views: 3,
      rating: 4.5,
      price: 9.99,
      impressions: '9007199254740993',
      featured: true,
      publishDate: '2024-02-29',
      readingTime: '00:05:00.000',
      lastReviewedAt: '2024-03-01T09:00:00.000Z',
      metadata: { a: [1, 2] },
      publishedAt: '2024-03-02T00:00:00.000Z',
      author: { data: { id: ids.ann, attributes: { name: 'Ann' } } },
      category: { data: { id: ids.news } },
      tags: { data: [{ id: ids.tags[1], attributes: { name: 't2' } }, { id: ids.tags[0], attributes: { name: 't1' } }] },
      seo: { id: expect.any(String), metaTitle: 'Hello' },
      links: [{ label: 'one', url: 'https://one' }, { label: 'two', url: 'https://two' }],
      blocks: [{ __typename: 'ComponentSharedQuote', title: 'Q', body: 'B' }, { __typename: 'ComponentSharedRichText', body: '*rich*' }],
    });
    // Same data as REST.
    const rest = await fetch(`${server.url}/api/articles/${id}?populate=*`, { headers: fullAccess }).then((r) => r.json());
    expect(rest.data.attributes).toMatchObject({ title: 'Hello GraphQL', status: 'in review', impressions: '9007199254740993', publishDate: '2024-02-29' });
  });

  it('article(id) finds it; an unknown id answers { data: null } without an error', async () => {
    const found = await data(`{ article(id: ${articleId}) { data { id attributes { title } } } }`);
    expect(found.article.data).toEqual({ id: articleId, attributes: { title: 'Hello GraphQL' } });
    expect(await data('{ article(id: 999999) { data { id } } }')).toEqual({ article: { data: null } });
  });

  it('updateArticle is partial; component ids are kept when repeated; a missing entry answers { data: null }', async () => {
    const before = await data(`{ article(id: ${articleId}) { data { attributes { links { id label } } } } }`);
    const [first] = before.article.data.attributes.links;
    const { updateArticle } = await data(
      `mutation { updateArticle(id: ${articleId}, data: { title: "Renamed", links: [{ id: "${first.id}", label: "one!", url: "https://one" }] }) {
        data { attributes { title status links { id label } } } } }`,
    );
    expect(updateArticle.data.attributes).toEqual({ title: 'Renamed', status: 'in_review', links: [{ id: first.id, label: 'one!' }] });
    expect(await data('mutation { updateArticle(id: 999999, data: { title: "Nope" }) { data { id } } }')).toEqual({ updateArticle: { data: null } });
    expect(await data('mutation { deleteArticle(id: 999999) { data { id } } }')).toEqual({ deleteArticle: { data: null } });
  });

  it('validation errors are BAD_USER_INPUT with Strapi’s extensions.error', async () => {
    const res = await gql('mutation { createArticle(data: { title: "x", views: -1 }) { data { id } } }');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ createArticle: null });
    expect(res.body.errors[0]).toMatchObject({
      message: '2 errors occurred',
      path: ['createArticle'],
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: '2 errors occurred', details: { errors: expect.any(Array) } } },
    });
    const paths = res.body.errors[0].extensions.error.details.errors.map((e: { path: string[] }) => e.path.join('.')).sort();
    expect(paths).toEqual(['title', 'views']);
    const zone = await gql('mutation { createArticle(data: { title: "zone", blocks: [{ __typename: "ComponentNope" }] }) { data { id } } }');
    expect(zone.status).toBe(400);
    expect(zone.body.errors[0].message).toContain('Component not found. expected one of: ComponentSharedQuote, ComponentSharedRichText');
  });

  it('deleteArticle answers the deleted entry', async () => {
    const { createArticle } = await data('mutation { createArticle(data: { title: "Short lived" }) { data { id } } }');
    const { deleteArticle } = await data(`mutation { deleteArticle(id: ${createArticle.data.id}) { data { id attributes { title } } } }`);
    expect(deleteArticle.data).toEqual({ id: createArticle.data.id, attributes: { title: 'Short lived' } });
    expect(await data(`{ article(id: ${createArticle.data.id}) { data { id } } }`)).toEqual({ article: { data: null } });
  });

  it('single types: global, updateGlobal (create or update), deleteGlobal', async () => {
    expect(await data('{ global { data { id } } }')).toEqual({ global: { data: null } });
    const created = await data('mutation { updateGlobal(data: { siteName: "Site", defaultSeo: { metaTitle: "Home" } }) { data { id attributes { siteName defaultSeo { metaTitle } } } } }');
    expect(created.updateGlobal.data.attributes).toEqual({ siteName: 'Site', defaultSeo: { metaTitle: 'Home' } });
    const updated = await data('mutation { updateGlobal(data: { siteName: "Site 2" }) { data { id attributes { siteName } } } }');
    expect(updated.updateGlobal.data).toEqual({ id: created.updateGlobal.data.id, attributes: { siteName: 'Site 2' } });
    expect((await data('{ global { data { attributes { siteName } } } }')).global.data.attributes.siteName).toBe('Site 2');
    expect((await data('mutation { deleteGlobal { data { attributes { siteName } } } }')).deleteGlobal.data.attributes.siteName).toBe('Site 2');
    expect(await data('mutation { deleteGlobal { data { id } } }')).toEqual({ deleteGlobal: { data: null } });
  });
});

describe('lists: filters, sort, pagination, publication state, relation arguments', () => {
  beforeAll(async () => {
    const make = (i: number) =>
      `a${i}: createArticle(data: { title: "List ${String(i).padStart(2, '0')}", views: ${i}, author: ${i % 2 ? ids.ann : ids.bob}, tags: [${ids.tags.map((t) => `"${t}"`).join(',')}], links: [{ label: "b${i}", url: "u" }, { label: "a${i}", url: "u" }, { label: "c${i}", url: "u" }], publishedAt: ${i <= 5 ? '"2024-01-01T00:00:00Z"' : 'null'} }) { data { id } }`;
    await data(`mutation { ${Array.from({ length: 8 }, (_, i) => make(i + 1)).join('\n')} }`);
  });

  const titles = (list: any) => list.data.map((e: any) => e.attributes.title);

  it('filters with operators, relations and combinators; sort; meta.pagination', async () => {
    const { articles } = await data(`{
      articles(filters: { title: { startsWith: "List" }, author: { name: { eq: "Ann" } }, or: [{ views: { lte: 3 } }, { views: { eq: 5 } }] }, sort: "views:desc") {
        data { attributes { title views } }
        meta { pagination { total page pageSize pageCount } }
      }
    }`);
    expect(titles(articles)).toEqual(['List 05', 'List 03', 'List 01']);
    expect(articles.meta.pagination).toEqual({ total: 3, page: 1, pageSize: 25, pageCount: 1 });
    const notIn = await data('{ articles(filters: { views: { notIn: [1, 2, 3] }, title: { containsi: "list" } }, sort: ["views:asc"]) { data { attributes { title } } } }');
    expect(titles(notIn.articles)).toEqual(['List 04', 'List 05']);
  });

  it('publicationState: LIVE (default) shows published entries only; PREVIEW shows drafts too', async () => {
    const live = await data('{ articles(filters: { title: { startsWith: "List" } }) { meta { pagination { total } } } }');
    const preview = await data('{ articles(filters: { title: { startsWith: "List" } }, publicationState: PREVIEW) { meta { pagination { total } } } }');
    expect([live.articles.meta.pagination.total, preview.articles.meta.pagination.total]).toEqual([5, 8]);
  });

  it('page and offset pagination; mixing them is STRAPI_PAGINATION_ERROR', async () => {
    const page = await data('{ articles(filters: { title: { startsWith: "List" } }, publicationState: PREVIEW, sort: "views", pagination: { page: 2, pageSize: 3 }) { data { attributes { title } } meta { pagination { total page pageSize pageCount } } } }');
    expect(titles(page.articles)).toEqual(['List 04', 'List 05', 'List 06']);
    expect(page.articles.meta.pagination).toEqual({ total: 8, page: 2, pageSize: 3, pageCount: 3 });
    const offset = await data('{ articles(filters: { title: { startsWith: "List" } }, publicationState: PREVIEW, sort: "views", pagination: { start: 6, limit: 5 }) { data { attributes { title } } meta { pagination { page pageSize } } } }');
    expect(titles(offset.articles)).toEqual(['List 07', 'List 08']);
    expect(offset.articles.meta.pagination).toEqual({ page: 2, pageSize: 5 });
    const mixed = await gql('{ articles(pagination: { page: 1, limit: 2 }) { data { id } } }');
    expect(mixed.body.errors[0]).toMatchObject({ message: 'Cannot use both page & offset pagination in the same query', extensions: { code: 'STRAPI_PAGINATION_ERROR' } });
  });

  it('relation fields take filters, sort and pagination; repeatable components too', async () => {
    const { articles } = await data(`{
      articles(filters: { title: { eq: "List 02" } }) {
        data { attributes {
          tags(sort: "name:desc", pagination: { limit: 2 }) { data { attributes { name } } }
          some: tags(filters: { name: { in: ["t1", "t3"] } }) { data { attributes { name } } }
          links(sort: "label", pagination: { start: 1, limit: 1 }) { label }
          filtered: links(filters: { label: { startsWith: "c" } }) { label }
          author { data { attributes { name articles(sort: "views:desc", pagination: { limit: 2 }) { data { attributes { title } } } } } }
        } }
      }
    }`);
    const attrs = articles.data[0].attributes;
    expect(attrs.tags.data.map((t: any) => t.attributes.name)).toEqual(['t3', 't2']);
    expect(attrs.some.data.map((t: any) => t.attributes.name)).toEqual(['t1', 't3']);
    expect(attrs.links).toEqual([{ label: 'b2' }]);
    expect(attrs.filtered).toEqual([{ label: 'c2' }]);
    expect(titles(attrs.author.data.attributes.articles)).toEqual(['List 04', 'List 02']);
  });

  it('a relation asked in several fragments answers their union; a bad argument is an error at the field, with the entries', async () => {
    const { articles } = await data(`
      query {
        articles(filters: { title: { eq: "List 02" } }) { data { attributes { ...Names ... on Article { tags(sort: "name:desc") { data { id } } } } } }
      }
      fragment Names on Article { tags(sort: "name:desc") { data { attributes { name } } } }`);
    const tags = articles.data[0].attributes.tags.data;
    expect(tags.map((t: any) => t.attributes.name)).toEqual(['t3', 't2', 't1']);
    expect(tags.every((t: any) => typeof t.id === 'string')).toBe(true);

    const bad = await gql(`{ articles(filters: { title: { in: ["List 01", "List 02"] } }, sort: "title") { data { attributes { title tags(sort: "nosuch") { data { id } } } } } }`);
    expect(bad.status).toBe(200);
    expect(bad.body.data.articles.data.map((a: any) => a.attributes)).toEqual([{ title: 'List 01', tags: null }, { title: 'List 02', tags: null }]);
    expect(bad.body.errors.map((e: any) => [e.message, e.path])).toEqual([
      ['Invalid parameter nosuch', ['articles', 'data', 0, 'attributes', 'tags']],
      ['Invalid parameter nosuch', ['articles', 'data', 1, 'attributes', 'tags']],
    ]);
  });

  it('GET runs queries (not mutations); variables as JSON', async () => {
    const query = encodeURIComponent('query ($title: String) { articles(filters: { title: { eq: $title } }) { data { attributes { title } } } }');
    const variables = encodeURIComponent(JSON.stringify({ title: 'List 01' }));
    const res = await fetch(`${server.url}/graphql?query=${query}&variables=${variables}`, { headers: fullAccess });
    expect(res.status).toBe(200);
    expect(titles((await res.json()).data.articles)).toEqual(['List 01']);
    const mutation = await fetch(`${server.url}/graphql?query=${encodeURIComponent('mutation { deleteTag(id: 1) { data { id } } }')}`, { headers: fullAccess });
    expect(mutation.status).toBe(405);
    expect((await mutation.json()).errors[0].message).toBe('Can only perform a mutation operation from a POST request.');
  });
});

describe('no N+1: statements depend on the query, not on the number of entries', () => {
  beforeAll(async () => {
    const make = (i: number) =>
      `n${i}: createArticle(data: { title: "Nplus ${i}", author: ${i % 2 ? ids.ann : ids.bob}, category: ${ids.news}, tags: [${ids.tags.map((t) => `"${t}"`).join(',')}], publishedAt: "2024-01-01T00:00:00Z" }) { data { id } }`;
    await data(`mutation { ${Array.from({ length: 25 }, (_, i) => make(i)).join('\n')} }`);
  });

  const query = (limit: number) => `{
    articles(filters: { title: { startsWith: "Nplus" } }, pagination: { limit: ${limit} }) {
      data { id attributes {
        title
        author { data { attributes { name articles { data { id } } } } }
        category { data { attributes { name } } }
        tags { data { attributes { name articles(pagination: { limit: 3 }) { data { id } } } } }
      } }
      meta { pagination { total } }
    }
  }`;

  it('10 and 25 entries with nested relations run the same number of statements', async () => {
    const ten = await gql(query(10));
    const twentyFive = await gql(query(25));
    expect(ten.body.errors).toBeUndefined();
    expect(twentyFive.body.data.articles.data).toHaveLength(25);
    expect(twentyFive.body.data.articles.data[24].attributes.author.data.attributes.articles.data.length).toBeGreaterThan(5);
    // list + count + author + author.articles + category + tags + tags.articles (+ the token's last-used write)
    expect(statements(twentyFive)).toBe(statements(ten));
    expect(statements(twentyFive)).toBeLessThanOrEqual(8);
  });
});

describe('permissions and authentication (same as REST)', () => {
  it('the public role: find is granted, create is not; media need no upload permission', async () => {
    const list = await gql('{ articles(pagination: { limit: 1 }) { data { id attributes { title cover { data { id } } } } } }', undefined, {});
    expect(list.status).toBe(200);
    expect(list.body.data.articles.data).toHaveLength(1);
    expect(list.body.errors).toBeUndefined();
    const create = await gql('mutation { createArticle(data: { title: "public" }) { data { id } } }', undefined, {});
    expect(create.status).toBe(200);
    expect(create.body).toEqual({
      data: { createArticle: null },
      errors: [{ message: 'Forbidden access', locations: [{ line: 1, column: 12 }], path: ['createArticle'], extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' } }],
    });
    // No permission for users and no user for `me`.
    const me = await gql('{ me { id } usersPermissionsUsers { data { id } } }', undefined, {});
    expect(me.body.errors.map((e: any) => [e.path[0], e.extensions.code])).toEqual([
      ['me', 'FORBIDDEN'],
      ['usersPermissionsUsers', 'FORBIDDEN'],
    ]);
  });

  it('a bad or foreign token is the REST 401 envelope', async () => {
    const res = await gql('{ __typename }', undefined, bearer('not-a-valid-token'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } });
  });

  it('API tokens: read-only reads but cannot write; custom gets exactly its actions', async () => {
    const readOnly = bearer(await createApiToken(built.dir, { type: 'read-only' }));
    expect((await data('{ tags { data { id } } }', undefined, readOnly)).tags.data.length).toBeGreaterThan(0);
    const write = await gql('mutation { createTag(data: { name: "ro" }) { data { id } } }', undefined, readOnly);
    expect(write.body.errors[0].extensions.code).toBe('FORBIDDEN');
    const custom = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['api::tag.tag.create'] }));
    expect((await data('mutation { createTag(data: { name: "custom" }) { data { attributes { name } } } }', undefined, custom)).createTag.data.attributes.name).toBe('custom');
    expect((await gql('{ tags { data { id } } }', undefined, custom)).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('a JWT user has its role’s permissions (authenticated: articles, not tags writes)', async () => {
    const { register } = await data('mutation { register(input: { username: "gql-user", email: "gql-user@example.com", password: "secret123" }) { jwt user { id username } } }', undefined, {});
    const user = bearer(register.jwt);
    const created = await data('mutation { createArticle(data: { title: "By a user" }) { data { attributes { title } } } }', undefined, user);
    expect(created.createArticle.data.attributes.title).toBe('By a user');
    expect((await gql('mutation { createTag(data: { name: "no" }) { data { id } } }', undefined, user)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    // The authenticated role may not find authors: that relation field is FORBIDDEN, the rest answers.
    const list = await gql('{ articles(pagination: { limit: 1 }) { data { attributes { title author { data { id } } } } } }', undefined, user);
    expect(list.body.data.articles.data[0].attributes.author).toBeNull();
    expect(list.body.errors).toEqual([
      {
        message: 'Forbidden access',
        locations: expect.any(Array),
        path: ['articles', 'data', 0, 'attributes', 'author'],
        extensions: { error: { name: 'ForbiddenError', message: 'Forbidden access', details: {} }, code: 'FORBIDDEN' },
      },
    ]);
  });
});

describe('limits and request errors', () => {
  it('at most maxLimit (100) items per list; defaultLimit (25, as Strapi) without pagination', async () => {
    await data(`mutation { ${Array.from({ length: 101 }, (_, i) => `m${i}: createTag(data: { name: "many-${i}" }) { data { id } }`).join('\n')} }`);
    const count = async (pagination: string) => (await data(`{ tags(filters: { name: { startsWith: "many-" } }${pagination}) { data { id } } }`)).tags.data.length;
    expect(await count('')).toBe(25);
    expect((await data('{ tags { meta { pagination { page pageSize } } } }')).tags.meta.pagination).toEqual({ page: 1, pageSize: 25 });
    expect(await count(', pagination: { limit: 500 }')).toBe(100);
    expect(await count(', pagination: { limit: -1 }')).toBe(100);
    expect(await count(', pagination: { pageSize: 1000 }')).toBe(100);
  });

  it('a query deeper than depthLimit (10) is refused before it runs', async () => {
    const deep = '{ articles { data { attributes { author { data { attributes { articles { data { attributes { author { data { id } } } } } } } } } } } }';
    const res = await gql(deep);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: "'' exceeds maximum operation depth of 10", locations: expect.any(Array), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
  });

  it('a document larger than documentSizeLimit is 413', async () => {
    const res = await gql(`{ __typename ${' '.repeat(100_001)}}`);
    expect(res.status).toBe(413);
    expect(res.body.errors[0].message).toMatch(/more than the limit of 100000/);
  });

  it('syntax errors, unknown fields, bad variables and missing queries are 400 with Apollo’s codes', async () => {
    expect(await gql('{ articles { data { id }')).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] } });
    expect(await gql('{ articlez { data { id } } }')).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringContaining('Did you mean "article" or "articles"?'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    expect(await gql('query ($id: ID!) { article(id: $id) { data { id } } }', { id: { not: 'an id' } })).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] } });
    const empty = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...fullAccess }, body: '{}' });
    expect(empty.status).toBe(400);
    const put = await fetch(`${server.url}/graphql`, { method: 'PUT', headers: fullAccess });
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST']);
  });

  it('outside production: the playground page, and introspection', async () => {
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    const html = await page.text();
    expect(html).toContain('<div id="graphiql" data-endpoint="/graphql"');
    // Every script is a file of this server: none inline, none from elsewhere.
    expect([...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])).toEqual([
      '<script src="/graphql/playground/react.production.min.js">',
      '<script src="/graphql/playground/react-dom.production.min.js">',
      '<script src="/graphql/playground/graphiql.min.js">',
      '<script src="/graphql/playground/start.js">',
    ]);
    expect((await data('{ __schema { mutationType { name } } }')).__schema.mutationType.name).toBe('Mutation');
  });
});

describe('upload (GraphQL multipart requests)', () => {
  it('upload links a file to an entry; updateFileInfo; removeFile', async () => {
    const png = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#336699' } }).png().toBuffer();
    const { createArticle } = await data('mutation { createArticle(data: { title: "With cover" }) { data { id } } }');
    const form = new FormData();
    form.append(
      'operations',
      JSON.stringify({
        query: 'mutation ($file: Upload!, $refId: ID) { upload(file: $file, ref: "api::article.article", refId: $refId, field: "cover", info: { alternativeText: "dot" }) { data { id attributes { name mime alternativeText } } } }',
        variables: { file: null, refId: createArticle.data.id },
      }),
    );
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([png], { type: 'image/png' }), 'dot.png');
    const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: fullAccess, body: form });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.data.upload.data.attributes).toEqual({ name: 'dot.png', mime: 'image/png', alternativeText: 'dot' });
    const fileId = body.data.upload.data.id;
    const linked = await data(`{ article(id: ${createArticle.data.id}) { data { attributes { cover { data { id attributes { url } } } } } } }`);
    expect(linked.article.data.attributes.cover.data.id).toBe(fileId);
    const info = await data(`mutation { updateFileInfo(id: ${fileId}, info: { caption: "A dot" }) { data { attributes { caption } } } }`);
    expect(info.updateFileInfo.data.attributes.caption).toBe('A dot');
    expect((await data(`mutation { removeFile(id: ${fileId}) { data { id } } }`)).removeFile.data.id).toBe(fileId);
    expect(await data(`{ uploadFile(id: ${fileId}) { data { id } } }`)).toEqual({ uploadFile: { data: null } });
  });

  it('linking to an entry needs its update permission, checked before anything is stored', async () => {
    const uploader = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::upload.content-api.upload'] }));
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation ($file: Upload!) { upload(file: $file, ref: "api::article.article", refId: 1, field: "cover") { data { id } } }', variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', new Blob([await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer()], { type: 'image/png' }), 'denied.png');
    const before = (await data('{ uploadFiles(pagination: { limit: 100 }) { data { id } } }')).uploadFiles.data.length;
    const body = await (await fetch(`${server.url}/graphql`, { method: 'POST', headers: uploader, body: form })).json();
    expect(body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await data('{ uploadFiles(pagination: { limit: 100 }) { data { id } } }')).uploadFiles.data.length).toBe(before);
  });

  it('an Upload can only come from a multipart request', async () => {
    const res = await gql('mutation ($f: Upload!) { upload(file: $f) { data { id } } }', { f: 'not a file' });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/multipart/);
  });
});
