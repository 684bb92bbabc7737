/**
 * Builds a fixture into a temporary folder, generates its Prisma client and starts the
 * emitted server as its own process on an ephemeral port, on a fresh database.
 *
 * The database is the run's provider (`CG_TEST_DB`, see helpers/databases.ts): a SQLite
 * file in the build's data/ folder, or a uniquely named PostgreSQL/MariaDB database made
 * for the build and dropped by `cleanup()`. Every server and CLI started on the build's
 * folder uses it, so test files read the same on every database. Builds are shared
 * (helpers/build-cache.ts): each test gets a copy of the one build per models and provider.
 *
 * Every route is guarded by the users-permissions plugin: tests that write authenticate,
 * e.g. with a full-access API token made by the emitted token CLI (`createApiToken`).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { cp, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { cachedBuild } from './build-cache.js';
import { client } from './http.js';
import { createTestDatabase, testProvider, type TestDatabase, type TestProvider } from './databases.js';
import { codeOf, modelsOf, repoRoot, tempDir } from './paths.js';

export interface BuiltServer {
  readonly dir: string;
  readonly provider: TestProvider;
  /** The build's database: what servers and the token CLI started on `dir` use. */
  readonly database: TestDatabase;
  /** Another empty database on the same provider, dropped by `cleanup()`. */
  newDatabase(): Promise<TestDatabase>;
  /** Drops the build's databases and removes its folder. */
  cleanup(): Promise<void>;
}

/** Builds of this process by folder, so that servers and CLIs started there find their database. */
const builds = new Map<string, BuiltServer>();

/** The build of `fixture` for `provider` (default: this run's, `CG_TEST_DB`). */
export async function buildFixture(fixture: string, provider: TestProvider = testProvider()): Promise<BuiltServer> {
  return buildModels(modelsOf(fixture), fixture, provider, codeOf(fixture));
}

/** Like buildFixture, for any models folder (`label` names the temporary folder). */
export async function buildModels(modelsDir: string, label: string, provider: TestProvider = testProvider(), codeDir?: string): Promise<BuiltServer> {
  const cached = await cachedBuild(modelsDir, provider, codeDir);
  const dir = await tempDir(`server-${label}-${provider}`);
  const outDir = path.join(dir, 'out');
  await cp(cached, outDir, { recursive: true });
  const databases: TestDatabase[] = [];
  const newDatabase = async (name?: string) => {
    const database = await createTestDatabase(provider, path.join(outDir, 'data'), name ?? `test-${databases.length}`);
    databases.push(database);
    return database;
  };
  const database = await newDatabase('test');
  const built: BuiltServer = {
    dir: outDir,
    provider,
    database,
    newDatabase: () => newDatabase(),
    async cleanup() {
      builds.delete(outDir);
      await Promise.all(databases.map((d) => d.drop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  builds.set(outDir, built);
  return built;
}

export interface RunningServer {
  readonly url: string;
  readonly output: () => string;
  /** SIGTERM, then the exit code (null if killed by a signal). */
  stop(): Promise<number | null>;
  readonly pid: number;
  /** Sends a signal (e.g. SIGKILL) and resolves at exit, with the code or the signal. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The environment emitted servers and their CLI run with in tests. With `dir`, the
 * database is that build's (see buildFixture); `env` overrides everything.
 */
export function serverEnv(env: Record<string, string> = {}, dir?: string): NodeJS.ProcessEnv {
  const database = dir === undefined ? undefined : builds.get(path.resolve(dir))?.database;
  return {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: database?.url ?? 'file:./data/test.db',
    NODE_ENV: 'test',
    ...env,
  };
}

/** The Node.js arguments that run the emitted server from source. */
export const serverCommand = ['--import', 'tsx', 'src/server.ts'] as const;

export async function startServer(outDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [...serverCommand], {
    cwd: outDir,
    env: serverEnv(env, outDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const { url, output } = await listeningUrl(child, 60_000);
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  return {
    url,
    output,
    pid: child.pid!,
    exited,
    kill,
    stop: async () => (await kill('SIGTERM')).code,
  };
}

/**
 * Collects a started server's output and resolves with its URL once it logs `listening on`;
 * rejects (killing it) after `timeoutMs`, or when it exits first, with what it printed.
 */
export function listeningUrl(child: ChildProcess, timeoutMs: number): Promise<{ url: string; output: () => string }> {
  let text = '';
  const output = () => text;
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs / 1000} s:\n${text}`));
    }, timeoutMs);
    child.stdout!.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1]!, output });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${text}`));
    });
  });
}

export { repoRoot };

const run = promisify(execFile);

export interface ApiTokenRequest {
  readonly type: 'read-only' | 'full-access' | 'custom';
  /** Default: a unique name. */
  readonly name?: string;
  readonly actions?: readonly string[];
  readonly lifespanDays?: number;
}

/**
 * Creates an API token with the emitted server's own CLI (`npm run token -- create`, run
 * from source like the server) against the database the server uses; returns the access key.
 */
export async function createApiToken(outDir: string, request: ApiTokenRequest, env: Record<string, string> = {}): Promise<string> {
  const args = ['create', '--json', '--name', request.name ?? `test-${request.type}-${process.hrtime.bigint()}`, '--type', request.type];
  if (request.actions) args.push('--actions', request.actions.join(','));
  if (request.lifespanDays !== undefined) args.push('--lifespan', String(request.lifespanDays));
  const { stdout } = await tokenCli(outDir, args, env);
  return (JSON.parse(stdout) as { accessKey: string }).accessKey;
}

/** Runs the emitted token CLI (src/token.ts); rejects on a non-zero exit, with its output. */
export async function tokenCli(outDir: string, args: readonly string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, ['--import', 'tsx', 'src/token.ts', ...args], { cwd: outDir, env: serverEnv(env, outDir), encoding: 'utf8' });
}

/** `Authorization: Bearer <token>` */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * Replaces the built server's src/config.ts (user settings) with these
 * `plugins['users-permissions']` settings, before the server starts.
 */
export async function writeUsersPermissionsConfig(outDir: string, settings: Record<string, unknown>): Promise<void> {
  await writeUserConfig(outDir, { plugins: { 'users-permissions': settings } });
}

/** Replaces the built server's src/config.ts (user settings) with `config`, before the server starts. */
export async function writeUserConfig(outDir: string, config: Record<string, unknown>): Promise<void> {
  const text = [
    "import type { UserConfig } from './runtime/config.js';",
    '',
    `export default ${JSON.stringify(config, null, 2)} satisfies UserConfig;`,
    '',
  ].join('\n');
  await writeFile(path.join(outDir, 'src/config.ts'), text);
}

/** A fixture's server for one `describe`: its JSON client and a full-access API token's headers. */
export interface FixtureServer {
  readonly built: BuiltServer;
  readonly server: RunningServer;
  readonly api: ReturnType<typeof client>;
  readonly auth: Record<string, string>;
}

/**
 * Builds `fixture`, starts it and makes a full-access API token before the enclosing
 * `describe`'s tests, and stops and removes it after them. Read the fields inside tests (they
 * are set by `beforeAll`).
 */
export function useFixtureServer(fixture: string): FixtureServer {
  const handle = {} as { -readonly [K in keyof FixtureServer]: FixtureServer[K] };
  beforeAll(async () => {
    handle.built = await buildFixture(fixture);
    handle.server = await startServer(handle.built.dir);
    handle.auth = bearer(await createApiToken(handle.built.dir, { type: 'full-access' }));
    handle.api = client(handle.server.url);
  }, 600_000);
  afterAll(async () => {
    await handle.server?.stop();
    await handle.built?.cleanup();
  });
  return handle;
}
