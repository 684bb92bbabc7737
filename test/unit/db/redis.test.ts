/**
 * The small Redis client (RESP encoding and parsing, reconnection) and the Redis rate-limit
 * store against a live Redis (CG_TEST_REDIS_URL, default redis://127.0.0.1:6379; skipped when
 * it does not answer): counts are atomic across limiters, windows restart, keys expire.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, RedisRateLimitStore } from '../../../templates/runtime/auth/rate-limit.js';
import { isConflict, withConflictRetries } from '../../../templates/runtime/db/database.js';
import { encodeCommand, parseReply, RedisClient, RedisError } from '../../../templates/runtime/db/redis.js';

describe('RESP', () => {
  it('encodes commands as arrays of bulk strings (UTF-8 byte lengths)', () => {
    expect(encodeCommand(['SET', 'k', 'é', 12]).toString()).toBe('*4\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\né\r\n$2\r\n12\r\n');
  });

  it('parses every reply type, and waits for incomplete ones', () => {
    const parse = (text: string) => parseReply(Buffer.from(text), 0);
    expect(parse('+OK\r\n')).toEqual({ reply: 'OK', end: 5 });
    expect(parse(':42\r\n')).toEqual({ reply: 42, end: 5 });
    expect(parse('$2\r\né\r\n')?.reply).toBe('é');
    expect(parse('$-1\r\n')?.reply).toBeNull();
    expect(parse('*2\r\n:1\r\n$1\r\nx\r\n')?.reply).toEqual([1, 'x']);
    expect(parse('-ERR wrong\r\n')?.reply).toEqual(new RedisError('ERR wrong'));
    expect(parse('$5\r\nab')).toBeUndefined();
    expect(parse('*2\r\n:1\r\n')).toBeUndefined();
  });

  it('refuses URLs that are not redis:// or rediss://', () => {
    expect(() => new RedisClient('http://127.0.0.1:6379')).toThrow(/REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(new RedisClient('redis://user:secret@127.0.0.1:6379/2').displayUrl).toBe('redis://user:***@127.0.0.1:6379/2');
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
  let redis: RedisClient;
  let unreachable = '';

  beforeAll(async () => {
    redis = new RedisClient(url, { timeoutMs: 1000 });
    try {
      await redis.command(['PING']);
    } catch (error) {
      unreachable = `Redis is not reachable at ${url}: ${(error as Error).message}`;
    }
  });
  afterAll(async () => {
    if (!unreachable) {
      const keys = (await redis.command(['KEYS', `${prefix}*`])) as string[];
      if (keys.length) await redis.command(['DEL', ...keys]);
    }
    await redis?.close();
  });

  it('pipelines commands and answers each in order', async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const replies = await Promise.all([redis.command(['SET', `${prefix}a`, '1']), redis.command(['INCR', `${prefix}a`]), redis.command(['GET', `${prefix}a`]), redis.command(['GET', `${prefix}none`])]);
    expect(replies).toEqual(['OK', 2, '2', null]);
    await expect(redis.command(['INCR', `${prefix}a`, 'extra'])).rejects.toThrow(RedisError);
    expect(await redis.command(['GET', `${prefix}a`])).toBe('2'); // still in step after an error
  });

  it('reconnects on the next command after the connection is lost', async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    const client = new RedisClient(url);
    const id = await client.command(['CLIENT', 'ID']);
    await redis.command(['CLIENT', 'KILL', 'ID', String(id)]);
    await new Promise((r) => setTimeout(r, 50));
    expect(await client.command(['PING'])).toBe('PONG');
    await client.close();
  });

  it('rate-limit counters: atomic across limiters, the window restarts, keys expire with it', async (ctx) => {
    if (unreachable) return ctx.skip(unreachable);
    let clock = 1_800_000_000_000;
    const settings = { enabled: true, interval: 60_000, max: 3 };
    const clients = [0, 1, 2].map(() => new RedisClient(url));
    const limiters = clients.map((client) => new RateLimiter(new RedisRateLimitStore(client, prefix), settings, () => clock));
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => limiters[i % 3]!.hit('shared-key')));
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.resetAt))).toEqual(new Set([clock + 60_000]));
    const [key] = (await redis.command(['KEYS', `${prefix}ratelimit:*`])) as string[];
    expect(Number(await redis.command(['PTTL', key!]))).toBeGreaterThan(59_000);
    clock += 59_999;
    expect((await limiters[0]!.hit('shared-key')).hits).toBe(13);
    clock += 1;
    expect(await limiters[1]!.hit('shared-key')).toEqual({ hits: 1, resetAt: clock + 60_000 });
    expect((await limiters[2]!.hit('other-key')).hits).toBe(1);
    await Promise.all(clients.map((client) => client.close()));
  });
});
