/**
 * Bad models: one clear message per problem, naming the file, the JSON pointer, the
 * content type and the attribute; the CLI exits 1 and writes nothing.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.js';
import { loadModels } from '../../generator/load/load-models.js';
import { formatModelError } from '../../generator/validate/model-error.js';
import { validateModels } from '../../generator/validate/validate.js';
import { tempDir } from '../helpers/paths.js';

type Files = Record<string, unknown>;

async function writeModels(files: Files): Promise<string> {
  const dir = await tempDir('models');
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

async function errorsOf(files: Files): Promise<string[]> {
  const dir = await writeModels(files);
  try {
    return validateModels(await loadModels(dir)).map(formatModelError);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const article = (attributes: Record<string, unknown>, info: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', ...info },
  attributes,
});

describe('model validation', () => {
  it('accepts a valid model', async () => {
    expect(await errorsOf({ 'article.json': article({ title: { type: 'string' } }) })).toEqual([]);
  });

  it('names file, pointer, type and attribute for an unknown type, with a suggestion', async () => {
    expect(await errorsOf({ 'article.json': article({ title: { type: 'strng' } }) })).toEqual([
      'article.json /attributes/title/type: content type "api::article.article", attribute "title": unknown type "strng". Did you mean "string"?',
    ]);
  });

  it('reports missing singularName and pluralName', async () => {
    const errors = await errorsOf({ 'article.json': { info: { displayName: 'A' }, attributes: {} } });
    expect(errors).toEqual([
      'article.json /info/singularName: content type "api::article.article": missing info.singularName',
      'article.json /info/pluralName: content type "api::article.article": missing info.pluralName',
    ]);
  });

  it('reports two types with the same plural name', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'post.json': article({}, { singularName: 'post' }),
    });
    expect(errors).toContain('post.json /info/pluralName: content type "api::post.post": pluralName "articles" is already used by "api::article.article"');
  });

  it('reports an enumeration without values', async () => {
    expect(await errorsOf({ 'article.json': article({ status: { type: 'enumeration', enum: [] } }) })).toEqual([
      'article.json /attributes/status/enum: content type "api::article.article", attribute "status": an enumeration needs a non-empty "enum" list of values',
    ]);
  });

  it('reports a relation whose target does not exist', async () => {
    expect(await errorsOf({ 'article.json': article({ author: { type: 'relation', relation: 'manyToOne', target: 'api::autor.autor' } }) })).toEqual([
      'article.json /attributes/author/target: content type "api::article.article", attribute "author": relation target "api::autor.autor" does not exist.',
    ]);
  });

  it('reports an unknown component, with a suggestion', async () => {
    const errors = await errorsOf({
      'article.json': article({ seo: { type: 'component', component: 'shared.seoo' } }),
      'components/shared/seo.json': { collectionName: 'components_shared_seos', attributes: {} },
    });
    expect(errors).toEqual([
      'article.json /attributes/seo/component: content type "api::article.article", attribute "seo": unknown component "shared.seoo". Did you mean "shared.seo"?',
    ]);
  });

  it('reports invalid JSON with its line', async () => {
    const errors = await errorsOf({ 'article.json': '{\n  "info": {\n    "singularName": "article",\n  }\n}\n' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^article\.json: invalid JSON at line 4, column \d+/);
  });

  it('collects every problem instead of stopping at the first', async () => {
    const errors = await errorsOf({
      'article.json': article({ a: { type: 'nope' }, b: { type: 'enumeration' }, id: { type: 'string' } }),
    });
    expect(errors).toHaveLength(3);
  });

  it('rejects reserved attribute names and column clashes', async () => {
    const errors = await errorsOf({ 'article.json': article({ createdAt: { type: 'string' }, fooBar: { type: 'string' }, foo_bar: { type: 'string' } }) });
    expect(errors).toEqual([
      'article.json /attributes/createdAt: content type "api::article.article", attribute "createdAt": "createdAt" is reserved (contentgen adds createdAt itself)',
      'article.json /attributes/foo_bar: content type "api::article.article", attribute "foo_bar": its column "foo_bar" is also the column of attribute "fooBar"',
    ]);
  });

  it('checks two-way relations point at each other', async () => {
    const errors = await errorsOf({
      'article.json': article({ author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'posts' } }),
      'author.json': { info: { singularName: 'author', pluralName: 'authors' }, attributes: { name: { type: 'string' } } },
    });
    expect(errors).toEqual([
      'article.json /attributes/author/inversedBy: content type "api::article.article", attribute "author": inversedBy "posts" is not a relation attribute of "api::author.author"',
    ]);
  });

  it('validates permissions.json against the models', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'permissions.json': { public: ['api::article.article.find', 'api::article.article.fnd', 'api::articel.articel.find'] },
    });
    expect(errors).toEqual([
      'permissions.json /public/1: role "public": unknown action "fnd" in "api::article.article.fnd" (one of find, findOne, create, update, delete). Did you mean "find"?',
      'permissions.json /public/2: role "public": unknown content type "api::articel.articel" in "api::articel.articel.find". Did you mean "api::article.article"?',
    ]);
  });

  it('rejects plugin actions that do not exist, with a suggestion', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'permissions.json': { authenticated: ['plugin::users-permissions.user.me', 'plugin::upload.content-api.uplod'] },
    });
    expect(errors).toEqual([
      'permissions.json /authenticated/1: role "authenticated": unknown plugin action "plugin::upload.content-api.uplod". Did you mean "plugin::upload.content-api.upload"?',
    ]);
  });

  it('rejects names that clash with the plugins: the /api/users route and reserved models', async () => {
    const errors = await errorsOf({
      'member.json': { info: { singularName: 'member', pluralName: 'users' }, attributes: {} },
      'upload-file.json': { info: { singularName: 'upload-file', pluralName: 'upload-files' }, attributes: {} },
    });
    expect(errors).toEqual([
      'member.json /info/pluralName: content type "api::member.member": pluralName "users" is already used by "plugin::users-permissions.user"',
      'upload-file.json /info/singularName: content type "api::upload-file.upload-file": its model name "UploadFile" is reserved by contentgen',
    ]);
  });

  it('the CLI exits 1, lists the problems and writes nothing', async () => {
    const models = await writeModels({ 'article.json': article({ title: { type: 'strng' } }) });
    const outDir = path.join(path.dirname(models), `${path.basename(models)}-out`);
    let stderr = '';
    const code = await main(['build', models, '-o', outDir], { write: () => true } as never, { write: (s: string) => ((stderr += s), true) } as never);
    expect(code).toBe(1);
    expect(stderr).toContain('1 problem');
    expect(stderr).toContain('attribute "title": unknown type "strng"');
    expect(await readdir(outDir).catch(() => 'absent')).toBe('absent');
    await rm(models, { recursive: true, force: true });
  });
});
