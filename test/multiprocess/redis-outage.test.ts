/**
 * Rate limits in Redis (REDIS_URL) when Redis goes away and comes back: the limiter counts in
 * the database meanwhile (it keeps limiting: neither open nor closed), never a 500; the log
 * says so once each way; counting returns to Redis by itself.
 *
 * Redis is a server of this test's own (helpers/private-servers.ts), stopped and started
 * here: the shared one on 6379 serves other runs. Runs in the postgresql and mariadb projects
 * (vitest.config.ts); skipped without redis-server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { privateServerUnavailable, startPrivateRedis, type PrivateServer } from '../helpers/private-servers.js';
import { redisProbe } from '../helpers/redis.js';
import { buildFixture, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const production = { NODE_ENV: 'production', JWT_SECRET: 'redis-outage-jwt-secret-0123456789abcdef', API_TOKEN_SALT: 'redis-outage-salt-0123456789abcdef' };
const prefix = 'cg-outage:';

let built: BuiltServer | undefined;
let redis: PrivateServer | undefined;
let server: RunningServer | undefined;
const skipReason = privateServerUnavailable('redis');

beforeAll(async () => {
  if (skipReason) return;
  built = await buildFixture('blog');
  redis = await startPrivateRedis();
  server = await startServer(built.dir, { ...production, DATABASE_URL: built.database.url, REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix });
});

afterAll(async () => {
  await server?.stop();
  await redis?.destroy();
  await built?.cleanup();
});

/** Statuses of `count` forgot-password requests for `email` (10 per minute are allowed). */
async function forgotPassword(email: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await client(server!.url).post('/api/auth/forgot-password', { email })).status);
  return statuses;
}

async function redisKeys(): Promise<string[]> {
  const connected = await redisProbe(redis!.url);
  if ('unreachable' in connected) throw new Error(connected.unreachable);
  try {
    return await connected.probe.keys(`${prefix}ratelimit:*`);
  } finally {
    await connected.probe.close();
  }
}

const databaseCounters = async () => (await built!.database.query<{ hits: number }>('SELECT "hits" AS "hits" FROM up_rate_limits')).map((r) => Number(r.hits));

describe('Redis goes away and comes back', () => {
  it('the limiter counts in the database meanwhile (429 past the limit, never 500), then in Redis again', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    expect(server!.output()).toContain(`rate limits: counted in Redis at ${redis!.url}`);
    await built!.database.query('DELETE FROM up_rate_limits');

    expect(await forgotPassword('before@example.com', 3)).toEqual([200, 200, 200]);
    expect(await redisKeys()).toHaveLength(1);
    expect(await databaseCounters()).toEqual([]);

    await redis!.stop();
    // Still limited while Redis is away: 10 allowed, the 11th refused, counted in the database.
    const during = await forgotPassword('during@example.com', 11);
    expect(during).toEqual([...Array(10).fill(200), 429]);
    expect(await databaseCounters()).toEqual([11]);
    // Other routes do not care.
    expect((await client(server!.url).get('/api/tags')).status).toBe(200);

    await redis!.start(); // an empty Redis: it keeps nothing on disk
    // node-redis reconnects by itself (a retry at most every 2 s): counting returns to Redis.
    let keys: string[] = [];
    for (let i = 0; i < 100 && keys.length === 0; i++) {
      expect((await forgotPassword(`after-${i}@example.com`, 1))[0]).toBe(200);
      keys = await redisKeys();
      if (keys.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(keys).toHaveLength(1);

    const output = server!.output();
    expect(output.match(/rate limits: Redis does not answer \(/g), output).toHaveLength(1);
    expect(output.match(/rate limits: Redis answers again/g), output).toHaveLength(1);
    expect(output).not.toMatch(/InternalServerError|Internal Server Error/);
  });
});
