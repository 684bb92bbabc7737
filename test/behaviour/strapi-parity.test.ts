/**
 * Answers that Strapi v4 clients rely on, as Strapi 4.26.2 gives them
 * (../shared/reference/strapi-v4.md §11.2): `$null` on a relation's id, `fields` with a
 * comma, findOne validating `filters`, filters through a relation the caller may not find,
 * 405 as Koa's text answer, malformed JSON as a SyntaxError envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let fullAccess: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url);
  fullAccess = await createApiToken(built.dir, { type: 'full-access' });
  admin = client(server.url, bearer(fullAccess));
  const author = await admin.post('/api/authors', { data: { name: 'Ann' } });
  if (author.status !== 200) throw new Error(JSON.stringify(author.body));
  for (const [title, withAuthor] of [['Written', true], ['Orphan', false]] as const) {
    const res = await admin.post('/api/articles', { data: { title, views: 7, ...(withAuthor ? { author: author.body.data.id } : {}) } });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids[title] = res.body.data.id;
  }
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

async function titles(query: string): Promise<string[]> {
  const res = await api.get(`/api/articles?sort=id&${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.map((e: { attributes: { title: string } }) => e.attributes.title);
}

describe('$null / $notNull through a relation', () => {
  it.each([
    ['filters[author][id][$null]=true', ['Orphan']],
    ['filters[author][id][$notNull]=true', ['Written']],
    ['filters[author][id][$null]=false', ['Written']],
    ['filters[author][id][$notNull]=false', ['Orphan']],
    ['filters[author][$null]=true', ['Orphan']],
    ['filters[author][$notNull]=true', ['Written']],
    ['filters[author][name][$null]=true', ['Orphan']],
    ['filters[author][name][$eq]=Ann', ['Written']],
    ['filters[author][id][$null]=true&filters[title][$eq]=Written', []],
    ['filters[$or][0][author][id][$null]=true&filters[$or][1][title][$eq]=Written', ['Written', 'Orphan']],
  ])('%s', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it('GraphQL: filters { author: { id: { null: true } } }', async () => {
    const gql = async (filter: string) => {
      const res = await fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${fullAccess}` },
        body: JSON.stringify({ query: `{ articles(filters: ${filter}, sort: "id") { data { attributes { title } } } }` }),
      });
      const body = (await res.json()) as { data: { articles: { data: { attributes: { title: string } }[] } } };
      return body.data.articles.data.map((e) => e.attributes.title);
    };
    expect(await gql('{ author: { id: { null: true } } }')).toEqual(['Orphan']);
    expect(await gql('{ author: { id: { notNull: true } } }')).toEqual(['Written']);
  });
});

describe('fields', () => {
  it('fields=title,kind (one comma-separated string) is 400 Invalid parameter title,kind', async () => {
    for (const path of ['/api/articles?fields=title,kind', `/api/articles/${ids['Written']}?fields=title,kind`, '/api/articles?fields[0]=title,kind']) {
      const res = await api.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid parameter title,kind', details: {} } });
    }
  });

  it('fields as a list still selects', async () => {
    const res = await api.get(`/api/articles/${ids['Written']}?fields[0]=title&fields[1]=views`);
    expect(res.body.data).toEqual({ id: ids['Written'], attributes: { title: 'Written', views: 7 } });
  });
});

describe('findOne validates filters', () => {
  it('a private attribute or a password is 400 Invalid parameter <key>', async () => {
    const user = await admin.post('/api/users', { username: 'parity', email: 'parity@example.com', password: 'secret123', role: 1 });
    expect(user.status).toBe(201);
    for (const [path, key] of [
      [`/api/users/${user.body.id}?filters[password][$startsWith]=$`, 'password'],
      [`/api/articles/${ids['Written']}?filters[editorNote][$eq]=x`, 'editorNote'],
      [`/api/articles/${ids['Written']}?filters[nope][$eq]=x`, 'nope'],
    ] as const) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toEqual({ status: 400, name: 'ValidationError', message: `Invalid parameter ${key}`, details: {} });
    }
  });

  it('valid filters are validated only: the entry is found by id', async () => {
    const res = await api.get(`/api/articles/${ids['Written']}?filters[title][$eq]=Orphan&filters[author][name][$eq]=Nobody`);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.title).toBe('Written');
  });
});

describe('filters through a relation the caller may not find', () => {
  it('users filtered by role without role find: 400 Invalid parameter role', async () => {
    const usersOnly = client(server.url, bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::users-permissions.user.find', 'plugin::users-permissions.user.findOne'] })));
    for (const path of ['/api/users?filters[role][name][$eq]=Authenticated', '/api/users/1?filters[role][name][$eq]=Authenticated']) {
      const res = await usersOnly.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error, path).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid parameter role', details: {} });
    }
    expect((await usersOnly.get('/api/users?filters[username][$eq]=parity')).status).toBe(200);
    // A caller that may find roles filters through them.
    const filtered = await admin.get('/api/users?filters[role][type][$eq]=authenticated&filters[username][$eq]=parity');
    expect(filtered.status).toBe(200);
    expect(filtered.body.map((u: { username: string }) => u.username)).toEqual(['parity']);
  });

  it('an API route: articles filtered by author for a caller that may find articles only', async () => {
    const articlesOnly = client(server.url, bearer(await createApiToken(built.dir, { type: 'custom', actions: ['api::article.article.find', 'api::article.article.findOne'] })));
    for (const path of ['/api/articles?filters[author][name][$eq]=Ann', `/api/articles/${ids['Written']}?filters[author][id][$null]=true`]) {
      const res = await articlesOnly.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toBe('Invalid parameter author');
    }
    // The public role may find authors: the same filter answers.
    expect(await titles('filters[author][name][$eq]=Ann')).toEqual(['Written']);
  });
});

describe('405', () => {
  it('text/plain Method Not Allowed with the route\'s methods in Allow', async () => {
    for (const [method, path, allow] of [
      ['PATCH', `/api/articles/1`, 'HEAD, GET, PUT, DELETE'],
      ['POST', `/api/articles/1`, 'HEAD, GET, PUT, DELETE'],
      ['PATCH', '/api/articles', 'HEAD, GET, POST'],
    ] as const) {
      const res = await fetch(`${server.url}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('allow')).toBe(allow);
      expect(await res.text()).toBe('Method Not Allowed');
    }
  });
});

describe('malformed JSON body', () => {
  it("400 SyntaxError with JSON.parse's message, no details", async () => {
    const text = '{"data": ';
    let message = '';
    try {
      JSON.parse(text);
    } catch (err) {
      message = (err as Error).message;
    }
    const res = await admin.request('POST', '/api/articles', text, { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'SyntaxError', message } });
  });
});
