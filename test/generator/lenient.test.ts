/**
 * What Strapi 4.26.2 starts with builds (warnings where contentgen chose something); what
 * it refuses is one precise error. Projects: fixtures/projects/lenient-*, and projects made
 * here (a plugin "installed" in node_modules, a plugin missing from package.json).
 */
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { printGraphqlSchema } from '../../generator/emit/graphql/graphql.js';
import { formatModelError } from '../../generator/validate/model-error.js';
import { fixturesDir, tempDir } from '../helpers/paths.js';

const state = 'api/state/content-types/state/schema.json';

async function build(modelsDir: string) {
  const outDir = path.join(await tempDir('lenient-out'), 'out');
  try {
    return await generate({ modelsDir, outDir, provider: 'sqlite', check: false, acceptDataLoss: false });
  } finally {
    await rm(path.dirname(outDir), { recursive: true, force: true });
  }
}

const unknownField =
  `${state} /attributes/extra/customField: content type "api::state.state", attribute "extra": custom field "plugin::mystery-box.payload" of plugin "mystery-box": ` +
  'contentgen does not know which type it stores, so it is stored as json (every value kept as sent); if it stores something else, say so in src/customFields.json: "plugin::mystery-box.payload": "string"';

// The project's own code (project-code.ts): the local plugin that registers shade-picker's field.
const localPlugin =
  'src/plugins/shade-picker/: a local plugin, not carried over: only the custom fields it registers are read (the types they store); its routes, content types and other code are not served (.contentgen/project-code.md)';

describe('fixtures/projects/lenient-*', () => {
  it('with @strapi/plugin-graphql: builds; what GraphQL cannot name is left out of it, a warning naming each', async () => {
    const result = await build(path.join(fixturesDir, 'projects', 'lenient-graphql'));
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.warnings).toEqual([
      unknownField,
      'api/upload-file/content-types/upload-file/schema.json /info/singularName: content type "api::upload-file.upload-file": left out of the GraphQL schema, served over REST only: its GraphQL type "UploadFile" is also content type "plugin::upload.file" (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
      'components/shared/badge.json /attributes/mark: component "shared.badge", attribute "mark": left out of the GraphQL schema, served over REST only: enumeration value "★" gives no GraphQL enum value (it has no letter or digit Strapi can spell) (Strapi\'s GraphQL plugin refuses to start on it)',
      localPlugin,
    ]);
    const ct = (uid: string) => result.ir.contentTypes.find((c) => c.uid === uid)!;
    expect(ct('api::upload-file.upload-file').graphql).toBe(false);
    expect(result.ir.components.find((c) => c.uid === 'shared.badge')!.attributes.find((a) => a.name === 'mark')!.graphql).toBe(false);
    const types = Object.fromEntries(ct('api::state.state').attributes.map((a) => [a.name, a.kind === 'scalar' ? a.type : a.kind]));
    expect(types).toMatchObject({ color: 'string', shade: 'string', extra: 'json', stage: 'enumeration', name: 'string' });
    // targetField is a uid's; on a string it is ignored.
    expect(ct('api::state.state').attributes.find((a) => a.name === 'name')).not.toHaveProperty('targetField');
    const sdl = result.files.get('schema.graphql')!.content;
    expect(sdl).toContain('enum ENUM_STATE_STAGE {\n  Novyj\n  V_rabote\n  Zavershyon\n}');
    expect(sdl).toMatch(/type ComponentSharedBadge \{\n {2}id: ID!\n {2}label: String\n\}/);
    expect(sdl).not.toContain('ENUM_COMPONENTSHAREDBADGE_MARK');
    expect(sdl).not.toContain('upload_files');
    // An extension may still configure what the schema leaves out (it has nothing to configure).
    const printed = printGraphqlSchema(result.ir, {
      shadowCRUD: true,
      register: ((extension: any) => {
        extension.shadowCRUD('api::upload-file.upload-file').disableMutations();
        extension.shadowCRUD('shared.badge').field('mark').disable();
      }) as never,
    });
    expect(printed).toContain('enum ENUM_STATE_STAGE');
  });

  it('without it: builds, and no GraphQL rule applies (the warnings are the unknown custom field and the local plugin)', async () => {
    const result = await build(path.join(fixturesDir, 'projects', 'lenient-plain'));
    if (!result.ok) throw new Error(JSON.stringify(result));
    expect(result.warnings).toEqual([unknownField, localPlugin]);
  });
});

describe('custom fields of a project', () => {
  async function project(files: Record<string, unknown>): Promise<string> {
    const dir = await tempDir('lenient-project');
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
    }
    return dir;
  }
  const schema = (attributes: Record<string, unknown>) => ({ kind: 'collectionType', info: { singularName: 'review', pluralName: 'reviews', displayName: 'Review' }, attributes });

  it('reads the type an installed plugin registers from its server code (a list of fields, compiled), customFields.json over it', async () => {
    const dir = await project({
      'package.json': { dependencies: { '@strapi/strapi': '4.26.2', '@acme/strapi-plugin-rating': '2.0.0' } },
      'node_modules/@acme/strapi-plugin-rating/package.json': { name: '@acme/strapi-plugin-rating', strapi: { kind: 'plugin', name: 'rating' } },
      'node_modules/@acme/strapi-plugin-rating/dist/server/index.js':
        '"use strict";\nconst pluginId = "rating";\nexports.default = { register({ strapi }) {\n  strapi.customFields.register([\n    { name: "stars", plugin: pluginId, type: "integer", inputSize: { default: 4, type: "ignored" } },\n    { name: \'half\', type: \'float\' },\n    { name: "label", type: "string" }\n  ]);\n} };\n',
      'src/api/review/content-types/review/schema.json': schema({
        stars: { type: 'customField', customField: 'plugin::rating.stars' },
        half: { type: 'customField', customField: 'plugin::rating.half' },
        label: { type: 'customField', customField: 'plugin::rating.label' },
      }),
      'src/customFields.json': { 'plugin::rating.label': 'text' },
    });
    try {
      const result = await build(dir);
      if (!result.ok) throw new Error(JSON.stringify(result));
      expect(result.warnings).toEqual([]);
      const review = result.ir.contentTypes.find((c) => c.uid === 'api::review.review')!;
      expect(Object.fromEntries(review.attributes.filter((a) => a.kind === 'scalar' && a.customField).map((a) => [a.name, a.kind === 'scalar' ? a.type : '']))).toEqual({ stars: 'integer', half: 'float', label: 'text' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a custom field whose plugin the project does not install, as Strapi refuses to start', async () => {
    const dir = await project({
      'package.json': { dependencies: { '@strapi/strapi': '4.26.2' } },
      'src/api/review/content-types/review/schema.json': schema({ color: { type: 'customField', customField: 'plugin::color-picker.color' } }),
    });
    try {
      const result = await build(dir);
      expect(result.ok).toBe(false);
      expect(!result.ok && 'errors' in result ? result.errors.map(formatModelError) : result).toEqual([
        'api/review/content-types/review/schema.json /attributes/color/customField: content type "api::review.review", attribute "color": custom field "plugin::color-picker.color": the project does not install plugin "color-picker" (no dependency of package.json, nor src/plugins/color-picker, provides it), and Strapi refuses to start without it ("Could not find Custom Field"); add the plugin\'s package to package.json',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a bare models folder has no package.json: an unknown plugin field builds as json with a warning', async () => {
    const dir = await tempDir('lenient-models');
    await cp(path.join(fixturesDir, 'projects', 'lenient-plain', 'src'), dir, { recursive: true });
    try {
      const result = await build(dir);
      if (!result.ok) throw new Error(JSON.stringify(result));
      expect(result.warnings.some((w) => w.endsWith('say so in customFields.json beside the models: "plugin::mystery-box.payload": "string"'))).toBe(true);
      // The local plugin's register() is a project's: a models folder does not know shade-picker.
      expect(result.warnings.some((w) => w.includes('"plugin::shade-picker.shade"'))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('GraphQL names taken by something else', () => {
  it('leaves out a dynamic zone and an enumeration whose type names are taken; the schema builds without them', async () => {
    const dir = await tempDir('lenient-names');
    const write = async (rel: string, json: unknown) => {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), JSON.stringify(json));
    };
    const type = (singular: string, plural: string, attributes: Record<string, unknown>) => ({ kind: 'collectionType', info: { singularName: singular, pluralName: plural, displayName: singular }, attributes });
    await write('components/shared/quote.json', { collectionName: 'components_shared_quotes', attributes: { text: { type: 'string' } } });
    await write('article.json', type('article', 'articles', {
      title: { type: 'string' },
      blocks: { type: 'dynamiczone', components: ['shared.quote'] },
      myTone: { type: 'enumeration', enum: ['calm', 'loud'] },
      mytone: { type: 'enumeration', enum: ['soft', 'hard'] },
    }));
    await write('article-blocks-dynamic-zone.json', type('article-blocks-dynamic-zone', 'article-blocks-dynamic-zones', { name: { type: 'string' } }));
    try {
      const result = await build(dir);
      if (!result.ok) throw new Error(JSON.stringify(result));
      expect(result.warnings).toEqual([
        'article.json /attributes/blocks: content type "api::article.article", attribute "blocks": left out of the GraphQL schema, served over REST only: its GraphQL type "ArticleBlocksDynamicZone" is also content type "api::article-blocks-dynamic-zone.article-blocks-dynamic-zone" (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
        'article.json /attributes/mytone: content type "api::article.article", attribute "mytone": left out of the GraphQL schema, served over REST only: its GraphQL type "ENUM_ARTICLE_MYTONE" is also content type "api::article.article", attribute "myTone" (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
      ]);
      const sdl = result.files.get('schema.graphql')!.content;
      expect(sdl).toMatch(/type Article \{\n {2}title: String\n {2}myTone: ENUM_ARTICLE_MYTONE\n {2}createdAt/);
      expect(sdl).toContain('enum ENUM_ARTICLE_MYTONE {\n  calm\n  loud\n}');
      expect(sdl).toContain('type ArticleBlocksDynamicZone {\n  name: String');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
