/**
 * Attacks on the emitted blog server's authentication, over real HTTP: tampered, expired,
 * foreign and wrong-algorithm JWTs, malformed headers, deleted users, the rate limit of the
 * auth routes at its defaults (shared through the database by two server processes), and
 * the production start-up rule for secrets.
 */
import { createHmac } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let secret: string;
let user: { id: number; jwt: string };
let other: { id: number; jwt: string };

const invalid = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

function base64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

/** A JWT signed by hand: any header, any algorithm. */
function forge(header: Record<string, unknown>, payload: Record<string, unknown>, key: string | null, hash = 'sha256'): string {
  const head = `${base64url(header)}.${base64url(payload)}`;
  const signature = key === null ? '' : createHmac(hash, key).update(head).digest('base64url');
  return `${head}.${signature}`;
}

async function me(token: string) {
  return api.get('/api/users/me', bearer(token));
}

async function register(username: string) {
  const res = await api.post('/api/auth/local/register', { username, email: `${username}@example.com`, password: 'secret123' });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return { id: res.body.user.id as number, jwt: res.body.jwt as string };
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url);
  secret = JSON.parse(await readFile(path.join(built.dir, '.dev-secrets.json'), 'utf8')).JWT_SECRET;
  user = await register('victim');
  other = await register('attacker');
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('JWTs', () => {
  it('a JWT from register authenticates (scheme case-insensitive)', async () => {
    expect((await me(user.jwt)).status).toBe(200);
    expect((await api.get('/api/users/me', { authorization: `bearer ${user.jwt}` })).status).toBe(200);
  });

  it('a tampered payload (another user id, same signature) is refused, with no fallback to public', async () => {
    const [head, , signature] = other.jwt.split('.');
    const payload = jwt.decode(other.jwt) as jwt.JwtPayload;
    const tampered = `${head}.${base64url({ ...payload, id: user.id })}.${signature}`;
    expect(await me(tampered)).toMatchObject({ status: 401, body: invalid });
    // Even where the public role may read, a bad token is a 401.
    expect(await api.get('/api/articles', bearer(tampered))).toMatchObject({ status: 401, body: invalid });
  });

  it('a tampered signature is refused', async () => {
    const flipped = user.jwt.slice(0, -2) + (user.jwt.endsWith('A') ? 'BB' : 'AA');
    expect(await me(flipped)).toMatchObject({ status: 401, body: invalid });
  });

  it('an expired JWT is refused', async () => {
    const expired = jwt.sign({ id: user.id, exp: Math.floor(Date.now() / 1000) - 60 }, secret, { algorithm: 'HS256' });
    expect(await me(expired)).toMatchObject({ status: 401, body: invalid });
    const fresh = jwt.sign({ id: user.id }, secret, { algorithm: 'HS256', expiresIn: '1h' });
    expect((await me(fresh)).status).toBe(200); // the same secret, not expired: accepted
  });

  it('alg "none" is refused', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      expect(await me(forge({ alg, typ: 'JWT' }, { id: user.id, iat: Math.floor(Date.now() / 1000) }, null))).toMatchObject({ status: 401, body: invalid });
    }
  });

  it('HS512 and HS384 are refused even with the right secret', async () => {
    const payload = { id: user.id, iat: Math.floor(Date.now() / 1000) };
    expect(await me(forge({ alg: 'HS512', typ: 'JWT' }, payload, secret, 'sha512'))).toMatchObject({ status: 401, body: invalid });
    expect(await me(forge({ alg: 'HS384', typ: 'JWT' }, payload, secret, 'sha384'))).toMatchObject({ status: 401, body: invalid });
    expect((await me(forge({ alg: 'HS256', typ: 'JWT' }, payload, secret, 'sha256'))).status).toBe(200); // control
  });

  it('a JWT signed with another secret (a foreign server) is refused', async () => {
    expect(await me(jwt.sign({ id: user.id }, 'not-this-servers-secret', { algorithm: 'HS256' }))).toMatchObject({ status: 401, body: invalid });
  });

  it('a valid JWT for no user: "Invalid credentials"; without an id: "Missing or invalid credentials"', async () => {
    expect(await me(jwt.sign({ id: 999_999 }, secret))).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
    expect(await me(jwt.sign({ sub: 'x' }, secret))).toMatchObject({ status: 401, body: invalid });
    expect(await me(jwt.sign({ id: 'DROP TABLE' }, secret))).toMatchObject({ status: 401, body: { error: { message: 'Invalid credentials' } } });
  });

  it('a deleted user\'s JWT is refused', async () => {
    const gone = await register('ephemeral');
    const admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    expect((await admin.del(`/api/users/${gone.id}`)).status).toBe(200);
    expect(await me(gone.jwt)).toMatchObject({ status: 401, body: { error: { name: 'UnauthorizedError', message: 'Invalid credentials' } } });
  });

  it('a malformed Authorization header is ignored: the caller is public', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', `Bearer ${user.jwt} extra`, `Token ${user.jwt}`, 'Bearer']) {
      expect((await api.get('/api/articles', { authorization: header })).status, header).toBe(200);
      expect((await api.get('/api/users/me', { authorization: header })).status, header).toBe(403);
    }
  });
});

describe('rate limit of the auth routes (defaults: 10 per 60 s per target, path and IP)', () => {
  it('answers 429 RateLimitError past 10 requests, per email and path, counted in the database', async () => {
    const hit = (email: string, to: string = server.url) => client(to).post('/api/auth/forgot-password', { email });
    for (let i = 1; i <= 10; i++) {
      const res = await hit('limited@example.com');
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(10 - i));
    }
    const limited = await hit('LIMITED@example.com'); // the key lower-cases the email
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ data: null, error: { status: 429, name: 'RateLimitError', message: 'Too many requests, please try again later.', details: {} } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await hit('someone-else@example.com')).status).toBe(200);

    // A second server process on the same database shares the counters.
    const second = await startServer(built.dir);
    try {
      expect((await hit('limited@example.com', second.url)).status).toBe(429);
      expect((await hit('fresh@example.com', second.url)).status).toBe(200);
    } finally {
      await second.stop();
    }
    const rows = await built.database.query<{ key: string; hits: number }>('SELECT "key", hits FROM up_rate_limits');
    expect(rows.some((r) => r.hits >= 11 && /^[0-9a-f]{64}$/.test(r.key))).toBe(true);
  });

  it('login counts per identifier (trimmed, lower-cased) and IP: a random email in the body is no way around it', async () => {
    await register('guessed');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      const identifier = i % 2 ? ' Guessed@Example.COM ' : 'guessed@example.com';
      statuses.push((await api.post('/api/auth/local', { identifier, password: `wrong-${i}`, email: `random-${i}@example.com` })).status);
    }
    expect(statuses).toEqual(Array(10).fill(400));
    // The right password is refused too while the identifier is limited (Strapi keyed on body.email: a fresh counter per guess).
    const right = await api.post('/api/auth/local', { identifier: 'guessed@example.com', password: 'secret123', email: 'fresh@example.com' });
    expect(right.status).toBe(429);
    expect(right.body.jwt).toBeUndefined();
    // Another identifier from the same IP has its own counter.
    expect((await api.post('/api/auth/local', { identifier: 'victim', password: 'secret123' })).status).toBe(200);
    // Other routes are not rate-limited.
    expect((await api.get('/api/articles')).status).toBe(200);
  });

  it('register counts per email, whatever else the body holds', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) {
      statuses.push((await api.post('/api/auth/local/register', { username: `same-email-${i}`, email: 'Same.Email@example.com', password: 'secret123', identifier: `x${i}` })).status);
    }
    expect(statuses).toEqual([200, ...Array(9).fill(400)]);
    expect((await api.post('/api/auth/local/register', { username: 'same-email-x', email: 'same.email@example.com ', password: 'secret123' })).status).toBe(429);
    expect((await api.post('/api/auth/local/register', { username: 'other-email', email: 'other.email@example.com', password: 'secret123' })).status).toBe(200);
  });

  it('reset-password counts per IP: the code is what is guessed, and a body field changes nothing', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await api.post('/api/auth/reset-password', { code: `guess-${i}`, password: 'secret123', passwordConfirmation: 'secret123' })).status);
    expect(statuses).toEqual(Array(10).fill(400));
    expect((await api.post('/api/auth/reset-password', { code: 'another', password: 'secret123', passwordConfirmation: 'secret123', email: 'x@example.com' })).status).toBe(429);
  });

  it('change-password counts per user: one user guessing does not block another', async () => {
    const guesser = await register('pwguesser');
    const bystander = await register('pwbystander');
    const change = (who: { jwt: string }, currentPassword: string) =>
      api.post('/api/auth/change-password', { currentPassword, password: 'newsecret1', passwordConfirmation: 'newsecret1' }, bearer(who.jwt));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await change(guesser, `wrong-${i}`)).status);
    expect(statuses).toEqual(Array(10).fill(400));
    expect((await change(guesser, 'secret123')).status).toBe(429);
    expect((await change(bystander, 'wrong')).status).toBe(400);
  });

  it('send-email-confirmation (not limited by Strapi, it sends mail) counts per email', async () => {
    const send = (email: string) => api.post('/api/auth/send-email-confirmation', { email });
    for (let i = 0; i < 10; i++) expect((await send('mailbox@example.com')).status, `request ${i + 1}`).toBe(200);
    expect((await send('MAILBOX@example.com')).status).toBe(429);
    expect((await send('another-mailbox@example.com')).status).toBe(200);
  });
});

describe('secrets at start', () => {
  it('development: secrets are generated once into .dev-secrets.json, readable by the owner only', async () => {
    const file = path.join(built.dir, '.dev-secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const secrets = JSON.parse(await readFile(file, 'utf8'));
    expect(Object.keys(secrets).sort()).toEqual(['API_TOKEN_SALT', 'JWT_SECRET']);
    expect(secrets.JWT_SECRET.length).toBeGreaterThanOrEqual(40);
  });

  it('production without JWT_SECRET / API_TOKEN_SALT refuses to start, with a clear message', async () => {
    const failure = await startServer(built.dir, { NODE_ENV: 'production', JWT_SECRET: '', API_TOKEN_SALT: '', DATABASE_URL: (await built.newDatabase()).url }).then(
      async (s) => {
        await s.stop();
        return 'started';
      },
      (err: Error) => err.message,
    );
    expect(failure).toMatch(/exited with 1 before listening/);
    expect(failure).toMatch(/Refusing to start: JWT_SECRET and API_TOKEN_SALT are not set \(NODE_ENV=production\)/);
    expect(failure).not.toMatch(/at .*\.ts:\d+/); // a message, not a stack trace
  });

  it('production with both secrets starts, and its JWTs are signed with JWT_SECRET', async () => {
    const prodSecret = 'production-secret-0123456789-abcdefghij';
    const prod = await startServer(built.dir, { NODE_ENV: 'production', JWT_SECRET: prodSecret, API_TOKEN_SALT: 'production-salt-0123456789', DATABASE_URL: (await built.newDatabase()).url });
    try {
      const res = await client(prod.url).post('/api/auth/local/register', { username: 'produser', email: 'prod@example.com', password: 'secret123' });
      expect(res.status).toBe(200);
      expect(() => jwt.verify(res.body.jwt, prodSecret, { algorithms: ['HS256'] })).not.toThrow();
      expect(() => jwt.verify(res.body.jwt, secret, { algorithms: ['HS256'] })).toThrow();
    } finally {
      await prod.stop();
    }
  });
});
