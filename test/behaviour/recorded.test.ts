/**
 * Recorded request/response fixtures: fixtures/<name>/requests.json is a sequence of
 * requests replayed in order against a fresh server on a fresh database; each response must
 * equal the recorded one. Server-chosen timestamps are normalised to "<timestamp>".
 * Requests carry a full-access API token unless the step says `"auth": "public"` (no
 * Authorization header) or `"auth": "invalid"` (a bearer that is no token).
 * `UPDATE_GOLDEN=1` re-records the responses; read the diff before committing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

interface Step {
  name: string;
  auth?: 'public' | 'invalid';
  request: { method: string; path: string; body?: unknown };
  response?: { status: number; body: unknown };
}

const update = process.env.UPDATE_GOLDEN === '1';
const serverTimestamps = new Set(['createdAt', 'updatedAt', 'publishedAt']);

function normalise(value: unknown, key?: string): unknown {
  if (Array.isArray(value)) return value.map((v) => normalise(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalise(v, k)]));
  if (key && serverTimestamps.has(key) && typeof value === 'string' && value.startsWith(new Date().toISOString().slice(0, 4))) return '<timestamp>';
  return value;
}

describe.each(['edge'])('recorded requests: %s', (fixture) => {
  const file = path.join(fixturesDir, fixture, 'requests.json');
  let steps: Step[];
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let token: string;

  beforeAll(async () => {
    steps = JSON.parse(await readFile(file, 'utf8'));
    built = await buildFixture(fixture);
    server = await startServer(built.dir);
    api = client(server.url);
    token = await createApiToken(built.dir, { type: 'full-access' });
  });

  afterAll(async () => {
    if (update) await writeFile(file, `${JSON.stringify(steps, null, 2)}\n`);
    await server?.stop();
    await built?.cleanup();
  });

  it('replays every step with the recorded answer', async () => {
    for (const step of steps) {
      const headers = step.auth === 'public' ? {} : bearer(step.auth === 'invalid' ? 'not-a-token' : token);
      const res = await api.request(step.request.method, step.request.path, step.request.body, headers);
      const actual = { status: res.status, body: normalise(res.body) };
      if (update) step.response = actual;
      else expect(actual, step.name).toEqual(step.response);
    }
  });
});
