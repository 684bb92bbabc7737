import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { ContentTypeMeta, Dialect } from '../../../../templates/runtime/meta.js';
import { compileFilters } from '../../../../templates/runtime/query/filters.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { SqlBuilder } from '../../../../templates/runtime/query/sql.js';
import { article } from './fixtures.js';

interface Compiled {
  sql: string | undefined;
  params: unknown[];
}

/** Compiles the `filters` of a query string for one dialect. */
function where(dialect: Dialect, querystring: string, meta: ContentTypeMeta = article): Compiled {
  return whereValue(dialect, parseQueryString(querystring)['filters'], meta);
}

function whereValue(dialect: Dialect, filters: unknown, meta: ContentTypeMeta = article): Compiled {
  const sql = new SqlBuilder(dialect);
  return { sql: compileFilters(meta, filters, sql), params: sql.params };
}

/** The same query string compiled for every dialect. */
function everywhere(querystring: string): Record<Dialect, Compiled> {
  return {
    sqlite: where('sqlite', querystring),
    postgresql: where('postgresql', querystring),
    mysql: where('mysql', querystring),
  };
}

function expectInvalidParameter(querystring: string, key: string): void {
  for (const dialect of ['sqlite', 'postgresql', 'mysql'] as const) {
    expect(() => where(dialect, querystring)).toThrow(new ValidationError(`Invalid parameter ${key}`));
  }
}

describe('compileFilters: equality and comparison', () => {
  it('a plain value is $eq; strings compare bytewise on MySQL', () => {
    expect(everywhere('filters[title]=Hello')).toEqual({
      sqlite: { sql: '"title" = ?', params: ['Hello'] },
      postgresql: { sql: '"title" = $1', params: ['Hello'] },
      mysql: { sql: '`title` = CAST(? AS BINARY)', params: ['Hello'] },
    });
  });

  it('$eq and $ne cast the value to the column type', () => {
    expect(everywhere('filters[views][$eq]=5')).toEqual({
      sqlite: { sql: '"views" = ?', params: [5] },
      postgresql: { sql: '"views" = $1', params: [5] },
      mysql: { sql: '`views` = ?', params: [5] },
    });
    expect(everywhere('filters[featured][$ne]=true')).toEqual({
      sqlite: { sql: '"featured" <> ?', params: [1] },
      postgresql: { sql: '"featured" <> $1', params: [true] },
      mysql: { sql: '`featured` <> ?', params: [1] },
    });
  });

  it('null means IS NULL for $eq, $eqi and a bare key; IS NOT NULL for $ne and $nei', () => {
    expect(where('sqlite', 'filters[title]').sql).toBe('"title" IS NULL');
    expect(where('sqlite', 'filters[title][$eq]').sql).toBe('"title" IS NULL');
    expect(where('sqlite', 'filters[title][$eqi]').sql).toBe('"title" IS NULL');
    expect(where('mysql', 'filters[title][$ne]').sql).toBe('`title` IS NOT NULL');
    expect(where('postgresql', 'filters[title][$nei]').sql).toBe('"title" IS NOT NULL');
  });

  it('$lt $lte $gt $gte', () => {
    expect(where('sqlite', 'filters[views][$lt]=1&filters[views][$lte]=2&filters[views][$gt]=3&filters[views][$gte]=4')).toEqual({
      sql: '("views" < ? AND "views" <= ? AND "views" > ? AND "views" >= ?)',
      params: [1, 2, 3, 4],
    });
  });

  it('orders strings by code point: COLLATE "C" on PostgreSQL, binary on MySQL', () => {
    expect(everywhere('filters[title][$gte]=M')).toEqual({
      sqlite: { sql: '"title" >= ?', params: ['M'] },
      postgresql: { sql: '"title" COLLATE "C" >= $1', params: ['M'] },
      mysql: { sql: '`title` >= CAST(? AS BINARY)', params: ['M'] },
    });
  });

  it('compares dates in each database’s storage form', () => {
    expect(everywhere('filters[releasedAt][$gt]=2024-03-05T10:00:00Z')).toEqual({
      sqlite: { sql: '"released_at" > ?', params: ['2024-03-05T10:00:00.000+00:00'] },
      postgresql: { sql: '"released_at" > $1', params: [new Date('2024-03-05T10:00:00Z')] },
      mysql: { sql: '`released_at` > ?', params: [new Date('2024-03-05T10:00:00Z')] },
    });
    expect(where('sqlite', 'filters[day]=2024-03-05').params).toEqual(['2024-03-05T00:00:00.000+00:00']);
    expect(where('sqlite', 'filters[opensAt][$lt]=09:30').params).toEqual(['1970-01-01T09:30:00.000+00:00']);
  });

  it('casts enumerations to text on PostgreSQL, where they may be native enum types', () => {
    expect(where('postgresql', 'filters[category]=news').sql).toBe('CAST("category" AS TEXT) = $1');
  });

  it('rejects values that do not fit the column type', () => {
    expect(() => where('sqlite', 'filters[views][$gt]=many')).toThrow(
      new ValidationError('Invalid value for views: expected an integer'),
    );
    expect(() => where('sqlite', 'filters[featured]=yes')).toThrow(/expected a boolean/);
    expect(() => where('sqlite', 'filters[title][$eq][a]=b')).toThrow('Invalid value for title: expected a string');
  });
});

describe('compileFilters: lists', () => {
  it('$in and $notIn', () => {
    expect(everywhere('filters[id][$in][0]=1&filters[id][$in][1]=2')).toEqual({
      sqlite: { sql: '"id" IN (?, ?)', params: [1, 2] },
      postgresql: { sql: '"id" IN ($1, $2)', params: [1, 2] },
      mysql: { sql: '`id` IN (?, ?)', params: [1, 2] },
    });
    expect(where('mysql', 'filters[title][$notIn][0]=a&filters[title][$notIn][1]=b')).toEqual({
      sql: '`title` NOT IN (CAST(? AS BINARY), CAST(? AS BINARY))',
      params: ['a', 'b'],
    });
  });

  it('a scalar given to $in is a one-element list', () => {
    expect(where('sqlite', 'filters[id][$in]=42')).toEqual({ sql: '"id" IN (?)', params: [42] });
  });

  it('an array value is an implicit $in', () => {
    expect(where('postgresql', 'filters[title][0]=a&filters[title][1]=b')).toEqual({
      sql: '"title" IN ($1, $2)',
      params: ['a', 'b'],
    });
  });

  it('an empty list matches nothing for $in and everything for $notIn', () => {
    expect(whereValue('postgresql', { id: { $in: [] } }).sql).toBe('1 = 0');
    expect(whereValue('postgresql', { id: { $notIn: [] } }).sql).toBeUndefined();
  });

  it('$between takes exactly two values', () => {
    expect(everywhere('filters[views][$between][0]=1&filters[views][$between][1]=9')).toEqual({
      sqlite: { sql: '"views" BETWEEN ? AND ?', params: [1, 9] },
      postgresql: { sql: '"views" BETWEEN $1 AND $2', params: [1, 9] },
      mysql: { sql: '`views` BETWEEN ? AND ?', params: [1, 9] },
    });
    expect(where('postgresql', 'filters[title][$between][0]=a&filters[title][$between][1]=m').sql).toBe(
      '"title" COLLATE "C" BETWEEN $1 AND $2',
    );
    for (const query of [
      'filters[views][$between]=1',
      'filters[views][$between][0]=1',
      'filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3',
    ]) {
      expect(() => where('sqlite', query)).toThrow(
        new ValidationError('Invalid parameter $between: expected exactly 2 values for views'),
      );
    }
  });

  it('any other operator given an array ORs one condition per element', () => {
    expect(where('sqlite', 'filters[title][$contains][0]=a&filters[title][$contains][1]=b')).toEqual({
      sql: '("title" GLOB ? OR "title" GLOB ?)',
      params: ['*a*', '*b*'],
    });
    expect(where('postgresql', 'filters[views][$gt][0]=1&filters[views][$gt][1]=5')).toEqual({
      sql: '("views" > $1 OR "views" > $2)',
      params: [1, 5],
    });
  });
});

describe('compileFilters: text matching', () => {
  it('$contains is case-sensitive everywhere: GLOB on SQLite, binary LIKE on MySQL', () => {
    expect(everywhere('filters[title][$contains]=ab')).toEqual({
      sqlite: { sql: '"title" GLOB ?', params: ['*ab*'] },
      postgresql: { sql: `"title" LIKE $1 ESCAPE '\\'`, params: ['%ab%'] },
      mysql: { sql: `\`title\` LIKE CAST(? AS BINARY) ESCAPE '\\\\'`, params: ['%ab%'] },
    });
  });

  it('$notContains, $startsWith, $endsWith', () => {
    expect(everywhere('filters[title][$notContains]=ab')).toEqual({
      sqlite: { sql: '"title" NOT GLOB ?', params: ['*ab*'] },
      postgresql: { sql: `"title" NOT LIKE $1 ESCAPE '\\'`, params: ['%ab%'] },
      mysql: { sql: `\`title\` NOT LIKE CAST(? AS BINARY) ESCAPE '\\\\'`, params: ['%ab%'] },
    });
    expect(where('sqlite', 'filters[title][$startsWith]=ab').params).toEqual(['ab*']);
    expect(where('mysql', 'filters[title][$startsWith]=ab').params).toEqual(['ab%']);
    expect(where('sqlite', 'filters[title][$endsWith]=ab').params).toEqual(['*ab']);
    expect(where('postgresql', 'filters[title][$endsWith]=ab').params).toEqual(['%ab']);
  });

  it('$containsi and friends fold ASCII letters on both sides (the value in JS); PostgreSQL casts the column to text', () => {
    const pgLower = (text: string) => `TRANSLATE(${text}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')`;
    const myLower = (text: string) => [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].reduce((inner, l) => `REPLACE(${inner}, '${l}', '${l.toLowerCase()}')`, text);
    expect(everywhere('filters[title][$containsi]=Ab%C3%89')).toEqual({
      sqlite: { sql: `LOWER("title") LIKE ? ESCAPE '\\'`, params: ['%abÉ%'] },
      postgresql: { sql: `${pgLower('CAST("title" AS TEXT)')} LIKE $1 ESCAPE '\\'`, params: ['%abÉ%'] },
      mysql: { sql: `${myLower('`title`')} LIKE CAST(? AS BINARY) ESCAPE '\\\\'`, params: ['%abÉ%'] },
    });
    expect(where('sqlite', 'filters[title][$notContainsi]=Ab').sql).toBe(`LOWER("title") NOT LIKE ? ESCAPE '\\'`);
    expect(where('sqlite', 'filters[title][$startsWithi]=Ab').params).toEqual(['ab%']);
    expect(where('sqlite', 'filters[title][$endsWithi]=Ab').params).toEqual(['%ab']);
  });

  it('$eqi and $nei compare folded values with =, not LIKE', () => {
    expect(where('sqlite', 'filters[title][$eqi]=A_b')).toEqual({ sql: 'LOWER("title") = ?', params: ['a_b'] });
    expect(where('postgresql', 'filters[title][$eqi]=A_b').sql).toBe(`TRANSLATE(CAST("title" AS TEXT), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz') = $1`);
    expect(where('mysql', 'filters[title][$eqi]=A_b').sql).toMatch(/^REPLACE\(REPLACE\(.*`title`, 'A', 'a'\), 'B', 'b'\).*, 'Z', 'z'\) = CAST\(\? AS BINARY\)$/);
    expect(where('sqlite', 'filters[title][$nei]=x').sql).toBe('LOWER("title") <> ?');
  });

  it('matches the value literally: LIKE and GLOB metacharacters are escaped', () => {
    expect(where('postgresql', 'filters[title][$contains]=50%25_off\\').params).toEqual(['%50\\%\\_off\\\\%']);
    expect(where('sqlite', 'filters[title][$containsi]=50%25_off').params).toEqual(['%50\\%\\_off%']);
    expect(where('sqlite', 'filters[title][$contains]=a*b?[c]').params).toEqual(['*a[*]b[?][[]c]*']);
  });

  it('matches integers through their text form', () => {
    expect(everywhere('filters[id][$startsWith]=1')).toEqual({
      sqlite: { sql: 'CAST("id" AS TEXT) GLOB ?', params: ['1*'] },
      postgresql: { sql: `CAST("id" AS TEXT) LIKE $1 ESCAPE '\\'`, params: ['1%'] },
      mysql: { sql: `CAST(\`id\` AS CHAR) LIKE CAST(? AS BINARY) ESCAPE '\\\\'`, params: ['1%'] },
    });
  });

  it('refuses text operators on types whose text form differs between databases', () => {
    expectInvalidParameter('filters[rating][$contains]=1', '$contains');
    expectInvalidParameter('filters[featured][$eqi]=true', '$eqi');
    expectInvalidParameter('filters[releasedAt][$startsWith]=2024', '$startsWith');
  });
});

describe('compileFilters: $null and $notNull', () => {
  it.each([
    ['true', true],
    ['t', true],
    ['1', true],
    ['anything', true],
    ['false', false],
    ['f', false],
    ['0', false],
    ['', false],
  ])('$null=%s is %s', (value, isNull) => {
    expect(where('sqlite', `filters[title][$null]=${value}`).sql).toBe(isNull ? '"title" IS NULL' : '"title" IS NOT NULL');
    expect(where('sqlite', `filters[title][$notNull]=${value}`).sql).toBe(isNull ? '"title" IS NOT NULL' : '"title" IS NULL');
  });

  it('a bare $null (null) is false, and arrays and objects are true', () => {
    expect(where('sqlite', 'filters[title][$null]').sql).toBe('"title" IS NOT NULL');
    expect(where('sqlite', 'filters[title][$null][0]=x').sql).toBe('"title" IS NULL');
    expect(where('sqlite', 'filters[title][$null][a]=b').sql).toBe('"title" IS NULL');
  });

  it('is the only way to filter JSON attributes', () => {
    expect(where('mysql', 'filters[meta][$notNull]=true').sql).toBe('`meta` IS NOT NULL');
    expect(where('mysql', 'filters[meta]').sql).toBe('`meta` IS NULL');
    expectInvalidParameter('filters[meta]=x', 'meta');
    expectInvalidParameter('filters[meta][$eq]=x', 'meta');
    expectInvalidParameter('filters[meta][$contains]=x', 'meta');
  });
});

describe('compileFilters: logical operators', () => {
  it('sibling conditions are AND-ed', () => {
    expect(where('postgresql', 'filters[title]=a&filters[views][$gt]=1')).toEqual({
      sql: '("title" = $1 AND "views" > $2)',
      params: ['a', 1],
    });
  });

  it('$or and $and take arrays of conditions', () => {
    expect(where('postgresql', 'filters[$or][0][title]=a&filters[$or][1][views][$gt]=1')).toEqual({
      sql: '("title" = $1 OR "views" > $2)',
      params: ['a', 1],
    });
    expect(
      where('sqlite', 'filters[$and][0][$or][0][id]=1&filters[$and][0][$or][1][id]=2&filters[$and][1][title]=x').sql,
    ).toBe('(("id" = ? OR "id" = ?) AND "title" = ?)');
  });

  it('$not negates at the root and under an attribute', () => {
    expect(where('sqlite', 'filters[$not][title]=a').sql).toBe('NOT ("title" = ?)');
    expect(where('sqlite', 'filters[title][$not][$contains]=a').sql).toBe('NOT ("title" GLOB ?)');
    expect(where('sqlite', 'filters[title][$not]=a').sql).toBe('NOT ("title" = ?)');
    expect(where('sqlite', 'filters[$not][$or][0][id]=1&filters[$not][$or][1][id]=2').sql).toBe(
      'NOT (("id" = ? OR "id" = ?))',
    );
  });

  it('$or and $and under an attribute combine values of that attribute', () => {
    expect(where('sqlite', 'filters[title][$or][0]=a&filters[title][$or][1][$startsWith]=b')).toEqual({
      sql: '("title" = ? OR "title" GLOB ?)',
      params: ['a', 'b*'],
    });
  });

  it('$and and $or need an array', () => {
    expectInvalidParameter('filters[$or]=x', '$or');
    expectInvalidParameter('filters[$and][title]=x', '$and');
    expectInvalidParameter('filters[title][$or]=x', '$or');
    expectInvalidParameter('filters[$or][0]=x', '$or');
  });

  it('$not needs an object', () => {
    expectInvalidParameter('filters[$not]=x', '$not');
  });

  it('a root array is AND-ed, like Strapi', () => {
    expect(whereValue('sqlite', [{ title: 'a' }, { views: 1 }]).sql).toBe('("title" = ? AND "views" = ?)');
  });

  it('qualifies columns with an alias', () => {
    const sql = new SqlBuilder('postgresql');
    expect(compileFilters(article, { title: 'x' }, sql, 't0')).toBe('"t0"."title" = $1');
  });
});

describe('compileFilters: what is dropped silently', () => {
  it('no filters at all', () => {
    expect(where('sqlite', '')).toEqual({ sql: undefined, params: [] });
    expect(where('sqlite', 'filters')).toEqual({ sql: undefined, params: [] });
  });

  it('unknown operators directly under an attribute', () => {
    expect(where('sqlite', 'filters[title][$foo]=x').sql).toBeUndefined();
    expect(where('sqlite', 'filters[title][bar]=x&filters[views]=1').sql).toBe('"views" = ?');
  });

  it('empty objects', () => {
    expect(whereValue('sqlite', { id: {} }).sql).toBeUndefined();
    expect(whereValue('sqlite', { id: { $eq: {} } }).sql).toBeUndefined();
    expect(whereValue('sqlite', { $not: {} }).sql).toBeUndefined();
    expect(whereValue('sqlite', { $or: [] }).sql).toBeUndefined();
  });
});

describe('compileFilters: what is a 400 "Invalid parameter <key>"', () => {
  it('unknown attributes, matched case-sensitively', () => {
    expectInvalidParameter('filters[notAnAttribute]=', 'notAnAttribute');
    expectInvalidParameter('filters[ID]=1', 'ID');
    // qs already drops Object.prototype names; JSON bodies (GraphQL) do not.
    expect(() => whereValue('sqlite', JSON.parse('{"constructor":1}'))).toThrow('Invalid parameter constructor');
    expect(() => whereValue('sqlite', JSON.parse('{"__proto__":1}'))).toThrow('Invalid parameter __proto__');
  });

  it('unknown operators, and attribute operators, at object level', () => {
    expectInvalidParameter('filters[$fakeOp]=false', '$fakeOp');
    expectInvalidParameter('filters[$eq]=1', '$eq');
    expectInvalidParameter('filters[$OR][0][id]=1', '$OR');
  });

  it('operators in the wrong case', () => {
    expectInvalidParameter('filters[id][$STARTSWITH]=1', '$STARTSWITH');
    expectInvalidParameter('filters[title][$Eq]=x', '$Eq');
  });

  it('any unknown key under id, which Strapi validates as a filters object', () => {
    expectInvalidParameter('filters[id][$foo]=1', '$foo');
  });

  it('private and password attributes, and dynamic zones', () => {
    expectInvalidParameter('filters[secret]=x', 'secret');
    expectInvalidParameter('filters[$or][0][secret][$null]=true', 'secret');
    expectInvalidParameter('filters[password][$notNull]=true', 'password');
    expectInvalidParameter('filters[blocks][$null]=true', 'blocks');
    expectInvalidParameter('filters[createdBy][id]=1', 'createdBy');
  });

  it('relations, media and components (not supported yet)', () => {
    expectInvalidParameter('filters[author][name]=x', 'author');
    expectInvalidParameter('filters[author]=3', 'author');
    expectInvalidParameter('filters[cover][mime][$startsWith]=image', 'cover');
    expectInvalidParameter('filters[seo][metaTitle]=x', 'seo');
  });

  it('filters that are not an object', () => {
    expectInvalidParameter('filters=title', 'filters');
  });
});

describe('compileFilters: limits (REST and GraphQL alike)', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

  it('compares at most 1,000 values: 400, not a statement over the bound-parameter limit', () => {
    expect(whereValue('sqlite', { id: { $in: ids(1000) } }).params).toHaveLength(1000);
    expect(() => whereValue('sqlite', { id: { $in: ids(1001) } })).toThrow(new ValidationError('Too many values in filters: at most 1000'));
    expect(() => whereValue('postgresql', { id: { $in: ids(40_000) } })).toThrow(new ValidationError('Too many values in filters: at most 1000'));
    expect(() => whereValue('mysql', { $or: ids(600).map((id) => ({ id: { $between: [id, id + 1] } })) })).toThrow(/Too many values in filters/);
  });

  it('holds at most 1,000 conditions, values or not', () => {
    expect(() => whereValue('sqlite', { $or: ids(1000).map((id) => ({ id })) })).not.toThrow();
    expect(() => whereValue('sqlite', { $or: ids(20_000).map((id) => ({ id })) })).toThrow(new ValidationError('Too many conditions in filters: at most 1000'));
    expect(() => whereValue('sqlite', { $or: ids(1001).map(() => ({ title: { $null: true } })) })).toThrow(new ValidationError('Too many conditions in filters: at most 1000'));
    expect(() => whereValue('sqlite', { title: { $contains: ids(1001).map(String) } })).toThrow(/Too many/);
  });

  it('nests at most 32 levels', () => {
    const nest = (levels: number, key: string, leaf: unknown): unknown => (levels === 0 ? leaf : { [key]: key === '$not' ? nest(levels - 1, key, leaf) : [nest(levels - 1, key, leaf)] });
    expect(() => whereValue('sqlite', nest(30, '$and', { id: 1 }))).not.toThrow();
    expect(() => whereValue('sqlite', nest(5000, '$and', { id: 1 }))).toThrow(new ValidationError('Filters are nested too deeply: at most 32 levels'));
    expect(() => whereValue('sqlite', nest(5000, '$not', { id: 1 }))).toThrow(/nested too deeply/);
    expect(() => whereValue('sqlite', { title: nest(5000, '$not', 'x') })).toThrow(/nested too deeply/);
  });

  it('a long $or is grouped by 100: SQLite refuses expression trees 1,000 deep', () => {
    const { sql } = whereValue('sqlite', { $or: ids(1000).map((id) => ({ id })) });
    expect(sql!.startsWith('((')).toBe(true);
    expect(sql!.match(/\(\(|\) OR \(/g)!.length).toBeGreaterThan(5);
    expect(whereValue('sqlite', { $or: ids(100).map((id) => ({ id })) }).sql!.startsWith('("id" = ? OR')).toBe(true);
  });
});
