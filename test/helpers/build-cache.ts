/**
 * One emitted build per models folder and provider, shared by every test file (and every
 * run) that asks for it: building and `prisma generate` cost seconds, copying the result
 * into a test's own folder costs milliseconds.
 *
 * Builds are deterministic, so the cache is keyed by content: the models files, the
 * provider, and everything that shapes the output (generator/, templates/, the lockfile).
 * An edit to any of them is a new key. Entries live in `.tmp/build-cache/<key>/out`;
 * concurrent workers coordinate with a lock folder, so each key is built once. Builds run
 * `bin/contentgen.js` in a child process, exactly as a user would.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import type { Provider } from '../../generator/ir/scalars.js';
import { repoRoot } from './paths.js';

const cacheRoot = path.join(repoRoot, '.tmp', 'build-cache');
/** Entries unused for this long are removed when a new entry is made. */
const maxAgeMs = 2 * 24 * 3600 * 1000;
/** A lock older than this belongs to a build that died. */
const staleLockMs = 5 * 60 * 1000;

function hashTree(hash: ReturnType<typeof createHash>, root: string, dir = root): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) hashTree(hash, root, full);
    else if (entry.isFile()) hash.update(`${path.relative(root, full)}\0`).update(readFileSync(full)).update('\0');
  }
}

let toolHash: string | undefined;

/** The generator's own inputs, hashed once per process. */
function generatorHash(): string {
  if (toolHash === undefined) {
    const hash = createHash('sha256');
    for (const dir of ['generator', 'templates']) hashTree(hash, path.join(repoRoot, dir));
    for (const file of ['package-lock.json', 'package.json']) {
      const full = path.join(repoRoot, file);
      if (existsSync(full)) hash.update(readFileSync(full));
    }
    toolHash = hash.digest('hex');
  }
  return toolHash;
}

export function buildKey(modelsDir: string, provider: Provider, codeDir?: string): string {
  const hash = createHash('sha256').update(generatorHash()).update(`\0${provider}\0`);
  hashTree(hash, modelsDir);
  if (codeDir) hashTree(hash.update('\0code\0'), codeDir);
  return hash.digest('hex').slice(0, 24);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The folder of a finished build of `modelsDir` for `provider` (with its Prisma client
 * generated). Never start a server in it or write to it: copy it (see helpers/server.ts).
 */
export async function cachedBuild(modelsDir: string, provider: Provider, codeDir?: string): Promise<string> {
  const key = buildKey(modelsDir, provider, codeDir);
  const entry = path.join(cacheRoot, key);
  const outDir = path.join(entry, 'out');
  const lock = path.join(cacheRoot, `${key}.lock`);
  await mkdir(cacheRoot, { recursive: true });
  for (;;) {
    if (existsSync(outDir)) {
      const now = new Date();
      await utimes(entry, now, now).catch(() => {});
      return outDir;
    }
    try {
      await mkdir(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > staleLockMs) await rm(lock, { recursive: true, force: true });
      else await sleep(200);
      continue;
    }
    try {
      if (!existsSync(outDir)) await buildInto(modelsDir, provider, entry, codeDir);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
    await pruneOldEntries();
  }
}

async function buildInto(modelsDir: string, provider: Provider, entry: string, codeDir?: string): Promise<void> {
  const staging = `${entry}.staging-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const outDir = path.join(staging, 'out');
  try {
    await buildWithUserCode(modelsDir, outDir, provider, codeDir);
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: outDir, encoding: 'utf8' });
    if (generate.status !== 0) throw new Error(`prisma generate failed:\n${generate.stdout}\n${generate.stderr}`);
    await rename(staging, entry);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * `contentgen build` as a user runs it (a process of its own: the generator loads the user's
 * TypeScript with tsx, which must not mix with vitest's module graph). With `codeDir` (a
 * fixture's own src/ files), as a user who customises: a first build creates the folder,
 * the code is written into it, a second build picks it up. The first build leaves out
 * permissions.json, which may grant the custom routes' actions only the second build knows.
 */
export async function buildWithUserCode(modelsDir: string, outDir: string, provider: Provider, codeDir?: string): Promise<void> {
  const build = (models: string) => {
    const cli = spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', models, '-o', outDir, '--db', provider], { encoding: 'utf8' });
    if (cli.status !== 0) throw new Error(`contentgen build ${models} --db ${provider} failed:\n${cli.stdout}\n${cli.stderr}`);
  };
  if (codeDir) {
    const firstModels = `${outDir}.models`;
    await cp(modelsDir, firstModels, { recursive: true });
    await rm(path.join(firstModels, 'permissions.json'), { force: true });
    try {
      build(firstModels);
    } finally {
      await rm(firstModels, { recursive: true, force: true });
    }
    await cp(codeDir, outDir, { recursive: true, force: true });
  }
  build(modelsDir);
}

async function pruneOldEntries(): Promise<void> {
  for (const name of await readdir(cacheRoot).catch(() => [] as string[])) {
    if (name.endsWith('.lock')) continue;
    const full = path.join(cacheRoot, name);
    try {
      if (Date.now() - statSync(full).mtimeMs > maxAgeMs) await rm(full, { recursive: true, force: true });
    } catch {
      // removed by another worker meanwhile
    }
  }
}
