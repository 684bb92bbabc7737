/**
 * Crafted requests against the emitted blog server, over real HTTP: each answers a precise
 * 4xx in Strapi's envelope (or works), never a 5xx, and the server stays up.
 *
 * - methods no route has (PROPFIND, LOCK, PATCH: 405 with `Allow`, Strapi's text body);
 * - JSON bodies nested thousands deep (400 past 100 levels);
 * - `__proto__` keys (and Prisma look-alike `$type` objects) in a json attribute: stored and
 *   answered as data, nested too;
 * - relation lists of 40,000 ids (plain, `set`, `connect`): written in batches, under every
 *   database's bound-parameter limit;
 * - query strings over qs's limits and filters over the compiler's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { newDocumentId } from '../../templates/runtime/entity/document-id.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;
let token: string;

const nest = (levels: number, open: string, close: string, inner: string) => `${open.repeat(levels)}${inner}${close.repeat(levels)}`;

async function raw(method: string, path: string, body?: string): Promise<{ status: number; text: string; headers: Headers }> {
  const res = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

async function createArticle(title: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await admin.post('/api/articles', { data: { title, ...extra } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data.id as number;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url);
  token = await createApiToken(built.dir, { type: 'full-access' });
  admin = client(server.url, bearer(token));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('methods no route has', () => {
  it('PROPFIND, LOCK, PURGE: 405 Method Not Allowed (text, as Strapi), with Allow; nothing logged', async () => {
    for (const [method, path, allow] of [
      ['PROPFIND', '/api/articles', 'HEAD, GET, POST'],
      ['LOCK', '/api/articles/1', 'HEAD, GET, PUT, DELETE'],
      ['PURGE', '/api/upload/files', 'HEAD, GET'],
      ['PATCH', '/api/articles', 'HEAD, GET, POST'],
    ] as const) {
      const res = await api.request(method, path);
      expect(res.status, method).toBe(405);
      expect(res.body).toBe('Method Not Allowed');
      expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(res.headers.get('allow')).toBe(allow);
    }
    expect(server.output()).not.toMatch(/NotImplementedError|at .*router/);
  });

  it('a method Node does not know (FOO) is refused by Node itself; on a path no route has, any method is a 404', async () => {
    const foo = await api.request('FOO', '/api/articles').catch(() => ({ status: 400 }));
    expect(foo.status).toBe(400);
    const nowhere = await api.request('PROPFIND', '/api/nothing-here');
    expect(nowhere).toMatchObject({ status: 404, body: { error: { name: 'NotFoundError' } } });
    expect(nowhere.headers.has('allow')).toBe(false);
    expect((await api.get('/api/articles')).status).toBe(200);
  });
});

describe('JSON bodies nested deeply', () => {
  it('5,000 levels anywhere in a body: 400 before any handler (no stack overflow, no 500)', async () => {
    const deepObject = nest(5000, '{"a":', '}', '1');
    const deepArray = nest(5000, '[', ']', '1');
    const bodies = [
      deepArray,
      `{"data":{"title":"deep","metadata":${deepObject}}}`,
      `{"data":{"title":"deep","tags":${deepArray}}}`,
      `{"data":{"title":"deep","tags":{"connect":[{"id":1,"position":${nest(5000, '{"before":', '}', '1')}}]}}}`,
      `{"data":{"title":"deep","seo":${nest(5000, '{"metaTitle":', '}', '"x"')}}}`,
      `{"data":{"title":"deep","blocks":[${nest(5000, '{"__component":"shared.quote","body":', '}', '1')}]}}`,
    ];
    for (const body of bodies) {
      const res = await raw('POST', '/api/articles', body);
      expect(res.status, body.slice(0, 60)).toBe(400);
      expect(JSON.parse(res.text).error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: 'The request body is nested too deeply: at most 100 levels of arrays and objects',
        details: {},
      });
    }
    const login = await raw('POST', '/api/auth/local', `{"identifier":${deepObject},"password":"x"}`);
    expect(login.status).toBe(400);
  });

  it('100 levels are accepted (the rules of each attribute apply as usual)', async () => {
    expect((await raw('POST', '/api/articles', `{"data":{"title":"deep enough","unknown":${nest(98, '[', ']', '1')}}}`)).status).toBe(200);
    const tooDeepForJson = await raw('POST', '/api/articles', `{"data":{"title":"deep enough","metadata":${nest(50, '[', ']', '1')}}}`);
    expect(JSON.parse(tooDeepForJson.text).error.message).toBe('metadata must not be nested more than 20 levels deep');
  });
});

describe('json attributes: __proto__ keys are data', () => {
  // Written as text: a JavaScript object literal `{ __proto__: … }` would set a prototype instead.
  const metadata =
    '{"__proto__":{"x":1},"a":{"__proto__":{"y":[1,{"__proto__":null}]}},"list":[{"__proto__":"z"}],' +
    '"lookalike":{"$type":"BigInt","value":"1"},"raw":{"__prismaRawParameters__":true,"values":[1]},"constructor":{"name":"Object"}}';

  it('are stored and answered as written (create, findOne, find), nested too', async () => {
    const created = await raw('POST', '/api/articles', `{"data":{"title":"prototype keys","metadata":${metadata}}}`);
    expect(created.status, created.text).toBe(200);
    expect(created.text).toContain(`"metadata":${metadata}`);
    const id = JSON.parse(created.text).data.id as number;

    const one = await raw('GET', `/api/articles/${id}?fields[0]=metadata`);
    expect(one.text).toBe(`{"data":{"id":${id},"attributes":{"metadata":${metadata}}},"meta":{}}`);
    const parsed = JSON.parse(one.text).data.attributes.metadata;
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype); // data, never a prototype

    const list = await raw('GET', `/api/articles?filters[id][$eq]=${id}&fields[0]=metadata`);
    expect(list.text).toContain(`"metadata":${metadata}`);
  });

  it('an update replaces the value with one holding __proto__ keys, kept as well', async () => {
    const id = await createArticle('prototype update', { metadata: { plain: true } });
    const value = '{"a":{"__proto__":{"x":1}}}';
    const updated = await raw('PUT', `/api/articles/${id}`, `{"data":{"metadata":${value}}}`);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.text).toContain(`"metadata":${value}`);
    expect((await raw('GET', `/api/articles/${id}?fields[0]=metadata`)).text).toContain(`"metadata":${value}`);
  });
});

describe('json attributes: bare values', () => {
  it('a number, a string, a boolean or null as the whole value round-trips (a bare number was a 500 on SQLite)', async () => {
    for (const value of ['1', '-1.5', '1e+300', '"text"', 'true', 'false', 'null', '[]', '{}']) {
      const created = await raw('POST', '/api/articles', `{"data":{"title":"bare json","metadata":${value}}}`);
      expect(created.status, `${value}: ${created.text}`).toBe(200);
      const expected = JSON.stringify(JSON.parse(value));
      expect(created.text).toContain(`"metadata":${expected}`);
      const id = JSON.parse(created.text).data.id as number;
      expect((await raw('GET', `/api/articles/${id}?fields[0]=metadata`)).text).toContain(`"metadata":${expected}`);
    }
  });
});

describe('relation lists of 40,000 ids', () => {
  const count = 40_000;
  let tagIds: number[];

  beforeAll(async () => {
    const now = built.database.datetime(new Date());
    for (let start = 0; start < count; start += 1000) {
      const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => `bulk-tag-${start + i}`);
      await built.database.query(
        `INSERT INTO tags (name, document_id, created_at, updated_at) VALUES ${rows.map(() => '(?, ?, ?, ?)').join(', ')}`,
        rows.flatMap((name) => [name, newDocumentId(), now, now]),
      );
    }
    const rows = await built.database.query<{ id: number }>("SELECT id FROM tags WHERE name LIKE 'bulk-tag-%' ORDER BY id");
    tagIds = rows.map((row) => Number(row.id));
    expect(tagIds).toHaveLength(count);
  }, 180_000);

  const links = async (articleId: number) =>
    (await built.database.query<{ tag: number }>('SELECT tag_id AS tag FROM articles_tags_links WHERE article_id = ? ORDER BY tag_order', [articleId])).map((r) => Number(r.tag));

  it('a plain list, a set of objects and a connect list are written whole, in order (200, not a 500)', async () => {
    const id = await createArticle('forty thousand tags');
    const plain = await admin.put(`/api/articles/${id}`, { data: { tags: tagIds } });
    expect(plain.status, JSON.stringify(plain.body).slice(0, 300)).toBe(200);
    let stored = await links(id);
    expect(stored).toHaveLength(count);
    expect(stored.slice(0, 3)).toEqual(tagIds.slice(0, 3));

    const reversed = [...tagIds].reverse();
    const set = await admin.put(`/api/articles/${id}`, { data: { tags: { set: reversed.map((tag) => ({ id: tag })) } } });
    expect(set.status).toBe(200);
    stored = await links(id);
    expect(stored).toHaveLength(count);
    expect(stored.slice(0, 3)).toEqual(reversed.slice(0, 3));

    expect((await admin.put(`/api/articles/${id}`, { data: { tags: { disconnect: tagIds } } })).status).toBe(200);
    expect(await links(id)).toEqual([]);
    const connect = await admin.put(`/api/articles/${id}`, { data: { tags: { connect: tagIds } } });
    expect(connect.status).toBe(200);
    expect(await links(id)).toHaveLength(count);

    // Reading them all back is refused by the populate limit, with a 400.
    const populated = await admin.get(`/api/articles/${id}?populate=tags`);
    expect(populated.status).toBe(400);
    expect(populated.body.error.message).toMatch(/returns more than 100 entries/);
  }, 180_000);

  it('a create with 40,000 ids, and one naming ids that do not exist (checked in batches too)', async () => {
    const created = await admin.post('/api/articles', { data: { title: 'created with tags', tags: tagIds } });
    expect(created.status).toBe(200);
    expect(await links(created.body.data.id)).toHaveLength(count);
    const missing = await admin.post('/api/articles', { data: { title: 'missing tags', tags: [...tagIds, 999_999_999, 999_999_998] } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('2 relation(s) of type api::tag.tag associated with this entity do not exist');
  }, 180_000);
});

describe('the NUL character (PostgreSQL cannot store or compare it)', () => {
  it('in a filter, a search, an attribute, a login or a file name: 400 on every database, never a 500', async () => {
    expect(await api.get('/api/articles?filters[title][$eq]=a%00b')).toMatchObject({
      status: 400,
      body: { error: { name: 'ValidationError', message: 'Invalid value for title: expected text without the NUL character (%00)' } },
    });
    expect((await api.get('/api/articles?filters[title][$containsi]=%00')).status).toBe(400);
    expect((await api.get('/api/articles?_q=%00')).status).toBe(400);
    const write = await raw('POST', '/api/articles', '{"data":{"title":"nul \\u0000 here"}}');
    expect(write.status).toBe(400);
    expect(JSON.parse(write.text).error.message).toBe('title must not contain the NUL character (\\u0000)');
    // Inside a json attribute it is data like any other character.
    const json = await raw('POST', '/api/articles', '{"data":{"title":"nul in json","metadata":{"a":"x\\u0000y"}}}');
    expect(json.status, json.text).toBe(200);
    expect(json.text).toContain('"metadata":{"a":"x\\u0000y"}');
    const login = await api.post('/api/auth/local', { identifier: 'a\u0000b', password: 'secret123' });
    expect(login).toMatchObject({ status: 400, body: { error: { message: 'identifier must not contain the NUL character (\\u0000)' } } });
    // A NUL in a file name: busboy refuses it raw (a 400), decodes it from RFC 5987's filename*.
    const boundary = 'nul-boundary';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''note%00.txt\r\nContent-Type: text/plain\r\n\r\nplain text\r\n--${boundary}--\r\n`;
    const uploaded = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: multipart,
    });
    expect(uploaded.status).toBe(200);
    expect((await uploaded.json())[0].name).toBe('note.txt');
  });
});

describe('query strings and filters past their limits', () => {
  const params = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('&');

  it('more than 1,000 parameters: 400 (Strapi silently drops the rest)', async () => {
    const res = await api.get(`/api/articles?${params(1001, (i) => `f${i}`)}`);
    expect(res).toMatchObject({ status: 400, body: { error: { name: 'ValidationError', message: 'Too many query parameters: at most 1000' } } });
  });

  it('lists of up to 100 values work; longer ones are a 400', async () => {
    expect((await api.get(`/api/articles?${params(100, (i) => `filters[id][$in][]=${i + 1}`)}`)).status).toBe(200);
    expect((await api.get(`/api/articles?${params(150, (i) => `filters[id][$in][]=${i + 1}`)}`)).status).toBe(400);
    expect((await api.get(`/api/articles?${params(100, (i) => `filters[$or][${i}][id]=${i + 1}`)}`)).status).toBe(200);
    expect((await api.get(`/api/articles?${params(101, (i) => `filters[$or][${i}][id]=${i + 1}`)}`)).status).toBe(400);
  });

  it('tens of thousands of values: the request line is refused (431), never a 500', async () => {
    for (const query of [params(40_000, (i) => `filters[id][$in][]=${i}`), params(20_000, (i) => `filters[$or][${i}][id]=${i}`)]) {
      const res = await api.get(`/api/articles?${query}`);
      // Node refuses a request head over 16 KB; a server allowing longer ones answers the 400 above.
      expect([400, 431]).toContain(res.status);
    }
  });

  it('brackets nested past 20 levels, and filters nested past 32: 400', async () => {
    expect((await api.get(`/api/articles?filters${'[$and][0]'.repeat(30)}[id]=1`)).status).toBe(400);
    expect((await api.get(`/api/articles?filters${'[$not]'.repeat(30)}[id]=1`)).status).toBe(400);
    expect((await api.get(`/api/articles?filters[title]${'[$not]'.repeat(18)}=x`)).status).toBe(200);
  });

  it('the server is still healthy', async () => {
    expect((await api.get('/api/articles')).status).toBe(200);
    expect(server.output()).not.toMatch(/InternalServerError|RangeError|TypeError/);
  });
});
