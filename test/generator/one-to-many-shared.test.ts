/**
 * A one-way oneToMany's link table keeps each pair once, UNIQUE(owner, target), as Strapi's
 * `_unique` index does, where builds before kept one owner per target, UNIQUE(target), and an
 * index on the owner (Strapi 4.26.2 lets several entries hold one target: docs/design-notes.md,
 * "Shared one-way oneToMany targets"). A project built before gets it as its next migration, on
 * each database, without data loss. An earlier build is its output folder: the Prisma schema
 * the last build wrote (the current one with the earlier constraints) and its migrations.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import type { Provider } from '../../generator/ir/scalars.js';
import { modelsOf, tempDir } from '../helpers/paths.js';

let dir: string;

beforeAll(async () => {
  dir = await tempDir('one-to-many-shared');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `person.posts` of the edge models: a one-way oneToMany to blog posts. */
const pairUnique = /^(\s*)@@unique\(\[personId, blogPostId\]\)\n/m;

async function emittedSchema(outDir: string, provider: Provider): Promise<string> {
  const result = await generate({ modelsDir: modelsOf('edge'), outDir, provider, check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.files.get('prisma/schema.prisma')!.content;
}

describe('a one-way oneToMany link table', () => {
  it('is unique per pair in a new build, not per target', async () => {
    const schema = await emittedSchema(path.join(dir, 'fresh'), 'sqlite');
    const posts = /model PersonPostsLink \{[^}]*\}/.exec(schema)![0];
    expect(posts).toContain('@@unique([personId, blogPostId])');
    expect(posts).not.toContain('@@unique([blogPostId])');
  });

  for (const provider of ['sqlite', 'postgresql', 'mysql'] as const) {
    it(`gets it as the next migration of a project built before (${provider})`, async () => {
      const outDir = path.join(dir, `existing-${provider}`);
      const current = await emittedSchema(path.join(dir, `current-${provider}`), provider);
      expect(current).toMatch(pairUnique);
      const earlier = current.replace(pairUnique, '$1@@unique([blogPostId])\n$1@@index([personId])\n');
      await mkdir(path.join(outDir, 'prisma/migrations/0001_init'), { recursive: true });
      await writeFile(path.join(outDir, 'prisma/schema.prisma'), earlier);
      await writeFile(path.join(outDir, 'prisma/migrations/0001_init/migration.sql'), '-- applied long ago\n');
      await writeFile(path.join(outDir, 'prisma/migrations/migration_lock.toml'), `provider = "${provider}"\n`);

      const result = await generate({ modelsDir: modelsOf('edge'), outDir, provider, check: false, acceptDataLoss: false });
      if (!result.ok) throw new Error(JSON.stringify(result));
      const added = result.migration.added!;
      expect(added.name).toMatch(/^0002_/);
      const quote = provider === 'mysql' ? '`' : '"';
      const q = (name: string) => `${quote}${name}${quote}`;
      expect(added.sql).toContain(`CREATE UNIQUE INDEX ${q('people_posts_links_person_id_blog_post_id_key')} ON ${q('people_posts_links')}(${q('person_id')}, ${q('blog_post_id')})`);
      expect(added.sql).toContain('people_posts_links_blog_post_id_key');
      expect(added.sql).toMatch(/DROP INDEX/);
      // Only that table's indexes change: no table is rebuilt, no data touched.
      expect(added.sql).not.toMatch(/^(CREATE TABLE|INSERT|UPDATE|DELETE)\b/m);
      expect(result.migration.dataLoss).toEqual([]);
    });
  }
});
