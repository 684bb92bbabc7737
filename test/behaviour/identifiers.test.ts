/**
 * Database names as Strapi 4.26.2's (fixtures/identifiers): lodash's snake_case with digits
 * (`h1Title` → `h_1_title`, `top2Writers` → `writers_top_2_writers_links`), a table named with a
 * `-` (`writer-badges`), a self-referencing manyToMany with Strapi's order columns, and names
 * longer than the databases keep (PostgreSQL: cut to 63 bytes as Strapi's were; MariaDB:
 * shortened with a hash). REST create/read/filter/sort/populate through them, and raw SQL
 * reading the tables and columns by Strapi's names. Then the same database built with the
 * names contentgen used before: the next build renames its tables and columns, keeping every
 * row and the order of every list. On SQLite, PostgreSQL and MariaDB.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseIdentifier } from '../../generator/ir/identifiers.js';
import { client } from '../helpers/http.js';
import { modelsOf, repoRoot } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { newDocumentId } from '../../templates/runtime/entity/document-id.js';

const longColumn = 'thisIsAnExtremelyLongAttributeNameToTestPostgresIdentifierTruncationRules';
const longLink = 'featuredWritersOfTheWeekAndMonthAndYear';

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const names = (body: any) => body.data.map((w: any) => w.attributes.name);

describe('Strapi names on the database', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  const id: Record<string, number> = {};

  beforeAll(async () => {
    built = await buildFixture('identifiers');
    server = await startServer(built.dir);
    api = client(server.url, bearer(await createApiToken(built.dir, { type: 'full-access' })));
    id.gold = (await ok(api.post('/api/badges', { data: { label: 'Gold', level2Rank: 1 } }))).data.id;
    id.silver = (await ok(api.post('/api/badges', { data: { label: 'Silver', level2Rank: 2 } }))).data.id;
    for (const [name, h1Title, rank] of [['Ann', 'Alpha', 3], ['Bob', 'Bravo', 1], ['Cid', 'Charlie', 2]] as const) {
      id[name] = (await ok(api.post('/api/writers', { data: { name, h1Title, SEO2Title: `seo ${name}`, address2Line: rank } }))).data.id;
    }
    id.Dee = (
      await ok(
        api.post('/api/writers', {
          data: {
            name: 'Dee',
            h1Title: 'Delta',
            top2Writers: [id.Cid, id.Ann],
            related: [id.Bob, id.Cid],
            badges: [id.silver, id.gold],
            logoButtons: [{ label: 'Home', h2Size: 2 }],
          },
        }),
      )
    ).data.id;
    await ok(api.put(`/api/writers/${id.Ann}`, { data: { related: [id.Cid] } }));
    id.campaign = (await ok(api.post('/api/campaigns', { data: { title: 'Spring', [longColumn]: 'long value', [longLink]: [id.Bob, id.Dee] } }))).data.id;
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('creates and reads attributes whose columns have digits, filters and sorts on them', async () => {
    const dee = await ok(api.get(`/api/writers/${id.Dee}?populate=logoButtons`));
    expect(dee.data.attributes).toMatchObject({ name: 'Dee', h1Title: 'Delta', logoButtons: [{ label: 'Home', h2Size: 2 }] });
    expect(names(await ok(api.get('/api/writers?filters[h1Title][$in][0]=Bravo&filters[h1Title][$in][1]=Alpha&sort=h1Title:desc')))).toEqual(['Bob', 'Ann']);
    expect(names(await ok(api.get('/api/writers?filters[address2Line][$notNull]=true&sort=address2Line')))).toEqual(['Bob', 'Cid', 'Ann']);
    expect(names(await ok(api.get('/api/writers?filters[SEO2Title][$eq]=seo%20Cid')))).toEqual(['Cid']);
  });

  it('populates and filters through link tables with Strapi names, in order, both ways', async () => {
    const dee = await ok(api.get(`/api/writers/${id.Dee}?populate[relatedFrom]=true`));
    // A to-many without sort keeps the order it was written in.
    const listed = await ok(api.get(`/api/writers/${id.Dee}?populate[0]=top2Writers&populate[1]=related&populate[2]=badges`));
    expect(listed.data.attributes.top2Writers.data.map((w: any) => w.attributes.name)).toEqual(['Cid', 'Ann']);
    expect(listed.data.attributes.related.data.map((w: any) => w.attributes.name)).toEqual(['Bob', 'Cid']);
    expect(listed.data.attributes.badges.data.map((b: any) => b.attributes.label)).toEqual(['Silver', 'Gold']);
    expect(dee.data.attributes.relatedFrom.data).toEqual([]);
    // The inverse side of the self-referencing manyToMany, in the order the owners were linked.
    const cid = await ok(api.get(`/api/writers/${id.Cid}?populate[relatedFrom][fields][0]=name`));
    expect(cid.data.attributes.relatedFrom.data.map((w: any) => w.attributes.name)).toEqual(['Dee', 'Ann']);
    // The table with a '-' in its name, through both sides.
    const gold = await ok(api.get(`/api/badges/${id.gold}?populate=holders`));
    expect(gold.data.attributes.holders.data.map((w: any) => w.attributes.name)).toEqual(['Dee']);
    expect((await ok(api.get('/api/badges?filters[holders][h1Title][$eq]=Delta&sort=level2Rank:desc'))).data.map((b: any) => b.attributes.label)).toEqual(['Silver', 'Gold']);
    expect(names(await ok(api.get('/api/writers?filters[top2Writers][h1Title][$eq]=Charlie')))).toEqual(['Dee']);
    expect(names(await ok(api.get('/api/writers?filters[badges][level2Rank][$eq]=1')))).toEqual(['Dee']);
  });

  it('serves names longer than the database keeps', async () => {
    const campaign = await ok(api.get(`/api/campaigns/${id.campaign}?populate=${longLink}`));
    expect(campaign.data.attributes[longColumn]).toBe('long value');
    expect(campaign.data.attributes[longLink].data.map((w: any) => w.attributes.name)).toEqual(['Bob', 'Dee']);
    const found = await ok(api.get(`/api/campaigns?filters[${longColumn}][$eq]=long%20value&filters[${longLink}][name][$eq]=Dee&sort=${longColumn}`));
    expect(found.data.map((c: any) => c.id)).toEqual([id.campaign]);
    const updated = await ok(api.put(`/api/campaigns/${id.campaign}?populate=${longLink}`, { data: { [longColumn]: 'changed', [longLink]: [id.Ann] } }));
    expect(updated.data.attributes[longColumn]).toBe('changed');
    expect(updated.data.attributes[longLink].data.map((w: any) => w.attributes.name)).toEqual(['Ann']);
  });

  it('answers GraphQL through the same names', async () => {
    const query = `{
      writers(filters: { h1Title: { eq: "Delta" } }) { data { attributes { h1Title SEO2Title top2Writers { data { attributes { name } } } badges { data { attributes { level2Rank } } } } } }
      campaigns(sort: "id") { data { attributes { ${longColumn} ${longLink} { data { attributes { name } } } } } }
    }`;
    const body = await ok(api.post('/graphql', { query }));
    expect(body.errors).toBeUndefined();
    expect(body.data.writers.data).toEqual([
      {
        attributes: {
          h1Title: 'Delta',
          SEO2Title: null,
          top2Writers: { data: [{ attributes: { name: 'Cid' } }, { attributes: { name: 'Ann' } }] },
          badges: { data: [{ attributes: { level2Rank: 2 } }, { attributes: { level2Rank: 1 } }] },
        },
      },
    ]);
    expect(body.data.campaigns.data[0].attributes[longColumn]).toEqual(expect.any(String));
  });

  it("keeps rows under Strapi's table and column names (raw SQL)", async () => {
    const db = built.database;
    const writers = await db.query<{ name: string; h: string; s: string | null }>('SELECT name, h_1_title AS h, seo_2_title AS s FROM writers ORDER BY id');
    expect(writers.map((w) => [w.name, w.h, w.s])).toEqual([
      ['Ann', 'Alpha', 'seo Ann'],
      ['Bob', 'Bravo', 'seo Bob'],
      ['Cid', 'Charlie', 'seo Cid'],
      ['Dee', 'Delta', null],
    ]);
    // Strapi: the owner's list in `writer_order`, the inverse side's in `inv_writer_order`.
    const top = await db.query<{ t: number; o: number }>('SELECT inv_writer_id AS t, writer_order AS o FROM writers_top_2_writers_links WHERE writer_id = ? ORDER BY writer_order', [id.Dee]);
    expect(top.map((r) => Number(r.t))).toEqual([id.Cid, id.Ann]);
    const related = await db.query<{ w: number; o: number }>('SELECT writer_id AS w, inv_writer_order AS o FROM writers_related_links WHERE inv_writer_id = ? ORDER BY inv_writer_order', [id.Cid]);
    expect(related.map((r) => Number(r.w))).toEqual([id.Dee, id.Ann]);
    const badges = await db.query<{ b: number }>('SELECT badge_id AS b FROM writers_badges_links WHERE writer_id = ? ORDER BY badge_order', [id.Dee]);
    expect(badges.map((r) => Number(r.b))).toEqual([id.silver, id.gold]);
    const labels = await db.query<{ label: string; rank: number }>('SELECT label, level_2_rank AS "rank" FROM "writer-badges" ORDER BY id');
    expect(labels.map((r) => [r.label, Number(r.rank)])).toEqual([['Gold', 1], ['Silver', 2]]);
    // Long names: Strapi's on SQLite, cut to 63 bytes on PostgreSQL, shortened with a hash on MariaDB.
    const provider = built.provider;
    const table = databaseIdentifier(`landing_pages_for_marketing_campaigns_in_many_countries_featured_writers_of_the_week_and_month_and_year_links`, provider);
    const column = databaseIdentifier('this_is_an_extremely_long_attribute_name_to_test_postgres_identifier_truncation_rules', provider);
    if (provider === 'postgresql') {
      expect(table).toBe('landing_pages_for_marketing_campaigns_in_many_countries_feature');
      expect(column).toBe('this_is_an_extremely_long_attribute_name_to_test_postgres_ident');
    }
    if (provider === 'mysql') expect(table).toMatch(/^landing_pages_for_marketing_campaigns_in_many_countries_[0-9a-f]{8}$/);
    const links = await db.query<{ w: number }>(`SELECT writer_id AS w FROM "${table}" WHERE campaign_id = ? ORDER BY writer_order`, [id.campaign]);
    expect(links.map((r) => Number(r.w))).toEqual([id.Ann]);
    const [row] = await db.query<{ v: string }>(`SELECT "${column}" AS v FROM landing_pages_for_marketing_campaigns_in_many_countries WHERE id = ?`, [id.campaign]);
    expect(row!.v).toBe('changed');
  });
});

/** The names contentgen gave these before it spelt them as Strapi does. */
const oldNames: readonly [string, string][] = [
  ['h_1_title', 'h1_title'],
  ['seo_2_title', 'seo2_title'],
  ['address_2_line', 'address2_line'],
  ['level_2_rank', 'level2_rank'],
  ['writers_top_2_writers_links', 'writers_top2_writers_links'],
];

/** Rewrites a build's text to the old names; in the self-referencing to-many link tables, the two order columns traded places. */
function toOldNames(text: string, block: RegExp): string {
  // Builds of then had no (owner, order) index on link tables (issue 29 added it): the old
  // database has none, and the next build's migration adds it.
  let out = text
    .replace(/^.*writers_(top_2_writers|related)_links_writer_id_writer_order_idx.*\n/gm, '')
    .replace(block, (part) => part.replace(/^\s*@@index\(\[writerId, writerOrder\]\)\n/m, ''));
  for (const [now, before] of oldNames) out = out.split(now).join(before);
  return out.replace(block, (part) => part.replace(/"(inv_)?writer_order"|`(inv_)?writer_order`/g, (name) => name.replace(/(inv_)?writer_order/, (n) => (n.startsWith('inv_') ? 'writer_order' : 'inv_writer_order'))));
}

describe('a database built with the names contentgen used before', () => {
  let built: BuiltServer;

  beforeAll(async () => {
    built = await buildFixture('identifiers');
  }, 180_000);

  afterAll(async () => {
    await built?.cleanup();
  });

  it('is renamed in place by the next build: every row and every order kept', async () => {
    const dir = built.dir;
    const migrations = path.join(dir, 'prisma/migrations');
    const init = (await import('node:fs')).readdirSync(migrations).find((n) => n.startsWith('0001_'))!;
    const initPath = path.join(migrations, init, 'migration.sql');
    // The tables of the two self-referencing manyToMany relations, in the SQL and the Prisma schema.
    const sqlBlocks = /CREATE TABLE [`"]writers_(top2_writers|related)_links[`"] \([\s\S]*?\n\)/g;
    await writeFile(initPath, toOldNames(await readFile(initPath, 'utf8'), sqlBlocks));
    const schemaPath = path.join(dir, 'prisma/schema.prisma');
    await writeFile(schemaPath, toOldNames(await readFile(schemaPath, 'utf8'), /model Writer(Top2Writers|Related)Link \{[\s\S]*?\n\}/g));
    const summaryPath = path.join(dir, '.contentgen/model.json');
    const summary = JSON.parse(toOldNames(await readFile(summaryPath, 'utf8'), /$^/));
    for (const attribute of ['top2Writers', 'related']) {
      const link = summary.storage['api::writer.writer'].links[attribute];
      [link.orderColumn, link.inverseOrderColumn] = [link.inverseOrderColumn, link.orderColumn];
    }
    await writeFile(summaryPath, JSON.stringify(summary, null, 2));

    // The old database: migration 0001 applied by a start, rows written with the old names.
    const first = await startServer(dir);
    await first.stop();
    const db = built.database;
    const now = db.datetime(new Date());
    for (const [i, name] of ['Ann', 'Bob', 'Cid'].entries()) {
      await db.query('INSERT INTO writers (id, document_id, name, h1_title, seo2_title, address2_line, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [i + 1, newDocumentId(), name, `T${i + 1}`, `S${i + 1}`, i + 10, now, now]);
    }
    // Ann lists top2Writers [Cid, Bob]: then contentgen kept the owner's list in inv_writer_order
    // (and the other way round in writer_order, so that reading the wrong one shows).
    await db.query('INSERT INTO writers_top2_writers_links (writer_id, inv_writer_id, inv_writer_order, writer_order) VALUES (?, ?, ?, ?), (?, ?, ?, ?)', [1, 3, 1, 2, 1, 2, 2, 1]);
    await db.query('INSERT INTO "writer-badges" (id, document_id, label, level2_rank, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [1, newDocumentId(), 'Gold', 7, now, now]);

    const rebuilt = spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', modelsOf('identifiers'), '-o', dir, '--db', built.provider, '--force'], { encoding: 'utf8' });
    expect(rebuilt.status, rebuilt.stderr + rebuilt.stdout).toBe(0);
    const added = (await import('node:fs')).readdirSync(migrations).filter((n) => n.startsWith('0002_'));
    expect(added).toHaveLength(1);
    const sql = await readFile(path.join(migrations, added[0]!, 'migration.sql'), 'utf8');
    if (process.env.CG_TEST_SHOW_SQL) console.log(sql);
    expect(sql).not.toMatch(/DROP TABLE|DROP COLUMN/i);
    expect(sql).toMatch(/RENAME COLUMN [`"]h1_title[`"] TO [`"]h_1_title[`"]/);
    const report = await readFile(path.join(dir, '.contentgen/changes.md'), 'utf8');
    expect(report).toContain('renames table "writers_top2_writers_links" to "writers_top_2_writers_links"');
    expect(report).toContain('renames column "level2_rank" of table "writer-badges" to "level_2_rank"');
    expect(report).toContain('renames, keeps every row');
    const generate = spawnSync(process.execPath, ['scripts/prisma-generate.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(generate.status, generate.stderr).toBe(0);

    const second = await startServer(dir);
    try {
      const reader = client(second.url);
      const ann = await ok(reader.get('/api/writers/1?populate[top2Writers][fields][0]=name'));
      expect(ann.data.attributes).toMatchObject({ name: 'Ann', h1Title: 'T1', SEO2Title: 'S1', address2Line: 10 });
      expect(ann.data.attributes.top2Writers.data.map((w: any) => w.attributes.name)).toEqual(['Cid', 'Bob']);
      expect((await ok(reader.get('/api/badges?filters[level2Rank][$eq]=7'))).data.map((b: any) => b.attributes.label)).toEqual(['Gold']);
      const rows = await db.query<{ t: number }>('SELECT inv_writer_id AS t FROM writers_top_2_writers_links WHERE writer_id = ? ORDER BY writer_order', [1]);
      expect(rows.map((r) => Number(r.t))).toEqual([3, 2]);
    } finally {
      await second.stop();
    }
  }, 300_000);
});
