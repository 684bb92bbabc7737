/**
 * A Strapi v4 project as the input (issue 25): fixtures/projects/no-graphql installs neither
 * @strapi/plugin-graphql nor the i18n or documentation plugins, and its config/*.js sets the
 * REST prefix and limits, the JWT lifetime, the auth rate limit, CORS and the body limit.
 * The built server answers /graphql, /documentation and /v1/i18n/locales like any unknown
 * route (404), serves REST under /v1, and the seeded src/config.ts's values take effect,
 * those read from the environment (and the server's .env) included.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  built = await buildModels(path.join(fixturesDir, 'projects/no-graphql'), 'project-no-graphql');
  // What the project's .env gave Strapi, the server's .env gives it; a variable set in the
  // environment wins over the file, as with Strapi's dotenv.
  await writeFile(path.join(built.dir, '.env'), 'API_DEFAULT_LIMIT=2\nJWT_EXPIRES="7d"\nCORS_ORIGINS=https://wrong.example.com\n');
  server = await startServer(built.dir, { CORS_ORIGINS: 'https://notes.example.com' });
  api = client(server.url);
  admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  for (let i = 1; i <= 5; i++) {
    const created = await admin.post('/v1/notes', { data: { title: `Note ${i}`, rank: i } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
  }
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('a project without the GraphQL, i18n and documentation plugins', () => {
  it('answers /graphql, /documentation and the i18n route with 404, as unknown routes', async () => {
    const unknown = await api.get('/v1/nothing-here');
    expect(unknown.status).toBe(404);
    for (const [method, at] of [['POST', '/graphql'], ['GET', '/graphql'], ['GET', '/documentation'], ['GET', '/documentation/openapi.json'], ['GET', '/v1/i18n/locales']] as const) {
      const res = await api.request(method, at, method === 'POST' ? { query: '{ notes { data { id } } }' } : undefined);
      expect(res.status, `${method} ${at}`).toBe(404);
      expect(res.body, `${method} ${at}`).toEqual(unknown.body);
    }
  });

  it('serves REST under the project prefix, not localized', async () => {
    expect((await api.get('/api/notes')).status).toBe(404);
    const res = await api.get('/v1/notes?sort=rank');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data[0].attributes).sort()).toEqual(['body', 'createdAt', 'rank', 'title', 'updatedAt']);
  });
});

describe("the project's config takes effect", () => {
  it('api.rest.defaultLimit (from the environment) and maxLimit', async () => {
    const page = await api.get('/v1/notes?sort=rank');
    expect(page.body.data.map((n: any) => n.attributes.rank)).toEqual([1, 2]);
    expect(page.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 3, total: 5 });
    const clamped = await api.get('/v1/notes?sort=rank&pagination[pageSize]=10');
    expect(clamped.body.data).toHaveLength(3);
    expect(clamped.body.meta.pagination.pageSize).toBe(3);
  });

  it('users-permissions jwt.expiresIn (from the environment) and its rate limit', async () => {
    const registered = await api.post('/v1/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'secret123' });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const payload = JSON.parse(Buffer.from(registered.body.jwt.split('.')[1], 'base64url').toString());
    expect(payload.exp - payload.iat).toBe(7 * 24 * 3600);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await api.post('/v1/auth/local', { identifier: 'nobody@example.com', password: 'wrong-password' })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('strapi::cors origins (from the environment) and strapi::body jsonLimit', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/v1/notes`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-notes-client' } });
    const allowed = await preflight('https://notes.example.com');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://notes.example.com');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('X-Notes-Client');
    const refused = await preflight('http://localhost:3000');
    expect(refused.headers.get('access-control-allow-origin')).not.toBe('http://localhost:3000');
    const big = await admin.post('/v1/notes', { data: { title: 'big', body: 'x'.repeat(300 * 1024) } });
    expect(big.status).toBe(413);
    const fits = await admin.post('/v1/notes', { data: { title: 'fits', body: 'x'.repeat(200 * 1024) } });
    expect(fits.status).toBe(200);
  });
});
