/**
 * `strapi::security` with a project's own Content-Security-Policy: a keyword written without
 * its quotes (`unsafe-inline`, as skin93/fleszevents-strapi5's config/middlewares.ts has it).
 * Strapi 4.26.2 and 5.54.0 (helmet 6) start and send it as written; helmet 8 refused it, so the
 * server did not start. Over real HTTP, on a Koa app with the middleware.
 */
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../../../templates/runtime/http/security.js';

let close: (() => void) | undefined;
afterEach(() => close?.());

async function cspOf(config: Record<string, unknown>): Promise<string | null> {
  const app = new Koa();
  app.use(securityHeaders(config));
  app.use((ctx) => { ctx.body = 'ok'; });
  const server = app.listen(0, '127.0.0.1');
  close = () => server.close();
  await new Promise((resolve) => server.once('listening', resolve));
  const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  return res.headers.get('content-security-policy');
}

describe('a project CSP with unquoted keywords', () => {
  it('is sent as written, where helmet 8 refused it at start', async () => {
    const csp = await cspOf({
      contentSecurityPolicy: {
        useDefaults: true,
        directives: { 'script-src': ["'self'", 'unsafe-inline', 'https://maps.example.com'], 'style-src': 'self', 'img-src': ["'self'", 'nonce-abc'] },
      },
    });
    expect(csp).toBe(
      "connect-src 'self' https:;img-src 'self' nonce-abc;media-src 'self' data: blob:;script-src 'self' unsafe-inline https://maps.example.com;style-src self;" +
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';object-src 'none';script-src-attr 'none'",
    );
  });

  it('keeps a function directive (a nonce per request) working beside them', async () => {
    let n = 0;
    const config = { contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'self'"], 'script-src': ['unsafe-inline', () => `'nonce-${++n}'`] } } };
    // Strapi's own directives merged in first, as its security middleware does.
    expect(await cspOf(config)).toBe("connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob:;default-src 'self';script-src unsafe-inline 'nonce-1'");
  });
});
