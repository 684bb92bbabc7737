/**
 * Roles of the blog fixture's permissions.json (public, authenticated, editor) enforced per
 * route over HTTP, and the emitted policy table as the source of truth at start: a changed
 * table, restarted on the same database, changes the stored roles and what callers may do.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let admin: ReturnType<typeof client>;
let adminToken: string;
let editorJwt: string;
let editorId: number;
let authenticatedJwt: string;
let articleId: number;
let categoryId: number;

interface PolicyTable {
  roles: { type: string; name: string; description: string; actions: string[] }[];
  actions: Record<string, Record<string, string[]>>;
}

async function start(): Promise<void> {
  server = await startServer(built.dir);
  admin = client(server.url, bearer(adminToken));
}

async function login(identifier: string, password: string): Promise<string> {
  const res = await client(server.url).post('/api/auth/local', { identifier, password });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.jwt;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  adminToken = await createApiToken(built.dir, { type: 'full-access' });
  await start();
  const roles = (await admin.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
  const editorRole = roles.find((r) => r.type === 'editor')!;
  editorId = (await admin.post('/api/users', { username: 'edith', email: 'edith@example.com', password: 'secret123', role: editorRole.id })).body.id;
  editorJwt = await login('edith', 'secret123');
  authenticatedJwt = (await client(server.url).post('/api/auth/local/register', { username: 'arthur', email: 'arthur@example.com', password: 'secret123' })).body.jwt;
  articleId = (await admin.post('/api/articles', { data: { title: 'Role play' } })).body.data.id;
  categoryId = (await admin.post('/api/categories', { data: { name: 'Roles' } })).body.data.id;
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

type Caller = 'public' | 'authenticated' | 'editor';

function callerClient(caller: Caller) {
  if (caller === 'public') return client(server.url);
  return client(server.url, bearer(caller === 'editor' ? editorJwt : authenticatedJwt));
}

const matrix: [string, string, (ids: { article: number; category: number }) => string, unknown, Record<Caller, number>][] = [
  ['find articles', 'GET', () => '/api/articles', undefined, { public: 200, authenticated: 200, editor: 200 }],
  ['findOne article', 'GET', (i) => `/api/articles/${i.article}`, undefined, { public: 200, authenticated: 200, editor: 200 }],
  ['create article', 'POST', () => '/api/articles', { data: { title: 'By someone' } }, { public: 403, authenticated: 200, editor: 403 }],
  ['update article', 'PUT', (i) => `/api/articles/${i.article}`, { data: { views: 1 } }, { public: 403, authenticated: 200, editor: 200 }],
  ['find categories', 'GET', () => '/api/categories', undefined, { public: 200, authenticated: 403, editor: 200 }],
  ['findOne category', 'GET', (i) => `/api/categories/${i.category}`, undefined, { public: 200, authenticated: 403, editor: 403 }],
  ['create category', 'POST', () => '/api/categories', { data: { name: `c-${Math.random()}` } }, { public: 403, authenticated: 403, editor: 200 }],
  ['delete category', 'DELETE', () => '/api/categories/999999', undefined, { public: 403, authenticated: 403, editor: 403 }],
  ['create tag', 'POST', () => '/api/tags', { data: { name: `t-${Math.random()}` } }, { public: 403, authenticated: 403, editor: 403 }],
  ['find authors', 'GET', () => '/api/authors', undefined, { public: 200, authenticated: 403, editor: 403 }],
  ['global', 'GET', () => '/api/global', undefined, { public: 404, authenticated: 403, editor: 403 }],
  ['me', 'GET', () => '/api/users/me', undefined, { public: 403, authenticated: 200, editor: 200 }],
  ['roles', 'GET', () => '/api/users-permissions/roles', undefined, { public: 403, authenticated: 403, editor: 200 }],
  ['users', 'GET', () => '/api/users', undefined, { public: 403, authenticated: 403, editor: 403 }],
  ['change password (wrong current)', 'POST', () => '/api/auth/change-password', { currentPassword: 'x', password: 'newsecret', passwordConfirmation: 'newsecret' }, { public: 403, authenticated: 400, editor: 403 }],
];

describe('permissions.json roles, per route', () => {
  for (const caller of ['public', 'authenticated', 'editor'] as const) {
    it(`${caller}: every route answers as its role allows`, async () => {
      const api = callerClient(caller);
      for (const [name, method, pathOf, body, expected] of matrix) {
        const res = await api.request(method, pathOf({ article: articleId, category: categoryId }), body);
        expect(res.status, `${caller} ${name}: ${JSON.stringify(res.body)}`).toBe(expected[caller]);
        if (expected[caller] === 403) expect(res.body.error).toEqual({ status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} });
      }
    });
  }

  it('role writes are refused: the roles are permissions.json’s (REST as GraphQL)', async () => {
    const roles = (await admin.get('/api/users-permissions/roles')).body.roles as { id: number }[];
    const message = 'Roles are defined in permissions.json: edit it and rebuild the server to change them';
    for (const [method, path] of [['post', '/api/users-permissions/roles'], ['put', `/api/users-permissions/roles/${roles[0]!.id}`], ['del', `/api/users-permissions/roles/${roles[0]!.id}`]] as const) {
      const res = method === 'del' ? await admin.del(path) : await admin[method](path, { name: 'Reviewer', description: 'x', permissions: {} });
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body.error).toMatchObject({ status: 400, name: 'ApplicationError', message });
    }
    // The caller still needs the action: the public role may not even try.
    expect((await callerClient('public').post('/api/users-permissions/roles', { name: 'x' })).status).toBe(403);
  });

  it('a role may see populated roles only with role.find', async () => {
    expect((await callerClient('editor').get('/api/users/me?populate=role')).body.role).toMatchObject({ type: 'editor', name: 'Editor' });
    expect((await callerClient('authenticated').get('/api/users/me?populate=role')).body).not.toHaveProperty('role');
  });

  it('the stored roles and permissions are the policy table\'s', async () => {
    const roles = (await admin.get('/api/users-permissions/roles')).body.roles as { id: number; type: string; name: string; nb_users: number }[];
    // Id order, as Strapi 4.26.2 creates and lists them (docs/auth.md "Role ids").
    expect(roles.map((r) => [r.id, r.type, r.name, r.nb_users])).toEqual([[1, 'authenticated', 'Authenticated', 1], [2, 'public', 'Public', 0], [3, 'editor', 'Editor', 1]]);
    const editor = (await admin.get(`/api/users-permissions/roles/${roles[2]!.id}`)).body.role;
    const enabled = Object.entries(editor.permissions as Record<string, { controllers: Record<string, Record<string, { enabled: boolean }>> }>).flatMap(([api, { controllers }]) =>
      Object.entries(controllers).flatMap(([c, actions]) => Object.entries(actions).filter(([, a]) => a.enabled).map(([a]) => `${api}.${c}.${a}`)),
    );
    expect(enabled.sort()).toEqual([
      'api::article.article.find', 'api::article.article.findOne', 'api::article.article.update', 'api::category.category.create', 'api::category.category.find',
      'plugin::users-permissions.role.find', 'plugin::users-permissions.user.me',
    ]);
  });
});

describe('the emitted policy table is the source of truth at start', () => {
  it('a role removed from the table is deleted (its users become authenticated); new grants apply', async () => {
    const file = path.join(built.dir, 'src/generated/permissions.ts');
    const { policy } = (await import(file)) as { policy: PolicyTable };
    const changed: PolicyTable = {
      ...policy,
      roles: policy.roles
        .filter((r) => r.type !== 'editor')
        .map((r) => (r.type === 'authenticated' ? { ...r, actions: [...r.actions.filter((a) => a !== 'api::article.article.delete'), 'api::tag.tag.create'] } : r)),
    };
    await writeFile(file, `import type { PolicyTable } from '../runtime/auth/policy.js';\n\nexport const policy: PolicyTable = ${JSON.stringify(changed, null, 2)};\n`);
    await server.stop();
    await start();
    expect(server.output()).toMatch(/users-permissions: policy table synced \(deleted roles editor; 1 permission\(s\) added, 8 removed\)/);

    const roles = (await admin.get('/api/users-permissions/roles')).body.roles as { type: string; nb_users: number }[];
    expect(roles.map((r) => [r.type, r.nb_users])).toEqual([['authenticated', 2], ['public', 0]]);
    expect((await admin.get(`/api/users/${editorId}?populate=role`)).body.role.type).toBe('authenticated');

    const arthur = callerClient('authenticated');
    expect((await arthur.post('/api/tags', { data: { name: 'now allowed' } })).status).toBe(200);
    expect((await arthur.del(`/api/articles/${articleId}`)).status).toBe(403);
    // Edith's JWT still works: she is authenticated now.
    expect((await callerClient('editor').post('/api/tags', { data: { name: 'edith again' } })).status).toBe(200);
    expect((await callerClient('editor').get('/api/users-permissions/roles')).status).toBe(403);

    // Restarting with the same table changes nothing.
    await server.stop();
    await start();
    expect(server.output()).not.toMatch(/policy table synced/);
  });
});
