/**
 * Query parameters over HTTP on a seeded database: filters, sort, pagination and fields,
 * with Strapi's answers for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;

const seed = [
  { title: 'Alpha news', views: 10, rating: 4.5, featured: true, status: 'final', publishDate: '2024-01-10', description: 'first' },
  { title: 'beta story', views: 20, rating: 3, featured: false, status: 'draft', publishDate: '2024-02-10', description: null },
  { title: 'Gamma 100% off', views: 30, rating: 5, featured: true, status: 'in review', publishDate: '2024-03-10', description: 'sale' },
  { title: 'delta_update', views: 40, rating: 1.5, featured: false, status: 'final', publishDate: '2024-04-10', description: 'under_score' },
  { title: 'Epsilon NEWS', views: 50, rating: null, featured: false, status: 'draft', publishDate: null, description: 'caps' },
];
const ids: Record<string, number> = {};

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  api = client(server.url); // reads: the public role may find articles
  const writer = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
  for (const data of seed) {
    const res = await writer.post('/api/articles', { data });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
    ids[data.title] = res.body.data.id;
  }
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

async function titles(query: string): Promise<string[]> {
  const res = await api.get(`/api/articles?${query}`);
  if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.map((e: { attributes: { title: string } }) => e.attributes.title);
}

describe('filters', () => {
  it.each([
    ['filters[title][$eq]=beta story', ['beta story']],
    ['filters[title]=beta story', ['beta story']],
    ['filters[title][$eqi]=BETA STORY', ['beta story']],
    ['filters[title][$ne]=beta story', ['Alpha news', 'Gamma 100% off', 'delta_update', 'Epsilon NEWS']],
    ['filters[views][$gt]=30', ['delta_update', 'Epsilon NEWS']],
    ['filters[views][$gte]=30&filters[views][$lt]=50', ['Gamma 100% off', 'delta_update']],
    ['filters[views][$lte]=10', ['Alpha news']],
    ['filters[views][$in][0]=10&filters[views][$in][1]=40', ['Alpha news', 'delta_update']],
    ['filters[views][0]=10&filters[views][1]=20', ['Alpha news', 'beta story']],
    ['filters[views][$in]=20', ['beta story']],
    ['filters[views][$notIn][0]=10&filters[views][$notIn][1]=20&filters[views][$notIn][2]=30', ['delta_update', 'Epsilon NEWS']],
    ['filters[views][$between][0]=15&filters[views][$between][1]=35', ['beta story', 'Gamma 100% off']],
    ['filters[title][$contains]=news', ['Alpha news']],
    ['filters[title][$containsi]=news', ['Alpha news', 'Epsilon NEWS']],
    ['filters[title][$notContainsi]=news', ['beta story', 'Gamma 100% off', 'delta_update']],
    ['filters[title][$contains]=100%25', ['Gamma 100% off']],
    ['filters[title][$contains]=_', ['delta_update']],
    ['filters[title][$startsWith]=Alpha', ['Alpha news']],
    ['filters[title][$startsWithi]=alpha', ['Alpha news']],
    ['filters[title][$endsWith]=NEWS', ['Epsilon NEWS']],
    ['filters[title][$endsWithi]=news', ['Alpha news', 'Epsilon NEWS']],
    ['filters[description][$null]=true', ['beta story']],
    ['filters[description][$notNull]=true', ['Alpha news', 'Gamma 100% off', 'delta_update', 'Epsilon NEWS']],
    ['filters[rating][$null]', ['Alpha news', 'beta story', 'Gamma 100% off', 'delta_update']],
    ['filters[featured][$eq]=true', ['Alpha news', 'Gamma 100% off']],
    ['filters[status][$eq]=in review', ['Gamma 100% off']],
    ['filters[publishDate][$lt]=2024-03-01', ['Alpha news', 'beta story']],
    ['filters[$or][0][views][$eq]=10&filters[$or][1][title][$eq]=beta story', ['Alpha news', 'beta story']],
    ['filters[$and][0][featured]=false&filters[$and][1][status]=final', ['delta_update']],
    ['filters[$not][featured]=true', ['beta story', 'delta_update', 'Epsilon NEWS']],
    ['filters[views][$not][$gt]=20', ['Alpha news', 'beta story']],
    ['filters[title][$foo]=x', ['Alpha news', 'beta story', 'Gamma 100% off', 'delta_update', 'Epsilon NEWS']],
  ])('%s', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it('filters on id', async () => {
    expect(await titles(`filters[id][$eq]=${ids['Gamma 100% off']}`)).toEqual(['Gamma 100% off']);
  });

  it.each([
    ['filters[notAnAttribute]=1', 'notAnAttribute'],
    ['filters[$fakeOp]=false', '$fakeOp'],
    ['filters[ID]=1', 'ID'],
    ['filters[editorNote][$eq]=x', 'editorNote'],
    ['filters[blocks][$null]=true', 'blocks'],
  ])('400 Invalid parameter for %s', async (query, key) => {
    const res = await api.get(`/api/articles?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ status: 400, name: 'ValidationError', message: `Invalid parameter ${key}`, details: {} });
  });
});

describe('sort', () => {
  it.each([
    ['sort=views:desc', ['Epsilon NEWS', 'delta_update', 'Gamma 100% off', 'beta story', 'Alpha news']],
    ['sort=views', ['Alpha news', 'beta story', 'Gamma 100% off', 'delta_update', 'Epsilon NEWS']],
    ['sort[0]=featured:desc&sort[1]=views:desc', ['Gamma 100% off', 'Alpha news', 'Epsilon NEWS', 'delta_update', 'beta story']],
    ['sort=featured:DESC,views:asc', ['Alpha news', 'Gamma 100% off', 'beta story', 'delta_update', 'Epsilon NEWS']],
    ['sort[views]=desc', ['Epsilon NEWS', 'delta_update', 'Gamma 100% off', 'beta story', 'Alpha news']],
    ['sort[0][views]=desc', ['Epsilon NEWS', 'delta_update', 'Gamma 100% off', 'beta story', 'Alpha news']],
    ['sort=rating:asc', ['Epsilon NEWS', 'delta_update', 'beta story', 'Alpha news', 'Gamma 100% off']],
    ['sort=title%3Aasc', ['Alpha news', 'Epsilon NEWS', 'Gamma 100% off', 'beta story', 'delta_update']],
  ])('%s', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });

  it('400 for an unknown or private sort field', async () => {
    for (const [query, key] of [['sort=nope', 'nope'], ['sort=editorNote:asc', 'editorNote']]) {
      const res = await api.get(`/api/articles?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`Invalid parameter ${key}`);
    }
  });
});

describe('pagination', () => {
  it('defaults to page mode with counts', async () => {
    const res = await api.get('/api/articles');
    expect(res.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 5 } });
  });

  it('page mode', async () => {
    const res = await api.get('/api/articles?pagination[page]=2&pagination[pageSize]=2&sort=views');
    expect(res.body.data.map((e: { attributes: { views: number } }) => e.attributes.views)).toEqual([30, 40]);
    expect(res.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 3, total: 5 });
  });

  it('offset mode', async () => {
    const res = await api.get('/api/articles?pagination[start]=1&pagination[limit]=2&sort=views');
    expect(res.body.data.map((e: { attributes: { views: number } }) => e.attributes.views)).toEqual([20, 30]);
    expect(res.body.meta.pagination).toEqual({ start: 1, limit: 2, total: 5 });
  });

  it('withCount=false drops total and pageCount', async () => {
    expect((await api.get('/api/articles?pagination[withCount]=false')).body.meta.pagination).toEqual({ page: 1, pageSize: 25 });
    expect((await api.get('/api/articles?pagination[start]=0&pagination[withCount]=f')).body.meta.pagination).toEqual({ start: 0, limit: 25 });
  });

  it('clamps pageSize and limit to maxLimit', async () => {
    expect((await api.get('/api/articles?pagination[pageSize]=1000')).body.meta.pagination.pageSize).toBe(100);
    expect((await api.get('/api/articles?pagination[limit]=1000')).body.meta.pagination.limit).toBe(100);
  });

  it('400 when page and offset modes are mixed', async () => {
    const res = await api.get('/api/articles?pagination[page]=1&pagination[start]=0');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid pagination parameters. Expected either start/limit or page/pageSize');
  });

  it('400 for a bad withCount', async () => {
    const res = await api.get('/api/articles?pagination[withCount]=maybe');
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Invalid withCount parameter. Expected "t","1","true","false","0","f"');
  });
});

describe('fields', () => {
  it('returns id and only the named attributes', async () => {
    const res = await api.get('/api/articles?fields[0]=title&fields[1]=views&sort=views&pagination[pageSize]=1');
    expect(res.body.data).toEqual([{ id: ids['Alpha news'], attributes: { title: 'Alpha news', views: 10 } }]);
  });

  it('accepts a list, on findOne too', async () => {
    const res = await api.get(`/api/articles/${ids['beta story']}?fields[0]=title&fields[1]=status`);
    expect(res.body.data).toEqual({ id: ids['beta story'], attributes: { title: 'beta story', status: 'draft' } });
  });

  it('400 for unknown, private or non-scalar fields', async () => {
    for (const name of ['nope', 'editorNote', 'author']) {
      const res = await api.get(`/api/articles?fields[0]=${name}`);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe(`Invalid parameter ${name}`);
    }
  });
});
