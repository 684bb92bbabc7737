import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { parseFields } from '../../../../templates/runtime/query/fields.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { article } from './fixtures.js';

const fieldsOf = (querystring: string) => parseFields(article, parseQueryString(querystring)['fields']);

const allSelectable = [
  'id',
  'title',
  'slug',
  'body',
  'views',
  'bigViews',
  'rating',
  'price',
  'featured',
  'day',
  'opensAt',
  'releasedAt',
  'category',
  'contact',
  'meta',
  'createdAt',
  'updatedAt',
];

describe('parseFields', () => {
  it('selects every non-private, non-password scalar by default and for *', () => {
    expect(fieldsOf('')).toEqual(allSelectable);
    expect(fieldsOf('fields')).toEqual(allSelectable);
    expect(fieldsOf('fields=*')).toEqual(allSelectable);
    expect(fieldsOf('fields=%2A')).toEqual(allSelectable);
  });

  it.each([
    ['fields=title', ['id', 'title']],
    ['fields[0]=title', ['id', 'title']],
    ['fields[0]=title&fields[1]=views', ['id', 'title', 'views']],
    ['fields[0]=id&fields[1]=title&fields[2]=title', ['id', 'title']],
    ['fields=meta', ['id', 'meta']],
    ['fields=', ['id']],
  ])('%s', (querystring, expected) => {
    expect(fieldsOf(querystring)).toEqual(expected);
  });

  it('rejects unknown, private, password and non-scalar names', () => {
    for (const [querystring, key] of [
      ['fields=nope', 'nope'],
      ['fields[0]=title&fields[1]=Slug', 'Slug'],
      // As in Strapi v4.26, a comma does not separate names.
      ['fields=title,slug', 'title,slug'],
      ['fields=slug, title', 'slug, title'],
      ['fields[0]=title,slug&fields[1]=views', 'title,slug'],
      ['fields[0]=secret', 'secret'],
      ['fields=password', 'password'],
      ['fields=author', 'author'],
      ['fields=seo', 'seo'],
      ['fields=cover', 'cover'],
      ['fields=blocks', 'blocks'],
      // As in Strapi, * means "all" only as the whole parameter.
      ['fields[0]=*', '*'],
      ['fields[0]=title&fields[1]=*', '*'],
    ] as const) {
      expect(() => fieldsOf(querystring)).toThrow(new ValidationError(`Invalid parameter ${key}`));
    }
  });

  it('rejects shapes other than a string or a list of strings', () => {
    expect(() => fieldsOf('fields[title]=true')).toThrow(
      new ValidationError('Invalid fields parameter. Expected a string or an array of strings'),
    );
  });
});
