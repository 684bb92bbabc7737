/**
 * Population and deep filters respect the caller's permissions: a role without `find` on a
 * type does not get it populated, and filtering through it is a 400 (Strapi's validateQuery).
 * In the blog fixture the public role may find authors; the authenticated role may not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let user: ReturnType<typeof client>;
let visitor: ReturnType<typeof client>;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  const admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  const author = await admin.post('/api/authors', { data: { name: 'Ann' } });
  await admin.post('/api/articles', { data: { title: 'By Ann', author: author.body.data.id } });
  const registered = await client(server.url).post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'secret123' });
  expect(registered.status).toBe(200);
  user = client(server.url, bearer(registered.body.jwt));
  visitor = client(server.url);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('permissions reach into populate and filters', () => {
  it('populates a relation only for roles that may find its type', async () => {
    const asVisitor = await visitor.get('/api/articles?populate=author&fields[0]=title');
    expect(asVisitor.body.data[0].attributes.author.data.attributes.name).toBe('Ann');
    const asUser = await user.get('/api/articles?populate=author&fields[0]=title');
    expect(asUser.status).toBe(200);
    expect(asUser.body.data[0].attributes).toEqual({ title: 'By Ann' });
  });

  it('filtering through a type the role may not find is a 400', async () => {
    const asVisitor = await visitor.get('/api/articles?filters[author][name][$eq]=Ann&fields[0]=title');
    expect(asVisitor.status).toBe(200);
    expect(asVisitor.body.data).toHaveLength(1);
    const asUser = await user.get('/api/articles?filters[author][name][$eq]=Ann&fields[0]=title');
    expect(asUser.status).toBe(400);
    expect(asUser.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid parameter author', details: {} });
  });
});
