/**
 * The users-permissions plugin over real HTTP on the emitted blog server: register, login,
 * me, users CRUD and count, roles and permissions, change/forgot/reset password, blocked
 * users, and the rule that passwords and private fields never appear in any answer.
 * (Rate limiting is raised here; auth-security.test.ts tests it at its defaults.)
 */
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type JsonResponse } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, writeUsersPermissionsConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
/** Every answer of this file, searched for secrets at the end. */
const answers: JsonResponse[] = [];

const userKeys = ['id', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt'];
const privateKeys = ['password', 'resetPasswordToken', 'confirmationToken'];

function record<T extends JsonResponse>(res: T): T {
  answers.push(res);
  return res;
}

function as(token: string) {
  const c = client(server.url, bearer(token));
  return {
    get: async (p: string) => record(await c.get(p)),
    post: async (p: string, body?: unknown) => record(await c.post(p, body)),
    put: async (p: string, body?: unknown) => record(await c.put(p, body)),
    del: async (p: string) => record(await c.del(p)),
  };
}

async function register(username: string, email = `${username}@example.com`, password = 'secret123') {
  const res = record(await api.post('/api/auth/local/register', { username, email, password }));
  if (res.status !== 200) throw new Error(`register ${username}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { jwt: string; user: { id: number; email: string } };
}

async function login(identifier: string, password: string) {
  return record(await api.post('/api/auth/local', { identifier, password }));
}

/** One column of one user's row, read from the database. */
async function storedColumn(column: string, username: string): Promise<string> {
  const [row] = await built.database.query<{ value: string }>(`SELECT ${column} AS value FROM up_users WHERE username = ?`, [username]);
  return row!.value;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  await writeUsersPermissionsConfig(built.dir, {
    ratelimit: { max: 1000 },
    advanced: { email_reset_password: 'https://front.example.com/reset-password' },
  });
  server = await startServer(built.dir);
  api = client(server.url);
  const token = await createApiToken(built.dir, { type: 'full-access' });
  admin = client(server.url, bearer(token));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('register', () => {
  it('answers {jwt, user}: HS256 JWT with payload {id}, 30 days; email lower-cased; no private field', async () => {
    const res = record(await api.post('/api/auth/local/register', { username: 'alice', email: 'Alice@Example.COM', password: 'secret123' }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['jwt', 'user']);
    expect(Object.keys(res.body.user)).toEqual(userKeys);
    expect(res.body.user).toMatchObject({ username: 'alice', email: 'alice@example.com', provider: 'local', confirmed: true, blocked: false });
    const decoded = jwt.decode(res.body.jwt, { complete: true }) as jwt.Jwt;
    expect(decoded.header).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    const payload = decoded.payload as jwt.JwtPayload;
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'id']);
    expect(payload.id).toBe(res.body.user.id);
    expect(payload.exp! - payload.iat!).toBe(30 * 24 * 3600);
  });

  it('stores a bcrypt hash, never the password', async () => {
    expect(await storedColumn('password', 'alice')).toMatch(/^\$2[aby]\$10\$/);
  });

  it('validates the body like Strapi (yup messages, every error)', async () => {
    const all = record(await api.post('/api/auth/local/register', {}));
    expect(all.status).toBe(400);
    expect(all.body.error).toMatchObject({ name: 'ValidationError', message: '3 errors occurred' });
    expect(all.body.error.details.errors).toEqual([
      { path: ['email'], message: 'email is a required field', name: 'ValidationError' },
      { path: ['username'], message: 'username is a required field', name: 'ValidationError' },
      { path: ['password'], message: 'password is a required field', name: 'ValidationError' },
    ]);
    const cases: [Record<string, unknown>, string][] = [
      [{ username: 'bob', email: 'not-an-email', password: 'secret123' }, 'email must be a valid email'],
      [{ username: 'bob', email: 'bob@example.com', password: 'short' }, 'password must be at least 6 characters'],
      [{ username: 'bo', email: 'bob@example.com', password: 'secret123' }, 'username must be at least 3 characters'],
      [{ username: 'bob', email: 'bob@example.com', password: 'é'.repeat(37) }, 'Password must be less than 73 bytes'],
      [{ username: 42, email: 'bob@example.com', password: 'secret123' }, 'username must be a `string` type, but the final value was: `42`.'],
    ];
    for (const [body, message] of cases) {
      const res = record(await api.post('/api/auth/local/register', body));
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
  });

  it('refuses a taken email or username: "Email or Username are already taken"', async () => {
    await register('carol');
    for (const body of [
      { username: 'carol', email: 'other@example.com', password: 'secret123' },
      { username: 'carol2', email: 'CAROL@example.com', password: 'secret123' },
      { username: 'carol@example.com', email: 'x@example.com', password: 'secret123' },
    ]) {
      const res = record(await api.post('/api/auth/local/register', body));
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({ status: 400, name: 'ApplicationError', message: 'Email or Username are already taken', details: {} });
    }
  });

  it('ignores system fields in the body: new users are local, confirmed, not blocked, authenticated', async () => {
    const res = record(
      await api.post('/api/auth/local/register', {
        username: 'mallory', email: 'mallory@example.com', password: 'secret123', confirmed: false, blocked: true, provider: 'github', role: 1, resetPasswordToken: 'x',
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ provider: 'local', confirmed: true, blocked: false });
    const full = record(await admin.get(`/api/users/${res.body.user.id}?populate=role`));
    expect(full.body.role.type).toBe('authenticated');
  });
});

describe('login', () => {
  it('accepts the username or the email (any case) and answers {jwt, user}', async () => {
    await register('dave');
    for (const identifier of ['dave', 'DAVE@example.com']) {
      const res = await login(identifier, 'secret123');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['jwt', 'user']);
      expect(Object.keys(res.body.user)).toEqual(userKeys);
      expect(res.body.user.username).toBe('dave');
    }
  });

  it('answers "Invalid identifier or password" for a wrong password and for an unknown user alike', async () => {
    const expected = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid identifier or password', details: {} } };
    expect(await login('dave', 'wrong-password')).toMatchObject({ status: 400, body: expected });
    expect(await login('nobody-here', 'secret123')).toMatchObject({ status: 400, body: expected });
  });

  it('requires identifier and password', async () => {
    const res = await login(undefined as never, 'x');
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors).toEqual([{ path: ['identifier'], message: 'identifier is a required field', name: 'ValidationError' }]);
  });

  it('runs bcrypt whether or not the user exists (no timing oracle)', async () => {
    const time = async (identifier: string, body?: unknown) => {
      const started = performance.now();
      const res = body === undefined ? await login(identifier, 'not-the-password') : record(await api.post('/api/auth/local', body));
      expect(res.status).toBe(400);
      return performance.now() - started;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const samples = { existing: [] as number[], missing: [] as number[], noBcrypt: [] as number[] };
    for (let i = 0; i < 7; i++) {
      samples.existing.push(await time('dave'));
      samples.missing.push(await time(`ghost-${i}`));
      samples.noBcrypt.push(await time('', { identifier: 'dave' })); // fails validation: no hash compared
    }
    const [existing, missing, noBcrypt] = [median(samples.existing), median(samples.missing), median(samples.noBcrypt)];
    console.log(`login timing (median of 7): existing user ${existing.toFixed(1)} ms, missing user ${missing.toFixed(1)} ms, no bcrypt ${noBcrypt.toFixed(1)} ms`);
    // Both paths cost a bcrypt comparison, which dominates a request that does none.
    expect(existing).toBeGreaterThan(noBcrypt * 3);
    expect(missing).toBeGreaterThan(noBcrypt * 3);
    expect(missing / existing).toBeGreaterThan(0.5);
    expect(missing / existing).toBeLessThan(2);
  });
});

describe('users', () => {
  it('GET /api/users/me answers the caller, 403 for the public role, 401 for an API token (no user)', async () => {
    const { jwt: token, user } = await register('erin');
    const me = await as(token).get('/api/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(user);
    expect(record(await api.get('/api/users/me'))).toMatchObject({ status: 403, body: { error: { name: 'ForbiddenError', message: 'Forbidden' } } });
    expect(record(await admin.get('/api/users/me'))).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Unauthorized' } } });
    // The authenticated role may not find roles: populate=role is dropped.
    expect((await as(token).get('/api/users/me?populate=role')).body).not.toHaveProperty('role');
  });

  it('the public role and authenticated users cannot read users', async () => {
    const { jwt: token, user } = await register('frank');
    for (const p of ['/api/users', `/api/users/${user.id}`, '/api/users/count']) {
      expect(record(await api.get(p)).status, p).toBe(403);
      expect((await as(token).get(p)).status, p).toBe(403);
    }
  });

  it('find (bare array), count (bare number), findOne (bare object; unknown → 204)', async () => {
    const list = record(await admin.get('/api/users?sort=username:asc'));
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body.map((u: { username: string }) => u.username)).toEqual([...list.body.map((u: { username: string }) => u.username)].sort());
    for (const u of list.body) expect(Object.keys(u)).toEqual(userKeys);
    const count = record(await admin.get('/api/users/count'));
    expect(count.body).toBe(list.body.length);
    expect(record(await admin.get('/api/users/count?filters[username][$eq]=alice')).body).toBe(1);
    const one = record(await admin.get(`/api/users/${list.body[0].id}`));
    expect(one.body).toEqual(list.body[0]);
    const missing = record(await admin.get('/api/users/99999'));
    expect(missing.status).toBe(204);
    expect(missing.body).toBeUndefined();
    const filtered = record(await admin.get('/api/users?filters[email][$containsi]=ALICE&fields[0]=username'));
    expect(filtered.body).toEqual([{ id: expect.any(Number), username: 'alice' }]);
    const paged = record(await admin.get('/api/users?start=1&limit=2&sort=id'));
    expect(paged.body.map((u: { id: number }) => u.id)).toEqual(list.body.map((u: { id: number }) => u.id).sort((a: number, b: number) => a - b).slice(1, 3));
  });

  it('private and password fields cannot be filtered, sorted or selected', async () => {
    for (const q of ['filters[password][$eq]=x', 'filters[resetPasswordToken][$null]=true', 'sort=password', 'fields[0]=password', 'fields[0]=confirmationToken']) {
      const res = record(await admin.get(`/api/users?${q}`));
      expect(res.status, q).toBe(400);
      expect(res.body.error.name, q).toBe('ValidationError');
    }
  });

  it('populate=role shows the role (no users, no permissions) to callers allowed to find roles', async () => {
    const res = record(await admin.get('/api/users?populate=role&filters[username]=alice'));
    expect(res.body[0].role).toEqual({
      id: expect.any(Number), name: 'Authenticated', description: 'Default role given to authenticated user.', type: 'authenticated',
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    for (const form of ['populate=*', 'populate[role]=true', 'populate[0]=role']) {
      expect(record(await admin.get(`/api/users?${form}&filters[username]=alice`)).body[0].role.type, form).toBe('authenticated');
    }
  });

  it('POST /api/users: 201 with the user; taken username/email refused; role by id', async () => {
    const roles = record(await admin.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    const editor = roles.find((r) => r.type === 'editor')!;
    const created = record(await admin.post('/api/users', { username: 'grace', email: 'Grace@Example.com', password: 'secret123', role: editor.id }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'grace', email: 'grace@example.com', provider: 'local', role: { type: 'editor' } });
    expect((await login('grace', 'secret123')).status).toBe(200);

    const defaulted = record(await admin.post('/api/users', { username: 'heidi', email: 'heidi@example.com', password: 'secret123' }));
    expect(defaulted.body.role.type).toBe('authenticated');
    expect(record(await admin.post('/api/users', { username: 'grace', email: 'g2@example.com', password: 'secret123' }))).toMatchObject({
      status: 400, body: { error: { name: 'ApplicationError', message: 'Username already taken' } },
    });
    expect(record(await admin.post('/api/users', { username: 'grace2', email: 'GRACE@example.com', password: 'secret123' }))).toMatchObject({
      status: 400, body: { error: { name: 'ApplicationError', message: 'Email already taken' } },
    });
    const invalid = record(await admin.post('/api/users', { username: 'ivan' }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toBe('2 errors occurred');
  });

  it('PUT /api/users/:id updates (email lower-cased), refuses clashes, 404 "User not found"', async () => {
    const { user } = await register('judy');
    const updated = record(await admin.put(`/api/users/${user.id}`, { email: 'JUDY.NEW@example.com' }));
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: user.id, email: 'judy.new@example.com' });
    expect(record(await admin.put(`/api/users/${user.id}`, { username: 'alice' }))).toMatchObject({ status: 400, body: { error: { message: 'Username already taken' } } });
    expect(record(await admin.put(`/api/users/${user.id}`, { email: 'alice@example.com' }))).toMatchObject({ status: 400, body: { error: { message: 'Email already taken' } } });
    expect(record(await admin.put(`/api/users/${user.id}`, { password: '' }))).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'password.notNull' } } });
    expect(record(await admin.put('/api/users/99999', { username: 'nobody' }))).toMatchObject({ status: 404, body: { error: { name: 'NotFoundError', message: 'User not found' } } });
    const password = record(await admin.put(`/api/users/${user.id}`, { password: 'another-secret' }));
    expect(password.status).toBe(200);
    expect((await login('judy', 'another-secret')).status).toBe(200);
  });

  it('blocked users cannot log in, and their JWTs stop working', async () => {
    const { jwt: token, user } = await register('ken');
    expect((await as(token).get('/api/users/me')).status).toBe(200);
    expect(record(await admin.put(`/api/users/${user.id}`, { blocked: true })).status).toBe(200);
    expect(await login('ken', 'secret123')).toMatchObject({
      status: 400, body: { error: { name: 'ApplicationError', message: 'Your account has been blocked by an administrator' } },
    });
    expect(await login('ken', 'wrong-password')).toMatchObject({ status: 400, body: { error: { message: 'Invalid identifier or password' } } });
    expect(await as(token).get('/api/users/me')).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid credentials' } } });
  });

  it('DELETE /api/users/:id answers the user; its JWT is then refused; a missing user gives 204', async () => {
    const { jwt: token, user } = await register('leo');
    const deleted = record(await admin.del(`/api/users/${user.id}`));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(user);
    expect(record(await admin.del(`/api/users/${user.id}`)).status).toBe(204);
    expect(await as(token).get('/api/users/me')).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
  });
});

describe('passwords', () => {
  it('change-password: 403 for the public role; Strapi\'s errors; then the new password works', async () => {
    const { jwt: token } = await register('mike');
    const me = as(token);
    expect(record(await api.post('/api/auth/change-password', { currentPassword: 'secret123', password: 'x', passwordConfirmation: 'x' }))).toMatchObject({
      status: 403, body: { error: { name: 'ForbiddenError', message: 'Forbidden' } },
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ currentPassword: 'wrong', password: 'newsecret1', passwordConfirmation: 'newsecret1' }, 'The provided current password is invalid'],
      [{ currentPassword: 'secret123', password: 'newsecret1', passwordConfirmation: 'newsecret2' }, 'Passwords do not match'],
      [{ currentPassword: 'secret123', password: 'secret123', passwordConfirmation: 'secret123' }, 'Your new password must be different than your current password'],
      [{ currentPassword: 'secret123', password: 'newsecret1', passwordConfirmation: 'newsecret1', extra: 1 }, 'this field has unspecified keys: extra'],
      [{ currentPassword: 'secret123', password: 'short', passwordConfirmation: 'short' }, 'password must be at least 6 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await me.post('/api/auth/change-password', body);
      expect(res.status, message).toBe(400);
      expect(res.body.error.message).toBe(message);
    }
    const ok = await me.post('/api/auth/change-password', { currentPassword: 'secret123', password: 'newsecret1', passwordConfirmation: 'newsecret1' });
    expect(ok.status).toBe(200);
    expect(Object.keys(ok.body)).toEqual(['jwt', 'user']);
    expect((await login('mike', 'secret123')).status).toBe(400);
    expect((await login('mike', 'newsecret1')).status).toBe(200);
    // An API token is no user: Strapi's message.
    expect(record(await admin.post('/api/auth/change-password', { currentPassword: 'a', password: 'b', passwordConfirmation: 'b' }))).toMatchObject({
      status: 400, body: { error: { name: 'ApplicationError', message: 'You must be authenticated to reset your password' } },
    });
  });

  it('forgot-password mails a code (default sender: the server log), stores only its hash; reset-password uses it once', async () => {
    await register('nina', 'Nina@example.com');
    expect(record(await api.post('/api/auth/forgot-password', { email: 'nobody@example.com' }))).toMatchObject({ status: 200, body: { ok: true } });
    expect(record(await api.post('/api/auth/forgot-password', { email: 'NINA@example.com' }))).toMatchObject({ status: 200, body: { ok: true } });
    expect(record(await api.post('/api/auth/forgot-password', { email: 'nina@example.com', other: 1 })).body.error.message).toBe('this field has unspecified keys: other');

    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = /to: nina@example\.com[\s\S]*?https:\/\/front\.example\.com\/reset-password\?code=([0-9a-f]{128})/.exec(server.output())?.[1];
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    expect(code).toBeDefined();
    const stored = await storedColumn('reset_password_token', 'nina');
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toBe(code);

    expect(record(await api.post('/api/auth/reset-password', { code: 'nope', password: 'resetsecret', passwordConfirmation: 'resetsecret' }))).toMatchObject({
      status: 400, body: { error: { name: 'ValidationError', message: 'Incorrect code provided' } },
    });
    expect(record(await api.post('/api/auth/reset-password', { code, password: 'resetsecret', passwordConfirmation: 'other' }))).toMatchObject({
      status: 400, body: { error: { message: 'Passwords do not match' } },
    });
    const reset = record(await api.post('/api/auth/reset-password', { code, password: 'resetsecret', passwordConfirmation: 'resetsecret' }));
    expect(reset.status).toBe(200);
    expect(reset.body.user.username).toBe('nina');
    expect((await as(reset.body.jwt).get('/api/users/me')).status).toBe(200);
    expect((await login('nina', 'resetsecret')).status).toBe(200);
    expect(record(await api.post('/api/auth/reset-password', { code, password: 'again-secret', passwordConfirmation: 'again-secret' })).body.error.message).toBe('Incorrect code provided');
  });
});

describe('roles and permissions', () => {
  it('are not public', async () => {
    for (const p of ['/api/users-permissions/roles', '/api/users-permissions/roles/1', '/api/users-permissions/permissions']) {
      expect(record(await api.get(p)).status, p).toBe(403);
    }
  });

  it('GET /api/users-permissions/roles: {roles} in id order (Authenticated 1, Public 2, then the others), with nb_users', async () => {
    const res = record(await admin.get('/api/users-permissions/roles'));
    expect(res.status).toBe(200);
    // Observed on Strapi 4.26.2 (docs/auth.md "Role ids"): ids 1 Authenticated, 2 Public, 3 Editor, listed in that order.
    expect(res.body.roles.map((r: { id: number; type: string }) => [r.id, r.type])).toEqual([[1, 'authenticated'], [2, 'public'], [3, 'editor']]);
    for (const role of res.body.roles) expect(Object.keys(role)).toEqual(['id', 'name', 'description', 'type', 'createdAt', 'updatedAt', 'nb_users']);
    expect(res.body.roles.find((r: { type: string }) => r.type === 'public')).toMatchObject({ name: 'Public', description: 'Default role given to unauthenticated user.', nb_users: 0 });
    expect(res.body.roles.find((r: { type: string }) => r.type === 'editor').nb_users).toBe(1);
  });

  it('GET /api/users-permissions/roles/:id: the role with its permission tree; 404 "Role not found"', async () => {
    const roles = record(await admin.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    const publicRole = roles.find((r) => r.type === 'public')!;
    const res = record(await admin.get(`/api/users-permissions/roles/${publicRole.id}`));
    expect(res.status).toBe(200);
    const { permissions } = res.body.role;
    expect(permissions['api::article'].controllers.article).toEqual({
      find: { enabled: true, policy: '' }, findOne: { enabled: true, policy: '' }, create: { enabled: false, policy: '' },
      update: { enabled: false, policy: '' }, delete: { enabled: false, policy: '' },
    });
    expect(permissions['api::global'].controllers.global).toEqual({ find: { enabled: true, policy: '' }, update: { enabled: false, policy: '' }, delete: { enabled: false, policy: '' } });
    expect(permissions['plugin::users-permissions'].controllers.auth.register).toEqual({ enabled: true, policy: '' });
    expect(permissions['plugin::users-permissions'].controllers.user.me).toEqual({ enabled: false, policy: '' });
    expect(record(await admin.get('/api/users-permissions/roles/9999'))).toMatchObject({ status: 404, body: { error: { name: 'NotFoundError', message: 'Role not found' } } });
  });

  it('GET /api/users-permissions/permissions: every action, none enabled', async () => {
    const res = record(await admin.get('/api/users-permissions/permissions'));
    expect(Object.keys(res.body.permissions)).toEqual(['api::article', 'api::author', 'api::category', 'api::global', 'api::tag', 'plugin::upload', 'plugin::i18n', 'plugin::users-permissions']);
    expect(Object.keys(res.body.permissions['plugin::users-permissions'].controllers)).toEqual(['auth', 'user', 'role', 'permissions']);
    const flags = JSON.stringify(res.body).match(/"enabled":(true|false)/g)!;
    expect(new Set(flags)).toEqual(new Set(['"enabled":false']));
  });
});

describe('secrets never leave the server', () => {
  it('no answer of this file holds a password, a hash or a private field', () => {
    expect(answers.length).toBeGreaterThan(50);
    const walk = (value: unknown, at: string): void => {
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${at}[${i}]`));
      else if (value && typeof value === 'object') {
        for (const [key, v] of Object.entries(value)) {
          expect(privateKeys, `${at}.${key}`).not.toContain(key);
          walk(v, `${at}.${key}`);
        }
      }
    };
    for (const res of answers) {
      walk(res.body, 'body');
      const text = JSON.stringify(res.body ?? null);
      expect(text).not.toMatch(/\$2[aby]\$\d\d\$/);
      for (const secret of ['secret123', 'newsecret1', 'resetsecret', 'another-secret']) expect(text).not.toContain(secret);
    }
  });
});
