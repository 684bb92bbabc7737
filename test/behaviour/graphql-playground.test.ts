/**
 * The GraphQL playground, GraphiQL, in a real browser (headless Chromium through
 * playwright-core): it loads from the server alone (no other origin, no CSP violation),
 * autocompletes from the schema, and runs a query with an Authorization header. Skipped, saying so, without /usr/bin/chromium
 * (`apt-get install -y chromium`).
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, launchChromium, watchedPage } from '../helpers/browser.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

if (chromiumMissing) console.warn(`graphql-playground: skipped, ${chromiumMissing}.`);

describe.skipIf(chromiumMissing !== undefined)('the playground page in Chromium', () => {
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
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await built?.cleanup();
  });

  it('serves GraphiQL from the server alone: autocomplete, a headers editor with a bearer token, the answer', async () => {
    const { page, requests, problems } = await watchedPage(browser);

    const response = await page.goto(`${server.url}/graphql`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('.graphiql-container').waitFor();
    // GraphiQL fetched the schema: its documentation explorer lists the root types.
    await page.locator('.graphiql-query-editor .CodeMirror').waitFor();

    // Typing in the query editor offers the schema's fields.
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('{ usersPermissionsRo');
    const hints = page.locator('.CodeMirror-hints');
    await hints.waitFor();
    expect(await hints.textContent()).toContain('usersPermissionsRoles');
    await page.keyboard.press('Escape');
    await page.keyboard.type('les { data { attributes { type } } } }');

    // The public role may not list roles; with the token in the headers editor, the answer lists them.
    await page.getByRole('button', { name: 'Headers' }).click();
    const headersEditor = page.locator('.graphiql-editor-tool .CodeMirror').last();
    await headersEditor.click();
    await page.keyboard.type(JSON.stringify({ Authorization: `Bearer ${token}` }));
    await page.locator('.graphiql-execute-button').click();
    const answer = page.locator('.graphiql-response');
    await answer.getByText('"authenticated"').waitFor();
    expect(await answer.textContent()).toContain('"public"');

    expect(requests.every((url) => url.startsWith(server.url))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('answers GraphiQL’s files under /graphql/playground/, nothing else there', async () => {
    const script = await fetch(`${server.url}/graphql/playground/graphiql.min.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${server.url}/graphql/playground/../package.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/graphql/playground/nothing.js`)).status).toBe(404);
  });
});
