/**
 * The database server stops under load and starts again: while it is away, REST and GraphQL
 * answer 503 with `Retry-After` in their error shapes (never 500), /_health says 503, the
 * log says so once (and once when it is back), and the server recovers by itself.
 *
 * The database is a server of this test's own (helpers/private-servers.ts), stopped and
 * started here: the shared servers serve other runs. Runs in the postgresql and mariadb
 * projects (vitest.config.ts); skipped when their server binaries are absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { privateServerUnavailable, startPrivateMariaDb, startPrivatePostgres, type PrivateServer } from '../helpers/private-servers.js';

const production = { NODE_ENV: 'production', JWT_SECRET: 'outage-jwt-secret-0123456789abcdef', API_TOKEN_SALT: 'outage-salt-0123456789abcdef' };
const workers = 4;

const kinds = ['rest', 'graphql', 'write', 'health'] as const;

interface Answer {
  readonly kind: (typeof kinds)[number];
  readonly status: number;
  readonly retryAfter: string | null;
  readonly body: any;
  /** When the answer came (Date.now()): for the figures printed, not asserted. */
  readonly at: number;
}

let built: BuiltServer | undefined;
let database: PrivateServer | undefined;
let server: RunningServer | undefined;
let skipReason: string | undefined;
let token = '';

beforeAll(async () => {
  const provider = (process.env.CG_TEST_DB || 'sqlite') === 'mariadb' ? 'mysql' : process.env.CG_TEST_DB || 'sqlite';
  if (provider !== 'postgresql' && provider !== 'mysql') {
    skipReason = 'an embedded SQLite file cannot become unreachable';
    return;
  }
  skipReason = privateServerUnavailable(provider);
  if (skipReason) return;
  built = await buildFixture('blog');
  database = provider === 'postgresql' ? await startPrivatePostgres() : await startPrivateMariaDb();
  server = await startServer(built.dir, { ...production, DATABASE_URL: database.url });
  token = await createApiToken(built.dir, { type: 'full-access' }, { ...production, DATABASE_URL: database.url });
});

afterAll(async () => {
  await server?.stop();
  await database?.destroy();
  await built?.cleanup();
});

/** One request of the load: a REST read, a GraphQL read, a REST write (a transaction) or the health check, in turn. */
async function ask(url: string, n: number): Promise<Answer> {
  const kind = kinds[n % kinds.length]!;
  const json = { 'content-type': 'application/json' };
  const res =
    kind === 'rest'
      ? await fetch(`${url}/api/tags?populate=*`)
      : kind === 'graphql'
        ? await fetch(`${url}/graphql`, { method: 'POST', headers: json, body: JSON.stringify({ query: '{ tags { data { id attributes { name } } } }' }) })
        : kind === 'write'
          ? await fetch(`${url}/api/tags`, { method: 'POST', headers: { ...json, ...bearer(token) }, body: JSON.stringify({ data: { name: `tag-${n}` } }) })
          : await fetch(`${url}/_health`);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // plain text (health)
  }
  return { kind, status: res.status, retryAfter: res.headers.get('retry-after'), body, at: Date.now() };
}

/** Requests from `workers` clients at once until `stop()`; every answer is kept in order. */
function load(url: string) {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) answers.push(await ask(url, n++));
  });
  return {
    answers,
    count: () => answers.length,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Resolves once `condition` holds, checking every 50 ms; rejects after `timeoutMs`. */
async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('the database server stops under load and starts again', () => {
  it('503 with Retry-After while it is away (REST envelope, GraphQL code), logged once, then recovers', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const traffic = load(server!.url);
    try {
      await until(() => traffic.count() >= 30, '30 answers before the stop');
      const beforeStop = traffic.count();
      await database!.stop();
      const stopAt = Date.now();
      const stopped = traffic.count();
      await until(() => traffic.answers.slice(stopped).filter((a) => a.status === 503).length >= 30, '30 answers 503 while the database is away');
      await database!.start();
      const restarted = traffic.count();
      const startedAt = Date.now();
      // Recovered: every kind answers 200/204 again, 30 answers in a row.
      await until(() => {
        const tail = traffic.answers.slice(restarted).slice(-30);
        return tail.length === 30 && tail.every((a) => a.status === 200 || a.status === 204);
      }, 'the server to recover');

      const { answers } = traffic;
      const first503 = answers.find((a) => a.status === 503)!;
      const last503 = answers.findLast((a) => a.status === 503)!;
      console.log(
        `${server!.url}: ${answers.length} answers, ${answers.filter((a) => a.status === 503).length} of them 503; ` +
          `the first 503 ${first503.at - stopAt} ms after the stop returned, the last ${last503.at - startedAt} ms after the start returned`,
      );
      expect(answers.slice(0, beforeStop).every((a) => a.status === 200 || a.status === 204)).toBe(true);
      // Never a 500 (or anything but success or 503) at any time.
      const statuses = new Set(answers.map((a) => a.status));
      expect([...statuses].sort()).toEqual([200, 204, 503]);
      const unavailable = answers.filter((a) => a.status === 503);
      for (const kind of kinds) expect(unavailable.some((a) => a.kind === kind), kind).toBe(true);
      for (const answer of unavailable) {
        if (answer.kind === 'health') {
          expect(answer.body).toBe('database unavailable');
          continue;
        }
        expect(answer.retryAfter, JSON.stringify(answer)).toMatch(/^[1-9][0-9]*$/);
        if (answer.kind === 'rest' || answer.kind === 'write') {
          expect(answer.body).toEqual({
            data: null,
            error: { status: 503, name: 'ServiceUnavailableError', message: 'The database is unavailable, please try again later.', details: {} },
          });
        } else {
          expect(answer.body.errors[0].extensions.code, JSON.stringify(answer.body)).toBe('SERVICE_UNAVAILABLE');
          expect(answer.body.errors[0].extensions.error.name).toBe('ServiceUnavailableError');
        }
      }
    } finally {
      await traffic.stop();
    }
    // The return is logged once the database has stayed reachable for 2 s (db/unavailable.ts).
    await until(() => /database: reachable again/.test(server!.output()), 'the return to be logged', 10_000);
    const output = server!.output();
    expect(output.match(/database: unreachable/g), output).toHaveLength(1);
    expect(output.match(/database: reachable again/g), output).toHaveLength(1);
    expect(output).not.toMatch(/InternalServerError|Internal Server Error/);
    // And writes work again: the pools opened new connections.
    expect((await fetch(`${server!.url}/_health`)).status).toBe(204);
  });
});
