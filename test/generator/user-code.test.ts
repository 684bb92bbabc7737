/**
 * The user's code in the output folder, as the build sees it: one src/api/<name>.ts per type
 * and src/index.ts created once; custom routes' actions known to permissions.json; policies
 * and middlewares listed in src/generated/user-code.ts; a src/api file whose type left the
 * models kept, with a warning. The real CLI in a child process (it loads user TypeScript).
 */
import { execFile } from 'node:child_process';
import { cp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';

const exec = promisify(execFile);

let dir: string;
let models: string;
let out: string;

beforeEach(async () => {
  dir = await tempDir('user-code');
  models = path.join(dir, 'models');
  out = path.join(dir, 'out');
  await cp(modelsOf('app'), models, { recursive: true });
  await rm(path.join(models, 'permissions.json'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function build(...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', models, '-o', out, ...extra], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

const read = (rel: string) => readFile(path.join(out, rel), 'utf8');

describe('user code in the output folder', () => {
  it('creates src/index.ts and one src/api file per content type, typed with its entries, and never rewrites them', async () => {
    expect((await build()).code).toBe(0);
    const api = await read('src/api/article.ts');
    expect(api).toContain("export default defineContentApi<ArticleEntry, ArticleInput>('api::article.article', {});");
    expect(api.split('\n')[0]).toBe('// Created once by contentgen; this file is yours to edit and is never overwritten.');
    expect(await read('src/index.ts')).toContain('export default defineApp({');
    await writeFile(path.join(out, 'src/api/article.ts'), api.replace('{});', '{ routes: { except: [] } });'));
    expect((await build()).code).toBe(0);
    expect(await read('src/api/article.ts')).toContain('{ routes: { except: [] } });');
  });

  it('a custom route makes its action grantable; an unknown one is a model error naming the file', async () => {
    expect((await build()).code).toBe(0);
    await writeFile(path.join(models, 'permissions.json'), JSON.stringify({ authenticated: ['api::article.article.publishAll'] }));
    const refused = await build();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('permissions.json /authenticated/0: role "authenticated": unknown action "publishAll" in "api::article.article.publishAll"');
    const api = await read('src/api/article.ts');
    await writeFile(
      path.join(out, 'src/api/article.ts'),
      api.replace('{});', "{ controllers: () => ({ async publishAll() { return { ok: true }; } }), routes: { custom: [{ method: 'POST', path: '/articles/publish-all', handler: 'publishAll' }] } });"),
    );
    expect((await build()).code).toBe(0);
    const permissions = await read('src/generated/permissions.ts');
    expect(permissions).toContain("'api::article.article.publishAll'");
  });

  it('lists src/policies and src/middlewares in src/generated/user-code.ts', async () => {
    expect((await build()).code).toBe(0);
    expect(await read('src/generated/user-code.ts')).toContain('policies: {},');
    await mkdir(path.join(out, 'src/policies'), { recursive: true });
    await mkdir(path.join(out, 'src/middlewares'), { recursive: true });
    await writeFile(path.join(out, 'src/policies/is-owner.ts'), "export default () => true;\n");
    await writeFile(path.join(out, 'src/middlewares/2-audit.ts'), "export default () => async (_ctx: unknown, next: () => Promise<void>) => next();\n");
    expect((await build()).code).toBe(0);
    const listed = await read('src/generated/user-code.ts');
    expect(listed).toContain("import isOwnerPolicy from '../policies/is-owner.js';");
    expect(listed).toContain("import _2AuditMiddleware from '../middlewares/2-audit.js';");
    expect(listed).toContain("policies: { 'is-owner': isOwnerPolicy },");
    expect(listed).toContain("middlewares: { '2-audit': _2AuditMiddleware },");
  });

  it('keeps the src/api file of a type that left the models, warns, and no longer serves it', async () => {
    expect((await build()).code).toBe(0);
    const edited = (await read('src/api/author.ts')).replace('{});', '{ routes: { except: [] } });');
    await writeFile(path.join(out, 'src/api/author.ts'), edited);
    // Remove the author type and the relation to it.
    await rm(path.join(models, 'api/author'), { recursive: true });
    const schemaFile = path.join(models, 'api/article/content-types/article/schema.json');
    const schema = JSON.parse(await readFile(schemaFile, 'utf8'));
    delete schema.attributes.author;
    await writeFile(schemaFile, JSON.stringify(schema));
    const rebuilt = await build();
    expect(rebuilt.code, rebuilt.stderr).toBe(1); // dropping a table is data loss: refused first
    const accepted = await build('--accept-data-loss');
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stderr).toContain('contentgen: warning: src/api/author.ts is kept, but its content type is no longer in the models');
    expect(await read('src/api/author.ts')).toBe(edited);
    expect(await read('src/generated/user-code.ts')).not.toContain('author');
  });
});

