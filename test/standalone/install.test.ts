/**
 * The emitted server is the user's own project: built into a folder outside this
 * repository, installed there from its own package.json alone, compiled and started with
 * `npm start`, exactly as the README tells users. Nothing may resolve from contentgen's
 * node_modules (the OS temp folder is not under the repository, and Node and tsc only look
 * upwards from the server's folder). One install per database per run; npm's cache helps.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, providerLabel, testProvider, type TestDatabase } from '../helpers/databases.js';
import { client } from '../helpers/http.js';
import { listeningUrl } from '../helpers/server.js';
import { buildWithUserCode } from '../helpers/build-cache.js';
import { codeOf, fixturesDir, modelsOf, repoRoot } from '../helpers/paths.js';
import { userEnv } from '../helpers/standalone.js';

const provider = testProvider();
const fixture = 'app';

describe(`standalone install (${providerLabel[provider]})`, () => {
  let base: string;
  let serverDir: string;
  let database: TestDatabase;
  const databases: TestDatabase[] = [];
  const children: ChildProcess[] = [];

  /** `npm start` in `dir` (its own process group, so the npm → node chain can be stopped); the server's URL. */
  async function npmStart(dir: string, databaseUrl: string, extraEnv: Record<string, string> = {}): Promise<string> {
    const child = spawn('npm', ['start'], {
      cwd: dir,
      detached: true,
      env: userEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, NODE_ENV: 'development', ...extraEnv }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    return (await listeningUrl(child, 120_000)).url;
  }

  async function stopAll(): Promise<void> {
    for (const child of children.splice(0)) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
  }

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'contentgen-standalone-'));
    serverDir = path.join(base, 'my-app', 'server');
    // The fixture with its user code (src/api, policies, middlewares, src/index.ts), which must compile there too.
    await buildWithUserCode(modelsOf(fixture), serverDir, provider, codeOf(fixture));
    // Native builds (better-sqlite3, bcrypt) take minutes on a machine busy with the rest of the suite.
    const install = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: serverDir, encoding: 'utf8', env: userEnv(), timeout: 600_000 });
    if (install.status !== 0) {
      const how = install.signal ? `killed by ${install.signal}${install.error ? ` (${install.error.message})` : ''}` : `exit ${install.status}`;
      throw new Error(`npm install failed in ${serverDir} (${how}):\n${install.stdout}\n${install.stderr}`);
    }
    database = await createTestDatabase(provider, path.join(serverDir, 'data'), 'standalone');
  }, 660_000);

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await database?.drop();
    for (const extra of databases) await extra.drop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('is built outside the repository and resolves its packages from its own node_modules', async () => {
    expect(path.relative(repoRoot, serverDir).startsWith('..')).toBe(true);
    const resolved = spawnSync(process.execPath, ['--input-type=module', '-e', "for (const m of ['koa', '@prisma/client', 'graphql']) console.log(import.meta.resolve(m))"], {
      cwd: serverDir,
      encoding: 'utf8',
      env: userEnv(),
    });
    for (const line of resolved.stdout.trim().split('\n')) expect(line).toContain(`file://${serverDir}/node_modules/`);
    const pkg = JSON.parse(await readFile(path.join(serverDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const adapters = Object.keys(pkg.dependencies).filter((name) => name.startsWith('@prisma/adapter-'));
    expect(adapters).toEqual([{ sqlite: '@prisma/adapter-better-sqlite3', postgresql: '@prisma/adapter-pg', mysql: '@prisma/adapter-mariadb' }[provider]]);
  });

  it('compiles with npm start and serves REST and GraphQL', async () => {
    const url = await npmStart(serverDir, database.url);
    const api = client(url);
    const list = await api.get('/api/articles');
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination).toMatchObject({ page: 1, pageSize: 25, total: 0 });

    const registered = await api.post('/api/auth/local/register', { username: 'standalone', email: 'standalone@example.com', password: 'Secret123!' });
    expect(registered.status).toBe(200);
    const jwt = registered.body.jwt as string;
    const created = await api.post('/api/articles', { data: { title: 'Built elsewhere', slug: 'built-elsewhere' } }, { authorization: `Bearer ${jwt}` });
    expect(created.status).toBe(200);

    const graphql = await api.post('/graphql', { query: '{ articles { data { id attributes { title } } } }' }, { authorization: `Bearer ${jwt}` });
    expect(graphql.status).toBe(200);
    expect(graphql.body).toEqual({ data: { articles: { data: [{ id: String(created.body.data.id), attributes: { title: 'Built elsewhere' } }] } } });
    await stopAll();
  }, 180_000);

  it('its typed client installs in a frontend folder from its own package.json, compiles and talks to the server', async () => {
    // The client package alone: its own dependencies, its own tsconfig.
    const clientDir = path.join(serverDir, 'client');
    const run = (cwd: string, command: string, args: string[]) => {
      const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: userEnv(), timeout: 300_000 });
      if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${result.stdout}\n${result.stderr}`);
      return result.stdout;
    };
    run(clientDir, 'npm', ['install', '--no-audit', '--no-fund']);
    run(clientDir, 'npm', ['run', 'typecheck']);

    // A frontend installs it from the path as npm would from a registry (packed, not linked).
    const { name } = JSON.parse(await readFile(path.join(clientDir, 'package.json'), 'utf8')) as { name: string };
    const webDir = path.join(base, 'my-app', 'web');
    await mkdir(webDir, { recursive: true });
    const typescript = (JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['typescript'];
    await writeFile(path.join(webDir, 'package.json'), JSON.stringify({ name: 'web', private: true, type: 'module', dependencies: { [name]: 'file:../server/client' }, devDependencies: { typescript } }, null, 2));
    await writeFile(
      path.join(webDir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], types: [], outDir: 'dist' }, files: ['main.ts'] }),
    );
    await writeFile(
      path.join(webDir, 'main.ts'),
      `import { createClient, isStrapiError } from '${name}';
declare const process: { argv: string[] };
const api = createClient({ url: process.argv[2]! });
const { jwt } = await api.auth.login({ identifier: 'standalone', password: 'Secret123!' });
api.setToken(jwt);
await api.articles.create({ title: 'From the typed client', slug: 'from-the-typed-client' });
const { data, meta } = await api.articles.find({ fields: ['title'], sort: 'title:asc', filters: { title: { $containsi: 'client' } } });
let error = '';
try {
  await api.articles.findOne(999999);
} catch (e) {
  if (isStrapiError(e)) error = e.error.name;
}
console.log(JSON.stringify({ titles: data.map((entry) => entry.attributes.title), total: meta.pagination.total, error }));
`,
    );
    run(webDir, 'npm', ['install', '--install-links', '--no-audit', '--no-fund']);
    run(webDir, process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);

    const url = await npmStart(serverDir, database.url);
    const output = run(webDir, process.execPath, ['dist/main.js', url]);
    expect(JSON.parse(output)).toEqual({ titles: ['From the typed client'], total: 1, error: 'NotFoundError' });
    await stopAll();
  }, 300_000);

  it('the real-shapes fixture (models of published Strapi projects) starts there too', async () => {
    // Same database, same dependencies: it shares the install above (node_modules linked),
    // generates its own Prisma client and compiles with npm start like any build.
    const shapesDir = path.join(base, 'shapes', 'server');
    await buildWithUserCode(modelsOf('real-shapes'), shapesDir, provider);
    const dependencies = async (dir: string) => (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: unknown }).dependencies;
    expect(await dependencies(shapesDir)).toEqual(await dependencies(serverDir));
    await symlink(path.join(serverDir, 'node_modules'), path.join(shapesDir, 'node_modules'), 'dir');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: shapesDir, encoding: 'utf8', env: userEnv() });
    if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
    const shapesDatabase = await createTestDatabase(provider, path.join(shapesDir, 'data'), 'shapes');
    databases.push(shapesDatabase);
    const url = await npmStart(shapesDir, shapesDatabase.url);
    const api = client(url);
    expect((await api.get('/api/subscriptions')).status).toBe(200);
    expect((await api.get('/api/packages')).status).toBe(200);
    const graphql = await api.post('/graphql', { query: '{ subscriptions { data { id } } products { data { id } } }' });
    expect(graphql.body).toEqual({ data: { subscriptions: { data: [] }, products: { data: [] } } });
    await stopAll();
  }, 240_000);

  it('a Strapi project folder (fixtures/projects/no-graphql) builds from its root and starts there, as its plugins and config say', async () => {
    // Its plugins need a subset of the dependencies above: it shares that install too.
    const projectServer = path.join(base, 'notes', 'server');
    await buildWithUserCode(path.join(fixturesDir, 'projects', 'no-graphql'), projectServer, provider);
    const dependencies = async (dir: string) => (JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    const all = await dependencies(serverDir);
    for (const [name, version] of Object.entries(await dependencies(projectServer))) expect(all[name], name).toBe(version);
    await symlink(path.join(serverDir, 'node_modules'), path.join(projectServer, 'node_modules'), 'dir');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: projectServer, encoding: 'utf8', env: userEnv() });
    if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
    const projectDatabase = await createTestDatabase(provider, path.join(projectServer, 'data'), 'notes');
    databases.push(projectDatabase);
    // config/api.js reads API_DEFAULT_LIMIT: the seeded src/config.ts reads it from the server's environment.
    const url = await npmStart(projectServer, projectDatabase.url, { API_DEFAULT_LIMIT: '1' });
    const api = client(url);
    const notes = await api.get('/v1/notes');
    expect(notes.status).toBe(200);
    expect(notes.body.meta.pagination).toMatchObject({ page: 1, pageSize: 1 });
    expect((await api.get('/api/notes')).status).toBe(404);
    expect((await api.post('/graphql', { query: '{ notes { data { id } } }' })).status).toBe(404);
    await stopAll();
  }, 240_000);
});
