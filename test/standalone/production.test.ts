/**
 * The emitted server installed the production ways, outside this repository:
 * - one step, as deployment guides and buildpacks do: `NODE_ENV=production npm ci`, `npm start`
 *   (no development dependencies: the compile at start must not need them);
 * - the emitted Dockerfile's recipe, with no container engine: its RUN commands, exactly as
 *   written, in a folder per stage, its COPY instructions as copies, then its CMD with its ENV
 *   (build with every dependency, `npm run build`, prune, start dist/ from a folder that holds
 *   only what the final stage copies). Its instructions are checked against package.json and
 *   the server (port, health path, user, start command), so a change to one shows in the other.
 * Both start on a fresh database (migrations applied at start) and answer a request.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, providerLabel, testProvider, type TestDatabase } from '../helpers/databases.js';
import { client } from '../helpers/http.js';
import { buildWithUserCode } from '../helpers/build-cache.js';
import { codeOf, modelsOf } from '../helpers/paths.js';
import { argsOf, envOf, execForm, parseCopy, parseDockerfile, runStage, type Stage, type StageRun } from '../helpers/dockerfile.js';
import { npmCacheEnv, runOrThrow, ServerProcesses, userEnv } from '../helpers/standalone.js';

const provider = testProvider();
const secrets = { JWT_SECRET: 'production-test-jwt-secret-0123456789abcdef', API_TOKEN_SALT: 'production-test-token-salt-0123456789abcdef' };

interface PackageJson {
  scripts: Record<string, string>;
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

describe(`production installs (${providerLabel[provider]})`, () => {
  let base: string;
  let serverDir: string;
  let pkg: PackageJson;
  let stages: Stage[];
  const databases: TestDatabase[] = [];
  const servers = new ServerProcesses();

  async function database(dir: string, label: string): Promise<TestDatabase> {
    const db = await createTestDatabase(provider, path.join(dir, 'data'), label);
    databases.push(db);
    return db;
  }

  beforeAll(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'contentgen-production-'));
    serverDir = path.join(base, 'server');
    await buildWithUserCode(modelsOf('app'), serverDir, provider, codeOf('app'));
    // What a user commits after their first `npm install`: the lock `npm ci` and the Dockerfile need.
    runOrThrow(serverDir, 'npm', ['install', '--package-lock-only', '--ignore-scripts'], userEnv(npmCacheEnv));
    pkg = JSON.parse(await readFile(path.join(serverDir, 'package.json'), 'utf8')) as PackageJson;
    stages = parseDockerfile(await readFile(path.join(serverDir, 'Dockerfile'), 'utf8'));
  }, 300_000);

  afterAll(async () => {
    servers.killAll();
    for (const db of databases) await db.drop();
    if (base) await rm(base, { recursive: true, force: true });
  });

  it('the Dockerfile: a build stage and a final stage of the same Node, not root, with the server’s port, health check, stop signal and start command', () => {
    expect(stages).toHaveLength(2);
    const [build, final] = stages as [Stage, Stage];
    const major = (image: string) => Number(/^node:(\d+)/.exec(image)?.[1]);
    expect(major(build.image)).toBe(major(final.image));
    expect(major(final.image)).toBeGreaterThanOrEqual(Number(/\d+/.exec(pkg.engines.node)?.[0]));
    expect(final.image).toMatch(/-slim$/);

    // Only what runs: nothing from the build context, no sources, no compiler.
    const copies = argsOf(final, 'COPY').map(parseCopy);
    expect(copies.every((c) => c.from === build.name)).toBe(true);
    const copied = copies.flatMap((c) => c.sources.map((s) => path.posix.basename(s)));
    expect(copied).toEqual(expect.arrayContaining(['package.json', 'node_modules', 'dist', 'prisma', 'scripts']));
    expect(copied).not.toContain('src');

    const user = argsOf(final, 'USER');
    expect(user).toEqual(['node']);
    // What it writes belongs to that user.
    expect(copies.filter((c) => c.chown).map((c) => c.dest)).toEqual(['./data', './public']);

    const env = envOf(final);
    expect(env['NODE_ENV']).toBe('production');
    expect(argsOf(final, 'EXPOSE')).toEqual([env['PORT']]);
    expect(argsOf(final, 'STOPSIGNAL')).toEqual(['SIGTERM']);
    const [healthcheck] = argsOf(final, 'HEALTHCHECK');
    expect(healthcheck).toContain('/_health');
    // The image runs what `npm start` runs, without npm in between (signals reach node).
    const [cmd] = argsOf(final, 'CMD');
    expect(execForm(cmd!).join(' ')).toBe(pkg.scripts['start']!.replace(/^exec /, ''));

    // The compose example builds this image and publishes that port.
    const compose = readFileSync(path.join(serverDir, 'compose.yaml'), 'utf8');
    expect(compose).toContain('build: .');
    expect(compose).toContain(`"${env['PORT']}:${env['PORT']}"`);

    const dockerignore = readFileSync(path.join(serverDir, '.dockerignore'), 'utf8');
    for (const name of ['node_modules', 'dist', 'data', '.env', '.dev-secrets.json']) expect(dockerignore).toContain(name);
  });

  it('every package the server runs on supports the Node its package.json names (no EBADENGINE at install)', async () => {
    const lock = JSON.parse(await readFile(path.join(serverDir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; dev?: boolean; devOptional?: boolean }>;
    };
    const oldest = Number(/\d+/.exec(pkg.engines.node)?.[0]);
    // Prisma's CLI (a development tool npm also keeps as @prisma/client's optional peer) brings
    // @prisma/streams-local, for Node 22 and Bun: it is not loaded by the server.
    const tooNew = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.dev && !entry.devOptional)
      .filter(([, entry]) => Number(/^>=\s*(\d+)/.exec(entry.engines?.node ?? '')?.[1] ?? 0) > oldest)
      .map(([name, entry]) => `${name} (node ${entry.engines!.node})`);
    expect(tooNew).toEqual([]);
  });

  it('one step: NODE_ENV=production npm ci, then npm start compiles and starts without development dependencies', async () => {
    const dir = path.join(base, 'one-step');
    await cp(serverDir, dir, { recursive: true });
    runOrThrow(dir, 'npm', ['ci'], userEnv({ ...npmCacheEnv, NODE_ENV: 'production' }));
    // Development dependencies are left out (GraphiQL, Swagger UI)...
    expect(existsSync(path.join(dir, 'node_modules', 'graphiql'))).toBe(false);
    expect(existsSync(path.join(dir, 'node_modules', 'swagger-ui-dist'))).toBe(false);
    // ...and the types the compile needs are not among them.
    for (const name of Object.keys(pkg.devDependencies)) expect(name.startsWith('@types/'), name).toBe(false);
    // No AWS SDK (~22 MB) in a server that stores files locally: it is built without the S3 provider.
    expect(Object.keys(pkg.dependencies).filter((name) => name.startsWith('@aws-sdk/'))).toEqual([]);
    expect(existsSync(path.join(dir, 'node_modules', '@aws-sdk'))).toBe(false);
    expect(existsSync(path.join(dir, 'src', 'runtime', 'upload', 'provider-s3.ts'))).toBe(false);

    const db = await database(dir, 'one_step');
    const { url } = await servers.start('npm', ['start'], { cwd: dir, env: userEnv({ NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, ...secrets }) });
    const api = client(url);
    const list = await api.get('/api/articles');
    expect(list.status).toBe(200);
    expect(list.body.meta.pagination).toMatchObject({ total: 0 });
    await servers.stopAll();
  }, 1_200_000);

  it('the Dockerfile recipe: its RUN commands build and prune, its final stage starts as the image would and passes its HEALTHCHECK', async () => {
    const runs: Record<string, StageRun> = {};
    // RUN commands as written; npm's cache settings come from the environment, as a CI's would.
    const shellEnv = userEnv(npmCacheEnv);
    for (const [index, stage] of stages.entries()) {
      const run = await runStage(stage, path.join(base, 'image', stage.name ?? `stage${index}`), { context: serverDir, stages: runs, env: shellEnv });
      if (stage.name) runs[stage.name] = run;
    }
    const finalDir = path.join(base, 'image', `stage${stages.length - 1}`);
    const final = stages.at(-1)!;

    // Only what runs: no compiler, no Prisma CLI, no sources.
    for (const absent of ['node_modules/typescript', 'node_modules/prisma', 'node_modules/graphiql', 'node_modules/@aws-sdk', 'src', 'tsconfig.json']) expect(existsSync(path.join(finalDir, absent)), absent).toBe(false);

    const db = await database(finalDir, 'image');
    const env = userEnv({ ...envOf(final), PORT: '0', HOST: '127.0.0.1', DATABASE_URL: db.url, ...secrets });
    const [command, ...args] = execForm(argsOf(final, 'CMD')[0]!);
    const { url, child } = await servers.start(command === 'node' ? process.execPath : command!, args, { cwd: finalDir, env });
    const api = client(url);
    expect((await api.get('/api/articles')).status).toBe(200);
    const graphql = await api.post('/graphql', { query: '{ articles { data { id } } }' });
    expect(graphql.body).toEqual({ data: { articles: { data: [] } } });

    // The HEALTHCHECK's command, run beside the server as the engine runs it in the container.
    const [checkCommand, ...checkArgs] = execForm(argsOf(final, 'HEALTHCHECK')[0]!);
    const check = spawnSync(checkCommand === 'node' ? process.execPath : checkCommand!, checkArgs, { cwd: finalDir, env: { ...env, PORT: new URL(url).port }, encoding: 'utf8' });
    expect(check.status).toBe(0);

    // STOPSIGNAL: the server stops cleanly on it.
    expect(await servers.stop(child, argsOf(final, 'STOPSIGNAL')[0] as NodeJS.Signals)).toBe(0);
  }, 1_800_000);

  it('npm start in a lean install without dist/ says what to do instead of failing on a missing compiler', async () => {
    // The final stage's folder without dist/: what a pruned install that skipped `npm run build` is.
    const dir = path.join(base, 'no-dist');
    await cp(path.join(base, 'image', `stage${stages.length - 1}`), dir, { recursive: true, verbatimSymlinks: true });
    await rm(path.join(dir, 'dist'), { recursive: true, force: true });
    const start = spawnSync('npm', ['start'], { cwd: dir, encoding: 'utf8', env: userEnv({ NODE_ENV: 'production' }) });
    expect(start.status).not.toBe(0);
    expect(start.stderr).toContain('npm run build');
  });
});
