import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const fixturesDir = path.join(repoRoot, 'fixtures');

/**
 * Temporary folders live under the repository's .tmp/, not /tmp: an emitted server built
 * there resolves its dependencies from the repository's node_modules, so the suite
 * installs them once, not once per test.
 */
export async function tempDir(prefix: string): Promise<string> {
  const { mkdir } = await import('node:fs/promises');
  const base = path.join(repoRoot, '.tmp');
  await mkdir(base, { recursive: true });
  return mkdtemp(path.join(base, `${prefix}-`));
}

/** Writes model files (`rel path → JSON`) into a temporary folder, runs `run` on it, removes it. */
export async function withModelFiles<T>(prefix: string, files: Record<string, unknown>, run: (dir: string) => Promise<T>): Promise<T> {
  const { mkdir, rm, writeFile } = await import('node:fs/promises');
  const dir = await tempDir(prefix);
  try {
    for (const [rel, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
      await writeFile(path.join(dir, rel), JSON.stringify(content, null, 2));
    }
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function modelsOf(fixture: string): string {
  return path.join(fixturesDir, fixture, 'models');
}

/** A fixture's own src/ files (fixtures/<name>/code), written into its build: user code. */
export function codeOf(fixture: string): string | undefined {
  const dir = path.join(fixturesDir, fixture, 'code');
  return existsSync(dir) ? dir : undefined;
}
