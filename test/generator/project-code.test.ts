/**
 * Reading a Strapi project's routes files (generator/load/project-code.ts): the shapes real
 * projects use. mgmgpyaesonewin/strapi-cms-v4 wraps its core routers to add routes,
 * `{ get routes() { return innerRouter.routes.concat(extraRoutes) } }`; Strapi 4.26.2 starts with
 * it, and its build stopped on "Cannot read properties of undefined (reading 'concat')".
 * saharshsoftware/corta-news-strapi-backend names a controller after no content type
 * (`src/api/news-post/controllers/custom-sitemap-news-post.js`): it goes in its folder's type.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectCode } from '../../generator/load/project-code.js';
import { generate } from '../../generator/pipeline.js';
import { tempDir } from '../helpers/paths.js';

let root: string;

const wrapped = (settings: string) => `'use strict';
const { createCoreRouter } = require('@strapi/strapi').factories;
const defaultRouter = createCoreRouter('api::district.district'${settings});
const customRouter = (innerRouter, extraRoutes = []) => {
  let routes;
  return {
    get prefix() { return innerRouter.prefix; },
    get routes() {
      if (!routes) routes = innerRouter.routes.concat(extraRoutes);
      return routes;
    },
  };
};
module.exports = customRouter(defaultRouter, [
  { method: 'GET', path: '/district/findByCode/:name', handler: 'district.findByCode', config: { policies: [] } },
]);
`;

async function writeRoutes(api: string, name: string, code: string): Promise<void> {
  const dir = path.join(root, 'src/api', api, 'routes');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, name), code);
}

beforeAll(async () => {
  root = await tempDir('project-code');
  await writeRoutes('district', 'district.js', wrapped(''));
  await writeRoutes('region', 'region.js', wrapped(", { only: ['find'], config: { find: { auth: false } } }").replaceAll('district', 'region'));
  await writeRoutes('broken', 'broken.js', "module.exports = { get routes() { throw new Error('no routes here'); } };\n");
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('routes files built on a core router', () => {
  it('a wrapper that adds routes to a core router: its custom routes, and the core router\'s settings', () => {
    const code = loadProjectCode(root);
    expect(code.customRoutes.get('api::district.district')).toEqual([{ method: 'GET', path: '/district/findByCode/:name', handler: 'district.findByCode' }]);
    expect(code.files.find((f) => f.file === 'src/api/district/routes/district.js')).toEqual({
      file: 'src/api/district/routes/district.js',
      role: 'routes',
      uid: 'api::district.district',
      detail: 'GET /district/findByCode/:name → district.findByCode (beside the core router of api::district.district)',
    });
    expect(code.routers.has('api::district.district')).toBe(false);
    expect(code.routers.get('api::region.region')).toEqual({ file: 'src/api/region/routes/region.js', only: ['find'], public: ['find'] });
  });

  it('a file whose code throws while read is listed as unreadable; the rest is read', () => {
    const code = loadProjectCode(root);
    expect(code.files.find((f) => f.file === 'src/api/broken/routes/broken.js')).toMatchObject({ role: 'routes', detail: 'could not be read (no routes here)' });
  });
});

describe('where a file named after no content type goes', () => {
  it('a controller and routes named otherwise than their API folder\'s content type go in that type\'s file', async () => {
    const project = await tempDir('project-code-names');
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(project, rel)), { recursive: true });
      await writeFile(path.join(project, rel), text);
    };
    try {
      await write('package.json', JSON.stringify({ dependencies: { '@strapi/strapi': '4.16.2' } }));
      await write('src/api/news-post/content-types/news-post/schema.json', JSON.stringify({ kind: 'collectionType', collectionName: 'news_posts', info: { singularName: 'news-post', pluralName: 'news-posts', displayName: 'News post' }, attributes: { title: { type: 'string' } } }));
      await write('src/api/news-post/controllers/sitemap.js', "module.exports = { async index(ctx) { ctx.body = '<urlset/>'; } };\n");
      await write('src/api/news-post/routes/sitemap.js', "module.exports = { routes: [{ method: 'GET', path: '/news/sitemap.xml', handler: 'sitemap.index' }] };\n");
      await write('src/api/user/controllers/user.js', 'module.exports = { async deleteAccount(ctx) { ctx.body = {}; } };\n');
      const result = await generate({ modelsDir: project, outDir: path.join(project, 'out'), provider: 'sqlite', check: false, acceptDataLoss: false });
      if (!result.ok) throw new Error(JSON.stringify(result));
      expect(result.warnings.filter((w) => w.startsWith('src/'))).toEqual([
        'src/api/news-post/controllers/sitemap.js: a customised controller, not carried over: `controllers` of src/api/news-post.ts (.contentgen/project-code.md)',
        'src/api/news-post/routes/sitemap.js: custom routes, not carried over: `routes.custom` and their `controllers` of src/api/news-post.ts (.contentgen/project-code.md)',
        'src/api/user/controllers/user.js: a customised controller, not carried over: a custom controller of a type not in the models: no place (.contentgen/project-code.md)',
      ]);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});

describe('src/extensions: plugin extensions and the helper modules beside them', () => {
  it('only <plugin>/strapi-server.js|ts and what is under <plugin>/content-types/ extend a plugin; other files there are modules', async () => {
    const project = await tempDir('project-code-extensions');
    const write = async (rel: string, text: string) => {
      await mkdir(path.dirname(path.join(project, rel)), { recursive: true });
      await writeFile(path.join(project, rel), text);
    };
    try {
      await write('src/extensions/users-permissions/strapi-server.js', "module.exports = (plugin) => plugin;\n");
      await write('src/extensions/upload/strapi-server.ts', 'export default (plugin: unknown) => plugin;\n');
      await write('src/extensions/users-permissions/content-types/user/lifecycles.js', 'module.exports = {};\n');
      await write('src/extensions/users-permissions/content-types/user/schema.json', '{}');
      // A dev launcher's helpers (dev-launchers/strapiv4) and a module the extension requires.
      await write('src/extensions/dev-launcher/helpers/start.js', "module.exports = () => {};\n");
      await write('src/extensions/users-permissions/utils/jwt.js', "module.exports = {};\n");
      await write('src/extensions/helpers.ts', 'export const x = 1;\n');
      await write('src/extensions/strapi-server.js', "module.exports = {};\n");
      const files = loadProjectCode(project).files.filter((f) => f.file.startsWith('src/extensions/'));
      expect(files).toEqual([
        { file: 'src/extensions/dev-launcher/helpers/start.js', role: 'module' },
        { file: 'src/extensions/helpers.ts', role: 'module' },
        { file: 'src/extensions/strapi-server.js', role: 'module' },
        { file: 'src/extensions/upload/strapi-server.ts', role: 'extension', detail: 'extends the upload plugin' },
        { file: 'src/extensions/users-permissions/content-types/user/lifecycles.js', role: 'extension', detail: 'extends the users-permissions plugin' },
        { file: 'src/extensions/users-permissions/strapi-server.js', role: 'extension', detail: 'extends the users-permissions plugin' },
        { file: 'src/extensions/users-permissions/utils/jwt.js', role: 'module' },
      ]);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  });
});
