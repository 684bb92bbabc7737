/**
 * Where the v5 REST dialect is mounted (src/config.ts `v5.rest`): by default under `/v5/api`
 * beside v4 on `/api`, over one database, one permission table and one JWT secret: an entry
 * written through either dialect is read through the other, v4 answers keep their shape, a user
 * registered on one mount is signed in on the other. `enabled: false` leaves only v4.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, writeUserConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';

describe('v5 REST mount: default /v5/api beside v4 on /api', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let token: string;

  beforeAll(async () => {
    built = await buildFixture('blog');
    server = await startServer(built.dir);
    token = await createApiToken(built.dir, { type: 'full-access' });
    api = client(server.url);
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('writes through v5 and reads through both; v4 answers keep their shape', async () => {
    const created = await api.post('/v5/api/tags', { data: { name: 'both' } }, bearer(token));
    expect(created.status).toBe(201);
    const { id, documentId } = created.body.data;
    expect(documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(created.body).toEqual({ data: { id, documentId, name: 'both', createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: expect.any(String) }, meta: {} });

    const v4 = await api.get(`/api/tags/${id}`);
    expect(v4.status).toBe(200);
    expect(v4.body).toEqual({ data: { id, attributes: { name: 'both', createdAt: expect.any(String), updatedAt: expect.any(String) } }, meta: {} });
    expect((await api.get(`/v5/api/tags/${documentId}`)).body.data).toMatchObject({ id, documentId, name: 'both' });
    expect((await api.get(`/v5/api/tags/${id}`)).status).toBe(404);

    const filtered = await api.get(`/v5/api/tags?filters[documentId][$eq]=${documentId}`);
    expect(filtered.body.data.map((t: { id: number }) => t.id)).toEqual([id]);
    const wrapped = await api.get(`/v5/api/tags/${documentId}`, { 'Strapi-Response-Format': 'v4' });
    expect(wrapped.body.data).toEqual({ id, documentId, attributes: expect.objectContaining({ name: 'both' }) });

    const deleted = await api.del(`/v5/api/tags/${documentId}`, bearer(token));
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await api.del(`/v5/api/tags/${documentId}`, bearer(token))).status).toBe(204);
    expect((await api.get(`/api/tags/${id}`)).status).toBe(404);
  });

  it('shares the permission table and the JWT secret', async () => {
    expect((await api.post('/v5/api/tags', { data: { name: 'public' } })).status).toBe(403);
    const registered = await api.post('/v5/api/auth/local/register', { username: 'mounted', email: 'mounted@example.com', password: 'Secret123' });
    expect(registered.status).toBe(200);
    expect(registered.body.user).toMatchObject({ username: 'mounted', documentId: expect.stringMatching(/^[a-z][a-z0-9]{23}$/), publishedAt: expect.any(String) });
    const me = await api.get('/api/users/me', bearer(registered.body.jwt));
    expect(me.status).toBe(200);
    expect(me.body).not.toHaveProperty('documentId');
    expect(me.body.username).toBe('mounted');
  });

  it('serves v4 alone with v5.rest.enabled false', async () => {
    await server.stop();
    await writeUserConfig(built.dir, { v5: { rest: { enabled: false } } });
    server = await startServer(built.dir);
    api = client(server.url);
    expect((await api.get('/v5/api/tags')).status).toBe(404);
    expect((await api.get('/api/tags')).status).toBe(200);
  });
});
