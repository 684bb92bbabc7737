/**
 * Database names as Strapi 4.26.2's database has them: lodash's snakeCase (compared with lodash
 * itself where it is installed), the names of link tables and their columns, and what each
 * database does to names longer than it keeps (PostgreSQL cuts, and two names cut into one are
 * refused; MySQL/MariaDB shortens with a hash and warns).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build-ir.js';
import { constraintMapName, databaseIdentifier } from '../../generator/ir/identifiers.js';
import { prismaFieldNames, snakeCase } from '../../generator/ir/names.js';
import { loadModels } from '../../generator/load/load-models.js';
import { generate } from '../../generator/pipeline.js';
import { formatModelError } from '../../generator/validate/model-error.js';
import { validateModels } from '../../generator/validate/validate.js';
import { modelsOf, withModelFiles } from '../helpers/paths.js';

const withModels = <T>(files: Record<string, unknown>, run: (dir: string) => Promise<T>) => withModelFiles('identifiers-models', files, run);

const lodash = (() => {
  try {
    return createRequire(import.meta.url)('lodash') as { snakeCase(text: string): string };
  } catch {
    return undefined;
  }
})();

describe('snakeCase', () => {
  it("spells Strapi 4.26.2's observed columns and link tables (lodash)", () => {
    expect(snakeCase('h1Title')).toBe('h_1_title');
    expect(snakeCase('authors_top2Writers_links')).toBe('authors_top_2_writers_links');
    expect(snakeCase('SEO2Title')).toBe('seo_2_title');
    expect(snakeCase('address2Line')).toBe('address_2_line');
    expect(snakeCase('releaseDate')).toBe('release_date');
    expect(snakeCase('hero-banner-with-call-to-action_id')).toBe('hero_banner_with_call_to_action_id');
    expect(snakeCase('components_components_utrecht-logo_buttons_links')).toBe('components_components_utrecht_logo_buttons_links');
    expect(snakeCase('XMLHttpRequest')).toBe('xml_http_request');
    expect(snakeCase('the3rdPlace')).toBe('the_3rd_place');
  });

  it.skipIf(!lodash)('equals lodash.snakeCase on random names', () => {
    const alphabet = 'aZbY019_-. ÉéßxQ';
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 5000; i++) {
      let name = '';
      for (let n = 1 + Math.floor(random() * 12); n > 0; n--) name += alphabet[Math.floor(random() * alphabet.length)];
      expect(snakeCase(name), JSON.stringify(name)).toBe(lodash!.snakeCase(name));
    }
  });
});

describe('names longer than the database keeps', () => {
  const long = 'landing_pages_for_marketing_campaigns_in_many_countries_featured_writers_of_the_week_links';

  it('SQLite keeps them; PostgreSQL cuts at 63 bytes; MySQL keeps 55 characters and a hash, the same every build', () => {
    expect(databaseIdentifier(long, 'sqlite')).toBe(long);
    expect(databaseIdentifier(long, 'postgresql')).toBe(long.slice(0, 63));
    const mysql = databaseIdentifier(long, 'mysql');
    expect(mysql).toMatch(/^landing_pages_for_marketing_campaigns_in_many_countries_[0-9a-f]{8}$/);
    expect(mysql).toHaveLength(64);
    expect(databaseIdentifier(long, 'mysql')).toBe(mysql);
    expect(databaseIdentifier(`${long}_2`, 'mysql')).not.toBe(mysql);
    expect(databaseIdentifier('writers', 'mysql')).toBe('writers');
    // Index and constraint names: Prisma's default while it fits, else a prefix and a hash.
    expect(constraintMapName('writers', ['name'], 'key', 'postgresql')).toBeUndefined();
    const a = constraintMapName(long.slice(0, 63), ['campaign_id'], 'fkey', 'postgresql')!;
    const b = constraintMapName(long.slice(0, 63), ['writer_id'], 'fkey', 'postgresql')!;
    expect(a).not.toBe(b);
    expect(Buffer.byteLength(a)).toBeLessThanOrEqual(63);
    expect(a).toMatch(/_[0-9a-f]{8}_fkey$/);
  });

  const campaign = (attributes: Record<string, unknown>) => ({
    collectionName: 'landing_pages_for_marketing_campaigns_in_many_countries',
    info: { singularName: 'campaign', pluralName: 'campaigns' },
    attributes: { title: { type: 'string' }, ...attributes },
  });
  const writer = { info: { singularName: 'writer', pluralName: 'writers' }, attributes: { name: { type: 'string' } } };

  it('PostgreSQL: two link tables cut into one name are refused, naming both; nothing is built', async () => {
    const models = {
      'campaign.json': campaign({
        featuredWritersOfTheWeek: { type: 'relation', relation: 'manyToMany', target: 'api::writer.writer' },
        featuredWritersOfTheMonth: { type: 'relation', relation: 'manyToMany', target: 'api::writer.writer' },
      }),
      'writer.json': writer,
    };
    await withModels(models, async (dir) => {
      const result = await generate({ modelsDir: dir, outDir: path.join(dir, 'out'), provider: 'postgresql', check: false, acceptDataLoss: false });
      expect(result.ok).toBe(false);
      const errors = 'errors' in result ? result.errors.map(formatModelError) : [];
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain('campaign.json /attributes/featuredWritersOfTheMonth: content type "api::campaign.campaign", attribute "featuredWritersOfTheMonth"');
      expect(errors[0]).toContain(
        'the table "landing_pages_for_marketing_campaigns_in_many_countries_featured_writers_of_the_month_links" becomes "landing_pages_for_marketing_campaigns_in_many_countries_feature"',
      );
      expect(errors[0]).toContain('"landing_pages_for_marketing_campaigns_in_many_countries_featured_writers_of_the_week_links" of content type "api::campaign.campaign", attribute "featuredWritersOfTheWeek"');
      // SQLite keeps both whole, MySQL shortens both differently.
      for (const provider of ['sqlite', 'mysql'] as const) {
        const ir = buildIr(await loadModels(dir), provider);
        expect(ir.databaseNames?.errors).toEqual([]);
      }
    });
  });

  it('MySQL: a build warning names what was shortened', async () => {
    const models = { 'campaign.json': campaign({ featuredWritersOfTheWeekAndMonth: { type: 'relation', relation: 'manyToMany', target: 'api::writer.writer' } }), 'writer.json': writer };
    await withModels(models, async (dir) => {
      const result = await generate({ modelsDir: dir, outDir: path.join(dir, 'out'), provider: 'mysql', check: false, acceptDataLoss: false });
      expect(result.ok).toBe(true);
      const warnings = result.ok ? result.warnings : [];
      expect(warnings).toEqual([
        expect.stringMatching(
          /^campaign\.json: content type "api::campaign\.campaign", attribute "featuredWritersOfTheWeekAndMonth": MySQL\/MariaDB refuses names over 64 characters, so the table Strapi names "landing_pages_for_marketing_campaigns_in_many_countries_featured_writers_of_the_week_and_month_links" is "landing_pages_for_marketing_campaigns_in_many_countries_[0-9a-f]{8}" here/,
        ),
      ]);
      const sqlite = await generate({ modelsDir: dir, outDir: path.join(dir, 'out'), provider: 'sqlite', check: false, acceptDataLoss: false });
      expect(sqlite.ok && sqlite.warnings).toEqual([]);
    });
  });
});

describe('collectionName', () => {
  it("is used as written, '-' included, however long", async () => {
    const ir = buildIr(await loadModels(modelsOf('identifiers')), 'sqlite');
    expect(ir.components.find((c) => c.uid === 'utrecht.logo-button')!.names.table).toBe('components_components_utrecht-logo_buttons');
    const badge = ir.contentTypes.find((ct) => ct.uid === 'api::badge.badge')!;
    expect(badge.names.table).toBe('writer-badges');
    const writer = ir.contentTypes.find((ct) => ct.uid === 'api::writer.writer')!;
    const link = (name: string) => {
      const a = writer.attributes.find((x) => x.name === name)!;
      return 'link' in a ? a.link : undefined;
    };
    expect(link('top2Writers')).toMatchObject({
      table: 'writers_top_2_writers_links',
      ownerColumn: 'writer_id',
      targetColumn: 'inv_writer_id',
      orderColumn: 'writer_order',
      inverseOrderColumn: 'inv_writer_order',
    });
    // The mappedBy side reads the same table from the other end.
    const relatedFrom = writer.attributes.find((x) => x.name === 'relatedFrom')!;
    expect('link' in relatedFrom && relatedFrom.link).toMatchObject({ table: 'writers_related_links', ownerColumn: 'inv_writer_id', orderColumn: 'inv_writer_order', owning: false });
  });

  it('refuses quotes, spaces and dots', async () => {
    const errors = await withModels(
      { 'thing.json': { collectionName: 'my "things"', info: { singularName: 'thing', pluralName: 'things' }, attributes: {} } },
      async (dir) => validateModels(await loadModels(dir)).map(formatModelError),
    );
    expect(errors).toEqual(['thing.json /collectionName: content type "api::thing.thing": collectionName must match /^[A-Za-z0-9_][A-Za-z0-9_-]*$/']);
  });
});

describe('attribute names with letters outside ASCII', () => {
  it("keep Strapi's column (lodash snakeCase drops the accents) and get an ASCII Prisma field, unique among the owner's names", () => {
    expect(['año', 'descripción', 'añoEdición'].map(snakeCase)).toEqual(['ano', 'descripcion', 'ano_edicion']);
    expect([...prismaFieldNames(['title', 'año', 'a_xf1_o', 'ñandú'])]).toEqual([
      ['año', 'a_xf1_o_'],
      ['ñandú', 'x_xf1_and_xfa_'],
    ]);
  });
});
