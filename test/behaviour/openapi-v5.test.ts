/**
 * `out/openapi.v5.json` (issue 30): the v5 mount described in a valid OpenAPI 3.1 document of
 * its own (checked by the maintained validator openapi.test.ts uses), whose schemas are what
 * the server really answers: every answer of a run of reads and writes on the blog server
 * (documents with relations, components, a zone and media; drafts; the single type; 201
 * creates, 204 deletes; errors; register, me, upload, locales) is validated against the
 * documented response of its status. The documentation page serves it under the mount of
 * src/config.ts, beside openapi.json in Swagger UI's definition selector.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, watchedPage } from '../helpers/browser.js';
import { client, type JsonResponse } from '../helpers/http.js';
import { AnswerChecker } from '../helpers/openapi.js';
import { bearer, buildFixture, createApiToken, startServer, writeUserConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let token: string;
let v5Document: any;
let v4Document: any;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  v5Document = JSON.parse(await readFile(path.join(built.dir, 'openapi.v5.json'), 'utf8'));
  v4Document = JSON.parse(await readFile(path.join(built.dir, 'openapi.json'), 'utf8'));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('openapi.v5.json', () => {
  it('is a valid OpenAPI 3.1 document of the v5 mount: documentIds in paths, status and publicationFilter, 201 creates, 204 deletes', async () => {
    const result = await new Validator().validate(v5Document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(v5Document.openapi).toBe('3.1.0');
    const paths = Object.keys(v5Document.paths);
    expect(paths.every((p) => p.startsWith('/v5/api/'))).toBe(true);
    expect(paths).toEqual(expect.arrayContaining(['/v5/api/articles', '/v5/api/articles/{documentId}', '/v5/api/global', '/v5/api/auth/local', '/v5/api/users/me', '/v5/api/upload', '/v5/api/i18n/locales']));
    // No v4-only routes: localizations are written with `?locale=` on v5.
    expect(paths.some((p) => p.endsWith('/localizations'))).toBe(false);
    const list = v5Document.paths['/v5/api/articles'];
    expect(list.get.parameters.map((p: any) => p.$ref.split('/').pop())).toEqual(expect.arrayContaining(['status', 'publicationFilter', 'filters', 'populate', 'sort', 'pagination']));
    expect(list.get.parameters.map((p: any) => p.$ref.split('/').pop())).not.toContain('publicationState');
    expect(Object.keys(list.post.responses)).toContain('201');
    expect(Object.keys(v5Document.paths['/v5/api/articles/{documentId}'].delete.responses)).toContain('204');
    expect(v5Document.components.schemas.ArticleDocument.required).toEqual(expect.arrayContaining(['id', 'documentId', 'publishedAt']));
    // The v4 document is v4's alone.
    expect(Object.keys(v4Document.paths).every((p) => p.startsWith('/api/'))).toBe(true);
  });

  it("the server's v5 answers are the documented ones, status by status (and v4's on /api of the same server)", async () => {
    const v5 = new AnswerChecker(v5Document);
    const v4 = new AnswerChecker(v4Document);
    const api = client(server.url, bearer(token));
    const anonymous = client(server.url);
    const problems: string[] = [];
    /** A call, its answer checked against the template's documented response. */
    const call = async (checker: AnswerChecker, method: string, template: string, concrete: string, body?: unknown, as = api): Promise<JsonResponse> => {
      const res = await as.request(method, concrete, body);
      problems.push(...checker.problems(template, method, res.status, res.body));
      return res;
    };

    const author = (await call(v5, 'POST', '/v5/api/authors', '/v5/api/authors', { data: { name: 'Ada', email: 'ada@example.com' } })).body.data;
    const category = (await call(v5, 'POST', '/v5/api/categories', '/v5/api/categories', { data: { name: 'News', slug: 'news' } })).body.data;
    const tag = (await call(v5, 'POST', '/v5/api/tags', '/v5/api/tags', { data: { name: 'v5' } })).body.data;
    const form = new FormData();
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();
    form.append('files', new Blob([Uint8Array.from(png)], { type: 'image/png' }), 'cover.png');
    const uploadRes = await fetch(`${server.url}/v5/api/upload`, { method: 'POST', body: form, headers: bearer(token) });
    const uploaded = await uploadRes.json();
    expect(uploadRes.status).toBe(201);
    problems.push(...v5.problems('/v5/api/upload', 'POST', uploadRes.status, uploaded));

    const written = {
      title: 'Documented',
      author: author.documentId,
      category: { connect: [category.documentId] },
      tags: [tag.documentId],
      cover: uploaded[0].id,
      seo: { metaTitle: 'Documented seo' },
      links: [{ label: 'a', url: 'https://a.example' }],
      blocks: [{ __component: 'shared.quote', body: 'quoted' }, { __component: 'shared.rich-text', body: 'text' }],
    };
    const created = await call(v5, 'POST', '/v5/api/articles', '/v5/api/articles?status=draft', { data: written });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const documentId = created.body.data.documentId;
    expect(documentId).toMatch(/^[a-z0-9]{24}$/);
    const one = `/v5/api/articles/${documentId}`;
    const populated = 'populate[author]=true&populate[category]=true&populate[tags]=true&populate[cover]=true&populate[seo]=true&populate[links]=true&populate[blocks]=true';
    expect((await call(v5, 'GET', '/v5/api/articles', `/v5/api/articles?status=draft&${populated}`)).body.data).toHaveLength(1);
    expect((await call(v5, 'GET', '/v5/api/articles/{documentId}', `${one}?status=draft&${populated}`)).body.data.author.documentId).toBe(author.documentId);
    expect((await call(v5, 'PUT', '/v5/api/articles/{documentId}', `${one}?${populated}`, { data: { title: 'Documented, published' } })).status).toBe(200);
    expect((await call(v5, 'GET', '/v5/api/articles', '/v5/api/articles?publicationFilter=has-published-version&sort=title&pagination[page]=1&pagination[pageSize]=5')).body.data).toHaveLength(1);
    expect((await call(v5, 'PUT', '/v5/api/global', '/v5/api/global?populate=*', { data: { siteName: 'Site', defaultSeo: { metaTitle: 'Home' } } })).status).toBe(200);
    expect((await call(v5, 'GET', '/v5/api/global', '/v5/api/global?populate=*')).body.data.defaultSeo.metaTitle).toBe('Home');
    // Errors: an unknown key, a missing document, a refused caller.
    expect((await call(v5, 'POST', '/v5/api/articles', '/v5/api/articles', { data: { title: 'x', nope: 1 } })).status).toBe(400);
    expect((await call(v5, 'POST', '/v5/api/articles', '/v5/api/articles', { data: { title: 'x' } })).status).toBe(400);
    expect((await call(v5, 'GET', '/v5/api/articles/{documentId}', '/v5/api/articles/abcdefghijklmnopqrstuvwx')).status).toBe(404);
    expect((await call(v5, 'POST', '/v5/api/tags', '/v5/api/tags', { data: { name: 'anonymous' } }, anonymous)).status).toBe(403);
    // Users and files: documents too, numeric ids in their paths.
    const registered = await call(v5, 'POST', '/v5/api/auth/local/register', '/v5/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Passw0rd!' }, anonymous);
    expect(registered.status).toBe(200);
    expect((await call(v5, 'GET', '/v5/api/users/me', '/v5/api/users/me', undefined, client(server.url, bearer(registered.body.jwt)))).body.documentId).toEqual(expect.any(String));
    expect((await call(v5, 'GET', '/v5/api/upload/files', '/v5/api/upload/files')).body).toHaveLength(1);
    expect((await call(v5, 'GET', '/v5/api/i18n/locales', '/v5/api/i18n/locales')).status).toBe(200);
    // v4 on /api, the same documents.
    expect((await call(v4, 'GET', '/api/articles', `/api/articles?${populated}`)).body.data[0].attributes.title).toBe('Documented, published');
    // Deletes: 204 without a body, a missing document too.
    expect((await call(v5, 'DELETE', '/v5/api/articles/{documentId}', one)).status).toBe(204);
    expect((await call(v5, 'DELETE', '/v5/api/articles/{documentId}', one)).status).toBe(204);
    expect((await call(v5, 'DELETE', '/v5/api/global', '/v5/api/global')).status).toBe(204);
    expect(problems).toEqual([]);
  });
});

describe('/documentation', () => {
  it('serves openapi.v5.json beside openapi.json, both in Swagger UI’s definition selector, and Try it out calls the v5 mount', async (ctx) => {
    const served = await fetch(`${server.url}/documentation/openapi.v5.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(v5Document);
    if (chromiumMissing) return ctx.skip(chromiumMissing);
    const browser = await launchChromium();
    try {
      const { page, requests, problems } = await watchedPage(browser);
      await page.goto(`${server.url}/documentation`);
      // v4 first, as before: its routes on /api.
      await page.locator('.opblock-summary-path', { hasText: /^\/api\/articles$/ }).first().waitFor();
      const select = page.locator('.topbar select');
      expect(await select.locator('option').allInnerTexts()).toEqual(['v4 (/api)', 'Strapi 5 (/v5/api)']);
      await select.selectOption({ label: 'Strapi 5 (/v5/api)' });
      const list = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/v5\/api\/articles$/ }) }).first();
      await list.waitFor();
      await list.locator('.opblock-summary').click();
      await list.locator('.try-out__btn').click();
      await list.locator('.execute').click();
      const status = list.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor();
      expect((await status.innerText()).trim()).toBe('200');
      expect(await list.locator('.request-url').innerText()).toContain(`${server.url}/v5/api/articles`);
      expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('describes v5 where src/config.ts mounts it (on /api: listed first), and not at all when it is off', async () => {
    await writeUserConfig(built.dir, { v5: { rest: { prefix: '/api' } } });
    const onApi = await startServer(built.dir);
    try {
      const document = (await (await fetch(`${onApi.url}/documentation/openapi.v5.json`)).json()) as any;
      expect(Object.keys(document.paths)).toEqual(Object.keys(v5Document.paths).map((p) => p.replace(/^\/v5\/api\//, '/api/')));
      // The document says what that mount answers.
      const checker = new AnswerChecker(document);
      const res = await client(onApi.url, bearer(token)).post('/api/tags', { data: { name: 'on /api' } });
      expect(res.status).toBe(201);
      expect(checker.problems('/api/tags', 'POST', res.status, res.body)).toEqual([]);
      const html = await (await fetch(`${onApi.url}/documentation`)).text();
      expect(html).toContain('data-primary="Strapi 5 (/api)"');
    } finally {
      await onApi.stop();
    }
    await writeUserConfig(built.dir, { v5: { rest: { enabled: false } } });
    const off = await startServer(built.dir);
    try {
      expect((await fetch(`${off.url}/documentation/openapi.v5.json`)).status).toBe(404);
      const html = await (await fetch(`${off.url}/documentation`)).text();
      expect(html).not.toContain('openapi.v5.json');
    } finally {
      await off.stop();
    }
  });
});
