/**
 * The (owner, order) index of to-many link tables (issue 29): emitted in the Prisma schema of
 * a new build, and added as the next migration of a project built before it existed, on each
 * database. An earlier build is its output folder: the Prisma schema the last build wrote
 * (here the current one without those indexes) and the migrations already applied.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import type { Provider } from '../../generator/ir/scalars.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';

let dir: string;

beforeAll(async () => {
  dir = await tempDir('link-order-index');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `@@index([articleId, tagOrder], …)`: the new index lines of a schema. */
const orderIndex = /^\s*@@index\(\[\w+, \w+Order\][^\n]*\)\n/gm;

async function emittedSchema(outDir: string, provider: Provider): Promise<string> {
  const result = await generate({ modelsDir: modelsOf('blog'), outDir, provider, check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(JSON.stringify(result));
  return result.files.get('prisma/schema.prisma')!.content;
}

describe('the index on link tables (owner, order)', () => {
  it('is in a new build: to-many links only', async () => {
    const schema = await emittedSchema(path.join(dir, 'fresh'), 'sqlite');
    const tags = /model ArticleTagsLink \{[^}]*\}/.exec(schema)![0];
    expect(tags).toContain('@@index([articleId, tagOrder])');
    // One row per owner: nothing to order.
    const author = /model ArticleAuthorLink \{[^}]*\}/.exec(schema)![0];
    expect(author).not.toMatch(/@@index\(\[articleId, authorOrder\]/);
  });

  for (const provider of ['sqlite', 'postgresql', 'mysql'] as const) {
    it(`is the next migration of a project built before it (${provider})`, async () => {
      const outDir = path.join(dir, `existing-${provider}`);
      const current = await emittedSchema(path.join(dir, `current-${provider}`), provider);
      const earlier = current.replace(orderIndex, '');
      expect(earlier).not.toBe(current);
      await mkdir(path.join(outDir, 'prisma/migrations/0001_init'), { recursive: true });
      await writeFile(path.join(outDir, 'prisma/schema.prisma'), earlier);
      await writeFile(path.join(outDir, 'prisma/migrations/0001_init/migration.sql'), '-- applied long ago\n');
      await writeFile(path.join(outDir, 'prisma/migrations/migration_lock.toml'), `provider = "${provider}"\n`);

      const result = await generate({ modelsDir: modelsOf('blog'), outDir, provider, check: false, acceptDataLoss: false });
      if (!result.ok) throw new Error(JSON.stringify(result));
      const added = result.migration.added!;
      expect(added.name).toBe('0002_article_tags_link');
      const quote = provider === 'mysql' ? '`' : '"';
      const q = (name: string) => `${quote}${name}${quote}`;
      expect(added.sql).toContain(`CREATE INDEX ${q('articles_tags_links_article_id_tag_order_idx')} ON ${q('articles_tags_links')}(${q('article_id')}, ${q('tag_order')})`);
      // Nothing else changes: no table is rebuilt, no data touched.
      expect(added.sql.match(/^(CREATE|ALTER|DROP|INSERT|UPDATE|DELETE)\b/gm)).toEqual(['CREATE']);
      expect(result.migration.dataLoss).toEqual([]);
    });
  }

  it('the committed demo output got it as its migration 0009', async () => {
    const sql = await readFile(path.join(repoRoot, 'out/prisma/migrations/0009_article_tags_link/migration.sql'), 'utf8');
    expect(sql).toContain('CREATE INDEX "articles_tags_links_article_id_tag_order_idx" ON "articles_tags_links"("article_id", "tag_order");');
  });
});
