/**
 * The user model extended from the models folder (Strapi's
 * extensions/users-permissions/content-types/user/schema.json) and email confirmation
 * turned on: register takes the public custom attributes, private ones never come back,
 * unconfirmed users cannot log in until they follow the link they were mailed.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { modelsOf, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, writeUsersPermissionsConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';

let modelsDir: string;
let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;

async function mailedCode(email: string): Promise<string> {
  const pattern = new RegExp(`to: ${email.replace(/[.]/g, '\\.')}[\\s\\S]*?/api/auth/email-confirmation\\?confirmation=([0-9a-f]{40})`);
  for (let i = 0; i < 50; i++) {
    const match = [...server.output().matchAll(new RegExp(pattern, 'g'))].pop();
    if (match) return match[1]!;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no confirmation email to ${email} in:\n${server.output()}`);
}

beforeAll(async () => {
  modelsDir = path.join(await tempDir('models-user-extension'), 'models');
  await cp(modelsOf('blog'), modelsDir, { recursive: true });
  const extension = path.join(modelsDir, 'extensions/users-permissions/content-types/user');
  await mkdir(extension, { recursive: true });
  await writeFile(
    path.join(extension, 'schema.json'),
    JSON.stringify({
      attributes: {
        displayName: { type: 'string', maxLength: 40 },
        nickname: { type: 'string', unique: true },
        secretNote: { type: 'string', private: true },
      },
    }),
  );
  built = await buildModels(modelsDir, 'user-extension');
  await writeUsersPermissionsConfig(built.dir, { ratelimit: { max: 1000 }, advanced: { email_confirmation: true, email_confirmation_redirection: 'https://front.example.com/welcome' } });
  server = await startServer(built.dir);
  api = client(server.url);
  admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
  if (modelsDir) await rm(path.dirname(modelsDir), { recursive: true, force: true });
});

describe('extended user model', () => {
  it('register accepts public custom attributes, never private or system ones', async () => {
    const res = await api.post('/api/auth/local/register', {
      username: 'olga', email: 'olga@example.com', password: 'secret123', displayName: 'Olga K.', nickname: 'ok', secretNote: 'hidden', confirmed: true,
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['user']); // no JWT until the email is confirmed
    expect(res.body.user).toMatchObject({ username: 'olga', displayName: 'Olga K.', nickname: 'ok', confirmed: false });
    expect(res.body.user).not.toHaveProperty('secretNote');
    const [row] = await built.database.query<{ note: string | null; token: string }>('SELECT secret_note AS note, confirmation_token AS token FROM up_users WHERE username = ?', ['olga']);
    expect(row!.note).toBeNull();
    expect(row!.token).toMatch(/^[0-9a-f]{64}$/); // the hash of the mailed code
  });

  it('custom attributes are validated like any attribute', async () => {
    const long = await api.post('/api/auth/local/register', { username: 'pete', email: 'pete@example.com', password: 'secret123', displayName: 'x'.repeat(41) });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('displayName must be at most 40 characters');
    const taken = await api.post('/api/auth/local/register', { username: 'pete', email: 'pete@example.com', password: 'secret123', nickname: 'ok' });
    expect(taken.body.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique' });
  });

  it('private custom attributes are writable by admins but never returned or filterable', async () => {
    const created = await admin.post('/api/users', { username: 'quinn', email: 'quinn@example.com', password: 'secret123', secretNote: 'classified', confirmed: true });
    expect(created.status).toBe(201);
    expect(created.body).not.toHaveProperty('secretNote');
    for (const res of [await admin.get('/api/users'), await admin.get(`/api/users/${created.body.id}`), await admin.get('/api/users?populate=*')]) {
      expect(JSON.stringify(res.body)).not.toContain('classified');
    }
    expect((await admin.get('/api/users?filters[secretNote][$eq]=classified')).status).toBe(400);
    expect((await api.post('/api/auth/local', { identifier: 'quinn', password: 'secret123' })).status).toBe(200);
  });
});

describe('email confirmation', () => {
  it('an unconfirmed user cannot log in; the mailed link confirms and redirects', async () => {
    expect(await api.post('/api/auth/local', { identifier: 'olga', password: 'secret123' })).toMatchObject({
      status: 400, body: { error: { name: 'ApplicationError', message: 'Your account email is not confirmed' } },
    });
    const code = await mailedCode('olga@example.com');
    expect(await api.get('/api/auth/email-confirmation?confirmation=0000')).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Invalid token' } } });
    const confirmed = await api.get(`/api/auth/email-confirmation?confirmation=${code}`);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('location')).toBe('https://front.example.com/welcome');
    const login = await api.post('/api/auth/local', { identifier: 'olga', password: 'secret123' });
    expect(login.status).toBe(200);
    expect(login.body.user.confirmed).toBe(true);
    expect((await api.get(`/api/auth/email-confirmation?confirmation=${code}`)).status).toBe(400); // used once
  });

  it('send-email-confirmation: a new code for unconfirmed users; the same answer for every address', async () => {
    await api.post('/api/auth/local/register', { username: 'rita', email: 'rita@example.com', password: 'secret123' });
    const first = await mailedCode('rita@example.com');
    expect(await api.post('/api/auth/send-email-confirmation', { email: 'RITA@example.com' })).toMatchObject({ status: 200, body: { email: 'rita@example.com', sent: true } });
    let second = first;
    for (let i = 0; i < 50 && second === first; i++) {
      second = await mailedCode('rita@example.com');
      if (second === first) await new Promise((r) => setTimeout(r, 100));
    }
    expect(second).not.toBe(first);
    expect((await api.get(`/api/auth/email-confirmation?confirmation=${first}`)).status).toBe(400);
    expect((await api.get(`/api/auth/email-confirmation?confirmation=${second}`)).status).toBe(302);

    // Confirmed, blocked and unknown addresses get exactly the answer an unconfirmed one gets
    // (Strapi answers 400 `Already confirmed` / `User blocked`: who has an account shows), and no mail.
    const blocked = await api.post('/api/auth/local/register', { username: 'ursula', email: 'ursula@example.com', password: 'secret123' });
    expect((await admin.put(`/api/users/${blocked.body.user.id}`, { blocked: true })).status).toBe(200);
    const mailsBefore = server.output().match(/email-confirmation\?confirmation=/g)?.length ?? 0;
    for (const email of ['rita@example.com', 'Ursula@example.com', 'nobody@example.com']) {
      expect(await api.post('/api/auth/send-email-confirmation', { email }), email).toMatchObject({ status: 200, body: { email: email.toLowerCase(), sent: true } });
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(server.output().match(/email-confirmation\?confirmation=/g)?.length ?? 0).toBe(mailsBefore);
  });

  it('a valid JWT of an unconfirmed user is refused: "Invalid credentials"', async () => {
    const res = await api.post('/api/auth/local/register', { username: 'sam', email: 'sam@example.com', password: 'secret123' });
    const secret = JSON.parse(await readFile(path.join(built.dir, '.dev-secrets.json'), 'utf8')).JWT_SECRET;
    const token = jwt.sign({ id: res.body.user.id }, secret, { algorithm: 'HS256' });
    expect(await api.get('/api/users/me', bearer(token))).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
  });
});
