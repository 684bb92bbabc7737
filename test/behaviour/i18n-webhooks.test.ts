/**
 * Webhooks of localized types (issues 14 and 17): a localization created is an
 * `entry.create` carrying its locale; a write of a shared attribute is an `entry.update` of
 * the entry written and of each other localization it was copied to, as Strapi's entity
 * service writes them. On SQLite, PostgreSQL and MariaDB.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { startWebhookReceiver, webhooksConfigText, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let built: BuiltServer;
let server: RunningServer;
let receiver: WebhookReceiver;
let api: ReturnType<typeof client>;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  built = await buildFixture('i18n');
  await writeFile(
    path.join(built.dir, 'src/config.ts'),
    webhooksConfigText({ endpoints: [{ name: 'all', url: `${receiver.url}/all` }], delivery: { initialDelay: 100, maxDelay: 1_000, pollInterval: 100, timeout: 2_000 }, allowedAddresses: ['127.0.0.1'] }),
  );
  server = await startServer(built.dir);
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
  await receiver?.close();
});

const eventsOf = (id: number) => receiver.received.filter((h) => h.body?.uid === 'api::page.page' && h.body?.entry?.id === id).map((h) => [h.body.event, h.body.entry.locale, h.body.entry.views]);

describe('webhooks of localized types', () => {
  it('a localization is an entry.create; a shared write updates every localization', async () => {
    const en = (await api.post('/api/pages', { data: { heading: 'Hooked', code: 'hooked', views: 1 } })).body.data.id;
    const fr = (await api.post(`/api/pages/${en}/localizations`, { heading: 'Accroché', locale: 'fr' })).body.id;
    await receiver.waitFor(() => eventsOf(fr).length === 1);
    expect(eventsOf(fr)).toEqual([['entry.create', 'fr', 1]]);
    expect((await api.put(`/api/pages/${fr}`, { data: { views: 2 } })).status).toBe(200);
    await receiver.waitFor(() => eventsOf(en).some(([event]) => event === 'entry.update'));
    expect(eventsOf(en)).toEqual([
      ['entry.create', 'en', 1],
      ['entry.publish', 'en', 1],
      ['entry.update', 'en', 2],
    ]);
    await receiver.waitFor(() => eventsOf(fr).length === 2);
    expect(eventsOf(fr)).toEqual([
      ['entry.create', 'fr', 1],
      ['entry.update', 'fr', 2],
    ]);
  });
});
