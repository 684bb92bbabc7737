/**
 * The recorded Strapi 4.26.2 databases (fixtures/strapi-data) restore on each database they were
 * recorded on, hold the rows the recording wrote, and agree with the answers recorded beside them.
 * PostgreSQL and MariaDB cases are skipped when their server does not answer.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import bcrypt from 'bcrypt';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { probe } from '../helpers/databases.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  providerOfDialect,
  queryStrapiDatabase,
  restoreStrapiDatabase,
  restoreStrapiProject,
  strapiAnswer,
  strapiDataDir,
  strapiDialects,
  type RestoredStrapiDatabase,
  type StrapiDataSet,
  type StrapiDialect,
} from '../helpers/strapi-data.js';

const available = Object.fromEntries(await Promise.all(strapiDialects.map(async (d) => [d, (await probe(providerOfDialect[d])).ok] as const))) as Record<StrapiDialect, boolean>;

const count = async (db: RestoredStrapiDatabase, table: string) => Number((await queryStrapiDatabase(db, `SELECT COUNT(*) AS n FROM "${table}"`))[0]!.n);

/** The secrets recorded with a database open it: passwords, the user JWT, the API tokens. */
async function expectSecretsMatch(db: RestoredStrapiDatabase, set: StrapiDataSet): Promise<void> {
  const secrets = loadStrapiSecrets(set);
  const own = secrets.dialects[db.dialect]!;
  const users = await queryStrapiDatabase(db, 'SELECT "id", "email", "password" FROM "up_users"');
  for (const user of own.users) {
    const row = users.find((u) => Number(u.id) === user.id)!;
    expect(row.email).toBe(user.email);
    expect(await bcrypt.compare(user.password, String(row.password))).toBe(true);
  }
  expect((jwt.verify(own.userJwt.jwt, secrets.env.JWT_SECRET) as { id: number }).id).toBe(own.userJwt.id);
  const keys = (await queryStrapiDatabase(db, 'SELECT "id", "type", "access_key" FROM "strapi_api_tokens"')).map((r) => [Number(r.id), r.type, r.access_key]);
  const hashed = own.apiTokens.map((t) => [t.id, t.type, createHmac('sha512', secrets.env.API_TOKEN_SALT).update(t.accessKey).digest('hex')]);
  expect(keys.sort()).toEqual(hashed.sort());
}

/** Rows per table after each set's fill (the same on every dialect: ids and gaps included). */
const expectedRows: Partial<Record<StrapiDataSet, Record<string, number>>> = {
  import: {
    articles: 5,
    tags: 4,
    authors: 2,
    homepages: 1,
    notes: 2,
    notes_items_morphs: 3,
    files: 10,
    up_users: 4,
    strapi_api_tokens: 4,
    strapi_webhooks: 2,
    upload_folders: 3,
  },
  'import-i18n': {
    pages: 8,
    categories: 3,
    globals: 2,
    i18n_locale: 3,
    up_users: 1,
    strapi_api_tokens: 4,
  },
};

/** Entries listed (drafts included with `preview`, every locale), from the answers of the same recording. */
const publicLists: Partial<Record<StrapiDataSet, [table: string, answer: string][]>> = {
  import: [
    ['tags', 'tags.list.public'],
    ['authors', 'authors.list.public'],
    ['articles', 'articles.list.preview'],
  ],
  'import-i18n': [
    ['categories', 'categories.list.public'],
    ['pages', 'pages.list.preview'],
  ],
};

for (const set of Object.keys(expectedRows) as StrapiDataSet[]) {
  describe(`Strapi data set ${set}`, () => {
    for (const dialect of strapiDialects) {
      const recorded = existsSync(path.join(strapiDataDir(set), `answers.${dialect}.json`));
      it.skipIf(!available[dialect] || !recorded)(`restores on ${dialect} with the rows the recording wrote, opened by the recorded secrets`, async () => {
        const db = await restoreStrapiDatabase(set, dialect);
        try {
          for (const [table, rows] of Object.entries(expectedRows[set]!)) expect([table, await count(db, table)]).toEqual([table, rows]);
          await expectSecretsMatch(db, set);
          const answers = loadStrapiAnswers(set, dialect);
          expect(answers.dialect).toBe(dialect);
          for (const [table, name] of publicLists[set] ?? []) {
            expect(strapiAnswer(answers, name).answer.meta.pagination.total).toBe(await count(db, table));
          }
        } finally {
          await db.cleanup();
        }
        // Safe to call twice.
        await db.cleanup();
      });
    }

    it('has the secrets of every recording', () => {
      const secrets = loadStrapiSecrets(set);
      expect(secrets.strapiVersion).toBe('4.26.2');
      expect(secrets.timeZone).toBe('Europe/Paris');
      for (const dialect of strapiDialects) {
        const own = secrets.dialects[dialect];
        if (!own) continue;
        expect(own.apiTokens.filter((t) => !t.expiresAt).map((t) => t.type).sort()).toEqual(['custom', 'full-access', 'read-only']);
        for (const token of own.apiTokens) expect(token.accessKey).toMatch(/^[0-9a-f]{256}$/);
        expect(own.userJwt.jwt.split('.')).toHaveLength(3);
      }
    });
  });
}

it('restores a set as a Strapi project folder with its uploads and .env', async () => {
  const project = await restoreStrapiProject('import', 'sqlite');
  try {
    expect(existsSync(path.join(project.dir, 'package.json'))).toBe(true);
    expect(existsSync(path.join(project.dir, 'src/api/article/content-types/article/schema.json'))).toBe(true);
    expect(project.url).toBe(path.join(project.dir, '.tmp', 'data.db'));
    const files = loadStrapiAnswers('import', 'sqlite').requests.find((r) => r.name === 'upload.files')!.answer as { url: string }[];
    for (const file of files) expect(existsSync(path.join(project.dir, 'public', file.url))).toBe(true);
  } finally {
    await project.cleanup();
  }
  expect(existsSync(project.dir)).toBe(false);
});

// What import-shape-paired was recorded for (test/import/recorder/README.md), so that a recording
// made again still holds it: a book in two shelves' one-way `books`, and the pairs inversedBy each
// other stored in the api side's tables, not in the user side's ones the build reads.
it('import-shape-paired holds shared one-way oneToMany targets and pairs stored in the api side tables', async () => {
  const db = await restoreStrapiDatabase('import-shape-paired', 'sqlite');
  try {
    const shared = await queryStrapiDatabase(db, 'SELECT "book_id" FROM "shelves_books_links" GROUP BY "book_id" HAVING COUNT(*) > 1');
    expect(shared.length).toBeGreaterThan(0);
    expect([await count(db, 'badges_holder_links'), await count(db, 'clubs_members_links')].every((n) => n > 0)).toBe(true);
    expect([await count(db, 'up_users_badge_links'), await count(db, 'up_users_clubs_links')]).toEqual([0, 0]);
  } finally {
    await db.cleanup();
  }
});
