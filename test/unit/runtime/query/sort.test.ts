import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import type { Dialect } from '../../../../templates/runtime/meta.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { compileOrderBy, parseSort } from '../../../../templates/runtime/query/sort.js';
import { SqlBuilder } from '../../../../templates/runtime/query/sql.js';
import { article } from './fixtures.js';

/** Parsed sort of a query string, as `name:direction` strings. */
function sortOf(querystring: string): string[] {
  return parseSort(article, parseQueryString(querystring)['sort']).map(({ field, direction }) => `${field.name}:${direction}`);
}

function orderBy(dialect: Dialect, querystring: string): string {
  return compileOrderBy(parseSort(article, parseQueryString(querystring)['sort']), new SqlBuilder(dialect));
}

describe('parseSort', () => {
  it.each([
    ['sort=title', ['title:asc']],
    ['sort=title:desc', ['title:desc']],
    ['sort=title:DESC', ['title:desc']],
    ['sort=title%3AAsc', ['title:asc']],
    ['sort=title:asc,id:desc', ['title:asc', 'id:desc']],
    ['sort=title:asc, views', ['title:asc', 'views:asc']],
    ['sort[0]=title:asc&sort[1]=id', ['title:asc', 'id:asc']],
    ['sort[0]=title,views:desc&sort[1]=id', ['title:asc', 'views:desc', 'id:asc']],
    ['sort[title]=desc', ['title:desc']],
    ['sort[title]=desc&sort[views]=asc', ['title:desc', 'views:asc']],
    ['sort[0][title]=asc&sort[1][views]=DESC', ['title:asc', 'views:desc']],
    ['sort=createdAt:desc', ['createdAt:desc']],
    ['', []],
    ['sort=', []],
  ])('%s', (querystring, expected) => {
    expect(sortOf(querystring)).toEqual(expected);
  });

  it('rejects unknown, private, password, non-scalar and JSON fields', () => {
    for (const [querystring, key] of [
      ['sort=nope', 'nope'],
      ['sort=Title', 'Title'],
      ['sort=secret:asc', 'secret'],
      ['sort[password]=asc', 'password'],
      ['sort=author', 'author'],
      ['sort=blocks', 'blocks'],
      ['sort=meta', 'meta'],
    ] as const) {
      expect(() => sortOf(querystring)).toThrow(new ValidationError(`Invalid parameter ${key}`));
    }
  });

  it('rejects paths through relations until relations are supported', () => {
    expect(() => sortOf('sort=author.name:asc')).toThrow(new ValidationError('Invalid parameter author.name'));
    expect(() => sortOf('sort[author][name]=asc')).toThrow(new ValidationError('Invalid parameter author.name'));
  });

  it('answers 400 (not Strapi’s 500) for a bad direction', () => {
    expect(() => sortOf('sort=title:up')).toThrow(
      new ValidationError('Invalid sort direction "up" for title. Expected "asc" or "desc"'),
    );
    expect(() => sortOf('sort[title]=sideways')).toThrow(ValidationError);
    expect(() => sortOf('sort[title]')).toThrow('Invalid sort direction null for title. Expected "asc" or "desc"');
    expect(() => sortOf('sort=title:')).toThrow(ValidationError);
  });
});

describe('compileOrderBy', () => {
  it('breaks ties by id and sorts strings by code point', () => {
    expect(orderBy('sqlite', 'sort=title:desc,views')).toBe('ORDER BY "title" DESC, "views" ASC, "id" ASC');
    expect(orderBy('mysql', 'sort=title:desc,views')).toBe('ORDER BY CAST(`title` AS BINARY) DESC, `views` ASC, `id` ASC');
  });

  it('puts NULLs first ascending and last descending on PostgreSQL too', () => {
    expect(orderBy('postgresql', 'sort=title:desc,views')).toBe(
      'ORDER BY "title" COLLATE "C" DESC NULLS LAST, "views" ASC NULLS FIRST, "id" ASC',
    );
    expect(orderBy('postgresql', 'sort=category')).toBe('ORDER BY CAST("category" AS TEXT) COLLATE "C" ASC NULLS FIRST, "id" ASC');
  });

  it('adds no tiebreaker when id is already sorted on', () => {
    expect(orderBy('sqlite', 'sort=id:desc')).toBe('ORDER BY "id" DESC');
    expect(orderBy('postgresql', 'sort=views,id:desc')).toBe('ORDER BY "views" ASC NULLS FIRST, "id" DESC NULLS LAST');
  });

  it('orders by id alone by default', () => {
    expect(orderBy('sqlite', '')).toBe('ORDER BY "id" ASC');
  });

  it('qualifies columns with an alias', () => {
    expect(compileOrderBy(parseSort(article, 'views'), new SqlBuilder('sqlite'), 't0')).toBe(
      'ORDER BY "t0"."views" ASC, "t0"."id" ASC',
    );
  });
});
