/**
 * The GraphQL playground page in a real browser (headless Chromium through playwright-core):
 * it loads from the server alone (no other origin, no CSP violation), explores the schema,
 * and runs a query with an Authorization header. Skipped, saying so, without /usr/bin/chromium
 * (`apt-get install -y chromium`).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const executablePath = '/usr/bin/chromium';
const missing = !existsSync(executablePath);
if (missing) console.warn(`graphql-playground: skipped, ${executablePath} not found (install it with \`apt-get install -y chromium\`).`);

describe.skipIf(missing)('the playground page in Chromium', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let browser: Browser;
  let token: string;

  beforeAll(async () => {
    built = await buildFixture('blog');
    server = await startServer(built.dir);
    token = await createApiToken(built.dir, { type: 'full-access' });
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(token) },
      body: JSON.stringify({ query: 'mutation { createTag(data: { name: "from-the-browser" }) { data { id } } }' }),
    });
    if (res.status !== 200) throw new Error(await res.text());
    browser = await chromium.launch({
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await built?.cleanup();
  });

  it('loads from the server alone, shows the schema and runs a query with a bearer token', async () => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const response = await page.goto(`${server.url}/graphql`);
    expect(response?.status()).toBe(200);
    // The schema explorer lists the root operations once introspection answered.
    await page.locator('#docs h2', { hasText: 'Query' }).waitFor();
    expect(await page.locator('#docs').textContent()).toContain('articles(');

    await page.fill('#headers', JSON.stringify({ Authorization: `Bearer ${token}` }));
    await page.fill('#query', '{ tags(filters: { name: { eq: "from-the-browser" } }) { data { id attributes { name } } } }');
    await page.click('#run');
    await page.locator('#result', { hasText: 'from-the-browser' }).waitFor();
    const result = JSON.parse((await page.textContent('#result'))!);
    expect(result).toEqual({ data: { tags: { data: [{ id: expect.any(String), attributes: { name: 'from-the-browser' } }] } } });
    expect(await page.textContent('#status')).toMatch(/^HTTP 200/);
    expect(problems).toEqual([]);

    // Ctrl+Enter runs too; errors are shown as the server answered them.
    await page.fill('#query', '{ nope }');
    await page.focus('#query');
    await page.keyboard.press('Control+Enter');
    await page.locator('#status', { hasText: 'HTTP 400' }).waitFor();
    expect(await page.textContent('#result')).toContain('GRAPHQL_VALIDATION_FAILED');

    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    // Only the 400 just asked for (Chromium logs failed fetches), no script or CSP error.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await page.close();
  });
});
