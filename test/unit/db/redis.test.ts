/**
 * The Redis connection (node-redis, db/redis.ts) and the Redis rate-limit store against a live
 * Redis (CG_TEST_REDIS_URL, default redis://127.0.0.1:6379; skipped when it does not answer):
 * counts are atomic across limiters, windows restart, keys expire. What happens when Redis
 * goes away is tested on a server of the test's own (test/multiprocess/redis-outage.test.ts).
 */
import { randomBytes } from 'node:crypto';
import type * as NodeRedis from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, RedisRateLimitStore } from '../../../templates/runtime/auth/rate-limit.js';
import { StartupError } from '../../../templates/runtime/auth/secrets.js';
import { isConflict, withConflictRetries } from '../../../templates/runtime/db/database.js';
import { connectRedis, redisDisplayUrl, type NodeRedisModule, type Redis } from '../../../templates/runtime/db/redis.js';
import { freePort } from '../../helpers/private-servers.js';
import { dropKeysAndClose, redisProbe, type RedisProbe } from '../../helpers/redis.js';

// Compile-time: the real package satisfies what db/redis.ts calls of it.
const nodeRedis: NodeRedisModule = {} as typeof NodeRedis;
void nodeRedis;

describe('connectRedis', () => {
  it('refuses URLs that are not redis:// or rediss://, and hides passwords in logs', async () => {
    await expect(connectRedis('http://127.0.0.1:6379')).rejects.toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(redisDisplayUrl('redis://user:secret@127.0.0.1:6379/2')).toBe('redis://user:***@127.0.0.1:6379/2');
  });

  it('a Redis that does not answer at start is a StartupError naming it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const failed = connectRedis(url, { timeoutMs: 500 });
    await expect(failed).rejects.toBeInstanceOf(StartupError);
    await expect(failed).rejects.toThrow(`REDIS_URL is set but Redis at ${url} does not answer: connect ECONNREFUSED`);
  });
});

describe('transaction retries', () => {
  it('recognises deadlocks and write conflicts however they are wrapped', () => {
    expect(isConflict({ code: 'P2034' })).toBe(true);
    expect(isConflict({ code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'TransactionWriteConflict' } } } })).toBe(true);
    expect(isConflict({ cause: { kind: 'mysql', code: 1213 } })).toBe(true);
    expect(isConflict({ cause: { kind: 'postgres', code: '40P01' } })).toBe(true);
    expect(isConflict({ code: 'P2002' })).toBe(false);
    expect(isConflict(new Error('boom'))).toBe(false);
  });

  it('runs the transaction again after a conflict, at most five times', async () => {
    let runs = 0;
    expect(await withConflictRetries(async () => (++runs < 3 ? Promise.reject({ code: 'P2034' }) : 'done'))).toBe('done');
    expect(runs).toBe(3);
    runs = 0;
    await expect(withConflictRetries(async () => (runs++, Promise.reject({ code: 'P2034' })))).rejects.toEqual({ code: 'P2034' });
    expect(runs).toBe(5);
    runs = 0;
    await expect(withConflictRetries(async () => (runs++, Promise.reject(new Error('other'))))).rejects.toThrow('other');
    expect(runs).toBe(1);
  });
});

describe('on a live Redis', () => {
  const url = process.env.CG_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const prefix = `cg-test:${randomBytes(4).toString('hex')}:`;
  let probe: RedisProbe | undefined;
  let unreachable = '';

  beforeAll(async () => {
    const connected = await redisProbe(url);
    if ('unreachable' in connected) unreachable = connected.unreachable;
    else probe = connected.probe;
  });
  afterAll(async () => {
    if (probe) await dropKeysAndClose(probe, prefix);
  });

  it('rate-limit counters: atomic across limiters, the window restarts, keys expire with it', async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    let clock = 1_800_000_000_000;
    const settings = { enabled: true, interval: 60_000, max: 3 };
    const clients: Redis[] = await Promise.all([0, 1, 2].map(() => connectRedis(url)));
    const limiters = clients.map((client) => new RateLimiter(new RedisRateLimitStore(client, prefix), settings, () => clock));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 3]!.hit('shared-key')));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetAt))).toEqual(new Set([clock + 60_000]));
    const [key] = await probe!.keys(`${prefix}ratelimit:*`);
    expect(await probe!.pTTL(key!)).toBeGreaterThan(59_000);
    clock += 59_999;
    expect((await limiters[0]!.hit('shared-key')).hits).toBe(13);
    clock += 1;
    expect(await limiters[1]!.hit('shared-key')).toEqual({ hits: 1, resetAt: clock + 60_000 });
    expect((await limiters[2]!.hit('other-key')).hits).toBe(1);
    await Promise.all(clients.map((client) => client.close()));
  });
});
