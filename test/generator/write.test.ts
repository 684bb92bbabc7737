/**
 * The write stage on disk: first build, rebuilds, user-owned files, stale files,
 * migrations on model changes, refused data loss, and --check.
 */
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { modelsOf, tempDir } from '../helpers/paths.js';

let dir: string;
let models: string;
let out: string;

beforeEach(async () => {
  dir = await tempDir('write');
  models = path.join(dir, 'models');
  out = path.join(dir, 'out');
  await cp(modelsOf('blog'), models, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const build = (...extra: string[]) => runCli('build', models, '-o', out, ...extra);
const articleSchema = () => path.join(models, 'api/article/content-types/article/schema.json');

async function editArticle(edit: (json: any) => void): Promise<void> {
  const json = JSON.parse(await readFile(articleSchema(), 'utf8'));
  edit(json);
  await writeFile(articleSchema(), JSON.stringify(json, null, 2));
}

describe('write stage', () => {
  it('a rebuild of unchanged models writes nothing and adds no migration', async () => {
    expect((await build()).code).toBe(0);
    const second = await build();
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('(0 written, 0 removed)');
    expect(await readdir(path.join(out, 'prisma/migrations'))).toEqual(['0001_init', 'migration_lock.toml']);
  });

  it('never overwrites a user-owned file', async () => {
    await build();
    const config = path.join(out, 'src/config.ts');
    await writeFile(config, '// mine\nexport default {};\n');
    await editArticle((json) => (json.attributes.subtitle = { type: 'string' }));
    expect((await build()).code).toBe(0);
    expect(await readFile(config, 'utf8')).toBe('// mine\nexport default {};\n');
  });

  it('adds a migration when a model changes, and removes files of a removed type', async () => {
    await build();
    await editArticle((json) => (json.attributes.subtitle = { type: 'string' }));
    await rm(path.join(models, 'api/tag'), { recursive: true });
    await editArticle((json) => delete json.attributes.tags);
    // The seo component's tags target the type too.
    const seoFile = path.join(models, 'components/shared/seo.json');
    const seo = JSON.parse(await readFile(seoFile, 'utf8'));
    delete seo.attributes.tags;
    await writeFile(seoFile, JSON.stringify(seo, null, 2));
    const permissions = JSON.parse(await readFile(path.join(models, 'permissions.json'), 'utf8'));
    permissions.public = permissions.public.filter((a: string) => !a.startsWith('api::tag.'));
    await writeFile(path.join(models, 'permissions.json'), JSON.stringify(permissions));
    const result = await build('--accept-data-loss');
    expect(result.code).toBe(0);
    const migrations = await readdir(path.join(out, 'prisma/migrations'));
    expect(migrations).toEqual(['0001_init', '0002_article_article_draft_article_tags_link_and_1_more', 'migration_lock.toml']);
    const sql = await readFile(path.join(out, 'prisma/migrations/0002_article_article_draft_article_tags_link_and_1_more/migration.sql'), 'utf8');
    expect(sql).toContain('"subtitle" TEXT');
    expect(sql).toMatch(/DROP TABLE "tags"/);
    await expect(readFile(path.join(out, 'src/generated/content-types/tag.ts'))).rejects.toThrow();
    expect(await readFile(path.join(out, 'prisma/migrations/0001_init/migration.sql'), 'utf8')).toContain('CREATE TABLE "tags"');
  });

  it('refuses a data-losing change without --accept-data-loss and writes nothing', async () => {
    await build();
    const before = await readFile(path.join(out, 'prisma/schema.prisma'), 'utf8');
    await editArticle((json) => delete json.attributes.description);
    const result = await build();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('would lose data');
    expect(result.stderr).toContain('description');
    expect(await readFile(path.join(out, 'prisma/schema.prisma'), 'utf8')).toBe(before);
    expect(await readdir(path.join(out, 'prisma/migrations'))).toEqual(['0001_init', 'migration_lock.toml']);
  });

  it('refuses to write into a folder it did not create', async () => {
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'important.txt'), 'keep me');
    const result = await build();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('was not written by contentgen');
    expect(await readFile(path.join(out, 'important.txt'), 'utf8')).toBe('keep me');
    expect(await readdir(out)).toEqual(['important.txt']);
  });

  it('--check: exit 0 when current, 1 listing stale files, and never writes', async () => {
    await build();
    expect((await build('--check')).code).toBe(0);
    await writeFile(path.join(out, 'src/generated/content-types/tag.ts'), '// edited by hand\n');
    await editArticle((json) => (json.attributes.subtitle = { type: 'string' }));
    const check = await build('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(/edited by hand\s+src\/generated\/content-types\/tag\.ts/);
    expect(check.stderr).toMatch(/differs\s+prisma\/schema\.prisma/);
    expect(check.stderr).toMatch(/missing\s+prisma\/migrations\/0002_article_article_draft\/migration\.sql/);
    expect(await readFile(path.join(out, 'src/generated/content-types/tag.ts'), 'utf8')).toBe('// edited by hand\n');
  });
});

describe('determinism', () => {
  it('two builds into different folders give byte-identical trees', async () => {
    const other = path.join(dir, 'out2');
    await build();
    await runCli('build', models, '-o', other, '--name', 'content-server');
    const list = async (root: string, rel = ''): Promise<string[]> => {
      const entries = await readdir(path.join(root, rel), { withFileTypes: true });
      const files: string[] = [];
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) files.push(...(await list(root, p)));
        else files.push(p);
      }
      return files;
    };
    const files = await list(out);
    expect(await list(other)).toEqual(files);
    for (const file of files) expect(await readFile(path.join(other, file), 'utf8'), file).toBe(await readFile(path.join(out, file), 'utf8'));
  });
});

describe('cli', () => {
  it('--help and build --help explain every option', async () => {
    const top = await runCli('--help');
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('contentgen build <project-or-models-dir>');
    const help = await runCli('build', '--help');
    for (const flag of ['--out', '--db', '--check', '--accept-data-loss', '--force', '--name']) expect(help.stdout).toContain(flag);
  });

  it('exit 2 on wrong usage', async () => {
    expect((await runCli('build')).code).toBe(2);
    expect((await runCli('build', models, '--db', 'oracle')).code).toBe(2);
    expect((await runCli('frobnicate')).code).toBe(2);
  });
});
