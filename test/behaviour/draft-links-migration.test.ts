/**
 * A project whose database holds drafts of published documents saved before a draft had links
 * of its own (docs/strapi5.md "Drafts"): those drafts read their live row's relations. The
 * build that adds `<table>_drafts_lnk` fills it, in the same migration, with each pending
 * draft's live links in their order, so that publishing such a draft keeps its relations.
 * The earlier build is simulated as document-id-migration.test.ts does: the current build of
 * the blog fixture with the draft-links table taken out of its Prisma schema and of its
 * migration 0001, rows written in SQL. On this run's database.
 */
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../templates/runtime/db/migrate.js';
import { modelsOf, repoRoot } from '../helpers/paths.js';
import { buildFixture, type BuiltServer } from '../helpers/server.js';

let built: BuiltServer;

beforeAll(async () => {
  built = await buildFixture('blog');
}, 180_000);

afterAll(async () => {
  await built?.cleanup();
});

describe('the migration adding the draft-links table to a database holding drafts', () => {
  it("gives each pending draft its live row's links, in order", async () => {
    const dir = built.dir;
    const migrations = path.join(dir, 'prisma/migrations');
    const init = (await readdir(migrations)).find((n) => n.startsWith('0001_'))!;
    const initPath = path.join(migrations, init, 'migration.sql');
    const statements = (await readFile(initPath, 'utf8')).split(/(?<=;)\n/);
    await writeFile(initPath, statements.filter((s) => !s.includes('_drafts_lnk')).join('\n'));
    const schemaPath = path.join(dir, 'prisma/schema.prisma');
    const earlier = (await readFile(schemaPath, 'utf8'))
      .replace(/^model \w+DraftLink \{[\s\S]*?^\}\n/gm, '')
      .replace(/^\s+\w+\s+\w+DraftLink\[\].*\n/gm, '');
    expect(earlier).not.toContain('_drafts_lnk');
    await writeFile(schemaPath, earlier);

    // The old database: article 1 published, tagged B then A, with a pending draft.
    await applyMigrations({ databaseUrl: built.database.url, migrationsDir: migrations });
    const db = built.database;
    const now = db.datetime(new Date());
    for (const [id, name] of [[1, 'A'], [2, 'B']] as const) {
      await db.query('INSERT INTO tags (id, document_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [id, `tagdocument00000000000${id}0`, name, now, now]);
    }
    await db.query('INSERT INTO articles (id, document_id, title, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)', [1, 'articledocument0000000010', 'Live', now, now, now]);
    await db.query('INSERT INTO articles (id, document_id, title, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?)', [2, 'articledocument0000000020', 'No draft', now, now, now]);
    await db.query('INSERT INTO articles_tags_links (article_id, tag_id, tag_order, article_order) VALUES (?, ?, ?, ?)', [1, 2, 1, 1]);
    await db.query('INSERT INTO articles_tags_links (article_id, tag_id, tag_order, article_order) VALUES (?, ?, ?, ?)', [1, 1, 2, 1]);
    await db.query('INSERT INTO articles_tags_links (article_id, tag_id, tag_order, article_order) VALUES (?, ?, ?, ?)', [2, 1, 1, 2]);
    await db.query('INSERT INTO articles_drafts (live_id, title, created_at, updated_at) VALUES (?, ?, ?, ?)', [1, 'Draft', now, now]);

    const rebuilt = spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', modelsOf('blog'), '-o', dir, '--db', built.provider, '--force'], { encoding: 'utf8' });
    expect(rebuilt.status, rebuilt.stderr + rebuilt.stdout).toBe(0);
    const added = (await readdir(migrations)).filter((n) => n.startsWith('0002_'));
    expect(added).toHaveLength(1);
    const sql = await readFile(path.join(migrations, added[0]!, 'migration.sql'), 'utf8');
    expect(sql).toMatch(/^INSERT INTO .articles_drafts_lnk. .* FROM .articles_tags_links./m);
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(generate.status, generate.stderr).toBe(0);
    expect(await applyMigrations({ databaseUrl: built.database.url, migrationsDir: migrations })).toEqual([added[0]]);

    const rows = await db.query<{ live_id: unknown; field: string; target_id: unknown; position: unknown }>(
      'SELECT live_id, field, target_id, position FROM articles_drafts_lnk ORDER BY live_id, field, position',
    );
    // Only the draft's live row; article 2 has no draft, so no draft links.
    expect(rows.map((r) => [Number(r.live_id), r.field, Number(r.target_id), Number(r.position)])).toEqual([
      [1, 'tags', 2, 1],
      [1, 'tags', 1, 2],
    ]);
  }, 300_000);
});
