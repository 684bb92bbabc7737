/**
 * The default middleware stack answers with Strapi 4.26's headers (../shared/reference,
 * §11.2): helmet's security headers with Strapi's settings on every answer, CORS for any
 * origin (a preflight on any path, /graphql included, is 204), `X-Powered-By`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

const strapiCsp =
  "connect-src 'self' https:;img-src 'self' data: blob: https://market-assets.strapi.io;media-src 'self' data: blob:;" +
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self' https: 'unsafe-inline'";

describe('security headers (strapi::security)', () => {
  it('are on answers, errors and GraphQL alike, as Strapi sends them', async () => {
    for (const res of [await fetch(`${server.url}/api/articles`), await fetch(`${server.url}/api/nothing`), await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })]) {
      expect(res.headers.get('content-security-policy')).toBe(strapiCsp);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-dns-prefetch-control')).toBe('off');
      expect(res.headers.get('x-download-options')).toBe('noopen');
      expect(res.headers.get('x-permitted-cross-domain-policies')).toBe('none');
      expect(res.headers.get('x-powered-by')).toBe('Strapi <strapi.io>');
      // Strapi turns these helmet defaults off.
      for (const off of ['cross-origin-opener-policy', 'cross-origin-resource-policy', 'cross-origin-embedder-policy', 'origin-agent-cluster', 'x-xss-protection']) {
        expect(res.headers.get(off), off).toBeNull();
      }
    }
  });
});

describe('CORS (strapi::cors)', () => {
  it('answers a preflight on any path with 204 and Strapi’s allowances', async () => {
    for (const path of ['/graphql', '/api/articles', '/api/auth/local']) {
      const res = await fetch(`${server.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,authorization' },
      });
      expect(res.status, path).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-max-age')).toBe('31536000');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
      expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type,Authorization,Origin,Accept');
      expect(res.headers.get('vary')).toContain('Origin');
    }
  });

  it('gives a cross-origin request its origin back, and a same-origin one no CORS header', async () => {
    const cross = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://app.example' } });
    expect(cross.status).toBe(200);
    expect(cross.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(cross.headers.get('access-control-allow-credentials')).toBe('true');
    const plain = await fetch(`${server.url}/api/articles`);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});
