/**
 * Webhooks and events (issue 17), against a real receiver (node:http) started here: every
 * event kind from REST and GraphQL with Strapi v4's payload and headers, per-webhook event
 * choice, disabled webhooks, the app's in-process `onEvent`, no event for users or for a
 * rolled-back write, retries of a failing receiver, the private-address guard, and delivery
 * after a SIGKILL of the server that acknowledged the writes. On SQLite, PostgreSQL and MariaDB.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { startWebhookReceiver, webhooksConfigText, type ReceivedHook, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let built: BuiltServer;
let server: RunningServer;
let receiver: WebhookReceiver;
let admin: Record<string, string>;

const delivery = { initialDelay: 100, maxDelay: 1_000, pollInterval: 100, timeout: 2_000 };

function configure(receiverUrl: string, port: number) {
  return {
    defaultHeaders: { 'X-Default': 'default', 'X-Overridden': 'default' },
    endpoints: [
      { name: 'all', url: `${receiverUrl}/all`, headers: { 'X-Overridden': 'own' } },
      { name: 'publish', url: `${receiverUrl}/publish`, events: ['entry.publish', 'entry.unpublish'] },
      { name: 'off', url: `${receiverUrl}/off`, isEnabled: false },
      { name: 'flaky', url: `${receiverUrl}/flaky`, events: ['entry.create'] },
      { name: 'blocked', url: `http://127.0.0.2:${port}/blocked`, events: ['entry.create'] },
    ],
    delivery,
    allowedAddresses: ['127.0.0.1'],
  };
}

const appWithListener = `import { appendFileSync } from 'node:fs';
import { defineApp } from './runtime/extend/index.js';

export default defineApp({
  onEvent(event) {
    appendFileSync('events.log', JSON.stringify(event) + '\\n');
  },
});
`;

/** Bodies received at `/<path>` about one entry (`uid` and id) or file (`media` and id). */
function about(path: string, kind: string, id: number): any[] {
  return receiver.received
    .filter((h) => h.path === `/${path}`)
    .map((h) => h.body)
    .filter((b) => (kind === 'media' ? b.media?.id === id : b.uid === kind && b.entry?.id === id));
}

const events = (bodies: any[]) => bodies.map((b) => b.event);

async function gql(query: string, variables?: Record<string, unknown>) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ query, variables }) });
  const body = (await res.json()) as any;
  if (res.status !== 200 || body.errors) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function png(color: string): Promise<Blob> {
  const bytes = await sharp({ create: { width: 4, height: 4, channels: 3, background: color } }).png().toBuffer();
  return new Blob([Uint8Array.from(bytes)], { type: 'image/png' });
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  // `flaky` fails each delivery twice before accepting it.
  receiver.respond = (hook) => (hook.path === '/flaky' && receiver.attempts.filter((a) => a.headers['x-contentgen-delivery'] === hook.headers['x-contentgen-delivery']).length <= 2 ? 503 : 200);
  built = await buildFixture('blog');
  await writeFile(path.join(built.dir, 'src/config.ts'), webhooksConfigText(configure(receiver.url, receiver.port)));
  await writeFile(path.join(built.dir, 'src/index.ts'), appWithListener);
  server = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.close();
  await built?.cleanup();
});

describe('entry events from REST', () => {
  let id: number;
  let created: any;

  it('create, update, unpublish, publish and delete an article: each event in order, with Strapi’s payload', async () => {
    const api = client(server.url, admin);
    const res = await api.post('/api/articles', { data: { title: 'Hello', slug: 'hello', editorNote: 'private note' } });
    expect(res.status).toBe(200);
    id = res.body.data.id;
    created = { id, ...res.body.data.attributes };
    expect((await api.put(`/api/articles/${id}`, { data: { title: 'Hello again' } })).status).toBe(200);
    expect((await api.put(`/api/articles/${id}`, { data: { publishedAt: null } })).status).toBe(200);
    expect((await api.put(`/api/articles/${id}`, { data: { publishedAt: new Date().toISOString() } })).status).toBe(200);
    const last = await api.get(`/api/articles/${id}`);
    expect((await api.del(`/api/articles/${id}`)).status).toBe(200);

    const expected = ['entry.create', 'entry.publish', 'entry.update', 'entry.update', 'entry.unpublish', 'entry.update', 'entry.publish', 'entry.delete'];
    await receiver.waitFor(() => about('all', 'api::article.article', id).length >= expected.length);
    const bodies = about('all', 'api::article.article', id);
    expect(events(bodies)).toEqual(expected);

    const [create] = bodies;
    expect(Object.keys(create).sort()).toEqual(['createdAt', 'entry', 'event', 'model', 'uid']);
    expect(create.model).toBe('article');
    expect(create.uid).toBe('api::article.article');
    expect(Number.isNaN(Date.parse(create.createdAt))).toBe(false);
    // The entry as stored, as the API answers it without populate: no private attribute, no relation.
    expect(create.entry).toEqual(created);
    expect(create.entry).not.toHaveProperty('editorNote');
    expect(create.entry.publishedAt).not.toBeNull();
    expect(bodies[4].entry.publishedAt).toBeNull();
    expect(bodies.at(-1).entry).toEqual({ id, ...last.body.data.attributes });

    const hook = receiver.received.find((h) => h.path === '/all' && h.body === create)!;
    expect(hook.headers['content-type']).toBe('application/json');
    expect(hook.headers['x-strapi-event']).toBe('entry.create');
    expect(hook.headers['x-default']).toBe('default');
    expect(hook.headers['x-overridden']).toBe('own');
  });

  it('a webhook gets only its events; a disabled one gets none', async () => {
    await receiver.waitFor(() => about('publish', 'api::article.article', id).length >= 3);
    expect(events(about('publish', 'api::article.article', id))).toEqual(['entry.publish', 'entry.unpublish', 'entry.publish']);
    expect(receiver.attempts.filter((h) => h.path === '/off')).toEqual([]);
  });

  it('a type without draft and publish: create, update, delete only', async () => {
    const api = client(server.url, admin);
    const tag = (await api.post('/api/tags', { data: { name: 'news' } })).body.data;
    await api.put(`/api/tags/${tag.id}`, { data: { name: 'News' } });
    await api.del(`/api/tags/${tag.id}`);
    await receiver.waitFor(() => about('all', 'api::tag.tag', tag.id).length >= 3);
    const bodies = about('all', 'api::tag.tag', tag.id);
    expect(events(bodies)).toEqual(['entry.create', 'entry.update', 'entry.delete']);
    expect(bodies[0]).toMatchObject({ model: 'tag', uid: 'api::tag.tag', entry: { id: tag.id, name: 'news' } });
    expect(bodies[1].entry.name).toBe('News');
  });

  it('a write that fails (rolled back) has no event; users-permissions users have none', async () => {
    const api = client(server.url, admin);
    const first = await api.post('/api/articles', { data: { title: 'Unique', slug: 'unique-slug' } });
    const duplicate = await api.post('/api/articles', { data: { title: 'Unique again', slug: 'unique-slug' } });
    expect(duplicate.status).toBe(400);
    const registered = await client(server.url).post('/api/auth/local/register', { username: 'hooked', email: 'hooked@example.com', password: 'secret123' });
    expect(registered.status).toBe(200);
    await receiver.waitFor(() => about('all', 'api::article.article', first.body.data.id).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const titles = receiver.received.filter((h) => h.path === '/all').map((h) => h.body.entry?.title);
    expect(titles).not.toContain('Unique again');
    expect(receiver.received.filter((h) => String(h.body.uid).startsWith('plugin::users-permissions'))).toEqual([]);
  });
});

describe('media events from REST', () => {
  it('upload, update the file’s info, delete: media.create, media.update, media.delete with the file', async () => {
    const form = new FormData();
    form.append('files', await png('#336699'), 'hooked.png');
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: admin });
    expect(uploaded.status).toBe(200);
    const [file] = (await uploaded.json()) as any[];
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ alternativeText: 'A blue square' }));
    const updated = await fetch(`${server.url}/api/upload?id=${file.id}`, { method: 'POST', body: info, headers: admin });
    expect(updated.status).toBe(200);
    const updatedFile = await updated.json();
    expect((await client(server.url, admin).del(`/api/upload/files/${file.id}`)).status).toBe(200);

    await receiver.waitFor(() => about('all', 'media', file.id).length >= 3);
    const bodies = about('all', 'media', file.id);
    expect(events(bodies)).toEqual(['media.create', 'media.update', 'media.delete']);
    expect(Object.keys(bodies[0]).sort()).toEqual(['createdAt', 'event', 'media']);
    expect(bodies[0].media).toEqual(file);
    expect(bodies[1].media).toEqual(updatedFile);
    expect(bodies[2].media).toEqual(updatedFile);
    expect(bodies[0].media).not.toHaveProperty('folderPath');
  });
});

describe('entries written with files, single types', () => {
  it('an article created as a multipart form with its cover: media.create and entry.create (then entry.publish), with the populate the request asked for left out', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({ title: 'With a cover' }));
    form.append('files.cover', await png('#669933'), 'cover.png');
    const res = await fetch(`${server.url}/api/articles?populate=cover`, { method: 'POST', body: form, headers: admin });
    expect(res.status).toBe(200);
    const { data } = (await res.json()) as any;
    const cover = data.attributes.cover.data;
    await receiver.waitFor(() => about('all', 'api::article.article', data.id).length >= 2 && about('all', 'media', cover.id).length >= 1);
    expect(events(about('all', 'api::article.article', data.id))).toEqual(['entry.create', 'entry.publish']);
    const { cover: _, ...attributes } = data.attributes;
    expect(about('all', 'api::article.article', data.id)[0].entry).toEqual({ id: data.id, ...attributes });
    expect(about('all', 'media', cover.id)[0].media).toMatchObject({ id: cover.id, name: 'cover.png' });
  });

  it('a single type: PUT creates, then updates; DELETE deletes', async () => {
    const api = client(server.url, admin);
    const first = (await api.put('/api/global', { data: { siteName: 'Hooked' } })).body.data;
    await api.put('/api/global', { data: { siteName: 'Hooked again' } });
    await api.del('/api/global');
    await receiver.waitFor(() => about('all', 'api::global.global', first.id).length >= 3);
    const bodies = about('all', 'api::global.global', first.id);
    expect(events(bodies)).toEqual(['entry.create', 'entry.update', 'entry.delete']);
    expect(bodies.map((b) => b.entry.siteName)).toEqual(['Hooked', 'Hooked again', 'Hooked again']);
    expect(bodies[0].model).toBe('global');
  });
});

describe('events from GraphQL', () => {
  it('createArticle, updateArticle (and unpublishing), deleteArticle', async () => {
    // Published as it is created: GraphQL's create makes a draft otherwise (as Strapi's).
    const { createArticle } = await gql('mutation { createArticle(data: { title: "From GraphQL", publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id attributes { title publishedAt } } } }');
    const id = Number(createArticle.data.id);
    await gql('mutation($id: ID!) { updateArticle(id: $id, data: { title: "Edited in GraphQL" }) { data { id } } }', { id });
    await gql('mutation($id: ID!) { updateArticle(id: $id, data: { publishedAt: null }) { data { id } } }', { id });
    await gql('mutation($id: ID!) { deleteArticle(id: $id) { data { id } } }', { id });
    const expected = ['entry.create', 'entry.publish', 'entry.update', 'entry.update', 'entry.unpublish', 'entry.delete'];
    await receiver.waitFor(() => about('all', 'api::article.article', id).length >= expected.length);
    const bodies = about('all', 'api::article.article', id);
    expect(events(bodies)).toEqual(expected);
    expect(bodies[0]).toMatchObject({ model: 'article', uid: 'api::article.article', entry: { id, title: 'From GraphQL' } });
    expect(bodies[2].entry.title).toBe('Edited in GraphQL');
  });

  it('upload, updateFileInfo, removeFile', async () => {
    const form = new FormData();
    form.append('operations', JSON.stringify({ query: 'mutation($file: Upload!) { upload(file: $file) { data { id } } }', variables: { file: null } }));
    form.append('map', JSON.stringify({ 0: ['variables.file'] }));
    form.append('0', await png('#993366'), 'graphql.png');
    const res = await fetch(`${server.url}/graphql`, { method: 'POST', body: form, headers: admin });
    const body = (await res.json()) as any;
    expect(body.errors).toBeUndefined();
    const id = Number(body.data.upload.data.id);
    await gql('mutation($id: ID!) { updateFileInfo(id: $id, info: { caption: "Pink" }) { data { id } } }', { id });
    await gql('mutation($id: ID!) { removeFile(id: $id) { data { id } } }', { id });
    await receiver.waitFor(() => about('all', 'media', id).length >= 3);
    const bodies = about('all', 'media', id);
    expect(events(bodies)).toEqual(['media.create', 'media.update', 'media.delete']);
    expect(bodies[1].media).toMatchObject({ id, name: 'graphql.png', caption: 'Pink' });
  });
});

describe('delivery', () => {
  it('a receiver that fails twice gets the event on the third attempt; the outbox says delivered', async () => {
    const created = (await client(server.url, admin).post('/api/articles', { data: { title: 'Flaky' } })).body.data;
    await receiver.waitFor(() => about('flaky', 'api::article.article', created.id).length === 1);
    const attempts = receiver.attempts.filter((h) => h.path === '/flaky' && h.body.entry?.id === created.id);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((h) => h.headers['x-contentgen-delivery'])).size).toBe(1);
    // The outcome is recorded once the receiver's answer is in: wait for it.
    let row: any;
    for (let i = 0; i < 50 && row?.status !== 'delivered'; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      [row] = await built.database.query<any>(
        `SELECT "status", "attempts", "last_status" FROM "contentgen_webhook_deliveries" WHERE "webhook" = 'flaky' AND "id" = ?`,
        [Number(attempts[0]!.headers['x-contentgen-delivery'])],
      );
    }
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, last_status: 200 });
  });

  it('refuses a private address that is not allowed: failed at once, nothing sent', async () => {
    const rows = await built.database.query<any>(`SELECT "status", "attempts", "last_error" FROM "contentgen_webhook_deliveries" WHERE "webhook" = 'blocked'`);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row).toMatchObject({ status: 'failed', attempts: 1 });
      expect(row.last_error).toContain('private or loopback address');
    }
    expect(receiver.attempts.filter((h) => h.path === '/blocked')).toEqual([]);
  });

  it('the app’s onEvent hears every event, once', async () => {
    const log = async () => (await readFile(path.join(built.dir, 'events.log'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line));
    const all = receiver.received.filter((h) => h.path === '/all').length;
    let heard: any[] = [];
    for (let i = 0; i < 100 && heard.length < all; i++) {
      heard = await log();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(heard.length).toBe(all);
    expect(heard.map((e) => e.event).sort()).toEqual(receiver.received.filter((h) => h.path === '/all').map((h: ReceivedHook) => h.body.event).sort());
  });

  it('writes acknowledged by a server killed with SIGKILL are delivered after a restart, the one in flight too', async () => {
    // The receiver takes the requests to /all and never answers: the server holds a delivery
    // in flight (leased) and keeps the others waiting behind it.
    const hang = new Promise<number>(() => {});
    const respond = receiver.respond;
    receiver.respond = (hook) => (hook.path === '/all' ? hang : respond(hook));
    const api = client(server.url, admin);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await api.post('/api/tags', { data: { name: `killed-${i}` } })).body.data.id);
    const inFlight = (hook: ReceivedHook) => hook.path === '/all' && ids.includes(hook.body.entry?.id);
    for (let i = 0; i < 100 && !receiver.attempts.some(inFlight); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.attempts.some(inFlight)).toBe(true);
    await server.kill('SIGKILL');
    expect(ids.every((id) => about('all', 'api::tag.tag', id).length === 0)).toBe(true);

    receiver.respond = respond;
    server = await startServer(built.dir);
    // The delivery in flight is sent again once its lease ends (2 × timeout + 5 s).
    await receiver.waitFor(() => ids.every((id) => about('all', 'api::tag.tag', id).length === 1), 30_000);
    expect(ids.map((id) => about('all', 'api::tag.tag', id)[0].entry.name)).toEqual(ids.map((_, i) => `killed-${i}`));
  });
});
