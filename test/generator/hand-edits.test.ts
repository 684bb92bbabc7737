/**
 * Nothing the user wrote is lost: a generated file edited by hand since the last build makes
 * the next build refuse (exit 1, the file listed, nothing written) unless --force; user files
 * and migrations are never touched; migrations are headed as files to review; .gitattributes
 * marks the generated files. Refusals run the real CLI (bin/contentgen.js) in a child process.
 */
import { execFile } from 'node:child_process';
import { cp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.js';
import { bannerText, hasBanner, migrationText } from '../../generator/write/banner.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';

const exec = promisify(execFile);

let dir: string;
let models: string;
let out: string;

beforeEach(async () => {
  dir = await tempDir('hand-edits');
  models = path.join(dir, 'models');
  out = path.join(dir, 'out');
  await cp(modelsOf('blog'), models, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** In process, like test/generator/write.test.ts: fast, for the builds that set a test up. */
async function build(...extra: string[]): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) => ({ write: (s: string) => (append(s), true) }) as never;
  const code = await main(['build', models, '-o', out, ...extra], sink((s) => (stdout += s)), sink((s) => (stderr += s)));
  return { code, stdout, stderr };
}

/** The real CLI in a process of its own, as a user runs it. */
async function cli(...extra: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', models, '-o', out, ...extra], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const error = e as { code: number; stdout: string; stderr: string };
    return { code: error.code, stdout: error.stdout, stderr: error.stderr };
  }
}

/** Every file under a folder (relative path → content), and the folder's siblings. */
async function snapshot(root: string): Promise<{ files: Map<string, string>; siblings: string[] }> {
  const files = new Map<string, string>();
  const walk = async (rel: string): Promise<void> => {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(p);
      else files.set(p, await readFile(path.join(root, p), 'utf8'));
    }
  };
  await walk('');
  return { files, siblings: (await readdir(path.dirname(root))).sort() };
}

const article = () => path.join(models, 'api/article/content-types/article/schema.json');
async function addSubtitle(): Promise<void> {
  const json = JSON.parse(await readFile(article(), 'utf8'));
  json.attributes.subtitle = { type: 'string' };
  await writeFile(article(), JSON.stringify(json, null, 2));
}
async function removeTagType(): Promise<void> {
  await rm(path.join(models, 'api/tag'), { recursive: true });
  const json = JSON.parse(await readFile(article(), 'utf8'));
  delete json.attributes.tags;
  await writeFile(article(), JSON.stringify(json, null, 2));
  // The seo component's tags target the type too.
  const seoFile = path.join(models, 'components/shared/seo.json');
  const seo = JSON.parse(await readFile(seoFile, 'utf8'));
  delete seo.attributes.tags;
  await writeFile(seoFile, JSON.stringify(seo, null, 2));
  const permissionsFile = path.join(models, 'permissions.json');
  const permissions = JSON.parse(await readFile(permissionsFile, 'utf8'));
  permissions.public = permissions.public.filter((a: string) => !a.startsWith('api::tag.'));
  await writeFile(permissionsFile, JSON.stringify(permissions));
}

const at = (rel: string) => path.join(out, rel);
const read = (rel: string) => readFile(at(rel), 'utf8');
const generatedFile = 'src/generated/content-types/article.ts';

describe('hand edits to generated files', () => {
  it('make the next build refuse with exit 1, listing the file, and change nothing on disk', async () => {
    expect((await build()).code).toBe(0);
    const edited = `${await read(generatedFile)}// my fix\n`;
    await writeFile(at(generatedFile), edited);
    await addSubtitle(); // the build would also write a migration and rewrite other files
    const before = await snapshot(out);

    const refused = await cli();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`1 generated file in ${out} was edited by hand since the last build; nothing was written.`);
    expect(refused.stderr).toContain(`\n  ${generatedFile}\n`);
    expect(refused.stderr).toMatch(/generated \(headed DO NOT EDIT\)/);
    expect(refused.stderr).toContain('src/config.ts');
    expect(refused.stderr).toContain('src/extensions/');
    expect(refused.stderr).toContain('--force');
    expect(refused.stdout).toBe('');
    expect(await snapshot(out)).toEqual(before); // no staging folder left beside out/ either

    const check = await build('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toMatch(new RegExp(`edited by hand\\s+${generatedFile.replace(/[./]/g, '\\$&')}\\n`));
    expect(check.stderr).toMatch(/differs\s+prisma\/schema\.prisma/);
    expect(check.stderr).toContain('--force');
    expect(await snapshot(out)).toEqual(before);
  });

  it('--force overwrites them', async () => {
    await build();
    const original = await read(generatedFile);
    await writeFile(at(generatedFile), `${original}// my fix\n`);
    expect((await cli()).code).toBe(1);

    const forced = await cli('--force');
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`--force discarded hand edits in 1 file(s): ${generatedFile}`);
    expect(await read(generatedFile)).toBe(original);
    expect((await build()).code).toBe(0); // the manifest matches again
    expect((await build('--check')).code).toBe(0);
  });

  it('a generated file deleted by hand is simply written again', async () => {
    await build();
    const original = await read(generatedFile);
    await rm(at(generatedFile));
    const rebuilt = await build();
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toContain('(1 written, 0 removed)');
    expect(await read(generatedFile)).toBe(original);
  });

  it('an edited file that is no longer generated refuses too; --force removes it', async () => {
    await build();
    const tag = 'src/generated/content-types/tag.ts';
    await writeFile(at(tag), `${await read(tag)}// my fix\n`);
    await removeTagType();
    const before = await snapshot(out);

    const refused = await cli('--accept-data-loss');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`\n  ${tag} (no longer generated: the build would delete it)\n`);
    expect(refused.stderr).toContain('1 generated file'); // the others of the type were not edited: removed without asking
    expect(await snapshot(out)).toEqual(before);
    expect((await build('--check', '--accept-data-loss')).stderr).toMatch(/edited by hand, would be removed\s+src\/generated\/content-types\/tag\.ts/);

    expect((await build('--accept-data-loss', '--force')).code).toBe(0);
    await expect(read(tag)).rejects.toThrow(/ENOENT/);
  });

  it('a file contentgen did not write, where a build now generates one, refuses too', async () => {
    // An out/ from a contentgen that did not emit .gitattributes, holding the user's own.
    await build();
    const manifest = JSON.parse(await read('.contentgen/manifest.json'));
    delete manifest.files['.gitattributes'];
    await writeFile(at('.contentgen/manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await writeFile(at('.gitattributes'), '*.sql linguist-language=SQL\n');

    const refused = await build();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('  .gitattributes (not written by contentgen: the build would replace it with a generated file)');
    expect(await read('.gitattributes')).toBe('*.sql linguist-language=SQL\n');
  });

  it('CRLF line endings alone (a Git checkout with autocrlf) are not an edit', async () => {
    await build();
    await writeFile(at(generatedFile), (await read(generatedFile)).replace(/\n/g, '\r\n'));
    await addSubtitle();
    expect((await build()).code).toBe(0);
    expect(await read(generatedFile)).not.toContain('\r');
  });

  it('user files and migrations are never touched, with or without --force, and are not edits', async () => {
    await build();
    const config = `${await read('src/config.ts')}// tuned by me\n`;
    await writeFile(at('src/config.ts'), config);
    const init = 'prisma/migrations/0001_init/migration.sql';
    const migration = `${await read(init)}-- backfill by me\n`;
    await writeFile(at(init), migration);

    await addSubtitle();
    const rebuilt = await build();
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toContain('migration 0002_article');
    expect(await read('src/config.ts')).toBe(config);
    expect(await read(init)).toBe(migration);

    await removeTagType();
    expect((await build('--accept-data-loss', '--force')).code).toBe(0);
    expect(await read('src/config.ts')).toBe(config);
    expect(await read(init)).toBe(migration);
    expect((await build('--check')).code).toBe(0);
  });
});

describe('migration header', () => {
  it('a new migration is headed as a file to review, not DO NOT EDIT', async () => {
    await build();
    await addSubtitle();
    await build();
    // Named after the tables it changes (the article's, and its drafts table's since #30).
    const second = (await readdir(at('prisma/migrations'))).find((name) => name.startsWith('0002_'));
    expect(second).toBe('0002_article_article_draft');
    const sql = await read(`prisma/migrations/${second}/migration.sql`);
    const header = migrationText.split('\n').map((line) => `-- ${line}\n`).join('');
    expect(sql.startsWith(header)).toBe(true);
    expect(header).toBe(
      '-- Migration written by contentgen for a model change. Review it before it is applied; until then\n' +
        '-- you may edit it (to backfill data, say). Once applied it must not change: it is not run again.\n',
    );
    expect(sql.slice(header.length)).toMatch(/^-- AlterTable\n/);
    expect(sql).not.toContain('DO NOT EDIT');
    expect(hasBanner(sql)).toBe(false);
    expect((await read('prisma/migrations/0001_init/migration.sql')).startsWith(header)).toBe(true);
  });

  it('a migration with the old DO NOT EDIT header stays as it is', async () => {
    await build();
    const init = 'prisma/migrations/0001_init/migration.sql';
    const old = `-- ${bannerText}\n${(await read(init)).split('\n').filter((l) => !/^-- (Migration written|you may edit)/.test(l)).join('\n')}`;
    await writeFile(at(init), old);
    expect(hasBanner(old)).toBe(true);
    await addSubtitle();
    expect((await build()).code).toBe(0);
    expect(await read(init)).toBe(old);
    expect((await build('--check')).code).toBe(0);
  });
});

describe('.gitattributes', () => {
  it('is generated and marks the generated files, leaving the reviewable and user files visible', async () => {
    await build();
    const text = await read('.gitattributes');
    expect(text.startsWith(`# ${bannerText}\n`)).toBe(true);
    const manifest = JSON.parse(await read('.contentgen/manifest.json'));
    expect(manifest.files).toHaveProperty(['.gitattributes']);

    // Ask git itself which paths the file marks.
    const { files } = await snapshot(out);
    await exec('git', ['init', '-q'], { cwd: out });
    const paths = [...files.keys(), 'package-lock.json', 'src/extensions/more.ts', 'src/policies/is-owner.ts', 'src/middlewares/audit.ts', 'prisma/migrations/0002_x/migration.sql'];
    const { stdout } = await exec('git', ['check-attr', 'linguist-generated', '--', ...paths], { cwd: out, maxBuffer: 1 << 24 });
    const marked = new Map(stdout.trim().split('\n').map((line) => {
      const [p, , value] = line.split(': ');
      return [p!, value === 'true'];
    }));
    const visible = (p: string) =>
      p === 'schema.graphql' ||
      p === 'schema.v5.graphql' ||
      p === '.contentgen/changes.md' ||
      p === 'prisma/schema.prisma' ||
      p.startsWith('prisma/migrations/') ||
      p === 'src/config.ts' ||
      p === 'src/email.ts' ||
      p === 'src/index.ts' ||
      p === 'compose.yaml' ||
      p.startsWith('src/api/') ||
      p.startsWith('src/policies/') ||
      p.startsWith('src/middlewares/') ||
      p.startsWith('src/extensions/');
    for (const p of paths) expect(marked.get(p), p).toBe(!visible(p));
    expect(marked.get('src/runtime/server.ts') ?? marked.get([...marked.keys()].find((p) => p.startsWith('src/runtime/'))!)).toBe(true);
    expect(marked.get('src/generated/content-types/article.ts')).toBe(true);
  });
});
