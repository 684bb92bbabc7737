/**
 * The typed client (client/, issue 15) over real HTTP against the emitted blog server, on
 * SQLite, PostgreSQL and MariaDB: the build's own client/dist is imported, exactly as a
 * frontend would. Writes with an API token, reads with populate, filters, sort and
 * pagination (each query string exactly as `qs.stringify(query, { encodeValuesOnly: true })`
 * writes it), the single type, register/login/me with a JWT, upload, and Strapi's errors
 * thrown as a typed StrapiError. Type-level tests: test/client/usage.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
// The blog build's client has the same types as out/client (out/ is the blog fixture's build).
import type * as ClientModule from '../../out/client/dist/index.js';

let built: BuiltServer;
let server: RunningServer;
let token: string;
let client: typeof ClientModule;
/** Every URL the clients fetched, in order, and the init each was fetched with. */
const fetched: string[] = [];
const inits: (RequestInit | undefined)[] = [];

const recordingFetch: typeof fetch = (input, init) => {
  fetched.push(String(input));
  inits.push(init);
  return fetch(input, init);
};

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  client = (await import(pathToFileURL(path.join(built.dir, 'client/dist/index.js')).href)) as typeof ClientModule;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const admin = () => client.createClient({ url: server.url, token, fetch: recordingFetch });
const anonymous = () => client.createClient({ url: server.url, fetch: recordingFetch });

/** Catches what a call throws. */
async function thrown(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

describe('with an API token', () => {
  it('creates, reads with populate/filters/sort/pagination, updates and deletes', async () => {
    const api = admin();
    const ada = await api.authors.create({ name: 'Ada', email: 'ada@example.com' });
    const grace = await api.authors.create({ name: 'Grace', email: 'grace@example.com' });
    const tags = await Promise.all(['typed', 'client'].map((name) => api.tags.create({ name })));
    expect(ada.data).toMatchObject({ id: expect.any(Number), attributes: { name: 'Ada', email: 'ada@example.com' } });

    const created = await api.articles.create(
      {
        title: 'Typed from the client',
        slug: 'typed-from-the-client',
        views: 10,
        author: ada.data.id,
        tags: tags.map((t) => t.data.id),
        seo: { metaTitle: 'Typed' },
        blocks: [{ __component: 'shared.quote', title: 'Q', body: 'Quoted' }],
        publishedAt: new Date().toISOString(),
      },
      { populate: ['author', 'tags'] },
    );
    expect(created.data.attributes.title).toBe('Typed from the client');
    expect(created.data.attributes.author.data?.attributes.name).toBe('Ada');
    expect(created.data.attributes.tags.data.map((t) => t.attributes.name)).toEqual(['typed', 'client']);
    for (const [title, views, author] of [
      ['Second article', 20, grace.data.id],
      ['Third article', 30, ada.data.id],
    ] as const) {
      await api.articles.create({ title, views, author, publishedAt: new Date().toISOString() });
    }

    const query = {
      fields: ['title', 'views'],
      populate: { author: { fields: ['name'] }, seo: true, blocks: { on: { 'shared.quote': true } } },
      filters: { author: { name: { $eq: 'Ada' } }, views: { $gte: 5 } },
      sort: ['views:desc'],
      pagination: { page: 1, pageSize: 1 },
    } as const;
    const page = await api.articles.find(query);
    expect(fetched.at(-1)).toBe(`${server.url}/api/articles?${qs.stringify(query, { encodeValuesOnly: true })}`);
    expect(page.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });
    expect(page.data).toEqual([
      { id: expect.any(Number), attributes: { title: 'Third article', views: 30, author: { data: { id: ada.data.id, attributes: { name: 'Ada' } } }, seo: null, blocks: [] } },
    ]);
    const next = await api.articles.find({ ...query, pagination: { page: 2, pageSize: 1 } });
    expect(next.data[0]?.attributes).toEqual({
      title: 'Typed from the client',
      views: 10,
      author: { data: { id: ada.data.id, attributes: { name: 'Ada' } } },
      seo: { id: expect.any(Number), metaTitle: 'Typed', metaDescription: null },
      blocks: [{ __component: 'shared.quote', id: expect.any(Number), title: 'Q', body: 'Quoted' }],
    });

    const byStart = await api.articles.find({ fields: ['title'], sort: 'title:asc', pagination: { start: 1, limit: 1 } });
    expect(byStart).toEqual({ data: [{ id: expect.any(Number), attributes: { title: 'Third article' } }], meta: { pagination: { start: 1, limit: 1, total: 3 } } });

    const one = await api.articles.findOne(created.data.id, { populate: { tags: { fields: ['name'], sort: 'name:asc' } } });
    expect(one.data.attributes.tags.data.map((t) => t.attributes)).toEqual([{ name: 'client' }, { name: 'typed' }]);
    expect(one.data.attributes).not.toHaveProperty('author');

    const updated = await api.articles.update(created.data.id, { views: 11, tags: { disconnect: [tags[0]!.data.id] } }, { fields: ['views'], populate: ['tags'] });
    expect(updated.data.attributes).toEqual({ views: 11, tags: { data: [expect.objectContaining({ attributes: expect.objectContaining({ name: 'client' }) })] } });

    const deleted = await api.articles.delete(created.data.id, { fields: ['title'] });
    expect(deleted.data).toEqual({ id: created.data.id, attributes: { title: 'Typed from the client' } });
    const gone = await thrown(() => api.articles.findOne(created.data.id));
    expect(client.isStrapiError(gone)).toBe(true);
    expect((gone as ClientModule.StrapiError).error).toEqual({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} });
  });

  it('creates, updates and reads the single type', async () => {
    const api = admin();
    const created = await api.global.create({ siteName: 'Typed blog', defaultSeo: { metaTitle: 'Home' } }, { populate: ['defaultSeo'] });
    expect(created.data.attributes).toMatchObject({ siteName: 'Typed blog', defaultSeo: { metaTitle: 'Home', metaDescription: null } });
    const written = await api.global.update({ siteDescription: 'About types' }, { fields: ['siteName', 'siteDescription'] });
    expect(written.data).toEqual({ id: created.data.id, attributes: { siteName: 'Typed blog', siteDescription: 'About types' } });
    const read = await anonymous().global.find({ fields: ['siteName'] });
    expect(read.data.attributes).toEqual({ siteName: 'Typed blog' });
  });

  it('uploads a file and lists it', async () => {
    const api = admin();
    const [file] = await api.upload.upload(new File(['hello client'], 'hello.txt', { type: 'text/plain' }), { fileInfo: { alternativeText: 'greeting' } });
    expect(file).toMatchObject({ id: expect.any(Number), name: 'hello.txt', alternativeText: 'greeting', mime: 'text/plain' });
    expect((await api.upload.find()).map((f) => f.id)).toContain(file!.id);
    expect((await api.upload.delete(file!.id)).id).toBe(file!.id);
  });
});

describe('per-call options (issue 27 item 7)', () => {
  it('passes headers, an AbortSignal and any fetch init (Next.js `next`, `cache`) through to fetch', async () => {
    const api = anonymous();
    // The call's headers reach the server: the token in them lets an anonymous client write.
    const written = await api.tags.create({ name: 'per-call' }, { fields: ['name'] }, { headers: { authorization: `Bearer ${token}` } });
    expect(written.data.attributes).toEqual({ name: 'per-call' });
    // …for that call only.
    expect(((await thrown(() => api.tags.create({ name: 'again' }))) as ClientModule.StrapiError).status).toBe(403);

    const listed = await api.tags.find({ fields: ['name'], filters: { name: { $eq: 'per-call' } } }, { cache: 'no-store', next: { revalidate: 60, tags: ['tags'] }, headers: { 'x-call': 'list' } });
    expect(listed.data.map((t) => t.attributes.name)).toEqual(['per-call']);
    expect(inits.at(-1)).toMatchObject({ method: 'GET', cache: 'no-store', next: { revalidate: 60, tags: ['tags'] }, headers: { accept: 'application/json', 'x-call': 'list' } });

    const controller = new AbortController();
    controller.abort();
    const aborted = await thrown(() => api.tags.findOne(written.data.id, {}, { signal: controller.signal }));
    expect((aborted as Error).name).toBe('AbortError');
    expect(inits.at(-1)?.signal).toBe(controller.signal);

    const me = await thrown(() => api.auth.me({}, { headers: { authorization: 'Bearer not-a-jwt' } }));
    expect((me as ClientModule.StrapiError).status).toBe(401);
  });
});

describe('errors', () => {
  it('throws Strapi’s error object as a typed StrapiError', async () => {
    const api = admin();
    // A published entry's title must have 3 characters or more (drafts skip minLength, as in Strapi).
    const invalid = await thrown(() => api.articles.create({ title: 'no', publishedAt: new Date().toISOString() }));
    expect(invalid).toBeInstanceOf(client.StrapiError);
    const error = invalid as ClientModule.StrapiError;
    expect(error.status).toBe(400);
    expect(error.error.name).toBe('ValidationError');
    if (error.error.name === 'ValidationError') expect(error.error.details.errors?.map((e) => e.path)).toEqual([['title']]);

    const forbidden = (await thrown(() => anonymous().articles.create({ title: 'Not allowed' }))) as ClientModule.StrapiError;
    expect(forbidden.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });

    const unauthorized = (await thrown(() => client.createClient({ url: server.url, token: 'not-a-token' }).articles.create({ title: 'Not allowed' }))) as ClientModule.StrapiError;
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.error.name).toBe('UnauthorizedError');
  });
});

describe('users-permissions', () => {
  it('registers, logs in, acts with the JWT and reads me', async () => {
    const api = anonymous();
    const registered = await api.auth.register({ username: 'client-user', email: 'client-user@example.com', password: 'Secret123!' });
    expect('jwt' in registered && registered.user.username).toBe('client-user');

    const { jwt, user } = await api.auth.login({ identifier: 'client-user@example.com', password: 'Secret123!' });
    expect(user).toMatchObject({ id: expect.any(Number), username: 'client-user', email: 'client-user@example.com', confirmed: true, blocked: false });
    expect(user).not.toHaveProperty('password');

    api.setToken(jwt);
    const written = await api.articles.create({ title: 'Written by a user' });
    expect(fetched.length).toBeGreaterThan(0);
    expect(written.data.attributes.title).toBe('Written by a user');
    const me = await api.auth.me({ fields: ['username'] });
    expect(me).toEqual({ id: user.id, username: 'client-user' });

    // A function token is asked on every request.
    let current: string | null = null;
    const lazy = client.createClient({ url: server.url, token: () => current });
    // Without a token, me is the public role's, which may not call it.
    expect(((await thrown(() => lazy.auth.me())) as ClientModule.StrapiError).error.name).toBe('ForbiddenError');
    current = jwt;
    expect((await lazy.auth.me()).id).toBe(user.id);

    const wrong = (await thrown(() => anonymous().auth.login({ identifier: 'client-user', password: 'wrong' }))) as ClientModule.StrapiError;
    expect(wrong.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid identifier or password' });
  });

  it('manages users through /api/users with an API token', async () => {
    const api = admin();
    const created = await api.users.create({ username: 'managed', email: 'managed@example.com', password: 'Secret123!' });
    expect(created).toMatchObject({ id: expect.any(Number), username: 'managed', email: 'managed@example.com', blocked: false });
    expect(created).not.toHaveProperty('password');
    const found = await api.users.find({ filters: { username: { $eq: 'managed' } }, fields: ['username'], populate: ['role'] });
    expect(found).toEqual([{ id: created.id, username: 'managed', role: expect.objectContaining({ type: 'authenticated' }) }]);
    expect(await api.users.count({ filters: { username: { $startsWith: 'managed' } } })).toBe(1);
    expect((await api.users.update(created.id, { blocked: true })).blocked).toBe(true);
    expect((await api.users.findOne(created.id, { fields: ['blocked'] }))?.blocked).toBe(true);
    expect((await api.users.delete(created.id)).id).toBe(created.id);
    // A missing user: 204 without a body, typed `| undefined`.
    expect(await api.users.findOne(created.id)).toBeUndefined();
    expect(await api.users.count()).toBe(1);
  });
});
