/**
 * `Server-Timing: db;dur=<ms>;desc="<n> queries"` on every response, when enabled. Browser
 * devtools show it; the test suite uses it to prove that populate runs a number of SQL
 * statements that depends on the request's shape, not on the number of rows.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Next } from 'koa';

interface QueryStats {
  count: number;
  ms: number;
}

const current = new AsyncLocalStorage<QueryStats>();

/** Called by the database seam around every statement it runs. */
export function measureQuery<T>(run: () => Promise<T>): Promise<T> {
  const stats = current.getStore();
  return stats ? measured(stats, run) : run();
}

async function measured<T>(stats: QueryStats, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await run();
  } finally {
    stats.count += 1;
    stats.ms += performance.now() - started;
  }
}

export function serverTiming() {
  return async function serverTimingHeader(ctx: Context, next: Next): Promise<void> {
    const stats: QueryStats = { count: 0, ms: 0 };
    await current.run(stats, async () => {
      try {
        await next();
      } finally {
        ctx.set('Server-Timing', `db;dur=${stats.ms.toFixed(2)};desc="${stats.count} queries"`);
      }
    });
  };
}
