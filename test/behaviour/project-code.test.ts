/**
 * A Strapi project's own code (issue 25): fixtures/projects/with-code customises controllers,
 * routes, lifecycles, policies, middlewares, bootstrap, a plugin extension, a local plugin and
 * the admin panel. The build lists each file with where it goes (.contentgen/project-code.md,
 * one warning each), seeds the core routers' settings into src/api/<name>.ts, and the server
 * honours them as Strapi did: `auth: false` actions are public, routes left out by `only` are
 * not served.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { client } from '../helpers/http.js';
import { fixturesDir, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const project = path.join(fixturesDir, 'projects/with-code');
let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  built = await buildModels(project, 'project-with-code');
  server = await startServer(built.dir);
  api = client(server.url);
  admin = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
}, 240_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('the build says where each file of the project goes', () => {
  it('one warning per file that customises Strapi; factory-only files and src/admin examples are not named', async () => {
    const result = await generate({ modelsDir: project, outDir: path.join(await tempDir('project-code-generate'), 'out'), provider: 'sqlite', check: false, acceptDataLoss: false });
    if (!result.ok) throw new Error('build failed');
    const named = result.warnings.filter((w) => w.includes('.contentgen/project-code.md')).map((w) => w.slice(0, w.indexOf(':')));
    expect(named).toEqual([
      'src/api/author/routes/author.ts',
      'src/api/book/content-types/book/lifecycles.js',
      'src/api/book/controllers/book.js',
      'src/api/book/policies/is-owner.js',
      'src/api/book/routes/01-custom.js',
      'src/api/book/routes/book.js',
      'src/extensions/users-permissions/strapi-server.js',
      'src/index.js',
      'src/middlewares/timer.js',
      'src/plugins/reading-list/',
      'src/policies/is-librarian.js',
      'src/utils/slug.js',
    ]);
    expect(result.warnings).toContain(
      'src/api/book/content-types/book/lifecycles.js: lifecycle hooks, not carried over: `lifecycles` of src/api/book.ts (.contentgen/project-code.md)',
    );
  });

  it('.contentgen/project-code.md lists them with what they hold', async () => {
    const report = await readFile(path.join(built.dir, '.contentgen/project-code.md'), 'utf8');
    expect(report).toContain('13 file(s) to look at; 3 file(s) only call Strapi\'s factories (nothing to carry).');
    expect(report).toContain('| `src/api/book/routes/01-custom.js` | custom routes: GET /books/featured → book.featured | `routes.custom` and their `controllers` of src/api/book.ts |');
    expect(report).toContain('core router settings: only find, findOne, create, update; public (auth: false): find; create: global::is-librarian, global::timer');
    expect(report).toContain('| `src/admin/` | admin panel customisation: 1 code file | nothing: there is no admin panel |');
  });

  it('src/api/book.ts is seeded with the router settings and the files to rewrite there', async () => {
    const seeded = await readFile(path.join(built.dir, 'src/api/book.ts'), 'utf8');
    expect(seeded).toContain('//   src/api/book/controllers/book.js: a customised controller\n');
    expect(seeded).toContain(`'api::book.book', {\n  routes: {\n    config: { find: { auth: false } },\n    except: ['delete'],\n  },\n});`);
  });
});

describe('the server honours the core routers as Strapi did', () => {
  it('auth: false actions are public; the others still need a permission', async () => {
    const author = (await admin.post('/api/authors', { data: { name: 'Ann' } })).body.data.id;
    const book = await admin.post('/api/books', { data: { title: 'First Light', author } });
    expect(book.status, JSON.stringify(book.body)).toBe(200);
    const list = await api.get('/api/books');
    expect(list.status).toBe(200);
    expect(list.body.data.map((b: any) => b.attributes.title)).toEqual(['First Light']);
    expect((await api.get(`/api/books/${book.body.data.id}`)).status).toBe(403);
    expect((await api.get(`/api/authors/${author}`)).body.data.attributes.name).toBe('Ann');
    expect((await api.post('/api/books', { data: { title: 'Nope' } })).status).toBe(403);
  });

  it('a core route left out by `only` is not served', async () => {
    const id = (await admin.post('/api/books', { data: { title: 'Kept' } })).body.data.id;
    expect((await admin.del(`/api/books/${id}`)).status).toBe(405);
    expect((await admin.get(`/api/books/${id}`)).status).toBe(200);
  });
});
