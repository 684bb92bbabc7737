import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { Dialect } from '../../../../templates/runtime/meta.js';
import { buildFindOneQuery, buildFindQuery, type ReadOptions } from '../../../../templates/runtime/query/list.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { article, publishedArticle, tag } from './fixtures.js';

const limits = { defaultLimit: 25, maxLimit: 100, withCount: true };

function find(dialect: Dialect, querystring: string, meta = tag, overrides: Partial<ReadOptions> = {}) {
  return buildFindQuery(meta, parseQueryString(querystring), { dialect, ...limits, ...overrides });
}

describe('buildFindQuery', () => {
  it('selects the fields aliased to attribute names, ordered by id, first page', () => {
    const plan = find('sqlite', '');
    expect(plan.select).toEqual({
      sql: 'SELECT "id" AS "id", "name" AS "name" FROM "tags" ORDER BY "id" ASC LIMIT 25',
      params: [],
    });
    expect(plan.count).toEqual({ sql: 'SELECT COUNT(*) AS "count" FROM "tags"', params: [] });
    expect(plan.fields).toEqual(['id', 'name']);
    expect(plan.pagination.meta(3)).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
  });

  it('aliases columns whose names differ from the attribute', () => {
    expect(find('mysql', 'fields[0]=bigViews&fields[1]=createdAt', article).select.sql).toBe(
      'SELECT `id` AS `id`, `big_views` AS `bigViews`, `created_at` AS `createdAt` FROM `articles` ORDER BY `id` ASC LIMIT 25',
    );
  });

  it('puts filters, sort and pagination together; both statements share the parameters', () => {
    const plan = find('postgresql', 'filters[name][$startsWith]=a&sort=name:desc&pagination[page]=3&pagination[pageSize]=10');
    expect(plan.select).toEqual({
      sql: `SELECT "id" AS "id", "name" AS "name" FROM "tags" WHERE "name" LIKE $1 ESCAPE '\\' ORDER BY "name" COLLATE "C" DESC NULLS LAST, "id" ASC LIMIT 10 OFFSET 20`,
      params: ['a%'],
    });
    expect(plan.count).toEqual({
      sql: `SELECT COUNT(*) AS "count" FROM "tags" WHERE "name" LIKE $1 ESCAPE '\\'`,
      params: ['a%'],
    });
  });

  it('has no count statement without withCount', () => {
    expect(find('sqlite', 'pagination[withCount]=false').count).toBeNull();
    expect(find('sqlite', '', tag, { withCount: false }).count).toBeNull();
  });

  describe('limits', () => {
    it.each([
      ['sqlite', 'pagination[start]=5&pagination[limit]=10', 'LIMIT 10 OFFSET 5'],
      ['mysql', 'pagination[start]=5&pagination[limit]=10', 'LIMIT 10 OFFSET 5'],
      ['postgresql', 'pagination[start]=5&pagination[limit]=10', 'LIMIT 10 OFFSET 5'],
      ['sqlite', 'pagination[limit]=0', 'LIMIT 0'],
    ] as const)('%s: %s', (dialect, querystring, clause) => {
      expect(find(dialect, querystring).select.sql).toMatch(new RegExp(`ORDER BY "?\`?id\`?"? ASC ${clause}$`));
    });

    it('without a maximum, limit=-1 reads everything from the offset on', () => {
      const unlimited = { maxLimit: 0 };
      const tail = (dialect: Dialect, querystring: string) =>
        find(dialect, querystring, tag, unlimited).select.sql.replace(/^.* ASC/, '').trim();
      expect(tail('sqlite', 'pagination[limit]=-1')).toBe('');
      expect(tail('postgresql', 'pagination[limit]=-1')).toBe('');
      expect(tail('mysql', 'pagination[limit]=-1')).toBe('');
      expect(tail('sqlite', 'pagination[start]=5&pagination[limit]=-1')).toBe('LIMIT -1 OFFSET 5');
      expect(tail('postgresql', 'pagination[start]=5&pagination[limit]=-1')).toBe('OFFSET 5');
      expect(tail('mysql', 'pagination[start]=5&pagination[limit]=-1')).toBe('LIMIT 18446744073709551615 OFFSET 5');
    });
  });

  describe('publicationState', () => {
    it('live (the default) shows published entries of draft & publish types only', () => {
      expect(find('sqlite', 'fields=title', publishedArticle).select.sql).toBe(
        'SELECT "id" AS "id", "title" AS "title" FROM "articles" WHERE "published_at" IS NOT NULL ORDER BY "id" ASC LIMIT 25',
      );
      expect(find('sqlite', 'publicationState=live', publishedArticle).count?.sql).toBe(
        'SELECT COUNT(*) AS "count" FROM "articles" WHERE "published_at" IS NOT NULL',
      );
    });

    it('preview shows drafts too', () => {
      expect(find('sqlite', 'publicationState=preview', publishedArticle).count?.sql).toBe('SELECT COUNT(*) AS "count" FROM "articles"');
    });

    it('adds nothing for types without draft & publish', () => {
      expect(find('sqlite', 'publicationState=live', article).count?.sql).toBe('SELECT COUNT(*) AS "count" FROM "articles"');
    });

    it('is combined with filters', () => {
      expect(find('sqlite', 'filters[views][$gt]=3', publishedArticle).count?.sql).toBe(
        'SELECT COUNT(*) AS "count" FROM "articles" WHERE ("views" > ? AND "published_at" IS NOT NULL)',
      );
    });

    it('rejects other values with a 400', () => {
      for (const value of ['draft', 'LIVE', '']) {
        expect(() => find('sqlite', `publicationState=${value}`, publishedArticle)).toThrow(
          new ValidationError('Invalid publicationState. Expected one of "preview","live"'),
        );
      }
    });
  });

  describe('_q', () => {
    it('searches id as text and every visible string attribute, case-insensitively', () => {
      expect(find('sqlite', '_q=Hi%25', article).count).toEqual({
        sql:
          'SELECT COUNT(*) AS "count" FROM "articles" WHERE (' +
          [
            `LOWER(CAST("id" AS TEXT)) LIKE ? ESCAPE '\\'`,
            `LOWER("title") LIKE ? ESCAPE '\\'`,
            `LOWER("slug") LIKE ? ESCAPE '\\'`,
            `LOWER("body") LIKE ? ESCAPE '\\'`,
            `LOWER("category") LIKE ? ESCAPE '\\'`,
            `LOWER("contact") LIKE ? ESCAPE '\\'`,
          ].join(' OR ') +
          ')',
        params: Array(6).fill('%hi\\%%'),
      });
    });

    it('uses each dialect’s case-insensitive match', () => {
      const pgLower = (text: string) => `TRANSLATE(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
      expect(find('postgresql', '_q=x').count?.sql).toBe(
        `SELECT COUNT(*) AS "count" FROM "tags" WHERE (${pgLower('CAST("id" AS TEXT)')} LIKE $1 ESCAPE '\\' OR ${pgLower('CAST("name" AS TEXT)')} LIKE $2 ESCAPE '\\')`,
      );
      expect(find('mysql', '_q=x').count?.sql).toMatch(/^SELECT COUNT\(\*\) AS `count` FROM `tags` WHERE \(REPLACE\(.*CAST\(`id` AS CHAR\).* LIKE CAST\(\? AS BINARY\) ESCAPE '\\\\' OR REPLACE\(.*`name`.* LIKE CAST\(\? AS BINARY\) ESCAPE '\\\\'\)$/);
    });

    it('ignores an empty search and rejects a non-string one', () => {
      expect(find('sqlite', '_q=').count?.sql).toBe('SELECT COUNT(*) AS "count" FROM "tags"');
      expect(find('sqlite', '_q').count?.sql).toBe('SELECT COUNT(*) AS "count" FROM "tags"');
      expect(() => find('sqlite', '_q[0]=a')).toThrow(new ValidationError('Invalid parameter _q'));
    });
  });

  it('ignores populate, locale and unknown top-level parameters', () => {
    const plain = find('sqlite', '');
    expect(find('sqlite', 'populate=*&locale=fr&foo=bar&filterz[x]=1')).toEqual({
      ...plain,
      pagination: expect.anything(),
    });
  });

  it('validates every parameter before building anything', () => {
    expect(() => find('sqlite', 'fields=secret')).toThrow('Invalid parameter secret');
    expect(() => find('sqlite', 'sort=secret')).toThrow('Invalid parameter secret');
    expect(() => find('sqlite', 'filters[secret]=x')).toThrow('Invalid parameter secret');
    expect(() => find('sqlite', 'pagination[page]=1&pagination[limit]=1')).toThrow(/Expected either start\/limit/);
  });
});

describe('buildFindOneQuery', () => {
  it('selects one entry by id with the requested fields', () => {
    expect(buildFindOneQuery(tag, 7, parseQueryString('fields=name'), { dialect: 'postgresql' })).toEqual({
      select: { sql: 'SELECT "id" AS "id", "name" AS "name" FROM "tags" WHERE "id" = $1', params: [7] },
      fields: ['id', 'name'],
    });
  });

  it('ignores publicationState, filters, sort and pagination (drafts are found by id)', () => {
    const query = parseQueryString('publicationState=live&filters[title]=x&sort=title&pagination[page]=2&fields=title');
    expect(buildFindOneQuery(publishedArticle, '3', query, { dialect: 'mysql' }).select).toEqual({
      sql: 'SELECT `id` AS `id`, `title` AS `title` FROM `articles` WHERE `id` = ?',
      params: [3],
    });
  });

  it('validates fields and the id', () => {
    expect(() => buildFindOneQuery(tag, 1, parseQueryString('fields=secret'), { dialect: 'sqlite' })).toThrow(
      'Invalid parameter secret',
    );
    expect(() => buildFindOneQuery(tag, 'abc', {}, { dialect: 'sqlite' })).toThrow(ValidationError);
  });
});
