/**
 * API tokens on the emitted blog server: created, listed and revoked with the emitted
 * `npm run token` CLI, stored as HMAC-SHA512 under API_TOKEN_SALT, and enforced per type
 * (read-only, full-access, custom) on every route; expiry and lastUsedAt.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testProvider } from '../helpers/databases.js';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, serverEnv, startServer, tokenCli, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let tagId: number;
let articleId: number;

const forbidden = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const invalid = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

const as = (token: string) => client(server.url, bearer(token));

async function cliFailure(args: string[]): Promise<{ code: number; stderr: string }> {
  return tokenCli(built.dir, args).then(
    () => ({ code: 0, stderr: '' }),
    (err: { code: number; stderr: string }) => ({ code: err.code, stderr: err.stderr }),
  );
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  const full = as(await createApiToken(built.dir, { type: 'full-access', name: 'setup' }));
  tagId = (await full.post('/api/tags', { data: { name: 'seed' } })).body.data.id;
  articleId = (await full.post('/api/articles', { data: { title: 'Seeded article' } })).body.data.id;
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('token types', () => {
  it('full-access: every route', async () => {
    const full = as(await createApiToken(built.dir, { type: 'full-access' }));
    const created = await full.post('/api/tags', { data: { name: 'full' } });
    expect(created.status).toBe(200);
    expect((await full.put(`/api/tags/${created.body.data.id}`, { data: { name: 'full2' } })).status).toBe(200);
    expect((await full.del(`/api/tags/${created.body.data.id}`)).status).toBe(200);
    expect((await full.get('/api/users')).status).toBe(200);
    expect((await full.get('/api/users/count')).status).toBe(200);
    expect((await full.get('/api/users-permissions/roles')).status).toBe(200);
  });

  it('read-only: only routes whose action ends in find or findOne', async () => {
    const reader = as(await createApiToken(built.dir, { type: 'read-only' }));
    expect((await reader.get('/api/tags')).status).toBe(200);
    expect((await reader.get(`/api/tags/${tagId}`)).status).toBe(200);
    expect((await reader.get('/api/users')).status).toBe(200); // user.find
    expect((await reader.get('/api/users-permissions/roles')).status).toBe(200); // role.find
    expect(await reader.post('/api/tags', { data: { name: 'nope' } })).toMatchObject({ status: 403, body: forbidden });
    expect(await reader.put(`/api/tags/${tagId}`, { data: { name: 'nope' } })).toMatchObject({ status: 403, body: forbidden });
    expect(await reader.del(`/api/tags/${tagId}`)).toMatchObject({ status: 403, body: forbidden });
    expect(await reader.get('/api/users/count')).toMatchObject({ status: 403, body: forbidden }); // user.count
    expect(await reader.get('/api/users/me')).toMatchObject({ status: 403, body: forbidden }); // user.me
  });

  it('custom: exactly its actions (no fallback to the public role)', async () => {
    const custom = as(await createApiToken(built.dir, { type: 'custom', actions: ['api::tag.tag.find', 'api::tag.tag.create'] }));
    expect((await custom.get('/api/tags')).status).toBe(200);
    expect((await custom.post('/api/tags', { data: { name: 'custom' } })).status).toBe(200);
    expect(await custom.get(`/api/tags/${tagId}`)).toMatchObject({ status: 403, body: forbidden });
    expect(await custom.put(`/api/tags/${tagId}`, { data: { name: 'x' } })).toMatchObject({ status: 403, body: forbidden });
    // The public role may read articles; this token may not.
    expect((await client(server.url).get(`/api/articles/${articleId}`)).status).toBe(200);
    expect(await custom.get(`/api/articles/${articleId}`)).toMatchObject({ status: 403, body: forbidden });
  });

  it('an unknown bearer is a 401, not the public role', async () => {
    expect(await as('f'.repeat(256)).get('/api/articles')).toMatchObject({ status: 401, body: invalid });
  });
});

describe('storage, expiry and use', () => {
  it('stores HMAC-SHA512(accessKey, API_TOKEN_SALT) in hex, never the key', async () => {
    const key = await createApiToken(built.dir, { type: 'read-only', name: 'hashed' });
    expect(key).toMatch(/^[0-9a-f]{256}$/);
    const salt = JSON.parse(await readFile(path.join(built.dir, '.dev-secrets.json'), 'utf8')).API_TOKEN_SALT;
    const [row] = await built.database.query<{ access_key: string }>('SELECT access_key FROM strapi_api_tokens WHERE name = ?', ['hashed']);
    expect(row!.access_key).toBe(createHmac('sha512', salt).update(key).digest('hex'));
  });

  it('lifespan sets expiresAt; past it the token answers 401 "Token expired"', async () => {
    const key = await createApiToken(built.dir, { type: 'full-access', name: 'short-lived', lifespanDays: 7 });
    const listed = JSON.parse((await tokenCli(built.dir, ['list', '--json'])).stdout) as { name: string; expiresAt: string; lifespan: number }[];
    const token = listed.find((t) => t.name === 'short-lived')!;
    expect(token.lifespan).toBe(7 * 24 * 3600 * 1000);
    expect(Math.abs(Date.parse(token.expiresAt) - Date.now() - 7 * 24 * 3600 * 1000)).toBeLessThan(60_000);
    expect((await as(key).get('/api/tags')).status).toBe(200);
    await built.database.query('UPDATE strapi_api_tokens SET expires_at = ? WHERE name = ?', [built.database.datetime(new Date(Date.now() - 1000)), 'short-lived']);
    expect(await as(key).get('/api/tags')).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Token expired' } } });
  });

  it('records lastUsedAt on use, at most hourly', async () => {
    const key = await createApiToken(built.dir, { type: 'read-only', name: 'used' });
    const lastUsed = async () => (JSON.parse((await tokenCli(built.dir, ['list', '--json'])).stdout) as { name: string; lastUsedAt: string | null }[]).find((t) => t.name === 'used')!.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await as(key).get('/api/tags');
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await as(key).get('/api/tags');
    expect(await lastUsed()).toBe(first);
  });

  it('revoke (by name or id) stops the token at once', async () => {
    const key = await createApiToken(built.dir, { type: 'full-access', name: 'to-revoke' });
    expect((await as(key).get('/api/tags')).status).toBe(200);
    const { stdout } = await tokenCli(built.dir, ['revoke', 'to-revoke']);
    expect(stdout).toMatch(/Revoked API token \d+ "to-revoke"/);
    expect(await as(key).get('/api/tags')).toMatchObject({ status: 401, body: invalid });
    expect(await cliFailure(['revoke', 'to-revoke'])).toMatchObject({ code: 1, stderr: expect.stringContaining('no API token with id or name "to-revoke"') });
  });
});

describe('the token command line', () => {
  it('refuses unknown actions, unknown types, taken names and bad usage', async () => {
    expect(await cliFailure(['create', '--name', 'bad', '--type', 'custom', '--actions', 'api::tag.tag.find,api::nope.nope.find,api::tag.tag.fly'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown permissions provided: api::nope.nope.find, api::tag.tag.fly'),
    });
    expect(await cliFailure(['create', '--name', 'bad', '--type', 'admin'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Unknown token type "admin"') });
    expect(await cliFailure(['create', '--name', 'setup', '--type', 'read-only'])).toMatchObject({ code: 1, stderr: expect.stringContaining('Name already taken') });
    expect(await cliFailure(['create', '--name', 'ro', '--type', 'read-only', '--actions', 'api::tag.tag.find'])).toMatchObject({ code: 1 });
    expect(await cliFailure(['create', '--type', 'read-only'])).toMatchObject({ code: 2, stderr: expect.stringContaining('create needs --name') });
    expect(await cliFailure(['frobnicate'])).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run token') });
  });

  it('list never shows keys or hashes', async () => {
    const { stdout } = await tokenCli(built.dir, ['list']);
    expect(stdout).toMatch(/^id\s+name\s+type\s+expires/);
    expect(stdout).toContain('setup');
    expect(stdout).not.toMatch(/[0-9a-f]{64}/);
    const json = await tokenCli(built.dir, ['list', '--json']);
    expect(json.stdout).not.toMatch(/[0-9a-f]{64}/);
  });

  // The npm script and the compile step do not depend on the database (the CLI itself runs
  // against every database in the tests above): compiling once is enough.
  it.skipIf(testProvider() !== 'sqlite')('works as `npm run token` in the emitted server (compiles, then runs dist/token.js)', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'token', '--', 'create', '--name', 'via-npm', '--type', 'read-only'], {
      cwd: built.dir,
      env: serverEnv({}, built.dir),
      encoding: 'utf8',
    });
    expect(stdout).toMatch(/Created API token \d+ "via-npm" \(read-only, never expires\)/);
    const key = /^([0-9a-f]{256})$/m.exec(stdout)?.[1];
    expect(key).toBeDefined();
    expect((await as(key!).get('/api/tags')).status).toBe(200);
  }, 120_000);
});
