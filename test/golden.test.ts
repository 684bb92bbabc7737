/**
 * Golden test: the emitted tree of each fixture, built in memory, equals the checked-in
 * fixtures/<name>/expected/. `npm run golden:update` rewrites them; read the diff.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../generator/pipeline.js';
import { fixturesDir, modelsOf, repoRoot } from './helpers/paths.js';
import { bannerText } from '../generator/write/banner.js';

const fixtures = ['blog', 'edge', 'i18n'];
const update = process.env.UPDATE_GOLDEN === '1';

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out.sort();
}

describe.each(fixtures)('golden: %s', (fixture) => {
  it('emits exactly the expected files', async () => {
    const expectedDir = path.join(fixturesDir, fixture, 'expected');
    // A folder that does not exist: the build is a first build, with migration 0001_init.
    const result = await generate({ modelsDir: modelsOf(fixture), outDir: path.join(expectedDir, '.never-written'), provider: 'sqlite', check: false, acceptDataLoss: false });
    if (!result.ok) throw new Error(JSON.stringify(result, null, 2));
    // The runtime is tested where it lives (templates/runtime); its copy is checked below, not kept in goldens.
    const files = result.files.files().filter((f) => !f.path.startsWith('src/runtime/'));

    if (update) {
      await rm(expectedDir, { recursive: true, force: true });
      for (const file of files) {
        await mkdir(path.dirname(path.join(expectedDir, file.path)), { recursive: true });
        await writeFile(path.join(expectedDir, file.path), file.content);
      }
    }

    expect(files.map((f) => f.path)).toEqual(await listFiles(expectedDir));
    for (const file of files) {
      expect(file.content, file.path).toBe(await readFile(path.join(expectedDir, file.path), 'utf8'));
    }
  });

  it('copies the runtime byte for byte, under the banner', async () => {
    const result = await generate({ modelsDir: modelsOf(fixture), outDir: path.join(fixturesDir, fixture, 'expected', '.never-written'), provider: 'sqlite', check: false, acceptDataLoss: false });
    if (!result.ok) throw new Error(JSON.stringify(result));
    const runtime = result.files.files().filter((f) => f.path.startsWith('src/runtime/'));
    expect(runtime.length).toBeGreaterThan(10);
    for (const file of runtime) {
      const source = await readFile(path.join(repoRoot, 'templates/runtime', file.path.slice('src/runtime/'.length)), 'utf8');
      expect(file.content).toBe(`// ${bannerText}\n${source}`);
    }
  });
});
