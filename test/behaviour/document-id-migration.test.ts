/**
 * A project built before documentIds existed (issue 30, docs/strapi5.md "Identity"): its next
 * build adds a migration that gives every existing row of every content type one (the
 * localizations of an entry sharing theirs), then makes the column NOT NULL and unique (per
 * locale for localized types). The earlier build is simulated as other migration tests do:
 * the current build of the i18n fixture with `documentId` taken out of its Prisma schema and
 * of its applied migration 0001, rows written in SQL. On this run's database.
 */
import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../templates/runtime/db/migrate.js';
import { documentIdShape, expectDocumentIds } from '../helpers/document-ids.js';
import { client } from '../helpers/http.js';
import { modelsOf, repoRoot } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer } from '../helpers/server.js';


let built: BuiltServer;

beforeAll(async () => {
  built = await buildFixture('i18n');
}, 180_000);

afterAll(async () => {
  await built?.cleanup();
});

async function documentIds(table: string): Promise<Map<number, string>> {
  const rows = await built.database.query<{ id: number; document_id: string }>(`SELECT id, document_id FROM "${table}" ORDER BY id`);
  return new Map(rows.map((r) => [Number(r.id), r.document_id]));
}

describe('the migration adding documentIds to an existing database', () => {
  it('gives every row one, shared by the localizations of an entry, then requires it unique', async () => {
    const dir = built.dir;
    const migrations = path.join(dir, 'prisma/migrations');
    const init = (await readdir(migrations)).find((n) => n.startsWith('0001_'))!;
    const initPath = path.join(migrations, init, 'migration.sql');
    await writeFile(initPath, (await readFile(initPath, 'utf8')).replace(/^.*document_id.*\n/gm, ''));
    const schemaPath = path.join(dir, 'prisma/schema.prisma');
    const earlier = (await readFile(schemaPath, 'utf8')).replace(/^\s+documentId\s.*\n/gm, '').replace(/^\s+@@unique\(\[documentId, .*\n/gm, '');
    await writeFile(schemaPath, earlier);

    // The old database: migration 0001 applied, rows written without documentIds.
    await applyMigrations({ databaseUrl: built.database.url, migrationsDir: migrations });
    const db = built.database;
    const now = db.datetime(new Date());
    for (const [id, name] of [[1, 'News'], [2, 'Sport']] as const) await db.query('INSERT INTO categories (id, name, created_at, updated_at) VALUES (?, ?, ?, ?)', [id, name, now, now]);
    // Pages 1, 2, 3: one entry in en, fr and de; 4 and 6: another in fr and en; 5 alone.
    const pages: [number, string][] = [[1, 'en'], [2, 'fr'], [3, 'de'], [4, 'fr'], [5, 'en'], [6, 'en']];
    for (const [id, locale] of pages) {
      await db.query('INSERT INTO pages (id, heading, slug, locale, created_at, updated_at, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, `Page ${id}`, `page-${id}`, locale, now, now, now]);
    }
    // SQLite and MariaDB move the id counter past ids written; PostgreSQL's sequence is told.
    if (built.provider === 'postgresql') await db.query(`SELECT setval(pg_get_serial_sequence('pages', 'id'), 6)`);
    const groups = [[1, 2, 3], [4, 6]];
    for (const group of groups) {
      for (const owner of group) {
        for (const [order, target] of group.filter((t) => t !== owner).entries()) {
          await db.query('INSERT INTO pages_localizations_links (page_id, inv_page_id, page_order) VALUES (?, ?, ?)', [owner, target, order + 1]);
        }
      }
    }
    await db.query('INSERT INTO up_users (id, username, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [1, 'ann', 'ann@example.com', now, now]);
    await db.query('INSERT INTO files (id, name, hash, ext, mime, url, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [1, 'a.png', 'a_1', '.png', 'image/png', '/uploads/a_1.png', now, now]);
    await db.query('INSERT INTO i18n_locale (id, name, code, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [1, 'English (en)', 'en', now, now]);

    const rebuilt = spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', modelsOf('i18n'), '-o', dir, '--db', built.provider, '--force'], { encoding: 'utf8' });
    expect(rebuilt.status, rebuilt.stderr + rebuilt.stdout).toBe(0);
    const added = (await readdir(migrations)).filter((n) => n.startsWith('0002_'));
    expect(added).toHaveLength(1);
    const sql = await readFile(path.join(migrations, added[0]!, 'migration.sql'), 'utf8');
    if (process.env.CG_TEST_SHOW_SQL) console.log(sql);
    expect(sql).toMatch(/^UPDATE .*pages.* SET .*document_id/m);
    expect(await readFile(path.join(dir, '.contentgen/changes.md'), 'utf8')).toContain('safe (adds, keeps every row)');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(generate.status, generate.stderr).toBe(0);
    expect(await applyMigrations({ databaseUrl: built.database.url, migrationsDir: migrations })).toEqual([added[0]]);

    for (const table of ['categories', 'pages', 'up_users', 'files', 'i18n_locale']) {
      const ids = await documentIds(table);
      expect(ids.size, table).toBeGreaterThan(0);
      for (const id of ids.values()) expect(id, table).toMatch(documentIdShape);
    }
    await expectDocumentIds(built);
    const page = await documentIds('pages');
    expect([page.get(2), page.get(3)]).toEqual([page.get(1), page.get(1)]);
    expect(page.get(6)).toBe(page.get(4));
    expect(new Set([page.get(1), page.get(4), page.get(5)]).size).toBe(3);
    const categories = await documentIds('categories');
    expect(categories.get(1)).not.toBe(categories.get(2));

    // NOT NULL and unique from now on (per locale on a localized type).
    await expect(db.query('INSERT INTO categories (name, created_at, updated_at) VALUES (?, ?, ?)', ['No id', now, now])).rejects.toThrow();
    await expect(db.query('INSERT INTO categories (name, document_id, created_at, updated_at) VALUES (?, ?, ?, ?)', ['Twice', categories.get(1), now, now])).rejects.toThrow();
    await expect(db.query('INSERT INTO pages (heading, locale, document_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['Twice', 'fr', page.get(1), now, now])).rejects.toThrow();

    // The server starts on it; a new localization of a migrated entry joins its document.
    const token = await createApiToken(dir, { type: 'full-access' });
    const server = await startServer(dir);
    try {
      const api = client(server.url, bearer(token));
      const de = await api.post('/api/pages/4/localizations', { heading: 'Seite 4', locale: 'de' });
      expect(de.status, JSON.stringify(de.body)).toBe(200);
      expect((await documentIds('pages')).get(de.body.id)).toBe(page.get(4));
      const listed = await api.get('/api/pages?locale=all&publicationState=preview&sort=id&fields[0]=heading');
      expect(JSON.stringify(listed.body)).not.toContain('documentId');
      expect(listed.body.data.map((e: any) => e.attributes.heading)).toEqual(['Page 1', 'Page 2', 'Page 3', 'Page 4', 'Page 5', 'Page 6', 'Seite 4']);
    } finally {
      await server.stop();
    }
  }, 300_000);
});
