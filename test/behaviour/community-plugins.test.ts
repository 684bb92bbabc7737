/**
 * The community plugins a Strapi project may install, served by the emitted server:
 * strapi-plugin-populate-deep (`populate=deep`, `populate=deep,N`) and
 * strapi-plugin-transformer (flattened answers, bodies without `data`).
 *
 * community-plugins.strapi.json holds the answers a Strapi 4.26.2 server with
 * strapi-plugin-populate-deep 3.0.1 and strapi-plugin-transformer 3.1.2 gave on the same
 * models (fixtures/projects/community) after the same writes as `seed` below, each under the
 * plugin settings its `config` names (see `settings`). Bodies are compared as JSON text, so
 * key order counts; only timestamps and what differs between two uploads of a file (hash,
 * url, size, dimensions, formats) are masked.
 *
 * The same models built as a bare models folder (no package.json: neither plugin) answer
 * `populate=deep` as Strapi without the plugin does: the unknown populate key is ignored.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

interface Recorded {
  config: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  status: number;
  response: unknown;
}

const recorded: Recorded[] = JSON.parse(await readFile(new URL('./community-plugins.strapi.json', import.meta.url), 'utf8'));
const projectDir = path.join(fixturesDir, 'projects/community');

/** src/config.ts `plugins` of the server answering each recorded config (Strapi's config/plugins.js then). */
const flat = { removeAttributesKey: true, removeDataKey: true };
const settings: Record<string, Record<string, unknown>> = {
  deep: { populateDeep: { enabled: true }, transformer: { enabled: true } },
  flat: { populateDeep: { enabled: true }, transformer: { enabled: true, responseTransforms: flat } },
  attributes: { populateDeep: { enabled: true }, transformer: { enabled: true, responseTransforms: { removeAttributesKey: true } } },
  data: { populateDeep: { enabled: true }, transformer: { enabled: true, responseTransforms: { removeDataKey: true } } },
  filtered: {
    populateDeep: { enabled: true },
    transformer: { enabled: true, responseTransforms: flat, contentTypeFilter: { mode: 'allow', uids: { 'api::writer.writer': true, 'api::category.category': { GET: false } } } },
  },
  wrap: { populateDeep: { enabled: true }, transformer: { enabled: true, responseTransforms: flat, requestTransforms: { wrapBodyWithDataKey: true } } },
};

const usersActions = ['plugin::users-permissions.user.find', 'plugin::users-permissions.user.findOne', 'plugin::users-permissions.role.find'];

const masked = new Set(['createdAt', 'updatedAt', 'publishedAt', 'hash', 'url', 'size', 'width', 'height', 'formats', 'ext', 'mime']);

/** JSON text with the values that differ between two servers' uploads and clocks masked. */
function normalized(value: unknown): string {
  return JSON.stringify(value, (key, v) => (masked.has(key) && v !== null ? '*' : v));
}

async function writeConfig(dir: string, plugins: Record<string, unknown>): Promise<void> {
  const text = ["import type { UserConfig } from './runtime/config.js';", '', `export default ${JSON.stringify({ plugins }, null, 2)} satisfies UserConfig;`, ''].join('\n');
  await writeFile(path.join(dir, 'src/config.ts'), text);
}

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The writes Strapi's recorded server had (its bootstrap, src/index.js): same ids, same order. */
async function seed(url: string, token: string): Promise<void> {
  const admin = client(url, bearer(token));
  await ok(client(url).post('/api/auth/local/register', { username: 'reader', email: 'reader@example.com', password: 'Secret123' }));
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer();
  for (const name of ['cover.png', 'avatar.png', 'bg.png', 'seo.png']) {
    const form = new FormData();
    form.append('files', new Blob([Uint8Array.from(png)], { type: 'image/png' }), name);
    const res = await fetch(`${url}/api/upload`, { method: 'POST', body: form, headers: bearer(token) });
    if (res.status !== 200) throw new Error(`upload ${res.status} ${await res.text()}`);
  }
  await ok(admin.post('/api/secrets', { data: { code: 'S1' } }));
  await ok(admin.post('/api/categories', { data: { name: 'News' } }));
  await ok(admin.post('/api/categories', { data: { name: 'Tech', parent: 1 } }));
  await ok(admin.post('/api/writers', { data: { name: 'Ada', avatar: 2 } }));
  await ok(admin.post('/api/writers', { data: { name: 'Bob', mentor: 1 } }));
  await ok(
    admin.post('/api/articles', {
      data: {
        title: 'Hello',
        note: 'private note',
        cover: 1,
        writer: 1,
        categories: [1, 2],
        secret: 1,
        seo: { metaTitle: 'SEO', image: 4, category: 2 },
        sections: [
          { __component: 'page.hero', heading: 'Welcome', background: 3, links: [{ label: 'Docs', url: 'https://d.example' }] },
          { __component: 'page.quote', text: 'Quoted' },
          { __component: 'page.featured', label: 'Star', writer: 2 },
        ],
      },
    }),
  );
  await ok(admin.post('/api/articles', { data: { title: 'Second', writer: 2 } }));
  // A localized type (locales.json: en, fr), the two pages linked as each other's localizations.
  await ok(admin.post('/api/pages', { data: { title: 'Home', locale: 'en', writer: 1, hero: { heading: 'Hi', background: 3 } } }));
  await ok(admin.post('/api/pages', { data: { title: 'Accueil', locale: 'fr', writer: 2, localizations: [1] } }));
}

describe('a project that installs strapi-plugin-populate-deep and strapi-plugin-transformer', () => {
  let built: BuiltServer;
  let token: string;
  /** Strapi's writes were the public role's, allowed to write articles and read all but secrets. */
  let writer: string;
  /** Strapi's public role could also read users and roles. */
  let users: string;
  const servers = new Map<string, RunningServer>();

  beforeAll(async () => {
    built = await buildModels(projectDir, 'community');
    token = await createApiToken(built.dir, { type: 'full-access' });
    const reads = ['article', 'writer', 'category'].flatMap((t) => [`api::${t}.${t}.find`, `api::${t}.${t}.findOne`]);
    writer = await createApiToken(built.dir, { type: 'custom', actions: [...reads, 'api::article.article.create', 'api::article.article.update'] });
    users = await createApiToken(built.dir, { type: 'custom', actions: usersActions });
    // One server per plugin settings, on the same database (each reads src/config.ts as it starts).
    for (const [name, plugins] of Object.entries(settings)) {
      await writeConfig(built.dir, plugins);
      servers.set(name, await startServer(built.dir));
    }
    await seed(servers.get('deep')!.url, token);
  }, 240_000);

  afterAll(async () => {
    await Promise.all([...servers.values()].map((s) => s.stop()));
    await built?.cleanup();
  }, 180_000);

  it('the build writes both plugins into src/config.ts, on', async () => {
    // The emitted file was replaced above; the build cache keeps the generator's own.
    const { readFileSync } = await import('node:fs');
    const { cachedBuild } = await import('../helpers/build-cache.js');
    const emitted = readFileSync(path.join(await cachedBuild(projectDir, built.provider), 'src/config.ts'), 'utf8');
    // (Values: the plugins' defaults, or config/plugins.js's once the build reads it; unit test emit/community-plugins.)
    expect(emitted).toContain('populateDeep: { enabled: true, defaultDepth: 5, skipCreatorFields: true },');
    expect(emitted).toMatch(/transformer: \{\n\s+enabled: true,\n\s+responseTransforms: \{ removeAttributesKey: (true|false), removeDataKey: (true|false) \},/);
  });

  // Reads first, then the writes of `wrap` (they add entries).
  const reads = recorded.filter((r) => r.config !== 'none' && r.method === 'GET');
  const writes = recorded.filter((r) => r.config === 'wrap' && r.method !== 'GET');

  it.each(reads.map((r) => [r.config, r.path, r] as const))('%s: GET %s answers as Strapi with the plugins', async (config, requestPath, r) => {
    const res = await client(servers.get(config)!.url, requestPath.startsWith('/api/users') ? bearer(users) : {}).get(requestPath, r.headers);
    expect(res.status).toBe(r.status);
    expect(normalized(res.body)).toBe(normalized(r.response));
  });

  it.each(writes.map((r) => [r.method, r.path, r] as const))('wrap: %s %s with the body as Strapi took it (wrapBodyWithDataKey)', async (method, requestPath, r) => {
    const res = await client(servers.get('wrap')!.url, bearer(writer)).request(method, requestPath, r.body);
    expect(res.status).toBe(r.status);
    expect(normalized(res.body)).toBe(normalized(r.response));
  });

  it('populate=deep keeps what the caller may not read out, like populate does: a private field, a type without find', async () => {
    const res = await client(servers.get('deep')!.url).get('/api/articles/1?populate=deep');
    expect(res.body.data.attributes).not.toHaveProperty('secret');
    expect(res.body.data.attributes).not.toHaveProperty('note');
    // With full access the secret is there.
    const admin = await client(servers.get('deep')!.url, bearer(token)).get('/api/articles/1?populate=deep');
    expect(admin.body.data.attributes.secret.data.attributes.code).toBe('S1');
  });

  it('deeper than api.rest.populate.maxDepth is cut there, not refused (deep,50; deep,abc, which Strapi answers 500)', async () => {
    const api = client(servers.get('deep')!.url);
    const six = await api.get('/api/articles/1?populate=deep,6');
    for (const depth of ['50', 'abc']) {
      const res = await api.get(`/api/articles/1?populate=deep,${depth}`);
      expect(res.status).toBe(200);
      expect(normalized(res.body)).toBe(normalized(six.body));
    }
    // An explicit populate past the limit is still a 400.
    const explicit = await api.get('/api/writers/1?populate[mentor][populate][mentor][populate][mentor][populate][mentor][populate][mentor][populate][mentor]=true');
    expect(explicit.status).toBe(400);
  });

  it('strapi-transformer-ignore: true leaves the answer as it is; errors stay Strapi envelopes', async () => {
    const api = client(servers.get('flat')!.url);
    const ignored = await api.get('/api/writers/1', { 'strapi-transformer-ignore': 'true' });
    expect(ignored.body.data.attributes.name).toBe('Ada');
    const flattened = await api.get('/api/writers/1');
    expect(flattened.body.data.name).toBe('Ada');
    expect((await api.get('/api/writers?filters[nope][$eq]=1')).body.error.name).toBe('ValidationError');
  });

  it('/api/users?populate=deep leaves out the role for a caller who may not find roles', async () => {
    const token = await createApiToken(built.dir, { type: 'custom', actions: ['plugin::users-permissions.user.find'] });
    const res = await client(servers.get('deep')!.url, bearer(token)).get('/api/users?populate=deep');
    expect(res.status).toBe(200);
    expect(res.body[0].username).toBe('reader');
    expect(res.body[0]).not.toHaveProperty('role');
  });

  it('plugins are not transformed unless plugins.ids lists them (users-permissions, upload)', async () => {
    const api = client(servers.get('wrap')!.url, bearer(token));
    // Would be wrapped in { data } (and refused) if the transformer touched the plugin's route.
    const res = await api.post('/api/auth/local', { identifier: 'nobody@example.com', password: 'wrong-password' });
    expect(res.body.error.message).toBe('Invalid identifier or password');
  });
});

describe('the same models without the plugins (a models folder)', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let users: string;

  beforeAll(async () => {
    built = await buildModels(path.join(projectDir, 'src'), 'community-plain');
    server = await startServer(built.dir);
    await seed(server.url, await createApiToken(built.dir, { type: 'full-access' }));
    users = await createApiToken(built.dir, { type: 'custom', actions: usersActions });
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('the build writes neither plugin into src/config.ts', async () => {
    const text = await readFile(path.join(built.dir, 'src/config.ts'), 'utf8');
    expect(text).not.toContain('populateDeep');
    expect(text).not.toContain('transformer');
  });

  it.each(recorded.filter((r) => r.config === 'none').map((r) => [r.path, r] as const))('GET %s answers as Strapi without the plugins', async (requestPath, r) => {
    const res = await client(server.url, requestPath.startsWith('/api/users') ? bearer(users) : {}).get(requestPath);
    expect(res.status).toBe(r.status);
    expect(normalized(res.body)).toBe(normalized(r.response));
  });
});
