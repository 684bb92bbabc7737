/**
 * The generated server under test: the blog fixture built into `.tmp/bench-*` for the
 * database measured, its Prisma client generated and its TypeScript compiled, then started
 * the production way (`node dist/server.js`), so tsx is not part of what is measured. A
 * folder under the repository's .tmp/ resolves its dependencies from the repository's
 * node_modules. Every process started on one build shares its environment (database URL,
 * secrets), as several processes behind a load balancer would.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { build } from '../generator/pipeline.js';
import type { TestProvider } from '../test/helpers/databases.js';
import { modelsOf, repoRoot, tempDir } from '../test/helpers/paths.js';
import { startNode, type ServerProcess } from './processes.js';

export interface GeneratedServer {
  /** The temporary folder to remove at the end (the emitted server is `dir/out`). */
  readonly tempRoot: string;
  readonly dir: string;
  /** SQLite file the server writes and the baseline reads; null on PostgreSQL/MariaDB. */
  readonly databaseFile: string | null;
  readonly env: NodeJS.ProcessEnv;
  /** SHA-256 of the emitted files' hashes (from .contentgen/manifest.json): which output was measured. */
  readonly emittedSha256: string;
  /** Full-access API token, or null when the server has no `token` script (no auth). */
  token: string | null;
}

/** SQLite: a file in the build's data/ folder. */
const SQLITE_URL = 'file:./data/bench.db';

export interface BuildGeneratedOptions {
  readonly provider: TestProvider;
  /** PostgreSQL/MariaDB: the (empty) database to use; SQLite uses a file of the build. */
  readonly databaseUrl?: string;
  /** Told the temporary folder as soon as it exists, so that it is removed whatever happens. */
  readonly onTempDir: (dir: string) => void;
}

function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): string {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) {
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    throw new Error(`${[command, ...args].join(' ')} (in ${cwd}) failed: ${why}\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Builds the blog fixture for `provider`, generates its Prisma client and compiles it. */
export async function buildGenerated(options: BuildGeneratedOptions): Promise<GeneratedServer> {
  const { provider } = options;
  if ((provider === 'sqlite') !== (options.databaseUrl === undefined)) throw new Error('a database URL is needed for PostgreSQL/MariaDB only');
  const tempRoot = await tempDir(`bench-${provider}`);
  options.onTempDir(tempRoot);
  const dir = path.join(tempRoot, 'out');
  const result = await build({ modelsDir: modelsOf('blog'), outDir: dir, provider, check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(`build of the blog fixture failed: ${JSON.stringify(result)}`);

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: options.databaseUrl ?? SQLITE_URL,
    // Production refuses to start without secrets; fixed per run, shared by server and token CLI.
    JWT_SECRET: randomBytes(32).toString('base64'),
    API_TOKEN_SALT: randomBytes(32).toString('base64'),
  };
  delete env.SERVER_TIMING;
  run(process.execPath, ['scripts/prisma-generate.mjs'], dir, env, 120_000);
  run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], dir, env, 180_000);
  const manifest = JSON.parse(readFileSync(path.join(dir, '.contentgen/manifest.json'), 'utf8')) as { files?: unknown };
  const emittedSha256 = createHash('sha256').update(JSON.stringify(manifest.files ?? manifest)).digest('hex');
  const databaseFile = provider === 'sqlite' ? path.join(dir, 'data/bench.db') : null;
  return { tempRoot, dir, databaseFile, env, emittedSha256, token: null };
}

/**
 * Creates a full-access API token with the server's own CLI when it has one (it also applies
 * the migrations). Returns null for a server without authentication.
 */
export function createToken(server: GeneratedServer, name = 'bench'): string | null {
  const pkg = JSON.parse(readFileSync(path.join(server.dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  if (!pkg.scripts?.['token']) return null;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const stdout = run(npm, ['run', '--silent', 'token', '--', 'create', '--name', name, '--type', 'full-access'], server.dir, server.env, 180_000);
  // The key is printed alone on the last non-empty line (hex); take the longest such line.
  const candidates = stdout.split('\n').map((l) => l.trim()).filter((l) => /^[A-Za-z0-9_-]{32,}$/.test(l));
  const token = candidates.at(-1);
  if (!token) throw new Error(`npm run token printed no token:\n${stdout}`);
  return token;
}

export interface StartGeneratedOptions {
  readonly name?: string;
  readonly serverTiming?: boolean;
  /** Extra node options, e.g. `--cpu-prof`. */
  readonly nodeArgs?: readonly string[];
  /** Extra environment variables, e.g. `LOG_QUERIES: '1'`. */
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * The node options of the emitted `npm start` (`node <options> dist/server.js`), so the bench
 * runs the server as production does, minus npm and the compile step.
 */
function startScriptNodeOptions(dir: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  // `exec node <options> dist/server.js`: exec is the shell's, not an option of node.
  const words = (pkg.scripts?.['start'] ?? '').split(/\s+/).filter((word, i) => !(i === 0 && word === 'exec'));
  const entry = words.indexOf('dist/server.js');
  return words[0] === 'node' && entry > 0 ? words.slice(1, entry) : [];
}

/** `node <npm start's options> dist/server.js` in the emitted folder. */
export function startGenerated(server: GeneratedServer, options: StartGeneratedOptions = {}): Promise<ServerProcess> {
  if (!existsSync(path.join(server.dir, 'dist/server.js'))) throw new Error(`${server.dir}/dist/server.js is missing: compile first`);
  return startNode({
    name: options.name ?? 'generated server',
    args: [...startScriptNodeOptions(server.dir), ...(options.nodeArgs ?? []), 'dist/server.js'],
    cwd: server.dir,
    env: { ...server.env, ...(options.serverTiming ? { SERVER_TIMING: '1' } : {}), ...options.env },
  });
}

/** Headers for every request to the generated server (the token, if there is one). */
export function authHeaders(token: string | null): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}
