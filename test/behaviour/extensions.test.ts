/**
 * The user's code in a built server (fixtures/app/code, written into the build as a user
 * would and picked up by a rebuild): controllers wrapped and replaced, custom routes with
 * their own permission, a service override seen by REST and GraphQL, route `auth: false`,
 * `except`, a named policy and middleware on REST routes and GraphQL fields, every lifecycle
 * hook (with a write rolled back by a hook's throw), register/bootstrap, and a user
 * middleware in the global stack configured in src/config.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let admin: ReturnType<typeof client>;
let publicApi: ReturnType<typeof client>;
let user: ReturnType<typeof client>;
const tagIds: number[] = [];

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function events(): Promise<any[]> {
  return (await ok(publicApi.get('/api/articles/events'))) as any[];
}

async function clearEvents(): Promise<void> {
  await ok(publicApi.get('/api/articles/events?clear=1'));
}

beforeAll(async () => {
  built = await buildFixture('app');
  server = await startServer(built.dir);
  admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  publicApi = client(server.url);
  const registered = await ok(publicApi.post('/api/auth/local/register', { username: 'writer', email: 'writer@example.com', password: 'Secret123!' }));
  user = client(server.url, bearer(registered.jwt));
  for (const name of ['red', 'blue']) tagIds.push((await ok(admin.post('/api/tags', { data: { name } }))).data.id);
  for (const [title, featured] of [['Beta', true], ['Alpha', false], ['Gamma', true]] as const) {
    await ok(admin.post('/api/articles', { data: { title, featured } }));
  }
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('register and bootstrap (src/index.ts)', () => {
  it('register added a middleware before every other one; bootstrap seeded a tag once', async () => {
    const res = await publicApi.get('/api/tags');
    expect(res.headers.get('x-registered')).toBe('yes');
    expect(res.body.data.map((t: any) => t.attributes.name)).toEqual(['bootstrapped', 'red', 'blue']);
  });
});

describe('the global middleware stack (src/config.ts middlewares)', () => {
  it('runs the user middleware and the configured built-ins on every answer, errors included', async () => {
    for (const res of [await publicApi.get('/api/tags'), await publicApi.get('/api/nothing-here'), await publicApi.post('/graphql', { query: '{ __typename }' })]) {
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('x-powered-by')).toBe('Strapi <strapi.io>');
    }
  });

  it('strapi::body takes its jsonLimit (64kb here)', async () => {
    const res = await admin.post('/api/tags', { data: { name: 'x'.repeat(70 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ status: 413, name: 'PayloadTooLargeError' });
  });
});

describe('controllers', () => {
  it('a wrapped core action answers the core answer with its own additions', async () => {
    const res = await ok(publicApi.get('/api/articles'));
    expect(res.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 3 }, controller: 'wrapped' });
  });

  it('a replaced core action answers what the user returns; its errors keep Strapi’s envelope', async () => {
    const first = (await ok(publicApi.get('/api/articles'))).data[0];
    expect(await ok(publicApi.get(`/api/articles/${first.id}`))).toEqual({ data: { id: first.id, title: 'Alpha' }, meta: { controller: 'replaced' } });
    const missing = await publicApi.get('/api/articles/9999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'No such article', details: {} } });
  });

  it('a custom route runs its own action, guarded by its own permission', async () => {
    expect((await publicApi.get('/api/articles/featured')).status).toBe(403);
    expect(await ok(user.get('/api/articles/featured'))).toEqual({ data: ['Beta', 'Gamma'], user: 'writer' });
    // Its action is in the policy table, which the roles routes show.
    const roles = await ok(admin.get('/api/users-permissions/roles'));
    const authenticated = roles.roles.find((r: any) => r.type === 'authenticated');
    const role = await ok(admin.get(`/api/users-permissions/roles/${authenticated.id}`));
    expect(role.role.permissions['api::article'].controllers.article.featured).toEqual({ enabled: true, policy: '' });
  });
});

describe('services', () => {
  it('the service override (default sort by title) is what REST and GraphQL both read', async () => {
    expect((await ok(publicApi.get('/api/articles'))).data.map((a: any) => a.attributes.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect((await ok(publicApi.get('/api/articles?sort=title:desc'))).data.map((a: any) => a.attributes.title)).toEqual(['Gamma', 'Beta', 'Alpha']);
    const graphql = await ok(publicApi.post('/graphql', { query: '{ articles { data { attributes { title } } } }' }));
    expect(graphql.data.articles.data.map((a: any) => a.attributes.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
  });
});

describe('route config', () => {
  it('auth: false opens a route the role has no permission for; except removes a core route', async () => {
    expect((await ok(publicApi.get('/api/authors'))).data).toEqual([]);
    expect((await publicApi.post('/api/authors', { data: { name: 'Nope' } })).status).toBe(403);
    const id = (await ok(admin.post('/api/authors', { data: { name: 'Ann' } }))).data.id;
    expect((await admin.del(`/api/authors/${id}`)).status).toBe(405);
  });

  it('a named policy with config refuses (403 PolicyError) and allows', async () => {
    const id = (await ok(publicApi.get('/api/articles'))).data[0].id;
    const refused = await user.put(`/api/articles/${id}`, { data: { slug: 'alpha-2' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ data: null, error: { status: 403, name: 'PolicyError', message: 'Policy Failed', details: {} } });
    const allowed = await user.put(`/api/articles/${id}`, { data: { slug: 'alpha-2' } }, { 'x-allow': 'yes' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.data.attributes.slug).toBe('alpha-2');
  });

  it('a named middleware with config runs on its route only', async () => {
    expect((await publicApi.get('/api/articles')).headers.get('x-stamp')).toBe('find');
    expect((await publicApi.get('/api/tags')).headers.get('x-stamp')).toBeNull();
  });

  it('GraphQL resolversConfig uses the same named policy and middleware', async () => {
    const refused = await publicApi.post('/graphql', { query: '{ tags { data { id } } }' });
    expect(refused.body.errors[0]).toMatchObject({ message: 'Policy Failed', extensions: { code: 'FORBIDDEN' } });
    const allowed = await publicApi.post('/graphql', { query: '{ tags { data { attributes { name } } } }' }, { 'x-allow': 'yes' });
    expect(allowed.body.data.tags.data).toHaveLength(3);
    const stamped = await publicApi.post('/graphql', { query: '{ articles { data { id } } }' });
    expect(stamped.headers.get('x-stamp')).toBe('graphql');
  });
});

describe('lifecycle hooks', () => {
  it('create: before* may change the data, after* sees the result; state passes between them', async () => {
    await clearEvents();
    const created = await ok(user.post('/api/articles', { data: { title: 'Hello World' } }));
    expect(created.data.attributes.slug).toBe('hello-world');
    expect(await events()).toEqual([
      { hook: 'beforeCreate', uid: 'api::article.article', title: 'Hello World' },
      { hook: 'afterCreate', id: created.data.id, slug: 'hello-world', state: 'before' },
    ]);
  });

  it('find, findOne, count, update and delete run their hooks, from REST and GraphQL alike', async () => {
    const id = (await ok(user.post('/api/articles', { data: { title: 'Hooked' } }))).data.id;
    await clearEvents();
    await ok(publicApi.get('/api/articles?pagination[pageSize]=2'));
    expect(await events()).toEqual([
      { hook: 'beforeFindMany', sort: 'title:asc' },
      { hook: 'beforeCount' },
      { hook: 'afterCount', total: 5 },
      { hook: 'afterFindMany', count: 2 },
    ]);
    await clearEvents();
    await ok(publicApi.post('/graphql', { query: `{ article(id: ${id}) { data { id } } }` }));
    expect(await events()).toEqual([
      { hook: 'beforeFindOne', id },
      { hook: 'afterFindOne', found: true },
    ]);
    await clearEvents();
    await ok(user.put(`/api/articles/${id}`, { data: { title: 'Hooked again' } }, { 'x-allow': 'yes' }));
    await ok(user.post('/graphql', { query: `mutation { deleteArticle(id: ${id}) { data { id } } }` }));
    expect(await events()).toEqual([
      { hook: 'beforeUpdate', id, data: { title: 'Hooked again' } },
      { hook: 'afterUpdate', id, title: 'Hooked again' },
      { hook: 'beforeDelete', id },
      { hook: 'afterDelete', id },
    ]);
  });

  it('a ValidationError thrown by a hook answers 400 in Strapi’s envelope (REST) and extensions.error (GraphQL)', async () => {
    const rest = await user.post('/api/articles', { data: { title: 'forbidden' } });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: 'This title is forbidden', details: { title: 'forbidden' } } });
    const graphql = await ok(user.post('/graphql', { query: 'mutation { createArticle(data: { title: "forbidden" }) { data { id } } }' }));
    expect(graphql.errors[0]).toMatchObject({
      message: 'This title is forbidden',
      extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'This title is forbidden', details: { title: 'forbidden' } } },
    });
  });

  it('any other error thrown by user code is a 500 without its message', async () => {
    const res = await user.post('/api/articles', { data: { title: 'crash' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
    expect(JSON.stringify(res.body)).not.toContain('secret');
  });

  it('a throw in afterCreate rolls back the entry and the relations it connected', async () => {
    const before = (await ok(admin.get('/api/articles?pagination[pageSize]=100'))).meta.pagination.total;
    const res = await user.post('/api/articles', { data: { title: 'rollback', tags: { connect: tagIds } } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ApplicationError', message: 'Rolled back after create' });
    expect((await ok(admin.get('/api/articles?pagination[pageSize]=100'))).meta.pagination.total).toBe(before);
    const tags = await ok(admin.get('/api/tags?populate=articles'));
    for (const tag of tags.data) expect(tag.attributes.articles.data.map((a: any) => a.attributes.title)).not.toContain('rollback');
  });
});
