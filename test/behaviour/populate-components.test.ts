/**
 * `fields`, `sort` and `filters` inside the populate of components and dynamic zones, and
 * the order of populated keys, answered byte for byte as Strapi 4.26.2 answers them.
 *
 * populate-components.strapi.json holds requests and the answers a Strapi 4.26.2 server gave
 * on the same models (fixtures/blog, and fixtures/edge's person with its nested `parts.part`
 * → `parts.sub-part`) after the same writes as `seed` below: status and body, compared as
 * JSON text so that key order counts. Where Strapi answers 500 or is plainly wrong, the
 * last describe block asserts what this server answers instead (README "Populate").
 */
import { readFileSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { modelsOf, tempDir } from '../helpers/paths.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, statementsOf } from '../helpers/http.js';
import { bearer, buildFixture, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

/**
 * The blog models as Strapi 4.26.2 answered on them: its components without the relations and
 * media added since for Strapi 5's recordings (seo image/tags, link article/icon, quote
 * author/pictures), which `populate[…][populate]=*` would populate.
 */
async function buildBlogAsRecorded(): Promise<BuiltServer> {
  const dir = await tempDir('populate-components-models');
  await cp(modelsOf('blog'), dir, { recursive: true });
  for (const name of ['seo', 'link', 'quote']) {
    const file = path.join(dir, 'components', 'shared', `${name}.json`);
    const schema = JSON.parse(await readFile(file, 'utf8')) as { attributes: Record<string, { type: string }> };
    for (const [key, attribute] of Object.entries(schema.attributes)) if (attribute.type === 'relation' || attribute.type === 'media') delete schema.attributes[key];
    await writeFile(file, JSON.stringify(schema, null, 2));
  }
  const built = await buildModels(dir, 'populate-components-blog');
  return {
    ...built,
    cleanup: async () => {
      await built.cleanup();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface Recorded {
  name: string;
  path: string;
  status: number;
  body: unknown;
}

const recorded: Recorded[] = JSON.parse(readFileSync(new URL('./populate-components.strapi.json', import.meta.url), 'utf8'));

async function created(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

describe('populate inside components: blog articles', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;

  beforeAll(async () => {
    built = await buildBlogAsRecorded();
    server = await startServer(built.dir, { SERVER_TIMING: '1' });
    api = client(server.url);
    admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    await created(
      admin.post('/api/articles', {
        data: {
          title: 'First article',
          seo: { metaTitle: 'First SEO', metaDescription: 'First description' },
          links: [
            { label: 'beta', url: 'https://b.example' },
            { label: 'alpha', url: 'https://a.example' },
            { label: 'gamma', url: 'https://c.example' },
            { label: 'alpha', url: 'https://a2.example' },
          ],
          blocks: [
            { __component: 'shared.quote', title: 'Q1', body: 'Quote one' },
            { __component: 'shared.rich-text', body: 'Rich one' },
            { __component: 'shared.quote', title: 'Q2', body: 'Quote two' },
          ],
        },
      }),
    );
    await created(admin.post('/api/articles', { data: { title: 'Second article' } }));
    await created(
      admin.post('/api/articles', {
        data: { title: 'Third article', seo: { metaTitle: 'Third SEO' }, links: [{ label: 'delta', url: 'https://d.example' }], blocks: [{ __component: 'shared.rich-text', body: 'Rich three' }] },
      }),
    );
  });

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it.each(recorded.filter((r) => r.path.startsWith('/api/articles')).map((r) => [r.name, r.path, r] as const))('%s %s', async (_name, path, r) => {
    const res = await api.get(path);
    expect(res.status).toBe(r.status);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(r.body));
  });

  it('filters on components cost one statement per filtered field, whatever the number of entries', async () => {
    const statements = async (query: string) => {
      const res = await api.get(`/api/articles?fields[0]=title&${query}`);
      expect(res.status).toBe(200);
      return statementsOf(res.headers);
    };
    // list + count; fields and sort of components are applied in memory
    expect(await statements('populate[seo][fields][0]=metaTitle&populate[links][sort]=url&populate[blocks][on][shared.quote][fields][0]=title')).toBe(2);
    // + one for the links filter, one for the quote filter
    expect(await statements('populate[links][filters][label][$eq]=alpha&populate[blocks][on][shared.quote][filters][title]=Q2')).toBe(4);
    for (let i = 0; i < 5; i++) {
      await created(admin.post('/api/articles', { data: { title: `Bulk ${i}`, links: [{ label: 'alpha', url: `https://${i}.example` }], blocks: [{ __component: 'shared.quote', title: 'Q2' }] } }));
    }
    expect(await statements('populate[links][filters][label][$eq]=alpha&populate[blocks][on][shared.quote][filters][title]=Q2')).toBe(4);
    const res = await api.get('/api/articles?fields[0]=title&filters[title][$startsWith]=Bulk&populate[links][filters][label][$eq]=alpha&populate[links][fields][0]=url');
    expect(res.body.data.map((e: any) => e.attributes.links)).toEqual([0, 1, 2, 3, 4].map((i) => [{ id: expect.any(Number), url: `https://${i}.example` }]));
  });

  describe('where Strapi answers 500 or wrongly, this server answers', () => {
    it('a bad sort direction inside populate: 400 (Strapi: 500)', async () => {
      const res = await api.get('/api/articles?fields[0]=title&populate[links][sort]=label:sideways');
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid sort direction "sideways" for label. Expected "asc" or "desc"' });
    });

    it('fields that are not names: 400 (Strapi: 500)', async () => {
      const res = await api.get('/api/articles?fields[0]=title&populate[seo][fields][0][a]=b');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('Invalid fields parameter. Expected a string or an array of strings');
    });

    it('a fragment naming an unknown component selects nothing (Strapi: 500)', async () => {
      const res = await api.get('/api/articles/1?fields[0]=title&populate[blocks][on][shared.nope][fields][0]=title');
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toEqual({ title: 'First article', blocks: [] });
    });

    it('$endsWith is case-sensitive, as everywhere here (Strapi on SQLite: LIKE ignores case)', async () => {
      const res = await api.get('/api/articles/1?fields[0]=title&populate[links][filters][url][$endsWith]=A.EXAMPLE');
      expect(res.body.data.attributes.links).toEqual([]);
      const insensitive = await api.get('/api/articles/1?fields[0]=title&populate[links][filters][url][$endsWithi]=A.EXAMPLE&populate[links][fields][0]=url');
      expect(insensitive.body.data.attributes.links).toEqual([{ id: 2, url: 'https://a.example' }]);
    });

    it.each([
      ['populate[links][filters]=abc', 'Invalid parameter filters'],
      ['populate[links][filters][label][$between]=a', 'Invalid parameter $between: expected exactly 2 values for label'],
      ['populate[links][sort][0][0]=x', 'Invalid parameter x'],
      ['populate[links][sort]=seo', 'Invalid parameter seo'],
      ['populate[links][fields][0]=links', 'Invalid parameter links'],
      ['populate[seo][filters][$and]=x', 'Invalid parameter $and'],
      ['populate[blocks][on][shared.quote][filters][title][$in][a]=b', undefined],
      ['populate[blocks][on][shared.quote][sort][title]=sideways', 'Invalid sort direction "sideways" for title. Expected "asc" or "desc"'],
      ['populate[links][filters][id][$gt]=abc', undefined],
    ])('hostile: %s is a 400, never a 5xx', async (query, message) => {
      const res = await api.get(`/api/articles?fields[0]=title&${query}`);
      expect(res.status).toBe(400);
      if (message) expect(res.body.error.message).toBe(message);
    });

    it('start, limit, page and count inside a component populate are ignored (Strapi: a limit over all entries at once)', async () => {
      for (const q of ['populate[links][limit]=2', 'populate[links][start]=1&populate[links][limit]=2', 'populate[links][page]=1&populate[links][pageSize]=2', 'populate[links][count]=true']) {
        const res = await api.get(`/api/articles/1?fields[0]=title&${q}`);
        expect(res.status).toBe(200);
        expect(res.body.data.attributes.links.map((l: any) => l.url)).toEqual(['https://b.example', 'https://a.example', 'https://c.example', 'https://a2.example']);
      }
    });
  });
});

describe('populate inside nested components: edge people', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    built = await buildFixture('edge');
    server = await startServer(built.dir);
    api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    await created(api.post('/api/people', { data: { name: 'Pat', profile: { label: 'Main', weight: 1.5, child: { note: 'inner note' } } } }));
    await created(api.post('/api/people', { data: { name: 'Sam', profile: { label: 'Other', weight: 2 } } }));
    await created(api.post('/api/people', { data: { name: 'Lee' } }));
  });

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it.each(recorded.filter((r) => r.path.startsWith('/api/people')).map((r) => [r.name, r.path, r] as const))('%s %s', async (_name, path, r) => {
    const res = await api.get(path);
    expect(res.status).toBe(r.status);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(r.body));
  });
});

describe('populate of relations: sorted attributes come first, as Strapi answers', () => {
  let built: BuiltServer;
  let server: RunningServer;

  beforeAll(async () => {
    built = await buildFixture('blog');
    server = await startServer(built.dir);
    const admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    const zeta = (await created(admin.post('/api/tags', { data: { name: 'zeta' } }))).data.id;
    const eta = (await created(admin.post('/api/tags', { data: { name: 'eta' } }))).data.id;
    await created(admin.post('/api/articles', { data: { title: 'Third article', tags: [zeta, eta] } }));
  });

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('fields=id sorted by name answers the name (Strapi 4.26.2, recorded)', async () => {
    const res = await client(server.url).get('/api/articles/1?fields[0]=title&populate[tags][sort]=name&populate[tags][fields][0]=id');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toBe('{"data":{"id":1,"attributes":{"title":"Third article","tags":{"data":[{"id":2,"attributes":{"name":"eta"}},{"id":1,"attributes":{"name":"zeta"}}]}}},"meta":{}}');
    // Unsorted, only the fields asked for; in link order.
    const plain = await client(server.url).get('/api/articles/1?fields[0]=title&populate[tags][fields][0]=id');
    expect(JSON.stringify(plain.body.data.attributes.tags)).toBe('{"data":[{"id":1,"attributes":{}},{"id":2,"attributes":{}}]}');
  });
});
