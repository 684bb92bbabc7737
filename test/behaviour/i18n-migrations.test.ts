/**
 * Localizing a type that holds entries (issue 14): the migration gives every existing entry
 * the default locale, so lists still find them; making it non-localized again drops its
 * `locale` column and localizations table, refused as data loss without --accept-data-loss.
 * On SQLite, PostgreSQL and MariaDB.
 */
import { spawnSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectDocumentIds } from '../helpers/document-ids.js';
import { client } from '../helpers/http.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer } from '../helpers/server.js';

let built: BuiltServer;
let models: string;

beforeAll(async () => {
  models = path.join(await tempDir('i18n-migrations-models'), 'models');
  await cp(modelsOf('i18n'), models, { recursive: true });
  built = await buildModels(models, 'i18n-migrations');
}, 180_000);

afterAll(async () => {
  await built?.cleanup();
});

function contentgen(...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', models, '-o', built.dir, '--db', built.provider, ...args], { encoding: 'utf8' });
}

function prismaGenerate() {
  const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: built.dir, encoding: 'utf8' });
  expect(generate.status, generate.stderr).toBe(0);
}

async function setLocalized(localized: boolean) {
  const schema = path.join(models, 'api/category/content-types/category/schema.json');
  const json = JSON.parse(await readFile(schema, 'utf8'));
  // Unique and shared, `name` could not be copied into a localization: it is localized too.
  if (localized) {
    json.pluginOptions = { i18n: { localized: true } };
    json.attributes.name.pluginOptions = { i18n: { localized: true } };
  } else delete json.pluginOptions;
  await writeFile(schema, JSON.stringify(json, null, 2));
}

describe('localizing a type', () => {
  it('gives existing entries the default locale; the way back is refused as data loss', async () => {
    const token = await createApiToken(built.dir, { type: 'full-access' });
    const first = await startServer(built.dir);
    try {
      const api = client(first.url, bearer(token));
      for (const name of ['News', 'Sport']) expect((await api.post('/api/categories', { data: { name } })).status).toBe(200);
    } finally {
      await first.stop();
    }

    await setLocalized(true);
    const localized = contentgen();
    expect(localized.status, localized.stderr).toBe(0);
    prismaGenerate();
    const second = await startServer(built.dir);
    try {
      const api = client(second.url, bearer(token));
      const list = await api.get('/api/categories?sort=id&fields[0]=name&fields[1]=locale');
      expect(list.body.data.map((e: any) => e.attributes)).toEqual([
        { name: 'News', locale: 'en' },
        { name: 'Sport', locale: 'en' },
      ]);
      const fr = await api.post(`/api/categories/${list.body.data[0].id}/localizations`, { name: 'Actualités', locale: 'fr' });
      expect(fr.status, JSON.stringify(fr.body)).toBe(200);
    } finally {
      await second.stop();
    }

    await setLocalized(false);
    const refused = contentgen();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('this model change would lose data');
    expect(refused.stderr).toContain('locale');
    const accepted = contentgen('--accept-data-loss');
    expect(accepted.status, accepted.stderr).toBe(0);
  }, 300_000);

  it('a changed locales.json is synced into the locales table at the next start', async () => {
    await writeFile(
      path.join(models, 'locales.json'),
      JSON.stringify({ defaultLocale: 'fr', locales: [{ code: 'en', name: 'English' }, { code: 'fr', name: 'French (fr)' }, { code: 'pt-BR', name: 'Portuguese (Brazil)' }] }),
    );
    const built_ = contentgen('--accept-data-loss');
    expect(built_.status, built_.stderr).toBe(0);
    prismaGenerate();
    const server = await startServer(built.dir);
    try {
      const locales = await client(server.url).get('/api/i18n/locales');
      expect(locales.body.map((l: any) => [l.code, l.name, l.isDefault])).toEqual([
        ['en', 'English', false],
        ['fr', 'French (fr)', true],
        ['pt-BR', 'Portuguese (Brazil)', false],
      ]);
      expect(server.output()).toContain('i18n: locales synced (added pt-BR; removed de)');
      // The localizations of a category, no longer localized, became documents of their own (unique documentIds again).
      expect((await expectDocumentIds(built)).get('categories')).toBe(3);
      // GraphQL's i18NLocales answers a role granted listLocales.
      const gql = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ i18NLocales { data { attributes { code } } } }' }) });
      expect(((await gql.json()) as any).data.i18NLocales.data.map((e: any) => e.attributes.code)).toEqual(['en', 'fr', 'pt-BR']);
    } finally {
      await server.stop();
    }
  }, 300_000);
});
