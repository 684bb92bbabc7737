/**
 * The API change report (issue 16): `out/.contentgen/model.json` keeps what the API promised,
 * and every build that changes it writes `out/.contentgen/changes.md` — graphql-js's breaking
 * and dangerous changes, REST's removed routes and attributes, retyped, hidden and
 * newly-required attributes, enum values, and what the migration does to existing rows —
 * prints the breaking ones, and `--check` fails while the committed report is stale.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { modelsOf, tempDir } from '../helpers/paths.js';

let dir: string;
let models: string;
let out: string;

beforeEach(async () => {
  dir = await tempDir('changes');
  models = path.join(dir, 'models');
  out = path.join(dir, 'out');
  await cp(modelsOf('blog'), models, { recursive: true });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const build = (...extra: string[]) => runCli('build', models, '-o', out, ...extra);
const report = () => readFile(path.join(out, '.contentgen/changes.md'), 'utf8');
const schemaOf = (api: string) => path.join(models, `api/${api}/content-types/${api}/schema.json`);

async function edit(file: string, change: (json: any) => void): Promise<void> {
  const json = JSON.parse(await readFile(file, 'utf8'));
  change(json);
  await writeFile(file, JSON.stringify(json, null, 2));
}

describe('the change report', () => {
  it('starts with the first build, and an unchanged rebuild writes nothing', async () => {
    expect((await build()).code).toBe(0);
    expect(await report()).toContain('No earlier build to compare with: 11 content types');
    const summary = JSON.parse(await readFile(path.join(out, '.contentgen/model.json'), 'utf8'));
    expect(summary.contentTypes['api::article.article']).toMatchObject({ kind: 'collectionType', route: '/articles' });
    expect(summary.contentTypes['api::article.article'].attributes.title).toEqual({ type: 'string', required: true });
    const again = await build();
    expect(again.stdout).toContain('(0 written, 0 removed)');
    expect(again.stdout).not.toContain('API changes');
  });

  it('lists every kind of breaking change, prints them, and says what the migration does', async () => {
    expect((await build()).code).toBe(0);
    await edit(schemaOf('article'), (json) => {
      delete json.attributes.description; // removed (a column dropped: data loss)
      json.attributes.status.enum = json.attributes.status.enum.filter((v: string) => v !== 'final').concat('archived'); // enum value removed and one added
      json.attributes.subtitle = { type: 'string', required: true }; // new required attribute
      json.attributes.views = { type: 'string' }; // retyped
      json.attributes.editorNote.private = false; // no longer private
      json.attributes.content.private = true; // became private
    });
    await edit(schemaOf('author'), (json) => {
      json.attributes.email.required = true; // became required
    });
    await edit(schemaOf('tag'), (json) => {
      json.info.pluralName = 'labels'; // routes moved
    });
    await rm(path.join(models, 'api/category'), { recursive: true }); // a whole type removed
    await edit(schemaOf('article'), (json) => {
      delete json.attributes.category;
    });
    await edit(path.join(models, 'permissions.json'), (json) => {
      for (const role of Object.keys(json)) json[role] = json[role].filter((action: string) => !action.startsWith('api::category.'));
    });

    const refused = await build();
    expect(refused.code).toBe(1);
    const built = await build('--accept-data-loss');
    expect(built.code, built.stderr).toBe(0);
    const text = await report();

    // GraphQL: graphql-js's own findings.
    expect(text).toContain('- FIELD_REMOVED: Article.description was removed.');
    expect(text).toContain('- VALUE_REMOVED_FROM_ENUM: final was removed from enum type ENUM_ARTICLE_STATUS.');
    expect(text).toContain('- FIELD_CHANGED_KIND: Article.views changed type from Int to String.');
    expect(text).toContain('- TYPE_REMOVED: Category was removed.');
    expect(text).toContain('- VALUE_ADDED_TO_ENUM: archived was added to enum type ENUM_ARTICLE_STATUS.');
    // REST.
    for (const line of [
      '- `/api/articles` `description`: removed, it disappears from answers and is refused in filters, sort, fields, populate and writes',
      '- `/api/articles` `status`: enum values removed: `final`',
      '- `/api/articles` `views`: an integer became a string',
      '- `/api/articles` `content`: became private, it disappears from answers and filters',
      '- `/api/articles` `subtitle`: added as required, creates that omit it are refused (400)',
      '- `/api/authors` `email`: became required, creates that omit it are refused (400)',
      '- `/api/tags`: routes moved to `/api/labels`',
      '- `/api/categories`: content type api::category.category removed, its routes answer 404',
      '- `/api/articles` `status`: enum values added (clients that handle every value must learn them): `archived`',
      '- `/api/articles` `editorNote`: no longer private, answers now include it',
    ]) {
      expect(text).toContain(line);
    }
    // Database.
    expect(text).toMatch(/- Database: `prisma\/migrations\/0002_[a-z0-9_]+\/migration.sql`: data-losing \(accepted with --accept-data-loss\)/);
    expect(text).toContain('drops column "description" of table "articles"');
    expect(text).toContain('- api::article.article `subtitle`');
    expect(text).toContain('- api::author.author `email`');
    // Printed by the build too.
    expect(built.stdout).toMatch(/contentgen: API changes: \d+ breaking, \d+ dangerous/);
    expect(built.stdout).toContain('breaking   REST: `/api/tags`: routes moved to `/api/labels`');

    // The report stays as it is until the next change.
    const again = await build();
    expect(again.stdout).toContain('(0 written, 0 removed)');
    expect(await report()).toBe(text);
  });

  it('a safe change is reported as safe; --check fails until the report is regenerated', async () => {
    expect((await build()).code).toBe(0);
    await edit(schemaOf('article'), (json) => {
      json.attributes.subtitle = { type: 'string' };
    });
    const check = await build('--check');
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('.contentgen/changes.md');
    expect(check.stderr).toContain('.contentgen/model.json');
    expect((await build()).code).toBe(0);
    const text = await report();
    expect(text).toContain('- Breaking: 0 (GraphQL 0, REST 0)');
    expect(text).toContain('- `/api/articles` `subtitle`: added (a string)');
    expect(text).toMatch(/- Database: `prisma\/migrations\/0002_article_article_draft\/migration.sql`: safe \(adds, keeps every row\)/);
    expect((await build('--check')).code).toBe(0);
  });
});
