/**
 * Webhooks with two server processes on one database (issue 17): both run a dispatcher on the
 * same outbox; each event is delivered once, by one of them, and an entry's events arrive in
 * the order of its writes even when the writes went through different processes. The
 * receiver answers slowly so that the two dispatchers' claims overlap.
 *
 * Runs in the PostgreSQL and MariaDB projects (test/multiprocess is not run on SQLite).
 */
import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { startWebhookReceiver, webhooksConfigText, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let built: BuiltServer;
let secondDir: string;
let a: RunningServer;
let b: RunningServer;
let receiver: WebhookReceiver;
let token: string;

/** The same secrets in both processes (each folder would make its own development secrets). */
const secrets = { JWT_SECRET: 'webhooks-two-servers-jwt-0123456789abcdef', API_TOKEN_SALT: 'webhooks-two-servers-salt-0123456789abcdef' };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  receiver.respond = async () => {
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    return 200;
  };
  built = await buildFixture('blog');
  await writeFile(
    path.join(built.dir, 'src/config.ts'),
    webhooksConfigText({
      endpoints: [{ name: 'all', url: `${receiver.url}/all` }],
      delivery: { initialDelay: 100, maxDelay: 1_000, pollInterval: 50, timeout: 5_000, batchSize: 5 },
      allowedAddresses: ['127.0.0.1'],
    }),
  );
  secondDir = `${built.dir}-second`;
  await cp(built.dir, secondDir, { recursive: true });
  a = await startServer(built.dir, { ...secrets, DATABASE_URL: built.database.url });
  b = await startServer(secondDir, { ...secrets, DATABASE_URL: built.database.url });
  token = await createApiToken(built.dir, { type: 'full-access' }, secrets);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await receiver?.close();
  await built?.cleanup();
  if (secondDir) await rm(secondDir, { recursive: true, force: true });
});

describe('two processes, one outbox', () => {
  it('every event is delivered once, and each entry’s events in the order of its writes', async () => {
    const servers = [a, b].map((s) => client(s.url, bearer(token)));
    const entries = 30;
    const ids = await Promise.all(
      Array.from({ length: entries }, async (_, i) => {
        const created = await servers[i % 2]!.post('/api/tags', { data: { name: `tag-${i}-v0` } });
        if (created.status !== 200) throw new Error(`${created.status} ${JSON.stringify(created.body)}`);
        const id = created.body.data.id as number;
        // Then two updates, each through the other process than the write before it.
        for (let v = 1; v <= 2; v++) expect((await servers[(i + v) % 2]!.put(`/api/tags/${id}`, { data: { name: `tag-${i}-v${v}` } })).status).toBe(200);
        return id;
      }),
    );
    const expected = entries * 3;
    await receiver.waitFor((received) => received.length >= expected, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a duplicate would arrive by now

    const deliveries = receiver.attempts.map((h) => h.headers['x-contentgen-delivery']);
    expect(new Set(deliveries).size).toBe(deliveries.length);
    expect(receiver.received).toHaveLength(expected);
    ids.forEach((id, i) => {
      const bodies = receiver.received.map((h) => h.body).filter((body) => body.entry.id === id);
      expect(bodies.map((body) => `${body.event} ${body.entry.name}`)).toEqual([`entry.create tag-${i}-v0`, `entry.update tag-${i}-v1`, `entry.update tag-${i}-v2`]);
    });
    const rows = await built.database.query<{ status: string; attempts: number }>(`SELECT "status", "attempts" FROM "contentgen_webhook_deliveries"`);
    expect(rows).toHaveLength(expected);
    expect(rows.every((row) => row.status === 'delivered' && Number(row.attempts) === 1)).toBe(true);
  });
});
