/**
 * `out/openapi.json` (issue 15): a valid OpenAPI 3.1 document (checked by a maintained
 * validator) that lists exactly the REST routes the server serves — every documented path
 * answers a method it lacks with 405 and an `Allow` header naming the documented methods,
 * custom routes of src/api included — and that openapi-typescript turns into types a
 * frontend's calls compile against, for the answers the server really gives. Served at
 * /documentation/openapi.json with Swagger UI at /documentation (from the server alone, in
 * Chromium), outside production only.
 */
import { writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, watchedPage } from '../helpers/browser.js';
import { tempDir } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let document: any;
let admin: Record<string, string>;

beforeAll(async () => {
  built = await buildFixture('app');
  server = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  document = JSON.parse(await readFile(path.join(built.dir, 'openapi.json'), 'utf8'));
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const methods = ['get', 'post', 'put', 'delete'];

describe('openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it('documents exactly the methods each route serves (custom routes included)', async () => {
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/articles', '/api/articles/{id}', '/api/articles/featured', '/api/auth/local', '/api/upload', '/api/users/me']));
    const templates = Object.entries<any>(document.paths).map(([template, item]) => ({ template, item, pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));
    for (const { template } of templates) {
      const concrete = template.replace(/\{[^}]+\}/g, '1');
      const res = await fetch(`${server.url}${concrete}`, { method: 'PATCH', headers: admin });
      expect(res.status, `PATCH ${concrete}`).toBe(405);
      const allowed = (res.headers.get('allow') ?? '').split(/,\s*/).map((m) => m.toLowerCase()).filter((m) => methods.includes(m)).sort();
      // Every documented route this path reaches (`/api/articles/featured` also matches `/api/articles/{id}`).
      const documented = new Set(templates.filter((t) => t.pattern.test(concrete)).flatMap((t) => methods.filter((m) => m in t.item)));
      expect(allowed, concrete).toEqual([...documented].sort());
    }
  });

  it('gives openapi-typescript types that real calls compile against', async () => {
    const dir = await tempDir('openapi-types');
    await writeFile(path.join(dir, 'api.d.ts'), astToString(await openapiTS(document)));
    await writeFile(
      path.join(dir, 'calls.ts'),
      `import type { paths, components } from './api.js';
type Articles = paths['/api/articles']['get']['responses']['200']['content']['application/json'];
type Login = paths['/api/auth/local']['post']['requestBody']['content']['application/json'];
export function titles(list: Articles): (string | null)[] {
  return list.data.map((entry) => entry.attributes.title);
}
export const login: Login = { identifier: 'ada', password: 'secret' };
export function pageSize(list: Articles): number | undefined {
  return list.meta.pagination?.pageSize;
}
export type Error = components['schemas']['Error'];
// @ts-expect-error: articles have no such attribute
export const nope = (list: Articles) => list.data[0]?.attributes.nope;
// @ts-expect-error: login needs a password
export const incomplete: Login = { identifier: 'ada' };
`,
    );
    // The shapes those types describe are the server's answers (asked first: the compile below
    // blocks this process for seconds, past the server's keep-alive timeout).
    const create = await fetch(`${server.url}/api/articles`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ data: { title: 'Typed by OpenAPI' } }) });
    expect(create.status).toBe(200);
    const list = (await (await fetch(`${server.url}/api/articles`, { headers: admin })).json()) as any;
    expect(list.data.map((e: any) => e.attributes.title)).toContain('Typed by OpenAPI');
    expect(list.meta.pagination.pageSize).toEqual(expect.any(Number));
    const schema = document.components.schemas.ArticleAttributes;
    for (const name of schema.required) expect(list.data[0].attributes, name).toHaveProperty(name);

    const program = ts.createProgram([path.join(dir, 'calls.ts')], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, types: [] });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
    // Let the event loop see the kept-alive sockets the server closed meanwhile, before the next test's fetch.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

describe('/documentation', () => {
  it('serves the document, and Swagger UI from the server alone', async (ctx) => {
    const served = await fetch(`${server.url}/documentation/openapi.json`);
    expect(served.status).toBe(200);
    expect(await served.json()).toEqual(document);
    if (chromiumMissing) return ctx.skip(chromiumMissing);
    const browser = await launchChromium();
    try {
      const { page, requests, problems } = await watchedPage(browser);
      const response = await page.goto(`${server.url}/documentation`);
      expect(response?.status()).toBe(200);
      await page.locator('.opblock-summary-path', { hasText: '/api/articles/featured' }).first().waitFor();
      expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(10);
      expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("Swagger UI's Try it out calls the server it is served by, on any port, with the prefilled values", async (ctx) => {
    expect(document.servers).toEqual([{ url: '/', description: 'this server' }]);
    if (chromiumMissing) return ctx.skip(chromiumMissing);
    const browser = await launchChromium();
    try {
      const { page, problems } = await watchedPage(browser);
      await page.goto(`${server.url}/documentation`);
      const list = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path', { hasText: /^\/api\/articles$/ }) }).first();
      await list.locator('.opblock-summary').click();
      await list.locator('.try-out__btn').click();
      await list.locator('.execute').click();
      const status = list.locator('.live-responses-table tr.response .response-col_status').first();
      await status.waitFor();
      expect((await status.innerText()).trim()).toBe('200');
      expect(await list.locator('.request-url').innerText()).toContain(`${server.url}/api/articles?`);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('is not served in production', async () => {
    const secrets = { JWT_SECRET: 'x'.repeat(44), API_TOKEN_SALT: 'y'.repeat(44) };
    const production = await startServer(built.dir, { NODE_ENV: 'production', ...secrets });
    try {
      expect((await fetch(`${production.url}/documentation/openapi.json`)).status).toBe(404);
      expect((await fetch(`${production.url}/documentation`)).status).toBe(404);
    } finally {
      await production.stop();
    }
  });
});
