/**
 * Builds a fixture into a temporary folder, generates its Prisma client and starts the
 * emitted server as its own process on an ephemeral port, on a fresh database.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { build } from '../../generator/pipeline.js';
import type { Provider } from '../../generator/ir/scalars.js';
import { modelsOf, repoRoot, tempDir } from './paths.js';

export interface BuiltServer {
  readonly dir: string;
  cleanup(): Promise<void>;
}

export async function buildFixture(fixture: string, provider: Provider = 'sqlite'): Promise<BuiltServer> {
  const dir = await tempDir(`server-${fixture}`);
  const outDir = path.join(dir, 'out');
  const result = await build({ modelsDir: modelsOf(fixture), outDir, provider, check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(`build of ${fixture} failed: ${JSON.stringify(result)}`);
  const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: outDir, encoding: 'utf8' });
  if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
  return { dir: outDir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface RunningServer {
  readonly url: string;
  readonly output: () => string;
  stop(): Promise<number | null>;
}

export async function startServer(outDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: outDir,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: 'file:./data/test.db', NODE_ENV: 'test', ...env },
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
