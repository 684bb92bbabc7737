/**
 * `GET /_health` (and HEAD) for load balancers and orchestrators: 204 when the database
 * answers a query within `timeoutMs`, 503 when it does not, and 503 once the server is
 * shutting down, so that traffic moves to the other processes while this one drains.
 *
 * Mounted before the error envelope and the routers: no authentication, no JSON body, no
 * caching.
 */
import type { Context, Next } from 'koa';
import type { Database } from '../db/database.js';
import type { DatabaseOutage } from '../db/unavailable.js';

export const healthPath = '/_health';

export interface HealthOptions {
  readonly db: Database;
  /** True while the server shuts down. */
  readonly isClosing?: () => boolean;
  /** How long the database may take to answer. Default 2000 ms. */
  readonly timeoutMs?: number;
  /** Told what each check finds, so an outage is logged once (db/unavailable.ts). */
  readonly outage?: DatabaseOutage;
}

/** One round trip to the database: true when it answered within the time limit. */
export async function databaseAnswers(db: Database, timeoutMs: number): Promise<{ ok: true } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([db.query('SELECT 1 AS ok', []), timeout]);
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

export function healthCheck(options: HealthOptions) {
  const timeoutMs = options.timeoutMs ?? 2000;
  return function health(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== healthPath) return next();
    return answer(ctx);
  };

  async function answer(ctx: Context): Promise<void> {
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      return;
    }
    if (options.isClosing?.()) {
      ctx.status = 503;
      ctx.body = 'shutting down';
      return;
    }
    const result = await databaseAnswers(options.db, timeoutMs);
    if (result.ok) {
      options.outage?.answered();
      ctx.status = 204;
      return;
    }
    options.outage?.report(result.error);
    ctx.status = 503;
    ctx.body = 'database unavailable';
  }
}

/**
 * Counts requests in flight and, once `isClosing()`, answers with `Connection: close` so that
 * keep-alive clients move to another process instead of sending more requests here.
 */
export function inFlightTracker(isClosing: () => boolean) {
  let count = 0;
  let onIdle: (() => void) | undefined;
  const middleware = async function inFlight(ctx: Context, next: Next): Promise<void> {
    count += 1;
    try {
      await next();
    } finally {
      // Checked when the answer is ready, not when the request came: a request in flight when
      // shutdown began must close its connection too, or the client would reuse a socket
      // that is about to be closed under it.
      if (isClosing() && !ctx.headerSent) ctx.set('Connection', 'close');
      count -= 1;
      if (count === 0) onIdle?.();
    }
  };
  return {
    middleware,
    get count(): number {
      return count;
    },
    /** Resolves when no request is in flight (at once if none is). */
    idle(): Promise<void> {
      if (count === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const previous = onIdle;
        onIdle = () => {
          onIdle = previous;
          previous?.();
          resolve();
        };
      });
    },
  };
}
