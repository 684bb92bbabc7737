/**
 * Builds a fixture into a temporary folder, generates its Prisma client and starts the
 * emitted server as its own process on an ephemeral port, on a fresh database.
 *
 * Every route is guarded by the users-permissions plugin: tests that write authenticate,
 * e.g. with a full-access API token made by the emitted token CLI (`createApiToken`).
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { build } from '../../generator/pipeline.js';
import type { Provider } from '../../generator/ir/scalars.js';
import { modelsOf, repoRoot, tempDir } from './paths.js';

export interface BuiltServer {
  readonly dir: string;
  cleanup(): Promise<void>;
}

export async function buildFixture(fixture: string, provider: Provider = 'sqlite'): Promise<BuiltServer> {
  return buildModels(modelsOf(fixture), fixture, provider);
}

/** Like buildFixture, for any models folder (`label` names the temporary folder). */
export async function buildModels(modelsDir: string, label: string, provider: Provider = 'sqlite'): Promise<BuiltServer> {
  const dir = await tempDir(`server-${label}`);
  const outDir = path.join(dir, 'out');
  const result = await build({ modelsDir, outDir, provider, check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(`build of ${label} failed: ${JSON.stringify(result)}`);
  const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: outDir, encoding: 'utf8' });
  if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
  return { dir: outDir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningServer {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<number | null>;
}

/** The environment emitted servers and their CLI run with in tests (same database). */
export function serverEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'file:./data/test.db', NODE_ENV: 'test', ...env };
}

export async function startServer(outDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: outDir,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start within 30 s:\n${output}`)), 30_000);
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      }),
  };
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
  return run(process.execPath, ['--import', 'tsx', 'src/token.ts', ...args], { cwd: outDir, env: serverEnv(env), encoding: 'utf8' });
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
  const text = [
    "import type { UserConfig } from './runtime/config.js';",
    '',
    `export default ${JSON.stringify({ plugins: { 'users-permissions': settings } }, null, 2)} satisfies UserConfig;`,
    '',
  ].join('\n');
  await writeFile(path.join(outDir, 'src/config.ts'), text);
}
