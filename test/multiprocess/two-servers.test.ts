/**
 * Two server processes on one database, as behind a load balancer: each from its own copy of
 * the build (two machines), both in production mode with the secrets from the environment.
 * Requests alternate between them; nothing a request needs may live in one process.
 *
 * Runs in every database project (vitest.config.ts); the bar is PostgreSQL.
 */
import { cp, rm } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { dropKeysAndClose, redisProbe } from '../helpers/redis.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const secrets = { JWT_SECRET: 'two-servers-jwt-secret-0123456789abcdef', API_TOKEN_SALT: 'two-servers-salt-0123456789abcdef' };
const production = { NODE_ENV: 'production', ...secrets };

let built: BuiltServer;
let secondDir: string;
let a: RunningServer;
let b: RunningServer;
let token: string;

/** Client of server `s` with the full-access token. */
const admin = (s: RunningServer) => client(s.url, bearer(token));

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  // A second machine: the same build in another folder, no shared files.
  secondDir = `${built.dir}-second`;
  await cp(built.dir, secondDir, { recursive: true });
  // Both start at once on the empty database: one applies the migrations, the other waits.
  [a, b] = await Promise.all([
    startServer(built.dir, { ...production, DATABASE_URL: built.database.url }),
    startServer(secondDir, { ...production, DATABASE_URL: built.database.url }),
  ]);
  token = await createApiToken(built.dir, { type: 'full-access' }, secrets);
});

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await built?.cleanup();
  if (secondDir) await rm(secondDir, { recursive: true, force: true });
});

describe('start-up', () => {
  it('migrations were applied by exactly one of the two processes', async () => {
    const applied = [a, b].filter((s) => /applied migrations: 0001_init/.test(s.output()));
    expect(applied).toHaveLength(1);
    const rows = await built.database.query<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations');
    expect(rows.map((r) => r.migration_name)).toEqual(['0001_init']);
  });

  it('neither wrote development secrets: they come from the environment', async () => {
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(built.dir, '.dev-secrets.json'))).toBe(false);
    expect(existsSync(path.join(secondDir, '.dev-secrets.json'))).toBe(false);
  });

  it('GET /_health answers 204 on both', async () => {
    for (const s of [a, b]) {
      const res = await fetch(`${s.url}/_health`);
      expect(res.status).toBe(204);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('requests alternate between the processes', () => {
  it('a user registered through one logs in through the other; each accepts the other\'s JWT', async () => {
    const registered = await ok(client(a.url).post('/api/auth/local/register', { username: 'alternate', email: 'alternate@example.com', password: 'secret123' }));
    const loggedIn = await ok(client(b.url).post('/api/auth/local', { identifier: 'alternate@example.com', password: 'secret123' }));
    expect(loggedIn.user.id).toBe(registered.user.id);
    expect((await ok(client(b.url, bearer(registered.jwt)).get('/api/users/me'))).username).toBe('alternate');
    expect((await ok(client(a.url, bearer(loggedIn.jwt)).get('/api/users/me'))).username).toBe('alternate');
  });

  it('an API token works on both', async () => {
    const readOnly = await createApiToken(built.dir, { type: 'read-only' }, secrets);
    for (const s of [a, b]) expect((await client(s.url, bearer(readOnly)).get('/api/tags')).status).toBe(200);
  });

  it('an entry created through one is read, updated and deleted through the other', async () => {
    const created = (await ok(admin(a).post('/api/articles', { data: { title: 'Shared', views: 1 } }))).data;
    expect((await ok(admin(b).get(`/api/articles/${created.id}`))).data.attributes).toMatchObject({ title: 'Shared', views: 1 });
    await ok(admin(b).put(`/api/articles/${created.id}`, { data: { views: 2 } }));
    expect((await ok(admin(a).get(`/api/articles/${created.id}`))).data.attributes.views).toBe(2);
    await ok(admin(a).del(`/api/articles/${created.id}`));
    expect((await admin(b).get(`/api/articles/${created.id}`)).status).toBe(404);
  });

  it('concurrent creates of one unique value through both: one 200 and one 400, never a 500', async () => {
    for (let i = 0; i < 10; i++) {
      const name = `race-${i}`;
      const results = await Promise.all([a, b].map((s) => admin(s).post('/api/tags', { data: { name } })));
      expect(results.map((r) => r.status).sort(), `${name}: ${JSON.stringify(results.map((r) => r.body))}`).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.error.message).toBe('This attribute must be unique');
    }
    const listed = await ok(admin(a).get('/api/tags?filters[name][$startsWith]=race-&pagination[pageSize]=100'));
    expect(listed.meta.pagination.total).toBe(10);
  });

  it('concurrent registrations of one email (no unique index, as in Strapi) through both: exactly one user', async () => {
    for (let i = 0; i < 5; i++) {
      const email = `same-${i}@example.com`;
      // Different usernames: only the application's email check can refuse the second.
      const results = await Promise.all(
        [a, b].map((s, n) => client(s.url).post('/api/auth/local/register', { username: `same-${i}-${n}`, email, password: 'secret123' })),
      );
      expect(results.map((r) => r.status).sort(), `${email}: ${JSON.stringify(results.map((r) => r.body))}`).toEqual([200, 400]);
      expect(results.find((r) => r.status === 400)!.body.error.message).toBe('Email or Username are already taken');
      const users = await built.database.query<{ n: number }>('SELECT COUNT(*) AS n FROM up_users WHERE email = ?', [email]);
      expect(Number(users[0]!.n)).toBe(1);
    }
  });

  it('the auth rate limit is shared: the 11th request is refused whichever process gets it', async () => {
    const hit = (s: RunningServer) => client(s.url).post('/api/auth/forgot-password', { email: 'shared-limit@example.com' });
    for (let i = 0; i < 10; i++) expect((await hit(i % 2 ? a : b)).status, `request ${i + 1}`).toBe(200);
    expect((await hit(a)).status).toBe(429);
    expect((await hit(b)).status).toBe(429);
  });
});

/** A POST whose JSON body arrives in two parts, `gapMs` apart: a request in flight for that long. */
function slowPost(url: string, path: string, body: unknown, headers: Record<string, string>, sent: () => Promise<void>): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) } }, (res) => {
      let data = '';
      res.on('data', (chunk) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: data ? JSON.parse(data) : undefined }));
    });
    req.on('error', reject);
    req.write(text.slice(0, 10));
    sent().then(
      () => req.end(text.slice(10)),
      (error) => req.destroy(error as Error),
    );
  });
}

describe('one process goes away', () => {
  it('SIGTERM: stops accepting connections, finishes the request in flight, exits 0', async () => {
    const third = await startServer(built.dir, { ...production, DATABASE_URL: built.database.url });
    const inFlight = slowPost(third.url, '/api/tags', { data: { name: 'finished-while-stopping' } }, bearer(token), async () => {
      await new Promise((r) => setTimeout(r, 300)); // the server has the request's headers
      process.kill(third.pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      // New connections are refused while the request is still open.
      await expect(fetch(`${third.url}/_health`)).rejects.toThrow();
    });
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(await third.exited).toEqual({ code: 0, signal: null });
    expect(third.output()).toMatch(/shutting down: waiting for 1 request\(s\) in flight[\s\S]*contentgen server stopped/);
    const listed = await ok(admin(b).get('/api/tags?filters[name][$eq]=finished-while-stopping'));
    expect(listed.data).toHaveLength(1);
  });

  it('killing one process mid-load loses no acknowledged write', async () => {
    const victim = await startServer(secondDir, { ...production, DATABASE_URL: built.database.url });
    const acknowledged: { id: number; name: string }[] = [];
    let stop = false;
    let sent = 0;
    const worker = async (s: RunningServer, w: number) => {
      for (let i = 0; !stop; i++) {
        const name = `load-${s === victim ? 'v' : 'a'}${w}-${i}`;
        sent += 1;
        try {
          const res = await admin(s).post('/api/tags', { data: { name } });
          if (res.status === 200) acknowledged.push({ id: res.body.data.id, name });
          else if (s !== victim) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (s !== victim) throw error;
          return; // the victim is gone: its unacknowledged requests do not count
        }
      }
    };
    const load = [0, 1, 2].flatMap((w) => [worker(victim, w), worker(a, w)]);
    // Kill it mid-load: once it has acknowledged a few writes (at most 30 s on a loaded machine).
    const deadline = Date.now() + 30_000;
    while (acknowledged.filter((e) => e.name.startsWith('load-v')).length < 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await victim.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(load);
    const fromVictim = acknowledged.filter((e) => e.name.startsWith('load-v'));
    console.log(`acknowledged: ${fromVictim.length} by the killed process, ${acknowledged.length - fromVictim.length} by the other; ${sent} sent`);
    expect(fromVictim.length).toBeGreaterThan(0);
    expect(sent).toBeGreaterThan(acknowledged.length - 1);
    // Every acknowledged create is there, through the surviving process.
    for (const entry of acknowledged) {
      const res = await admin(a).get(`/api/tags/${entry.id}`);
      expect(res.status, entry.name).toBe(200);
      expect(res.body.data.attributes.name).toBe(entry.name);
    }
    expect((await fetch(`${a.url}/_health`)).status).toBe(204);
  });
});

describe('the database goes away and comes back', () => {
  it('GET /_health: 204, then 503 while the database is unreachable (and requests 503), then 204 again', async (ctx) => {
    if (built.provider === 'sqlite') return ctx.skip('an embedded SQLite file cannot become unreachable');
    const target = new URL(built.database.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port));
    const server = await startServer(built.dir, { ...production, DATABASE_URL: proxy.via(built.database.url) });
    try {
      const health = async () => (await fetch(`${server.url}/_health`)).status;
      expect(await health()).toBe(204);
      await proxy.cut();
      expect(await health()).toBe(503);
      const unavailable = await admin(server).get('/api/tags');
      expect(unavailable.status).toBe(503);
      expect(unavailable.headers.get('retry-after')).toBe('5');
      await proxy.restore();
      let status = 0;
      for (let i = 0; i < 50 && status !== 204; i++) {
        status = await health();
        if (status !== 204) await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe(204);
      expect((await admin(server).get('/api/tags')).status).toBe(200);
      // The return is logged once the database has stayed reachable for 2 s (db/unavailable.ts).
      for (let i = 0; i < 50 && !/database: reachable again/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 100));
      expect(server.output()).toMatch(/database: unreachable \([\s\S]*database: reachable again/);
    } finally {
      await server.stop();
      await proxy.close();
    }
  });
});

describe('rate limits in Redis (REDIS_URL)', () => {
  it('two processes share the counters in Redis, none in the database', async (ctx) => {
    const redisUrl = process.env.CG_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
    const connected = await redisProbe(redisUrl);
    if ('unreachable' in connected) return ctx.skip(connected.unreachable);
    const { probe } = connected;
    const prefix = `cg-test:${built.database.name}:`;
    const env = { ...production, DATABASE_URL: built.database.url, REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix };
    const [c, d] = await Promise.all([startServer(built.dir, env), startServer(secondDir, env)]);
    try {
      expect(c.output()).toContain(`rate limits: counted in Redis at ${redisUrl}`);
      await built.database.query('DELETE FROM up_rate_limits');
      const hit = (s: RunningServer) => client(s.url).post('/api/auth/forgot-password', { email: 'redis@example.com' });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await hit(i % 2 ? c : d)).status);
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
      expect(await built.database.query('SELECT "key" FROM up_rate_limits')).toEqual([]);
      const keys = await probe.keys(`${prefix}ratelimit:*`);
      expect(keys).toHaveLength(1);
      const ttl = await probe.pTTL(keys[0]!);
      expect(ttl).toBeGreaterThan(50_000);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await Promise.all([c.stop(), d.stop()]);
      await dropKeysAndClose(probe, prefix);
    }
  });
});
