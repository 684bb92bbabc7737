/**
 * A frontend on another origin, in a real browser (headless Chromium through playwright-core):
 * its page logs in, reads REST with populate and runs a GraphQL query with the JWT — the
 * CORS preflights and answers of the default middleware stack, as Strapi's. A second page does
 * the same through the build's typed client (client/dist), loaded as a plain ES module with no
 * bundler. Skipped, saying so, without /usr/bin/chromium (`apt-get install -y chromium`).
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { chromiumMissing, launchChromium } from '../helpers/browser.js';
import { client } from '../helpers/http.js';

if (chromiumMissing) console.warn(`browser-cors: skipped, ${chromiumMissing}.`);

/** The frontend: a page that talks to the API at `api` (another origin: other host name and port). */
function frontendPage(api: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>frontend</title></head><body><script type="module">
const api = ${JSON.stringify(api)};
async function run() {
  const login = await fetch(api + '/api/auth/local', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: 'reader@example.com', password: 'Secret123!' }) });
  const { jwt, user } = await login.json();
  const auth = { Authorization: 'Bearer ' + jwt };
  // The public role may read authors and tags; the blog's authenticated role only articles.
  const rest = await (await fetch(api + '/api/articles?populate[author][fields][0]=name&populate[tags][fields][0]=name')).json();
  const mine = await (await fetch(api + '/api/articles?fields[0]=title', { headers: auth })).json();
  const graphql = await (await fetch(api + '/graphql', { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ me { username } articles { data { attributes { title } } } }' }) })).json();
  return { user: user.username, rest, mine, graphql };
}
run().then((result) => { window.result = result; }, (error) => { window.result = { error: String(error) }; });
</script></body></html>`;
}

/** The same frontend with the typed client, imported from the frontend's own origin. */
function clientPage(api: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>frontend</title></head><body><script type="module">
import { createClient, StrapiError } from '/client/index.js';
async function run() {
  const api = createClient({ url: ${JSON.stringify(api)} });
  // The public role may read articles and authors; the blog's authenticated role only articles.
  const list = await api.articles.find({ fields: ['title'], populate: { author: { fields: ['name'] } }, filters: { title: { $containsi: 'origins' } }, sort: 'title:asc' });
  const { jwt, user } = await api.auth.login({ identifier: 'reader@example.com', password: 'Secret123!' });
  api.setToken(jwt);
  const me = await api.auth.me();
  let refused;
  try { await api.tags.create({ data: { name: 'nope' } }); } catch (error) { refused = error instanceof StrapiError ? error.error : String(error); }
  return { user: user.username, me: me.username, list, refused };
}
run().then((result) => { window.result = result; }, (error) => { window.result = { error: String(error) }; });
</script></body></html>`;
}

describe.skipIf(chromiumMissing !== undefined)('a page on another origin', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let browser: Browser;
  let frontend: http.Server;
  let frontendUrl: string;

  beforeAll(async () => {
    built = await buildFixture('blog');
    server = await startServer(built.dir);
    const api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    const author = await api.post('/api/authors', { data: { name: 'Ann', email: 'ann@example.com' } });
    const tag = await api.post('/api/tags', { data: { name: 'news' } });
    await api.post('/api/articles', { data: { title: 'Across origins', author: author.body.data.id, tags: [tag.body.data.id] } });
    const registered = await client(server.url).post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Secret123!' });
    if (registered.status !== 200) throw new Error(JSON.stringify(registered.body));
    // The API as the browser sees it: `localhost`, while the page is served from 127.0.0.1.
    const apiForBrowser = server.url.replace('127.0.0.1', 'localhost');
    const clientDist = path.join(built.dir, 'client/dist');
    frontend = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://frontend');
      if (url.pathname.startsWith('/client/')) {
        const file = path.join(clientDist, path.normalize(url.pathname.slice('/client/'.length)));
        if (!file.startsWith(clientDist) || !file.endsWith('.js')) return void res.writeHead(404).end();
        readFile(file).then(
          (body) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(body),
          () => res.writeHead(404).end(),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(url.pathname === '/typed' ? clientPage(apiForBrowser) : frontendPage(apiForBrowser));
    });
    await new Promise<void>((resolve) => frontend.listen(0, '127.0.0.1', resolve));
    frontendUrl = `http://127.0.0.1:${(frontend.address() as AddressInfo).port}/`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => frontend?.close(resolve));
    await server?.stop();
    await built?.cleanup();
  });

  it('logs in, reads REST with populate and with the JWT, and queries GraphQL with the JWT', async () => {
    const page = await browser.newPage();
    const corsErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') corsErrors.push(message.text());
    });
    await page.goto(frontendUrl);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 30_000 });
    const result = (await page.evaluate(() => (window as unknown as { result: unknown }).result)) as any;
    expect(corsErrors).toEqual([]);
    expect(result.error).toBeUndefined();
    expect(result.user).toBe('reader');
    expect(result.rest.data).toHaveLength(1);
    expect(result.rest.data[0].attributes).toMatchObject({ title: 'Across origins', author: { data: { attributes: { name: 'Ann' } } }, tags: { data: [{ attributes: { name: 'news' } }] } });
    expect(result.mine.data).toEqual([{ id: result.rest.data[0].id, attributes: { title: 'Across origins' } }]);
    expect(result.graphql).toEqual({ data: { me: { username: 'reader' }, articles: { data: [{ attributes: { title: 'Across origins' } }] } } });
    // Another origin: JSON posts and Authorization headers went through the browser's CORS preflights.
    expect(new URL(frontendUrl).origin).not.toBe(new URL(server.url.replace('127.0.0.1', 'localhost')).origin);
    await page.close();
  });

  it('the typed client works in the page as a plain ES module: login, setToken, me, find with populate, a typed refusal', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`${frontendUrl}typed`);
    await page.waitForFunction(() => (window as unknown as { result?: unknown }).result !== undefined, undefined, { timeout: 30_000 });
    const result = (await page.evaluate(() => (window as unknown as { result: unknown }).result)) as any;
    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ user: 'reader', me: 'reader' });
    expect(result.list.data).toHaveLength(1);
    expect(result.list.data[0].attributes).toEqual({ title: 'Across origins', author: { data: { id: expect.any(Number), attributes: { name: 'Ann' } } } });
    // The reader's role may not create tags: Strapi's error object, thrown as a StrapiError.
    expect(result.refused).toMatchObject({ status: 403, name: 'ForbiddenError' });
    expect(errors.filter((e) => !e.includes('403'))).toEqual([]);
    await page.close();
  });
});
