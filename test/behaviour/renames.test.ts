/**
 * Renames keep the data (issue 16). A server built from the blog models holds entries; the
 * models then rename scalar attributes (`description` → `summary`, the unique `slug` →
 * `handle`), and later a content type (`api::tag.tag` → `api::label.label`), a component
 * (`shared.quote` → `shared.pull-quote`), a relation (`author` → `writer`) and a media
 * attribute (`cover` → `image`). Each time the build refuses the drops, offering the
 * `--rename` flags; the build with them adds a migration that renames tables, columns, indexes
 * and stored names in place; the restarted server applies it to the populated database and
 * answers every entry, link and component instance with its old values under the new names.
 * On SQLite, PostgreSQL and MariaDB.
 */
import { spawnSync } from 'node:child_process';
import { cp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
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
  if (models) await rm(path.dirname(models), { recursive: true, force: true });
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
    expect(refused.stderr).toContain('If a content type, component or attribute was renamed, keep its data by naming the rename');
    expect(refused.stderr).toContain('--rename api::article.article.description=summary');
    expect(refused.stderr).toContain('--rename api::article.article.slug=handle');

    const renamed = contentgen('--rename', 'api::article.article.description=summary', '--rename', 'api::article.article.slug=handle');
    expect(renamed.status, renamed.stderr).toBe(0);
    const report = await readFile(path.join(built.dir, '.contentgen/changes.md'), 'utf8');
    expect(report).toContain('renames, keeps every row');
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
  }, 240_000);

  it('refuses what it cannot rename, precisely', async () => {
    const gone = contentgen('--rename', 'api::article.article.nosuch=headline');
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain('--rename api::article.article.nosuch=headline: the previous build has no attribute nosuch');
    const kept = contentgen('--rename', 'api::article.article.title=headline');
    expect(kept.stderr).toContain('--rename api::article.article.title=headline: title is still in the models');
    const typeKept = contentgen('--rename', 'api::article.article=api::post.post');
    expect(typeKept.status).toBe(1);
    expect(typeKept.stderr).toContain('--rename api::article.article=api::post.post: api::article.article is still in the models');
    const inComponent = contentgen('--rename', 'shared.seo.metaTitle=title');
    expect(inComponent.stderr).toContain('renaming an attribute of a component is not supported');
    const malformed = contentgen('--rename', 'article=post');
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('expected <old uid>=<new uid> for a content type');
  }, 180_000); // five whole builds, one after the other

  it('renames a content type, a component, a relation and a media attribute: every row, link and stored name follows', async () => {
    const first = await startServer(built.dir);
    const token = await createApiToken(built.dir, { type: 'full-access' });
    // A custom token allowed to read tags: its permissions follow the type's new uid.
    const tagReader = await createApiToken(built.dir, { type: 'custom', actions: ['api::tag.tag.find'] });
    const api = (url: string) => client(url, bearer(token));
    let tags: number[];
    let author: number;
    let file: number;
    const articles: { id: number; blocks: { id: number }[] }[] = [];
    try {
      tags = [];
      for (const name of ['red', 'green', 'blue']) tags.push((await api(first.url).post('/api/tags', { data: { name } })).body.data.id);
      author = (await api(first.url).post('/api/authors', { data: { name: 'Ada' } })).body.data.id;
      const form = new FormData();
      const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
      form.append('files', new Blob([png], { type: 'image/png' }), 'cover.png');
      const uploaded = await fetch(`${first.url}/api/upload`, { method: 'POST', body: form, headers: bearer(token) });
      expect(uploaded.status).toBe(200);
      file = ((await uploaded.json()) as { id: number }[])[0]!.id;
      for (let i = 1; i <= 2; i++) {
        const res = await api(first.url).post('/api/articles?populate=blocks', {
          data: {
            title: `Renamed ${i}`,
            tags: i === 1 ? [tags[0], tags[2]] : [tags[1]],
            author,
            cover: file,
            blocks: [
              { __component: 'shared.quote', title: `Quote ${i}`, body: 'Said' },
              { __component: 'shared.rich-text', body: `Text ${i}` },
            ],
          },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        articles.push({ id: res.body.data.id, blocks: res.body.data.attributes.blocks });
      }
      expect((await client(first.url, bearer(tagReader)).get('/api/tags')).status).toBe(200);
    } finally {
      await first.stop();
    }

    // The models: api::tag.tag is now api::label.label, shared.quote is shared.pull-quote,
    // the article's author is its writer and its cover its image.
    const api_ = path.join(models, 'api');
    await rename(path.join(api_, 'tag'), path.join(api_, 'label'));
    await rename(path.join(api_, 'label/content-types/tag'), path.join(api_, 'label/content-types/label'));
    await editJson(path.join(api_, 'label/content-types/label/schema.json'), (json) => {
      json.collectionName = 'labels';
      json.info = { singularName: 'label', pluralName: 'labels', displayName: 'Label' };
    });
    await editJson(path.join(api_, 'article/content-types/article/schema.json'), (json) => {
      json.attributes.tags.target = 'api::label.label';
      json.attributes.blocks.components = json.attributes.blocks.components.map((c: string) => (c === 'shared.quote' ? 'shared.pull-quote' : c));
      json.attributes = Object.fromEntries(Object.entries(json.attributes).map(([name, value]) => [({ author: 'writer', cover: 'image' } as Record<string, string>)[name] ?? name, value]));
    });
    await editJson(path.join(api_, 'author/content-types/author/schema.json'), (json) => {
      json.attributes.articles.mappedBy = 'writer';
    });
    await rename(path.join(models, 'components/shared/quote.json'), path.join(models, 'components/shared/pull-quote.json'));
    // The seo component's tags follow the tag type too.
    await editJson(path.join(models, 'components/shared/seo.json'), (json) => {
      json.attributes.tags.target = 'api::label.label';
    });
    const permissions = path.join(models, 'permissions.json');
    await writeFile(permissions, (await readFile(permissions, 'utf8')).replaceAll('api::tag.tag', 'api::label.label'));

    const flags = ['api::tag.tag=api::label.label', 'shared.quote=shared.pull-quote', 'api::article.article.author=writer', 'api::article.article.cover=image'];
    const refused = contentgen();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('drops table "tags"');
    for (const flag of flags) expect(refused.stderr).toContain(`--rename ${flag}`);

    const renamed = contentgen(...flags.flatMap((flag) => ['--rename', flag]));
    expect(renamed.status, renamed.stderr).toBe(0);
    const report = await readFile(path.join(built.dir, '.contentgen/changes.md'), 'utf8');
    expect(report).toContain('renames table "tags" to "labels" (api::tag.tag → api::label.label)');
    expect(report).toContain('rewrites the items of component shared.quote to shared.pull-quote');
    expect(report).toContain('`/api/tags`: content type api::tag.tag renamed to api::label.label (--rename), its data kept');
    expect(report).toContain('`/api/tags`: routes moved to `/api/labels`');
    expect(report).toContain('`/api/articles` `author`: renamed to `writer` (--rename), its data kept');
    expect(report).not.toContain('content type api::label.label added');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: built.dir, encoding: 'utf8' });
    expect(generate.status, generate.stderr).toBe(0);

    const second = await startServer(built.dir);
    try {
      const labels = await api(second.url).get('/api/labels?sort=id&fields[0]=name');
      expect(labels.body.data).toEqual(tags.map((id, i) => ({ id, attributes: { name: ['red', 'green', 'blue'][i] } })));
      const list = await api(second.url).get('/api/articles?sort=id&filters[title][$startsWith]=Renamed&fields[0]=title&populate[tags][fields][0]=name&populate[writer][fields][0]=name&populate[image][fields][0]=name&populate[blocks]=*');
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data.map((a: any) => a.id)).toEqual(articles.map((a) => a.id));
      const [one, two] = list.body.data;
      expect(one.attributes.tags.data.map((t: any) => t.id)).toEqual([tags[0], tags[2]]);
      expect(two.attributes.tags.data.map((t: any) => t.attributes.name)).toEqual(['green']);
      expect(one.attributes.writer.data).toEqual({ id: author, attributes: { name: 'Ada' } });
      expect(two.attributes.image.data).toEqual({ id: file, attributes: { name: 'cover.png' } });
      expect(one.attributes.blocks).toEqual([
        { id: articles[0]!.blocks[0]!.id, __component: 'shared.pull-quote', title: 'Quote 1', body: 'Said' },
        { id: articles[0]!.blocks[1]!.id, __component: 'shared.rich-text', body: 'Text 1' },
      ]);
      // The reverse sides read the same links.
      const ada = await api(second.url).get(`/api/authors/${author}?populate[articles][fields][0]=title&populate[articles][sort]=id`);
      expect(ada.body.data.attributes.articles.data.map((a: any) => a.id)).toEqual(articles.map((a) => a.id));
      // The custom token's permission followed the type; the old routes are gone.
      expect((await client(second.url, bearer(tagReader)).get('/api/labels')).status).toBe(200);
      expect((await api(second.url).get('/api/tags')).status).toBe(404);
      // New rows continue after the old ids: the table's id sequence and the component's counter came along.
      const label = await api(second.url).post('/api/labels', { data: { name: 'black' } });
      expect(label.status).toBe(200);
      expect(label.body.data.id).toBeGreaterThan(Math.max(...tags));
      const added = await api(second.url).post('/api/articles?populate=blocks', { data: { title: 'After', blocks: [{ __component: 'shared.pull-quote', title: 'New' }] } });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body.data.attributes.blocks[0].id).toBeGreaterThan(Math.max(...articles.map((a) => a.blocks[0]!.id)));
    } finally {
      await second.stop();
    }
  }, 240_000);
});

async function editJson(file: string, edit: (json: any) => void): Promise<void> {
  const json = JSON.parse(await readFile(file, 'utf8'));
  edit(json);
  await writeFile(file, JSON.stringify(json, null, 2));
}
