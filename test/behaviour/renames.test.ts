/**
 * Renaming attributes keeps their data (issue 16): a server built from the blog models holds
 * articles; the models rename `description` → `summary` and the unique `slug` → `handle`; the
 * build refuses the drop, offering the `--rename` flags; the build with them adds a migration
 * that renames the columns (and the unique index) in place; the restarted server applies it
 * and answers every article with its old values under the new names, still enforcing
 * uniqueness. On SQLite, PostgreSQL and MariaDB.
 */
import { spawnSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer } from '../helpers/server.js';

let built: BuiltServer;
let models: string;

beforeAll(async () => {
  models = path.join(await tempDir('renames-models'), 'models');
  await cp(modelsOf('blog'), models, { recursive: true });
  built = await buildModels(models, 'renames');
}, 180_000);

afterAll(async () => {
  await built?.cleanup();
});

function contentgen(...args: string[]) {
  return spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', models, '-o', built.dir, '--db', built.provider, ...args], { encoding: 'utf8' });
}

describe('--rename', () => {
  it('renames columns in place: every entry keeps its values, on the next start', async () => {
    const first = await startServer(built.dir);
    const token = await createApiToken(built.dir, { type: 'full-access' });
    const api = (url: string) => client(url, bearer(token));
    const written = [];
    try {
      for (let i = 1; i <= 3; i++) {
        const res = await api(first.url).post('/api/articles', { data: { title: `Article number ${i}`, slug: `article-${i}`, description: `About ${i}` } });
        expect(res.status).toBe(200);
        written.push(res.body.data.id);
      }
    } finally {
      await first.stop();
    }

    const schema = path.join(models, 'api/article/content-types/article/schema.json');
    const json = JSON.parse(await readFile(schema, 'utf8'));
    json.attributes = Object.fromEntries(
      Object.entries(json.attributes).map(([name, value]) => [name === 'description' ? 'summary' : name === 'slug' ? 'handle' : name, value]),
    );
    await writeFile(schema, JSON.stringify(json, null, 2));

    const refused = contentgen();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('If an attribute was renamed, keep its data by naming the rename');
    expect(refused.stderr).toContain('--rename api::article.article.description=summary');
    expect(refused.stderr).toContain('--rename api::article.article.slug=handle');

    const renamed = contentgen('--rename', 'api::article.article.description=summary', '--rename', 'api::article.article.slug=handle');
    expect(renamed.status, renamed.stderr).toBe(0);
    const report = await readFile(path.join(built.dir, '.contentgen/changes.md'), 'utf8');
    expect(report).toContain('renames columns, keeps every row');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: built.dir, encoding: 'utf8' });
    expect(generate.status, generate.stderr).toBe(0);

    const second = await startServer(built.dir);
    try {
      const list = await api(second.url).get('/api/articles?sort=id&fields[0]=title&fields[1]=summary&fields[2]=handle');
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual(
        written.map((id, i) => ({ id, attributes: { title: `Article number ${i + 1}`, summary: `About ${i + 1}`, handle: `article-${i + 1}` } })),
      );
      // Still unique, under its new name.
      const duplicate = await api(second.url).post('/api/articles', { data: { title: 'Another one', handle: 'article-1' } });
      expect(duplicate.status).toBe(400);
      expect(duplicate.body.error.message).toBe('This attribute must be unique');
      // And the old names are gone.
      expect((await api(second.url).get('/api/articles?fields[0]=description')).status).toBe(400);
    } finally {
      await second.stop();
    }
  });

  it('refuses what it cannot rename, precisely', async () => {
    const gone = contentgen('--rename', 'api::article.article.nosuch=headline');
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain('--rename api::article.article.nosuch=headline: the previous build has no attribute nosuch');
    const kept = contentgen('--rename', 'api::article.article.title=headline');
    expect(kept.stderr).toContain('--rename api::article.article.title=headline: title is still in the models');
    const typeRename = contentgen('--rename', 'api::article.article=api::post.post');
    expect(typeRename.status).toBe(2);
    expect(typeRename.stderr).toContain('renaming a content type or a component is not supported yet');
  });
});
