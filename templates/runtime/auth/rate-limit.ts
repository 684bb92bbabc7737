/**
 * Rate limit of the auth routes, like Strapi's (koa2-ratelimit): a fixed window per key
 * `<target>:<normalized lower path>:<ip>`, `max` requests per `interval` ms; past that, 429
 * RateLimitError `Too many requests, please try again later.`
 *
 * The target is what the route acts on, read the way the route reads it (see `RateLimitTarget`):
 * login's `identifier`, the `email` of register, forgot-password and send-email-confirmation,
 * the authenticated user of change-password, nothing (the IP alone) for reset-password. Strapi
 * keys every route on `body.email`, which login ignores: a random `email` in a login body gave
 * a fresh counter per guess. Identifiers are trimmed and lower-cased, so `Alice` and ` alice`
 * share one counter; a value that is not a string or number counts as `unknownIdentifier`.
 *
 * The counters never live in process memory, so every server process shares the limit:
 * they are in the database (`up_rate_limits`), where one statement per request increments
 * a counter atomically (an upsert that also restarts an elapsed window), or in Redis when
 * `REDIS_URL` is set (one script per request, atomic on the Redis server; keys expire with
 * their window). While Redis cannot be reached the limiter counts in the database
 * (`FallbackRateLimitStore`): it neither lets every request through (an open door for
 * password guessing) nor refuses them all (logins down with Redis); a window that spans the
 * outage may allow up to twice `max`.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Context, Next } from 'koa';
import type { Database } from '../db/database.js';
import type { Redis } from '../db/redis.js';
import { RateLimitError } from '../errors.js';
import { SqlBuilder } from '../query/sql.js';

export interface RateLimitSettings {
  readonly enabled: boolean;
  /** Window length in milliseconds. */
  readonly interval: number;
  /** Requests allowed per window. */
  readonly max: number;
}

export const rateLimitTable = 'up_rate_limits';

/** Where the counters are kept. Keys are already hashed (64 hex digits). */
export interface RateLimitStore {
  /**
   * Counts one request for `key` at `now` (ms) in a fixed window of `interval` ms that starts
   * at the window's first request; returns the count in the window and the window's end.
   */
  hit(key: string, now: number, interval: number): Promise<{ hits: number; resetAt: number }>;
}

/**
 * What a rate-limited route acts on, from the request (its body is parsed, its caller
 * authenticated). Undefined, null, '' or a non-scalar value: `unknownIdentifier`, i.e. the path
 * and IP alone.
 */
export type RateLimitTarget = (ctx: Context) => unknown;

/** Strapi's target: `body.email` (the GraphQL twins of the auth routes pass theirs there). */
export const bodyEmail: RateLimitTarget = (ctx) => bodyField(ctx, 'email');

/** A field of the parsed JSON body, own properties only. */
export function bodyField(ctx: Context, name: string): unknown {
  const body = (ctx.request as { body?: unknown }).body;
  return body !== null && typeof body === 'object' && !Array.isArray(body) && Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/** The target as it appears in the key: trimmed and lower-cased; absent or unusable → `unknownIdentifier`. */
export function normalizeTarget(value: unknown): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
  const normalized = text.trim().toLowerCase();
  return normalized === '' ? 'unknownIdentifier' : normalized;
}

export class RateLimiter {
  readonly #store: RateLimitStore;

  /** `store`: the counters' place; a Database keeps them in `up_rate_limits`. */
  constructor(
    store: Database | RateLimitStore,
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
    log: (err: unknown) => void = (err) => console.error(err),
  ) {
    this.#store = 'dialect' in store ? new DatabaseRateLimitStore(store, log) : store;
  }

  /** The key of a request, before hashing: `<target>:<path>:<ip>` (target: `body.email` unless given). */
  static key(ctx: Context, target: RateLimitTarget = bodyEmail): string {
    const requestPath = path.posix.normalize(ctx.path).toLowerCase().replace(/\/$/, '');
    return `${normalizeTarget(target(ctx))}:${requestPath}:${ctx.ip}`;
  }

  /** The limiter of one route, counting per `target` (default `body.email`, as Strapi), path and IP. */
  middleware(target: RateLimitTarget = bodyEmail) {
    return async (ctx: Context, next: Next): Promise<void> => {
      if (!this.settings.enabled) return next();
      const { hits, resetAt } = await this.hit(RateLimiter.key(ctx, target));
      const { max } = this.settings;
      ctx.set('X-RateLimit-Limit', String(max));
      ctx.set('X-RateLimit-Remaining', String(Math.max(0, max - hits)));
      ctx.set('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
      if (hits > max) {
        ctx.set('Retry-After', String(Math.max(1, Math.ceil((resetAt - this.now()) / 1000))));
        throw new RateLimitError();
      }
      await next();
    };
  }

  /** Counts one request for `key`; returns the count in the current window and its end (ms). */
  async hit(key: string): Promise<{ hits: number; resetAt: number }> {
    const id = createHash('sha256').update(key).digest('hex');
    return this.#store.hit(id, this.now(), this.settings.interval);
  }
}

/** Counters in the `up_rate_limits` table of the server's database. */
export class DatabaseRateLimitStore implements RateLimitStore {
  #nextSweep = 0;

  constructor(
    private readonly db: Database,
    private readonly log: (err: unknown) => void = (err) => console.error(err),
  ) {}

  async hit(id: string, now: number, interval: number): Promise<{ hits: number; resetAt: number }> {
    this.sweep(now, interval);
    const windowEnd = now + interval;
    if (this.db.dialect === 'mysql') {
      return this.db.transaction(async (tx) => {
        const sql = new SqlBuilder('mysql');
        const [k, h, r] = [sql.ident('key'), sql.ident('hits'), sql.ident('reset_at')];
        await tx.execute(
          `INSERT INTO ${sql.ident(rateLimitTable)} (${k}, ${h}, ${r}) VALUES (${sql.param(id)}, 1, ${sql.param(windowEnd)}) ` +
            `ON DUPLICATE KEY UPDATE ${h} = IF(${r} <= ${sql.param(now)}, 1, ${h} + 1), ${r} = IF(${r} <= ${sql.param(now)}, ${sql.param(windowEnd)}, ${r})`,
          sql.params,
        );
        const read = new SqlBuilder('mysql');
        const [row] = await tx.query(`SELECT ${h} AS ${h}, ${r} AS ${r} FROM ${read.ident(rateLimitTable)} WHERE ${k} = ${read.param(id)}`, read.params);
        return counted(row);
      }, { direct: true });
    }
    const sql = new SqlBuilder(this.db.dialect);
    const table = sql.ident(rateLimitTable);
    const [k, h, r] = [sql.ident('key'), sql.ident('hits'), sql.ident('reset_at')];
    const cast = (placeholder: string) => (this.db.dialect === 'postgresql' ? `CAST(${placeholder} AS BIGINT)` : placeholder);
    // A function, not a string: `?` placeholders are positional, each use needs its parameter.
    const elapsed = () => `${table}.${r} <= ${cast(sql.param(now))}`;
    const nextEnd = () => cast(sql.param(windowEnd));
    const text =
      `INSERT INTO ${table} (${k}, ${h}, ${r}) VALUES (${sql.param(id)}, 1, ${nextEnd()}) ` +
      `ON CONFLICT (${k}) DO UPDATE SET ${h} = CASE WHEN ${elapsed()} THEN 1 ELSE ${table}.${h} + 1 END, ` +
      `${r} = CASE WHEN ${elapsed()} THEN ${nextEnd()} ELSE ${table}.${r} END ` +
      `RETURNING ${h} AS ${h}, ${r} AS ${r}`;
    const [row] = await this.db.query(text, sql.params);
    return counted(row);
  }

  /** Deletes elapsed windows now and then (at most once per interval per process). */
  private sweep(now: number, interval: number): void {
    if (now < this.#nextSweep) return;
    this.#nextSweep = now + Math.max(interval, 60_000);
    const sql = new SqlBuilder(this.db.dialect);
    this.db.execute(`DELETE FROM ${sql.ident(rateLimitTable)} WHERE ${sql.ident('reset_at')} < ${sql.param(now)}`, sql.params).catch(this.log);
  }
}

/**
 * Counters in Redis: one hash per key (`hits`, `reset`), updated by a script so that the read,
 * the window restart and the increment are one atomic step on the Redis server. The key
 * expires when its window ends. `prefix` keeps apps sharing one Redis apart.
 */
export class RedisRateLimitStore implements RateLimitStore {
  static readonly script = [
    "local hits = tonumber(redis.call('HGET', KEYS[1], 'hits'))",
    "local reset = tonumber(redis.call('HGET', KEYS[1], 'reset'))",
    'local now = tonumber(ARGV[1])',
    'if hits == nil or reset == nil or reset <= now then',
    '  hits = 1',
    '  reset = now + tonumber(ARGV[2])',
    'else',
    '  hits = hits + 1',
    'end',
    "redis.call('HSET', KEYS[1], 'hits', hits, 'reset', string.format('%d', reset))",
    "redis.call('PEXPIRE', KEYS[1], math.max(1, reset - now))",
    "return {hits, string.format('%d', reset)}",
  ].join('\n');

  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'contentgen:',
  ) {}

  async hit(id: string, now: number, interval: number): Promise<{ hits: number; resetAt: number }> {
    const reply = await this.redis.eval(RedisRateLimitStore.script, [`${this.prefix}ratelimit:${id}`], [String(now), String(interval)]);
    if (!Array.isArray(reply) || reply.length !== 2) throw new Error(`unexpected Redis answer ${JSON.stringify(reply)}`);
    return { hits: Number(reply[0]), resetAt: Number(reply[1]) };
  }
}

/**
 * Counters in `primary` (Redis), in `fallback` (the database) while the primary fails. The
 * first failure of an outage is logged, and so is the primary's first answer after it.
 */
export class FallbackRateLimitStore implements RateLimitStore {
  #failing = false;

  constructor(
    private readonly primary: RateLimitStore,
    private readonly fallback: RateLimitStore,
    private readonly log: (message: string) => void = (message) => console.error(message),
    private readonly names = { primary: 'Redis', fallback: 'the database' },
  ) {}

  async hit(id: string, now: number, interval: number): Promise<{ hits: number; resetAt: number }> {
    let counted: { hits: number; resetAt: number };
    try {
      counted = await this.primary.hit(id, now, interval);
    } catch (error) {
      if (!this.#failing) this.log(`rate limits: ${this.names.primary} does not answer (${(error as Error).message}); counting in ${this.names.fallback} until it does`);
      this.#failing = true;
      return this.fallback.hit(id, now, interval);
    }
    if (this.#failing) this.log(`rate limits: ${this.names.primary} answers again; counting there`);
    this.#failing = false;
    return counted;
  }
}

function counted(row: Record<string, unknown> | undefined): { hits: number; resetAt: number } {
  if (!row) throw new Error('rate limit counter was not returned');
  return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
}
