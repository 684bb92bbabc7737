import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { Dialect } from '../../../../templates/runtime/meta.js';
import { SqlBuilder } from '../../../../templates/runtime/query/sql.js';
import { article, field } from './fixtures.js';

const encode = (dialect: Dialect, name: string, raw: unknown) => new SqlBuilder(dialect).encodeValue(field(article, name), raw);

describe('SqlBuilder', () => {
  it('quotes identifiers per dialect', () => {
    expect(new SqlBuilder('sqlite').ident('title')).toBe('"title"');
    expect(new SqlBuilder('postgresql').ident('title')).toBe('"title"');
    expect(new SqlBuilder('mysql').ident('title')).toBe('`title`');
    expect(new SqlBuilder('postgresql').column('title', 't0')).toBe('"t0"."title"');
  });

  it('quotes table names with a "-" (Strapi collectionNames) and names starting with a digit', () => {
    expect(new SqlBuilder('postgresql').ident('writer-badges')).toBe('"writer-badges"');
    expect(new SqlBuilder('mysql').ident('components_components_utrecht-logo_buttons')).toBe('`components_components_utrecht-logo_buttons`');
    expect(new SqlBuilder('sqlite').ident('2024_posts')).toBe('"2024_posts"');
  });

  it('refuses identifiers that are not plain names', () => {
    for (const name of ['', '-a', 'a b', 'a"b', 'a`b', 'a;--', 'a.b', "a'b", 'a\\b']) {
      expect(() => new SqlBuilder('sqlite').ident(name)).toThrow(/unsafe SQL identifier/);
    }
  });

  it('numbers placeholders on postgresql and uses ? elsewhere', () => {
    const pg = new SqlBuilder('postgresql');
    expect([pg.param('a'), pg.param('b')]).toEqual(['$1', '$2']);
    expect(pg.params).toEqual(['a', 'b']);
    const sqlite = new SqlBuilder('sqlite');
    expect([sqlite.param(1), sqlite.param(2)]).toEqual(['?', '?']);
    const mysql = new SqlBuilder('mysql');
    expect(mysql.param(1)).toBe('?');
  });
});

describe('encodeValue', () => {
  it('reads integers', () => {
    expect(encode('sqlite', 'views', '42')).toBe(42);
    expect(encode('sqlite', 'views', '-7')).toBe(-7);
    expect(encode('sqlite', 'views', 3)).toBe(3);
    for (const bad of ['4.5', 'abc', '', '1e3', 4.5, true, null, ['1'], { a: 1 }]) {
      expect(() => encode('sqlite', 'views', bad)).toThrow(new ValidationError('Invalid value for views: expected an integer'));
    }
    expect(() => encode('sqlite', 'views', '2147483648')).toThrow(
      'Invalid value for views: expected an integer between -2147483648 and 2147483647',
    );
  });

  it('reads big integers as BigInt, exactly', () => {
    expect(encode('sqlite', 'bigViews', '9007199254740993')).toBe(9007199254740993n);
    expect(encode('postgresql', 'bigViews', 12)).toBe(12n);
    expect(() => encode('mysql', 'bigViews', '1.5')).toThrow('Invalid value for bigViews: expected an integer');
    expect(() => encode('mysql', 'bigViews', '9223372036854775808')).toThrow(/between/);
  });

  it('reads floats and decimals as finite numbers', () => {
    expect(encode('sqlite', 'rating', '1.5')).toBe(1.5);
    expect(encode('sqlite', 'price', '-.25')).toBe(-0.25);
    expect(encode('sqlite', 'price', '2e3')).toBe(2000);
    for (const bad of ['abc', '', 'Infinity', '1e999', 'NaN', '0x10']) {
      expect(() => encode('sqlite', 'rating', bad)).toThrow('Invalid value for rating: expected a number');
    }
  });

  it('reads booleans from the strict tables and encodes them per dialect', () => {
    for (const yes of [true, 'true', 't', '1', 1]) {
      expect(encode('sqlite', 'featured', yes)).toBe(1);
      expect(encode('mysql', 'featured', yes)).toBe(1);
      expect(encode('postgresql', 'featured', yes)).toBe(true);
    }
    for (const no of [false, 'false', 'f', '0', 0]) {
      expect(encode('sqlite', 'featured', no)).toBe(0);
      expect(encode('postgresql', 'featured', no)).toBe(false);
    }
    for (const bad of ['yes', 'TRUE', '', 2, null]) {
      expect(() => encode('sqlite', 'featured', bad)).toThrow(
        'Invalid value for featured: expected a boolean (true, false, t, f, 1 or 0)',
      );
    }
  });

  it('encodes date-times as Prisma SQLite text, or as a Date', () => {
    expect(encode('sqlite', 'releasedAt', '2024-03-05T10:20:30.456Z')).toBe('2024-03-05T10:20:30.456+00:00');
    expect(encode('sqlite', 'releasedAt', '2024-03-05')).toBe('2024-03-05T00:00:00.000+00:00');
    expect(encode('sqlite', 'releasedAt', '2024-03-05T12:00:00+02:00')).toBe('2024-03-05T10:00:00.000+00:00');
    // No offset means UTC, whatever the server's time zone.
    expect(encode('sqlite', 'releasedAt', '2024-03-05 10:00')).toBe('2024-03-05T10:00:00.000+00:00');
    expect(encode('sqlite', 'releasedAt', '1709632800000')).toBe('2024-03-05T10:00:00.000+00:00');
    expect(encode('postgresql', 'releasedAt', '2024-03-05T10:00:00Z')).toEqual(new Date('2024-03-05T10:00:00Z'));
    expect(encode('mysql', 'createdAt', '2024-03-05T10:00:00Z')).toEqual(new Date('2024-03-05T10:00:00Z'));
    for (const bad of ['yesterday', '2024-02-30', '2024-03-05T25:00', '', null]) {
      expect(() => encode('sqlite', 'releasedAt', bad)).toThrow(
        'Invalid value for releasedAt: expected an ISO 8601 date-time or a timestamp in milliseconds',
      );
    }
  });

  it('encodes dates as midnight UTC on SQLite, as a DATE literal elsewhere', () => {
    expect(encode('sqlite', 'day', '2024-03-05')).toBe('2024-03-05T00:00:00.000+00:00');
    expect(encode('postgresql', 'day', '2024-03-05')).toBe('2024-03-05');
    expect(encode('mysql', 'day', '2024-03-05')).toBe('2024-03-05');
    // Like Strapi, only the YYYY-MM-DD prefix counts.
    expect(encode('sqlite', 'day', '2024-03-05T23:00:00Z')).toBe('2024-03-05T00:00:00.000+00:00');
    for (const bad of ['05/03/2024', '2024-13-01', '2024-3-5']) {
      expect(() => encode('sqlite', 'day', bad)).toThrow('Invalid value for day: expected a date (YYYY-MM-DD)');
    }
  });

  it('encodes times as that time on 1970-01-01 UTC on SQLite, as a TIME literal elsewhere', () => {
    expect(encode('sqlite', 'opensAt', '10:30')).toBe('1970-01-01T10:30:00.000+00:00');
    expect(encode('sqlite', 'opensAt', '10:30:15')).toBe('1970-01-01T10:30:15.000+00:00');
    expect(encode('sqlite', 'opensAt', '10:30:15.5')).toBe('1970-01-01T10:30:15.500+00:00');
    expect(encode('mysql', 'opensAt', '23:59:59.999')).toBe('23:59:59.999');
    expect(encode('postgresql', 'opensAt', '07:05')).toBe('07:05:00.000');
    for (const bad of ['24:00', '10', '10:60', '1:30']) {
      expect(() => encode('sqlite', 'opensAt', bad)).toThrow(
        'Invalid value for opensAt: expected a time (HH:mm, HH:mm:ss or HH:mm:ss.SSS)',
      );
    }
  });

  it('reads every string-like type as text', () => {
    for (const name of ['title', 'slug', 'body', 'category', 'contact']) {
      expect(encode('sqlite', name, 'x')).toBe('x');
      expect(encode('sqlite', name, 5)).toBe('5');
    }
    for (const bad of [['a'], { a: 'b' }, null]) {
      expect(() => encode('sqlite', 'title', bad)).toThrow('Invalid value for title: expected a string');
    }
  });

  it('refuses to compare JSON', () => {
    expect(() => encode('sqlite', 'meta', '{}')).toThrow(new ValidationError('Invalid parameter meta'));
  });
});
