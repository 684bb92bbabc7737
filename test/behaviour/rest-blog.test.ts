/**
 * The emitted blog server over real HTTP on the run's database (SQLite, PostgreSQL or MariaDB): Strapi v4's REST
 * behaviour for entries, validation, errors, draft & publish and single types.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
/** Writes need permission: these tests run with a full-access API token. */
let api: ReturnType<typeof client>;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('collection type CRUD', () => {
  it('creates an entry: 200, {data: {id, attributes}, meta: {}}', async () => {
    const res = await api.post('/api/articles', {
      data: { title: 'Hello world', slug: 'hello-world', views: 3, impressions: '9007199254740993', price: 12.5, publishDate: '2024-03-05', readingTime: '10:30', metadata: { a: [1, 2] }, editorNote: 'secret', unknownField: 'ignored' },
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({});
    const { id, attributes } = res.body.data;
    expect(typeof id).toBe('number');
    expect(attributes).toMatchObject({
      title: 'Hello world',
      slug: 'hello-world',
      status: 'draft',
      views: 3,
      impressions: '9007199254740993',
      price: 12.5,
      featured: false,
      publishDate: '2024-03-05',
      readingTime: '10:30:00.000',
      metadata: { a: [1, 2] },
    });
    expect(attributes.createdAt).toMatch(isoDateTime);
    expect(attributes.updatedAt).toMatch(isoDateTime);
    expect(attributes.publishedAt).toMatch(isoDateTime); // published on create, like Strapi
    expect(attributes).not.toHaveProperty('editorNote'); // private
    expect(attributes).not.toHaveProperty('unknownField');
    expect(attributes).not.toHaveProperty('author'); // relations are not populated by default
    expect(Object.keys(attributes)).toEqual([
      'title', 'slug', 'description', 'content', 'status', 'views', 'rating', 'price', 'impressions', 'featured',
      'publishDate', 'readingTime', 'lastReviewedAt', 'metadata', 'createdAt', 'updatedAt', 'publishedAt',
    ]);
  });

  it('reads, partially updates, clears with null and deletes', async () => {
    const created = (await api.post('/api/articles', { data: { title: 'To update', description: 'first' } })).body.data;
    const read = await api.get(`/api/articles/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: created, meta: {} });

    const updated = await api.put(`/api/articles/${created.id}`, { data: { views: 7, description: null } });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ title: 'To update', views: 7, description: null });

    const deleted = await api.del(`/api/articles/${created.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.id).toBe(created.id);
    expect((await api.get(`/api/articles/${created.id}`)).status).toBe(404);
  });

  it('ignores id and timestamps in the body', async () => {
    const res = await api.post('/api/tags', { data: { name: 'ignore-id', id: 999, createdAt: '2000-01-01T00:00:00.000Z' } });
    expect(res.status).toBe(200);
    expect(res.body.data.id).not.toBe(999);
    expect(res.body.data.attributes.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
  });
});

describe('errors', () => {
  const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };

  it('404 for a missing entry on GET, PUT and DELETE', async () => {
    expect(await api.get('/api/articles/999999')).toMatchObject({ status: 404, body: notFound });
    expect(await api.put('/api/articles/999999', { data: { title: 'x' } })).toMatchObject({ status: 404, body: notFound });
    expect(await api.del('/api/articles/999999')).toMatchObject({ status: 404, body: notFound });
    expect(await api.get('/api/articles/not-a-number')).toMatchObject({ status: 404, body: notFound });
  });

  it('404 for an unknown route', async () => {
    expect(await api.get('/api/nothing-here')).toMatchObject({ status: 404, body: notFound });
  });

  it('400 when the body has no data object, checked before existence', async () => {
    const missing = { data: null, error: { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} } };
    expect(await api.post('/api/articles', { title: 'x' })).toMatchObject({ status: 400, body: missing });
    expect(await api.put('/api/articles/999999', {})).toMatchObject({ status: 400, body: missing });
  });

  it('400 ValidationError with yup details for invalid fields', async () => {
    const res = await api.post('/api/articles', { data: { title: 'ab' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'title must be at least 3 characters',
        details: { errors: [{ path: ['title'], message: 'title must be at least 3 characters', name: 'ValidationError' }] },
      },
    });
  });

  it('lists every failing field', async () => {
    const res = await api.post('/api/articles', { data: { title: 'x'.repeat(200), rating: 9, status: 'bogus' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('3 errors occurred');
    expect(res.body.error.details.errors.map((e: { path: string[] }) => e.path[0]).sort()).toEqual(['rating', 'status', 'title']);
  });

  it('a missing required field: "<field> must be defined."', async () => {
    const res = await api.post('/api/authors', { data: { email: 'a@example.com' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors).toEqual([{ path: ['name'], message: 'name must be defined.', name: 'ValidationError' }]);
  });

  it('a unique violation: "This attribute must be unique"', async () => {
    expect((await api.post('/api/categories', { data: { name: 'News' } })).status).toBe(200);
    const res = await api.post('/api/categories', { data: { name: 'News' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ name: 'ValidationError', details: { errors: [{ path: ['name'], message: 'This attribute must be unique' }] } });
  });

  it('400 for malformed JSON', async () => {
    const res = await api.request('POST', '/api/articles', '{"data": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('SyntaxError');
  });

  it('413 for an oversized body', async () => {
    const res = await api.post('/api/articles', { data: { title: 'x'.repeat(2 * 1024 * 1024) } });
    expect(res.status).toBe(413);
    expect(res.body.error.name).toBe('PayloadTooLargeError');
  });
});

describe('draft & publish', () => {
  it('publishedAt: null creates a draft, hidden from the live list but found by id and in preview', async () => {
    const draft = (await api.post('/api/articles', { data: { title: 'A draft', publishedAt: null } })).body.data;
    expect(draft.attributes.publishedAt).toBeNull();
    const live = await api.get('/api/articles?pagination[pageSize]=100');
    expect(live.body.data.map((e: { id: number }) => e.id)).not.toContain(draft.id);
    const preview = await api.get('/api/articles?publicationState=preview&pagination[pageSize]=100');
    expect(preview.body.data.map((e: { id: number }) => e.id)).toContain(draft.id);
    expect((await api.get(`/api/articles/${draft.id}`)).status).toBe(200);
  });

  it('drafts skip required and minLength', async () => {
    const res = await api.post('/api/articles', { data: { title: 'ab', publishedAt: null } });
    expect(res.status).toBe(200);
    expect((await api.post('/api/articles', { data: { slug: 'untitled-draft', publishedAt: null } })).status).toBe(200);
  });

  it('a create without publishedAt: null publishes: its required attributes must be given (Strapi sets publishedAt, then validates)', async () => {
    const res = await api.post('/api/articles', { data: { slug: 'untitled' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors).toEqual([{ path: ['title'], message: 'title must be defined.', name: 'ValidationError' }]);
  });

  it('types without draft & publish have no publishedAt', async () => {
    const res = await api.post('/api/tags', { data: { name: 'no-dp' } });
    expect(res.body.data.attributes).not.toHaveProperty('publishedAt');
  });
});

describe('single types', () => {
  it('404 before creation, PUT creates then updates the same id, DELETE removes', async () => {
    expect((await api.get('/api/global')).status).toBe(404);
    const created = await api.put('/api/global', { data: { siteName: 'My blog' } });
    expect(created.status).toBe(200);
    const updated = await api.put('/api/global', { data: { siteDescription: 'About things' } });
    expect(updated.body.data.id).toBe(created.body.data.id);
    expect(updated.body.data.attributes).toMatchObject({ siteName: 'My blog', siteDescription: 'About things' });
    expect((await api.get('/api/global')).body.data.attributes.siteName).toBe('My blog');
    expect((await api.del('/api/global')).status).toBe(200);
    expect((await api.get('/api/global')).status).toBe(404);
  });

  it('a PUT that creates the single type needs its required attributes (a create); one that updates it does not', async () => {
    const missing = await api.put('/api/global', { data: { siteDescription: 'No name yet' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ name: 'ValidationError', message: 'siteName must be defined.' });
    expect((await api.get('/api/global')).status).toBe(404);
    expect((await api.put('/api/global', { data: { siteName: 'Named' } })).status).toBe(200);
    expect((await api.put('/api/global', { data: { siteDescription: 'Then described' } })).status).toBe(200);
    expect((await api.del('/api/global')).status).toBe(200);
  });
});
