/**
 * Same requests, same answers on SQLite, PostgreSQL and MariaDB (this file runs in each
 * database's project, see vitest.config.ts): values of every scalar type round-trip exactly,
 * text operators and string comparisons follow one rule, sorting puts strings and NULLs in
 * one order, unique violations are 400s (also when they race), and a failed write leaves
 * nothing behind. The expected answers are literals: never per-database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { client } from '../helpers/http.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const models = path.join(path.dirname(fileURLToPath(import.meta.url)), 'models');

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}${r.status >= 500 ? `\nserver log:\n${server.output().slice(-3000)}` : ''}`);
  return r.body;
}

const create = async (data: Record<string, unknown>) => (await ok(api.post('/api/items', { data }))).data as { id: number; attributes: Record<string, any> };

/** `name` of the items a query finds, in the order answered. */
async function names(query: string): Promise<(string | null)[]> {
  const body = await ok(api.get(`/api/items?${query}&pagination[pageSize]=100`));
  return body.data.map((e: any) => e.attributes.name);
}

beforeAll(async () => {
  built = await buildModels(models, 'parity');
  server = await startServer(built.dir);
  api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('values round-trip exactly', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['64-bit integers, as strings', { big: '9223372036854775807' }, { big: '9223372036854775807' }],
    ['the smallest 64-bit integer', { big: '-9223372036854775808' }, { big: '-9223372036854775808' }],
    ['a 64-bit integer given as a number', { big: 9007199254740991, count: -2147483648 }, { big: '9007199254740991', count: -2147483648 }],
    ['32-bit integer bounds', { count: 2147483647 }, { count: 2147483647 }],
    ['decimals', { amount: 12.5, ratio: 0.1 }, { amount: 12.5, ratio: 0.1 }],
    ['decimals with 15 significant digits', { amount: 123456789.123456, ratio: -1e-7 }, { amount: 123456789.123456, ratio: -1e-7 }],
    ['a decimal that is not exact in binary', { amount: 0.30000000000000004, ratio: 1.5e300 }, { amount: 0.30000000000000004, ratio: 1.5e300 }],
    ['decimals keep 30 digits after the point', { amount: '1.2345678901234567e-20' }, { amount: 1.2345678901e-20 }],
    ['and round past them', { amount: '0.0000000000000000000000000000015' }, { amount: 2e-30 }],
    ['decimals up to 35 digits before the point', { amount: '99999999999999999999999999999999999' }, { amount: 1e35 }],
    ['negative and zero decimals', { amount: -0.001, ratio: 0 }, { amount: -0.001, ratio: 0 }],
    ['booleans', { flag: true }, { flag: true }],
    ['false is not null', { flag: false }, { flag: false }],
    ['a leap day', { day: '2024-02-29' }, { day: '2024-02-29' }],
    ['the first and last supported days', { day: '1000-01-01', moment: '9999-12-31T23:59:59.999Z' }, { day: '1000-01-01', moment: '9999-12-31T23:59:59.999Z' }],
    ['times of day with milliseconds', { clock: '23:59:59.999' }, { clock: '23:59:59.999' }],
    ['midnight', { clock: '00:00' }, { clock: '00:00:00.000' }],
    ['a datetime with an offset is stored as UTC, to the millisecond', { moment: '2024-03-05T10:20:30.1234+02:00' }, { moment: '2024-03-05T08:20:30.123Z' }],
    ['a datetime before 1970', { moment: '1969-07-20T20:17:40Z' }, { moment: '1969-07-20T20:17:40.000Z' }],
    ['JSON keeps key order, nesting, numbers and strings', { data: { zeta: 1, alpha: { b: [3, 2, 1], a: null }, 'ünï': 'x"y\\z', n: -1.5e-7, e: {}, l: [] } }, { data: { zeta: 1, alpha: { b: [3, 2, 1], a: null }, 'ünï': 'x"y\\z', n: -1.5e-7, e: {}, l: [] } }],
    ['JSON scalars and arrays at the top', { data: ['b', 'a', 1, true, null] }, { data: ['b', 'a', 1, true, null] }],
    ['a JSON string', { data: 'just text' }, { data: 'just text' }],
    ['text keeps case, accents, emoji and spaces', { label: '  Ünïcödé 🎉 Straße  ', body: 'line 1\nline 2\ttab' }, { label: '  Ünïcödé 🎉 Straße  ', body: 'line 1\nline 2\ttab' }],
    ['an empty string is not null', { label: '' }, { label: '' }],
    ['long text', { body: 'x'.repeat(70_000) }, { body: 'x'.repeat(70_000) }],
    ['component JSON keeps its values', { detail: { title: 'T', score: 7, extra: { z: 1, a: 2 } } }, { detail: { title: 'T', score: 7, extra: { z: 1, a: 2 } } }],
  ];

  it.each(cases)('%s', async (_name, input, expected) => {
    const populate = 'detail' in input ? '?populate=detail' : '';
    const created = (await ok(api.post(`/api/items${populate}`, { data: input }))).data;
    const read = (await ok(api.get(`/api/items/${created.id}${populate}`))).data;
    const strip = (attributes: Record<string, any>) =>
      Object.fromEntries(Object.keys(expected).map((key) => [key, key === 'detail' && attributes[key] ? { ...attributes[key], id: undefined } : attributes[key]]));
    expect(strip(created.attributes)).toEqual(expected);
    expect(strip(read.attributes)).toEqual(expected);
    // The list path reads the same columns through the compiled SQL.
    const [listed] = (await ok(api.get(`/api/items?filters[id][$eq]=${created.id}${populate ? '&populate=detail' : ''}`))).data;
    expect(strip(listed.attributes)).toEqual(expected);
  });

  it('JSON comes back as written, also after an update', async () => {
    const { id } = await create({ data: { b: 1, a: 2 } });
    const updated = (await ok(api.put(`/api/items/${id}`, { data: { data: { y: [{ d: 1, c: 2 }], x: 'z' } } }))).data;
    expect(JSON.stringify(updated.attributes.data)).toBe('{"y":[{"d":1,"c":2}],"x":"z"}');
    expect(JSON.stringify((await ok(api.get(`/api/items/${id}`))).data.attributes.data)).toBe('{"y":[{"d":1,"c":2}],"x":"z"}');
  });

  it('filters compare typed values the same way', async () => {
    await create({ name: 'typed-1', big: '9223372036854775806', amount: 10.25, day: '2024-01-31', clock: '08:00', moment: '2024-01-31T23:59:59.999Z' });
    await create({ name: 'typed-2', big: '-5', amount: 10.5, day: '2024-02-01', clock: '20:00:00.5', moment: '2024-02-01T00:00:00.000Z' });
    const only = 'filters[name][$startsWith]=typed-';
    expect(await names(`${only}&filters[big][$gt]=9007199254740993`)).toEqual(['typed-1']);
    expect(await names(`${only}&filters[big][$lt]=0`)).toEqual(['typed-2']);
    expect(await names(`${only}&filters[amount][$gte]=10.5`)).toEqual(['typed-2']);
    expect(await names(`${only}&filters[day][$lt]=2024-02-01`)).toEqual(['typed-1']);
    expect(await names(`${only}&filters[clock][$gt]=12:00`)).toEqual(['typed-2']);
    expect(await names(`${only}&filters[clock][$eq]=20:00:00.500`)).toEqual(['typed-2']);
    expect(await names(`${only}&filters[moment][$gte]=2024-02-01T01:00:00%2B01:00`)).toEqual(['typed-2']);
    expect(await names(`${only}&filters[moment][$between][0]=2024-01-31T23:59:59.999Z&filters[moment][$between][1]=2024-01-31T23:59:59.999Z`)).toEqual(['typed-1']);
  });
});

describe('strings: one comparison rule everywhere', () => {
  const words = ['apple', 'Apple', 'APPLE', 'apple ', ' apple', 'äpple', 'Äpple', 'pineapple', 'APPLE PIE', '100% apple', 'apple_pie', 'École', 'école'];

  beforeAll(async () => {
    for (const [i, label] of words.entries()) await create({ name: `word-${String(i).padStart(2, '0')}`, label });
  });

  async function labels(filter: string): Promise<string[]> {
    const body = await ok(api.get(`/api/items?filters[name][$startsWith]=word-&${filter}&sort=name&pagination[pageSize]=100`));
    return body.data.map((e: any) => e.attributes.label);
  }
  const q = encodeURIComponent;

  it.each([
    // case-, accent- and space-sensitive
    [`filters[label][$eq]=apple`, ['apple']],
    [`filters[label][$eq]=${q('apple ')}`, ['apple ']],
    [`filters[label][$in][0]=APPLE&filters[label][$in][1]=${q('äpple')}`, ['APPLE', 'äpple']],
    [`filters[label][$ne]=apple&filters[label][$contains]=ppl`, ['Apple', 'apple ', ' apple', 'äpple', 'Äpple', 'pineapple', '100% apple', 'apple_pie']],
    [`filters[label][$contains]=pple`, ['apple', 'Apple', 'apple ', ' apple', 'äpple', 'Äpple', 'pineapple', '100% apple', 'apple_pie']],
    [`filters[label][$startsWith]=A`, ['Apple', 'APPLE', 'APPLE PIE']],
    [`filters[label][$endsWith]=${q('pple')}`, ['apple', 'Apple', ' apple', 'äpple', 'Äpple', 'pineapple', '100% apple']],
    [`filters[label][$notContains]=p`, ['APPLE', 'APPLE PIE', 'École', 'école']],
    // ASCII letters fold; nothing else does
    [`filters[label][$eqi]=APPLE`, ['apple', 'Apple', 'APPLE']],
    [`filters[label][$eqi]=${q('ÄPPLE')}`, ['Äpple']],
    [`filters[label][$eqi]=${q('äpple')}`, ['äpple']],
    [`filters[label][$eqi]=${q('école')}`, ['école']],
    [`filters[label][$nei]=apple&filters[label][$containsi]=APPLE`, ['apple ', ' apple', 'pineapple', 'APPLE PIE', '100% apple', 'apple_pie']],
    [`filters[label][$containsi]=${q('PPLE P')}`, ['APPLE PIE']],
    [`filters[label][$startsWithi]=${q('apple')}`, ['apple', 'Apple', 'APPLE', 'apple ', 'APPLE PIE', 'apple_pie']],
    [`filters[label][$endsWithi]=${q('APPLE')}`, ['apple', 'Apple', 'APPLE', ' apple', 'pineapple', '100% apple']],
    [`filters[label][$notContainsi]=APPLE`, ['äpple', 'Äpple', 'École', 'école']],
    // wildcards match literally
    [`filters[label][$contains]=${q('%')}`, ['100% apple']],
    [`filters[label][$containsi]=${q('E_P')}`, ['apple_pie']],
    [`filters[label][$startsWith]=${q('_')}`, []],
    // ordering comparisons by code point
    [`filters[label][$lt]=a`, ['Apple', 'APPLE', ' apple', 'APPLE PIE', '100% apple']],
    [`filters[label][$gte]=${q('é')}`, ['école']],
    [`filters[label][$gt]=z`, ['äpple', 'Äpple', 'École', 'école']],
    [`filters[label][$between][0]=apple&filters[label][$between][1]=apple_pie`, ['apple', 'apple ', 'apple_pie']],
  ])('%s', async (filter, expected) => {
    expect(await labels(filter)).toEqual(expected);
  });

  it('_q searches case-insensitively (ASCII letters) for literal text', async () => {
    expect(await labels(`_q=${q('APPLE P')}`)).toEqual(['APPLE PIE']);
    expect(await labels(`_q=${q('% A')}`)).toEqual(['100% apple']);
  });

  // (Not trailing spaces: MySQL/MariaDB unique indexes ignore them, see the README.)
  it('unique values differ by case and accents', async () => {
    for (const name of ['Unique', 'unique', 'UNIQUE', 'ünique', 'Ünique']) {
      expect((await api.post('/api/items', { data: { name } })).status, name).toBe(200);
    }
    expect(await names('filters[name][$eqi]=unique&sort=name')).toEqual(['UNIQUE', 'Unique', 'unique']);
  });
});

describe('sorting: code points, NULLs first ascending and last descending, id breaks ties', () => {
  const rows: [string, string | null, number | null, boolean | null, string | null][] = [
    ['sort-a', 'b', 2, true, '2024-01-02'],
    ['sort-b', 'B', null, false, null],
    ['sort-c', null, 1, null, '2023-12-31'],
    ['sort-d', 'a', 2, false, '2024-01-02'],
    ['sort-e', 'é', -1, true, '1999-01-01'],
    ['sort-f', '', 10, null, null],
    ['sort-g', 'Z', 1, true, '2024-01-01'],
    ['sort-h', ' z', null, false, '2024-01-02'],
    ['sort-i', 'e', 3, true, '2023-01-01'],
    ['sort-j', 'aa', 3, true, '2023-01-01'],
    ['sort-k', 'a', 0, false, '2024-01-03'],
  ];

  beforeAll(async () => {
    for (const [name, label, count, flag, day] of rows) await create({ name, label, count, flag, day, kind: label === null ? null : (['alpha', 'Beta', 'gamma'] as const)[(count ?? 0) % 3 < 0 ? 0 : (count ?? 0) % 3] });
  });

  const only = 'filters[name][$startsWith]=sort-';

  it.each([
    ['sort=label:asc', ['sort-c', 'sort-f', 'sort-h', 'sort-b', 'sort-g', 'sort-d', 'sort-k', 'sort-j', 'sort-a', 'sort-i', 'sort-e']],
    ['sort=label:desc', ['sort-e', 'sort-i', 'sort-a', 'sort-j', 'sort-d', 'sort-k', 'sort-g', 'sort-b', 'sort-h', 'sort-f', 'sort-c']],
    ['sort=count:asc', ['sort-b', 'sort-h', 'sort-e', 'sort-k', 'sort-c', 'sort-g', 'sort-a', 'sort-d', 'sort-i', 'sort-j', 'sort-f']],
    ['sort=count:desc', ['sort-f', 'sort-i', 'sort-j', 'sort-a', 'sort-d', 'sort-c', 'sort-g', 'sort-k', 'sort-e', 'sort-b', 'sort-h']],
    ['sort=flag:asc', ['sort-c', 'sort-f', 'sort-b', 'sort-d', 'sort-h', 'sort-k', 'sort-a', 'sort-e', 'sort-g', 'sort-i', 'sort-j']],
    ['sort=day:desc,label:asc', ['sort-k', 'sort-h', 'sort-d', 'sort-a', 'sort-g', 'sort-c', 'sort-j', 'sort-i', 'sort-e', 'sort-f', 'sort-b']],
    ['sort=kind:asc,name:desc', ['sort-c', 'sort-g', 'sort-f', 'sort-k', 'sort-j', 'sort-i', 'sort-h', 'sort-e', 'sort-b', 'sort-d', 'sort-a']],
    ['sort=count:asc&pagination[start]=2&pagination[limit]=3', ['sort-e', 'sort-k', 'sort-c']],
  ])('%s', async (sort, expected) => {
    const [sortPart, ...rest] = sort.split('&');
    const body = await ok(api.get(`/api/items?${only}&${sortPart}${rest.length ? `&${rest.join('&')}` : '&pagination[pageSize]=100'}`));
    expect(body.data.map((e: any) => e.attributes.name)).toEqual(expected);
  });
});

describe('writes', () => {
  it('a unique violation is a 400 naming the attribute, on create and on update', async () => {
    await create({ name: 'taken' });
    const dup = await api.post('/api/items', { data: { name: 'taken' } });
    expect(dup.status).toBe(400);
    expect(dup.body.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique', details: { errors: [{ path: ['name'] }] } });
    const other = await create({ name: 'other' });
    const clash = await api.put(`/api/items/${other.id}`, { data: { name: 'taken' } });
    expect(clash.status).toBe(400);
    expect(clash.body.error.message).toBe('This attribute must be unique');
  });

  it('concurrent creates of one unique value: exactly one 200, the rest 400, never a 500', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post('/api/items', { data: { name: 'race', label: 'racing' } })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const r of results.filter((r) => r.status === 400)) expect(r.body.error.message).toBe('This attribute must be unique');
    expect(await names('filters[name][$eq]=race')).toEqual(['race']);
  });

  it('concurrent writes to one entry\'s relations all succeed and leave a consistent list', async () => {
    const tags: number[] = [];
    for (const name of ['t-1', 't-2', 't-3', 't-4', 't-5', 't-6']) tags.push((await ok(api.post('/api/tags', { data: { name } }))).data.id);
    const { id } = await create({ name: 'linked' });
    const results = await Promise.all(tags.map((tag) => api.put(`/api/items/${id}`, { data: { tags: { connect: [tag] } } })));
    expect(results.map((r) => r.status)).toEqual(tags.map(() => 200));
    const read = (await ok(api.get(`/api/items/${id}?populate=tags`))).data.attributes.tags.data.map((t: any) => t.id);
    expect([...read].sort((a: number, b: number) => a - b)).toEqual(tags);
  });

  it('concurrent creates and updates linking the same entries all succeed (no deadlock reaches the client)', async () => {
    const tags: number[] = [];
    for (const name of ['shared-1', 'shared-2', 'shared-3']) tags.push((await ok(api.post('/api/tags', { data: { name } }))).data.id);
    const created = await Promise.all(Array.from({ length: 16 }, (_, i) => api.post('/api/items', { data: { name: `crowd-${i}`, tags: i % 2 ? tags : [...tags].reverse() } })));
    expect(created.map((r) => r.status)).toEqual(created.map(() => 200));
    const updated = await Promise.all(created.map((r, i) => api.put(`/api/items/${r.body.data.id}`, { data: { tags: { connect: [tags[i % 3]], disconnect: [tags[(i + 1) % 3]] } } })));
    expect(updated.map((r) => r.status)).toEqual(updated.map(() => 200));
    const deleted = await Promise.all(created.slice(0, 8).map((r) => api.del(`/api/items/${r.body.data.id}`)));
    expect(deleted.map((r) => r.status)).toEqual(deleted.map(() => 200));
    const tag = (await ok(api.get(`/api/tags/${tags[0]}`))).data;
    expect(tag.attributes.name).toBe('shared-1');
    expect(await names('filters[name][$startsWith]=crowd-&sort=name')).toHaveLength(8);
  });

  it('a failed write leaves nothing behind (one transaction)', async () => {
    const before = (await ok(api.get('/api/items?pagination[pageSize]=1'))).meta.pagination.total;
    const res = await api.post('/api/items', { data: { name: 'half-written', tags: [999999] } });
    expect(res.status).toBe(400);
    expect((await ok(api.get('/api/items?pagination[pageSize]=1'))).meta.pagination.total).toBe(before);
    expect(await names('filters[name][$eq]=half-written')).toEqual([]);
  });

  it('out-of-range numbers are 400s, never database errors', async () => {
    for (const data of [{ count: 2147483648 }, { big: '9223372036854775808' }, { amount: 1e40 }, { ratio: 'NaN' }]) {
      const res = await api.post('/api/items', { data });
      expect(res.status, JSON.stringify(data)).toBe(400);
    }
  });
});
