/**
 * HTTP fuzzing of the emitted blog server: a seeded, deterministic generator of requests —
 * methods (odd ones included), paths under /api, /graphql and /uploads, query strings (deep
 * brackets, long lists, odd operators, unicode, broken percent-encoding), bodies (bad JSON,
 * deep JSON, wrong types, long strings within the body limit, `__proto__`), content types
 * (JSON, forms, multipart with bad boundaries, text) and credentials (none, a user's JWT, a
 * full-access API token, garbage). Not one answer may be a 5xx, and the server must be healthy
 * afterwards. A summary of the statuses is printed.
 *
 * `CG_FUZZ_REQUESTS` (default 2000) sets the number of requests, `CG_FUZZ_SEED` the seed; a
 * failure prints each offending request, so a seed reproduces it.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const total = Number(process.env.CG_FUZZ_REQUESTS) || 2000;
const seed = Number(process.env.CG_FUZZ_SEED) || 0x5eed;
/** Requests in flight at once. */
const concurrency = 4;

let built: BuiltServer;
let server: RunningServer;
let token: string;
let userJwt: string;

/** mulberry32: small, seeded, deterministic. */
function prng(start: number): () => number {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface FuzzRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

/** The generator: every choice comes from `random`, so a seed always makes the same requests. */
function generator(random: () => number) {
  const int = (max: number) => Math.floor(random() * max);
  const chance = (p: number) => random() < p;
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;

  const types = ['articles', 'authors', 'categories', 'tags', 'global', 'users'];
  const fields = ['title', 'slug', 'description', 'content', 'status', 'views', 'rating', 'price', 'impressions', 'featured', 'publishDate', 'readingTime',
    'lastReviewedAt', 'metadata', 'editorNote', 'author', 'category', 'tags', 'cover', 'seo', 'links', 'blocks', 'name', 'id', 'createdAt', 'publishedAt',
    'username', 'email', 'password', 'role', 'articles', 'constructor', '__proto__', 'toString', ''];
  const operators = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$notContainsi',
    '$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi', '$and', '$or', '$not', '$jsonSupersetOf', '$EQ', '$foo', '$', '$$'];
  const words = ['', 'a', 'hello', 'Hello World', '0', '1', '-1', '1.5', '1e400', 'NaN', 'Infinity', 'true', 'false', 'null', 'undefined', '2024-03-05',
    '2024-13-45', '25:61', '2024-03-05T10:00:00Z', '9007199254740993', '99999999999999999999999', 'é', 'ü\u0301', '日本語', '🦄', '\u0000', '\u202e', "'; DROP TABLE articles; --",
    '%', '_', '*', '?', '[', ']', '{}', '[]', '\\', '"', '<script>', '../../etc/passwd', 'asc', 'desc', 'title:asc', 'title:sideways', 'live', 'preview', '*'];

  const word = (): string => (chance(0.05) ? 'x'.repeat(int(5000)) : pick(words));
  const encodedWord = (): string => {
    const roll = random();
    if (roll < 0.1) return pick(['%', '%E0%A4%A', '%ZZ', '%C3%28', '%FF%FE', '%00', '%25%', '%%%', '%u0041']); // broken percent-encoding
    if (roll < 0.15) return encodeURIComponent(pick(['日本語', '🦄', 'é', '\u0000', '\u202e']));
    // Raw bytes on the wire: UTF-8 not percent-encoded, and Latin-1 bytes that are not UTF-8.
    if (roll < 0.2) return pick([Buffer.from('日本語🦄', 'utf8').toString('latin1'), '\u00e9', '\u00ff\u00fe', '\u0080']);
    return encodeURIComponent(word());
  };
  const id = (): string => pick(['1', '2', '3', '0', '-1', '999999', '1.5', 'abc', '1e3', '9007199254740993', '99999999999999999999', '%20', '', '00001', 'null']);

  function segmentPath(depth: number): string {
    let out = '';
    for (let i = 0; i < depth; i++) out += `[${chance(0.3) ? pick(operators) : chance(0.3) ? String(int(120)) : pick(fields)}]`;
    return out;
  }

  function queryString(): string {
    const parts: string[] = [];
    const count = chance(0.05) ? int(300) : int(6);
    for (let i = 0; i < count; i++) {
      const roll = random();
      let key: string;
      if (roll < 0.4) key = `filters${segmentPath(1 + int(chance(0.1) ? 30 : 4))}`;
      else if (roll < 0.5) key = `sort${chance(0.5) ? `[${int(150)}]` : ''}`;
      else if (roll < 0.6) key = `fields${chance(0.5) ? `[${int(150)}]` : ''}`;
      else if (roll < 0.7) key = `populate${segmentPath(int(6))}`;
      else if (roll < 0.8) key = `pagination[${pick(['page', 'pageSize', 'start', 'limit', 'withCount', 'x'])}]`;
      else if (roll < 0.85) key = pick(['publicationState', 'locale', '_q', 'page', 'pageSize', 'start', 'limit', 'id', 'confirmation']);
      else if (roll < 0.9) key = `${pick(fields)}${segmentPath(int(3))}`;
      else key = encodedWord();
      if (chance(0.2) && key.includes('[')) key = key.replace(/\[/g, '%5B').replace(/\]/g, '%5D');
      if (chance(0.1)) {
        parts.push(key); // no "=": null with strictNullHandling
        continue;
      }
      if (chance(0.05)) {
        // A long list of values under one key.
        const n = pick([50, 100, 101, 150, 500]);
        for (let k = 0; k < n; k++) parts.push(`${key}[]=${int(100)}`);
        continue;
      }
      parts.push(`${key}=${encodedWord()}`);
    }
    if (chance(0.02)) parts.push(...Array.from({ length: 1001 }, (_, k) => `p${k}=1`));
    return parts.length ? `?${parts.join(chance(0.05) ? ';' : '&')}` : '';
  }

  function path(): string {
    const roll = random();
    const type = pick(types);
    if (roll < 0.35) return `/api/${type}`;
    if (roll < 0.55) return `/api/${type}/${id()}`;
    if (roll < 0.65) return `/api/${pick(['auth/local', 'auth/local/register', 'auth/forgot-password', 'auth/reset-password', 'auth/change-password', 'auth/email-confirmation', 'auth/send-email-confirmation', 'auth/google/callback', 'connect/github'])}`;
    if (roll < 0.72) return `/api/${pick(['users/me', 'users/count', 'users-permissions/roles', `users-permissions/roles/${id()}`, 'users-permissions/permissions'])}`;
    if (roll < 0.8) return `/api/${pick(['upload', 'upload/files', `upload/files/${id()}`, `upload?id=${id()}`])}`;
    if (roll < 0.88) return pick(['/graphql', '/graphql', '/graphql/', '/GRAPHQL', '/graphql?query={articles{data{id}}}']);
    if (roll < 0.94) return `/uploads/${pick(['x.png', '..%2F..%2Fetc%2Fpasswd', '%2e%2e/%2e%2e/package.json', 'a/b/c', '%00.png', '', encodedWord()])}`;
    return pick(['/', '/_health', '/api', '/api/', '//api//articles', '/api/articles/', '/api/articles/1/2', '/API/ARTICLES', `/api/${encodedWord()}`, '/favicon.ico', '/admin', '/api/articles%2F1', '/%2e%2e/%2e%2e']);
  }

  function deep(levels: number): string {
    const open = chance(0.5) ? '[' : '{"a":';
    const close = open === '[' ? ']' : '}';
    return `${open.repeat(levels)}1${close.repeat(levels)}`;
  }

  function value(depth = 0): unknown {
    const roll = random();
    if (roll < 0.15) return word();
    if (roll < 0.3) return pick([0, 1, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, 2147483648, -2147483649, 5e-324]);
    if (roll < 0.38) return pick([true, false, null]);
    if (roll < 0.45 && depth < 4) return Array.from({ length: int(5) }, () => value(depth + 1));
    if (roll < 0.55 && depth < 4) return Object.fromEntries(Array.from({ length: int(4) }, () => [pick(fields), value(depth + 1)]));
    if (roll < 0.6) return { connect: Array.from({ length: int(4) }, () => (chance(0.5) ? int(5) : { id: int(5), position: pick([{ before: int(5) }, { after: int(5) }, { start: true }, { end: true }, { x: 1 }, 'end']) })), disconnect: [int(5)], set: chance(0.2) ? [int(5)] : undefined };
    if (roll < 0.65) return [{ __component: pick(['shared.quote', 'shared.rich-text', 'shared.seo', 'nope']), body: word(), title: word(), id: int(5) }];
    if (roll < 0.7) return { metaTitle: word(), metaDescription: word() };
    return word();
  }

  function jsonBody(): string {
    const roll = random();
    if (roll < 0.05) return pick(['', '{', '{"data":', 'null', '[]', '"text"', '123', '{"data":null}', '{"data":[]}', '{"data":"x"}', '{"data":{}}', '\u0000', '{"a":1}{"b":2}', '{"data":{"title":"x",}}']);
    if (roll < 0.1) return deep(pick([50, 99, 100, 101, 500, 5000, 50_000]));
    if (roll < 0.15) {
      // __proto__ and other prototype names, as JSON text (an object literal would set a prototype).
      return `{"data":{"title":"proto ${int(1000)}","metadata":{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}},"__proto__":{"title":"x"},"seo":{"__proto__":{"metaTitle":"y"}}}}`;
    }
    if (roll < 0.18) return JSON.stringify({ data: { title: 'long', content: 'x'.repeat(pick([10_000, 200_000, 900_000])) } });
    if (roll < 0.3) {
      // Auth bodies.
      return JSON.stringify({ identifier: value(), password: value(), email: value(), username: value(), code: value(), currentPassword: value(), passwordConfirmation: value() });
    }
    if (roll < 0.4) {
      // GraphQL documents.
      const query = pick([
        '{ articles { data { id attributes { title } } } }',
        '{ articles(filters: { title: { containsi: "a" } }, pagination: { limit: 5 }) { data { id } meta { pagination { total } } } }',
        `{ ${'a: articles { data { id } } '.repeat(int(50))} }`,
        `{ articles { data { attributes { ${'tags { data { attributes { articles { data { attributes { '.repeat(int(8))} title ${'} } } } } } } } '.repeat(0)} } } } }`,
        'mutation { login(input: { identifier: "x", password: "y" }) { jwt } }',
        'mutation($d: ArticleInput!) { createArticle(data: $d) { data { id } } }',
        'query { __schema { types { name } } }',
        '{',
        'subscription { x }',
        '{ tags(filters: { or: [' + '{ name: { eq: "x" } },'.repeat(int(300)) + '] }) { data { id } } }',
        word(),
      ]);
      return JSON.stringify({ query, variables: chance(0.5) ? { d: value(), x: value() } : value(), operationName: chance(0.1) ? word() : undefined });
    }
    return JSON.stringify(chance(0.8) ? { data: Object.fromEntries(Array.from({ length: int(6) }, () => [pick(fields), value()])) } : value());
  }

  function multipart(): { body: Buffer; type: string } {
    const boundary = `----fuzz${int(1e9)}`;
    const roll = random();
    const declared = roll < 0.2 ? pick(['', '""', 'x', `${boundary}-other`]) : boundary;
    const type = roll < 0.1 ? 'multipart/form-data' : `multipart/form-data; boundary=${declared}`;
    const parts: string[] = [];
    for (let n = int(4); n > 0; n--) {
      const name = pick(['files', 'fileInfo', 'data', 'files.cover', 'files[cover]', 'files.seo.x', 'files.tags', 'ref', 'x', '']);
      const file = chance(0.5);
      const contentType = pick(['image/png', 'image/jpeg', 'image/svg+xml', 'application/octet-stream', 'text/plain', 'video/mp4']);
      const content = file ? pick(['\x89PNG\r\n\x1a\n garbage', 'GIF89a', '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"/>', 'plain text', '']) : JSON.stringify(value());
      parts.push(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${pick(['a.png', '../../x.png', 'b.jpg', '.htaccess', 'é.svg', ''])}"` : ''}\r\n` +
          `${file ? `Content-Type: ${contentType}\r\n` : ''}\r\n${content}\r\n`,
      );
    }
    const end = chance(0.8) ? `--${boundary}--\r\n` : chance(0.5) ? `--${boundary}` : '';
    return { body: Buffer.from(parts.join('') + end, 'latin1'), type };
  }

  function headers(): Record<string, string> {
    const out: Record<string, string> = {};
    const roll = random();
    if (roll < 0.45) out.authorization = `Bearer ${token}`;
    else if (roll < 0.6) out.authorization = `Bearer ${userJwt}`;
    else if (roll < 0.7) out.authorization = pick(['Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', `Bearer ${'x'.repeat(int(3000))}`, 'Bearer a.b.c', `bearer ${token}`, `Bearer ${userJwt}x`]);
    if (chance(0.05)) out.accept = pick(['text/html', 'application/xml', '*/*', '']);
    return out;
  }

  // Well-formed requests with one odd value: they get past parsing and validation into the
  // query compiler, the database and the writers.
  const articleFields: Record<string, 'text' | 'number' | 'bool' | 'date' | 'time' | 'datetime' | 'json'> = {
    title: 'text', slug: 'text', description: 'text', status: 'text', views: 'number', rating: 'number', price: 'number', impressions: 'number',
    featured: 'bool', publishDate: 'date', readingTime: 'time', lastReviewedAt: 'datetime', createdAt: 'datetime', id: 'number', metadata: 'json',
  };
  const typedValue = (kind: string): unknown => {
    if (chance(0.25)) return value();
    switch (kind) {
      case 'number': return pick([0, 1, -1, 3, 1.5, 2147483647, 2147483648, 9007199254740991, '9223372036854775807', '99999999999999999999', 1e35, -0.0]);
      case 'bool': return pick([true, false, 'true', 't', '0', 1]);
      case 'date': return pick(['2024-03-05', '0999-12-31', '10000-01-01', '2024-02-30', '2024-03-05T10:00:00Z', 1700000000000]);
      case 'time': return pick(['10:30', '10:30:15.123', '24:00', '23:59:60', '9:5']);
      case 'datetime': return pick(['2024-03-05T10:00:00.000Z', '2024-03-05', '+275760-09-13T00:00:00Z', '1000-01-01T00:00:00Z', 0, 'yesterday']);
      case 'json': return pick([{ a: 1 }, [1, 2], 'text', 1, null, { __x: { y: [true] } }]);
      default: return pick(['Hello World', 'a'.repeat(int(200)), '日本語', '🦄', '%_*', '']);
    }
  };
  const text = (v: unknown): string => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  function structured(): FuzzRequest {
    const field = pick(Object.keys(articleFields));
    const kind = articleFields[field]!;
    if (chance(0.5)) {
      const params = [
        `filters[${field}][${pick(operators.slice(0, 21))}]=${encodeURIComponent(text(typedValue(kind)))}`,
        chance(0.5) ? `sort=${pick(Object.keys(articleFields))}:${pick(['asc', 'desc', 'ASC', 'up'])}` : '',
        chance(0.3) ? `populate=${pick(['*', 'tags', 'author', 'category', 'cover', 'seo', 'links', 'blocks', 'tags.articles'])}` : '',
        chance(0.3) ? `fields[0]=${pick(Object.keys(articleFields))}` : '',
        chance(0.3) ? `pagination[${pick(['page', 'pageSize', 'start', 'limit'])}]=${pick(['1', '0', '-1', '100', '101', '1e3', 'x'])}` : '',
        chance(0.2) ? `publicationState=${pick(['live', 'preview', 'bogus'])}` : '',
        chance(0.2) ? `_q=${encodeURIComponent(text(typedValue('text')))}` : '',
      ].filter(Boolean);
      return { method: 'GET', path: `/api/articles${chance(0.2) ? `/${1 + int(3)}` : ''}?${params.join('&')}`, headers: { authorization: `Bearer ${token}` } };
    }
    const data: Record<string, unknown> = { title: `Structured ${int(1e6)}`, [field]: typedValue(kind) };
    if (chance(0.3)) data[pick(['tags', 'author', 'category', 'cover'])] = pick([[1, 2], 1, { connect: [3] }, { set: [] }, null, [999], { connect: [{ id: 1, position: { before: 2 } }] }]);
    if (chance(0.2)) data.seo = { metaTitle: typedValue('text'), metaDescription: typedValue('text') };
    if (chance(0.2)) data.blocks = [{ __component: pick(['shared.quote', 'shared.rich-text']), body: typedValue('text'), title: typedValue('text') }];
    const update = chance(0.4);
    return {
      method: update ? 'PUT' : 'POST',
      path: update ? `/api/articles/${1 + int(4)}` : '/api/articles',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ data }), 'utf8'),
    };
  }

  /** A method for a path: mostly one its routes have, sometimes any (odd ones included). */
  function methodFor(requestPath: string): string {
    if (chance(0.15)) return pick(['PATCH', 'PROPFIND', 'LOCK', 'PURGE', 'SEARCH', 'MKCOL', 'COPY', 'MOVE', 'REPORT', 'OPTIONS', 'HEAD', 'DELETE', 'PUT']);
    if (/^\/api\/(auth|upload)(\/|\?|$)/.test(requestPath) || requestPath.startsWith('/graphql')) return chance(0.8) ? 'POST' : 'GET';
    return pick(['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'PUT', 'DELETE']);
  }

  return function next(): FuzzRequest {
    if (chance(0.3)) return structured();
    const base = path();
    const method = methodFor(base);
    const requestPath = base + (chance(0.6) ? queryString() : '');
    const h = headers();
    if (method === 'GET' || method === 'HEAD' || method === 'DELETE' || method === 'OPTIONS' || chance(0.05)) {
      return { method, path: requestPath, headers: h };
    }
    const roll = random();
    if (roll < 0.65) {
      const body = Buffer.from(jsonBody(), 'utf8');
      return { method, path: requestPath, headers: { ...h, 'content-type': pick(['application/json', 'application/json', 'application/json; charset=utf-8', 'application/vnd.api+json', 'application/json; charset=latin1']) }, body };
    }
    if (roll < 0.85) {
      const { body, type } = multipart();
      return { method, path: requestPath, headers: { ...h, 'content-type': type }, body };
    }
    const type = pick(['application/x-www-form-urlencoded', 'text/plain', 'application/xml', 'application/octet-stream', '', 'application/json-patch+json']);
    const body = Buffer.from(type === 'application/x-www-form-urlencoded' ? queryString().slice(1) || 'a=1' : jsonBody(), 'utf8');
    return { method, path: requestPath, headers: type ? { ...h, 'content-type': type } : h, body };
  };
}

interface Outcome {
  readonly request: FuzzRequest;
  readonly status: number | string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });

/** One request over a raw node:http client (fetch would normalise paths and refuse odd methods). */
function send(base: URL, request: FuzzRequest): Promise<number | string> {
  return new Promise((resolve) => {
    let req: http.ClientRequest;
    try {
      req = http.request(
        {
          host: base.hostname,
          port: base.port,
          method: request.method,
          path: request.path,
          agent,
          headers: { ...request.headers, ...(request.body ? { 'content-length': String(request.body.length) } : {}) },
          timeout: 30_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 'no status'));
          res.on('error', () => resolve(res.statusCode ?? 'response error'));
        },
      );
    } catch (err) {
      resolve(`not sent: ${(err as Error).message}`);
      return;
    }
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve(err.message === 'timeout' ? 'timeout' : `socket: ${(err as NodeJS.ErrnoException).code ?? err.message}`));
    req.end(request.body);
  });
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  const admin = client(server.url, bearer(token));
  for (const name of ['news', 'tech']) await admin.post('/api/categories', { data: { name } });
  for (const name of ['a', 'b', 'c']) await admin.post('/api/tags', { data: { name } });
  for (let i = 1; i <= 3; i++) await admin.post('/api/articles', { data: { title: `Article number ${i}`, tags: [1, 2], category: 1, seo: { metaTitle: 'seo' }, metadata: { i } } });
  const registered = await client(server.url).post('/api/auth/local/register', { username: 'fuzzer', email: 'fuzzer@example.com', password: 'secret123' });
  userJwt = registered.body.jwt;
});

afterAll(async () => {
  agent.destroy();
  await server?.stop();
  await built?.cleanup();
});

describe(`HTTP fuzz (${total} requests, seed ${seed})`, () => {
  it('no request gets a 5xx, and the server stays healthy', async () => {
    const next = generator(prng(seed));
    const requests = Array.from({ length: total }, next);
    const base = new URL(server.url);
    const outcomes: Outcome[] = [];
    let cursor = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (cursor < requests.length) {
          const request = requests[cursor++]!;
          outcomes.push({ request, status: await send(base, request) });
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    const byStatus = new Map<string, number>();
    for (const { status } of outcomes) byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
    const summary = [...byStatus.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([status, n]) => `${status}: ${n}`).join(', ');
    console.log(`HTTP fuzz, seed ${seed}: ${outcomes.length} requests in ${seconds.toFixed(1)} s — ${summary}`);
    const resets = outcomes.filter(({ status }) => typeof status !== 'number');
    if (resets.length) console.log(`closed by Node's HTTP parser (request head too large or malformed):\n${resets.slice(0, 5).map((o) => `  ${o.request.method} ${o.request.path.length} chars of path`).join('\n')}`);

    // Node's own answers to requests it cannot parse close the socket; anything else is a failure.
    const failures = outcomes.filter(({ status }) => typeof status !== 'number' ? !/^socket: (ECONNRESET|EPIPE)$/.test(status) : status >= 500);
    const show = ({ request, status }: Outcome) =>
      `${status} ← ${request.method} ${request.path.slice(0, 300)} [${request.headers['content-type'] ?? ''}] ${request.body ? request.body.toString('utf8').slice(0, 300) : ''}`;
    if (failures.length) console.log(`server output (end):\n${server.output().slice(-4000)}`);
    expect(failures.map(show)).toEqual([]);

    // Healthy afterwards: the process lives, the database answers, reads and writes work.
    expect(server.output()).not.toMatch(/Internal Server Error|InternalServerError|Unhandled|uncaught/i);
    const health = await fetch(`${server.url}/_health`);
    expect(health.status).toBe(204);
    const admin = client(server.url, bearer(token));
    expect((await admin.get('/api/articles')).status).toBe(200);
    expect((await admin.post('/api/tags', { data: { name: `after-fuzz-${seed}` } })).status).toBe(200);
  }, 600_000);
});
