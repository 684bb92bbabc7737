/**
 * The repository's out/ is the committed build of the demo fixture, as a user would commit
 * it; `contentgen build --check` keeps it from drifting. Also type-checks an emitted tree.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.js';
import { buildFixture, type BuiltServer } from '../helpers/server.js';
import { modelsOf, repoRoot } from '../helpers/paths.js';

describe('committed out/', () => {
  it('is what `contentgen build fixtures/blog/models -o out` emits', async () => {
    let stderr = '';
    const code = await main(['build', modelsOf('blog'), '-o', path.join(repoRoot, 'out'), '--check'], { write: () => true } as never, { write: (s: string) => ((stderr += s), true) } as never);
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe.each(['blog', 'edge'])('emitted %s server', (fixture) => {
  let built: BuiltServer;
  beforeAll(async () => {
    built = await buildFixture(fixture);
  });
  afterAll(async () => built?.cleanup());

  it('type-checks with its generated Prisma client (tsc --noEmit, strict)', () => {
    const tsc = path.join(repoRoot, 'node_modules/typescript/bin/tsc');
    const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: built.dir, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});
