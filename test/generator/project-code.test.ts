/**
 * Reading a Strapi project's routes files (generator/load/project-code.ts): the shapes real
 * projects use. mgmgpyaesonewin/strapi-cms-v4 wraps its core routers to add routes,
 * `{ get routes() { return innerRouter.routes.concat(extraRoutes) } }`; Strapi 4.26.2 starts with
 * it, and its build stopped on "Cannot read properties of undefined (reading 'concat')".
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadProjectCode } from '../../generator/load/project-code.js';
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
