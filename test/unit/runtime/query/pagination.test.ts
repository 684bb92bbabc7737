import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { type PaginationConfig, resolvePagination } from '../../../../templates/runtime/query/pagination.js';

const config: PaginationConfig = { defaultLimit: 25, maxLimit: 100, withCount: true };

function paginate(querystring: string, overrides: Partial<PaginationConfig> = {}) {
  const pagination = resolvePagination(parseQueryString(querystring)['pagination'], { ...config, ...overrides });
  const { mode, limit, offset, withCount } = pagination;
  return { mode, limit, offset, withCount, meta: pagination.meta(230) };
}

describe('resolvePagination', () => {
  it.each([
    // No parameters: page mode with the default page size.
    ['', { mode: 'page', limit: 25, offset: 0, meta: { page: 1, pageSize: 25, pageCount: 10, total: 230 } }],
    ['pagination[page]=2', { mode: 'page', limit: 25, offset: 25, meta: { page: 2, pageSize: 25, pageCount: 10, total: 230 } }],
    ['pagination[page]=3&pagination[pageSize]=10', { mode: 'page', limit: 10, offset: 20, meta: { page: 3, pageSize: 10, pageCount: 23, total: 230 } }],
    ['pagination[pageSize]=7', { mode: 'page', limit: 7, offset: 0, meta: { page: 1, pageSize: 7, pageCount: 33, total: 230 } }],
    // page < 1 is 1, pageSize < 1 is 1 (even -1), pageSize above maxLimit is maxLimit.
    ['pagination[page]=0', { mode: 'page', limit: 25, offset: 0, meta: { page: 1, pageSize: 25, pageCount: 10, total: 230 } }],
    ['pagination[page]=-4&pagination[pageSize]=0', { mode: 'page', limit: 1, offset: 0, meta: { page: 1, pageSize: 1, pageCount: 230, total: 230 } }],
    ['pagination[pageSize]=-1', { mode: 'page', limit: 1, offset: 0, meta: { page: 1, pageSize: 1, pageCount: 230, total: 230 } }],
    ['pagination[pageSize]=500', { mode: 'page', limit: 100, offset: 0, meta: { page: 1, pageSize: 100, pageCount: 3, total: 230 } }],
    // Offset mode.
    ['pagination[start]=10', { mode: 'offset', limit: 25, offset: 10, meta: { start: 10, limit: 25, total: 230 } }],
    ['pagination[start]=10&pagination[limit]=5', { mode: 'offset', limit: 5, offset: 10, meta: { start: 10, limit: 5, total: 230 } }],
    ['pagination[limit]=5', { mode: 'offset', limit: 5, offset: 0, meta: { start: 0, limit: 5, total: 230 } }],
    ['pagination[start]=-3&pagination[limit]=0', { mode: 'offset', limit: 0, offset: 0, meta: { start: 0, limit: 0, total: 230 } }],
    ['pagination[limit]=500', { mode: 'offset', limit: 100, offset: 0, meta: { start: 0, limit: 100, total: 230 } }],
    // limit=-1 is maxLimit when there is one.
    ['pagination[limit]=-1', { mode: 'offset', limit: 100, offset: 0, meta: { start: 0, limit: 100, total: 230 } }],
    // Empty values fall back to the defaults; the key still chooses the mode.
    ['pagination[page]=&pagination[pageSize]', { mode: 'page', limit: 25, offset: 0, meta: { page: 1, pageSize: 25, pageCount: 10, total: 230 } }],
    ['pagination[limit]=', { mode: 'offset', limit: 25, offset: 0, meta: { start: 0, limit: 25, total: 230 } }],
  ])('%s', (querystring, expected) => {
    expect(paginate(querystring)).toEqual({ withCount: true, ...expected });
  });

  it('without a maxLimit, limit=-1 means no limit and large sizes stay', () => {
    expect(paginate('pagination[limit]=-1', { maxLimit: 0 })).toEqual({
      mode: 'offset',
      limit: null,
      offset: 0,
      withCount: true,
      meta: { start: 0, limit: -1, total: 230 },
    });
    expect(paginate('pagination[start]=5&pagination[limit]=-1', { maxLimit: 0 }).offset).toBe(5);
    expect(paginate('pagination[pageSize]=5000', { maxLimit: 0 }).limit).toBe(5000);
  });

  it('clamps the default page size to maxLimit', () => {
    expect(paginate('', { defaultLimit: 200 }).limit).toBe(100);
  });

  it('keeps meta keys in Strapi’s order', () => {
    expect(Object.keys(paginate('').meta)).toEqual(['page', 'pageSize', 'pageCount', 'total']);
    expect(Object.keys(paginate('pagination[start]=0').meta)).toEqual(['start', 'limit', 'total']);
  });

  it.each([
    ['true', true],
    ['t', true],
    ['1', true],
    ['false', false],
    ['f', false],
    ['0', false],
  ])('withCount=%s counts: %s', (value, withCount) => {
    expect(paginate(`pagination[withCount]=${value}`).withCount).toBe(withCount);
  });

  it('without withCount, meta has no total or pageCount', () => {
    expect(paginate('pagination[withCount]=false').meta).toEqual({ page: 1, pageSize: 25 });
    expect(paginate('pagination[withCount]=f&pagination[start]=5&pagination[limit]=5').meta).toEqual({ start: 5, limit: 5 });
    expect(paginate('', { withCount: false })).toMatchObject({ withCount: false, meta: { page: 1, pageSize: 25 } });
    expect(paginate('pagination[withCount]=true', { withCount: false }).withCount).toBe(true);
  });

  it('omits total when none is given', () => {
    expect(resolvePagination(undefined, config).meta()).toEqual({ page: 1, pageSize: 25 });
  });

  it('rejects a withCount outside t/1/true/f/0/false', () => {
    for (const value of ['yes', 'TRUE', '']) {
      expect(() => paginate(`pagination[withCount]=${value}`)).toThrow(
        new ValidationError('Invalid withCount parameter. Expected "t","1","true","false","0","f"'),
      );
    }
  });

  it('rejects mixing page and offset parameters', () => {
    for (const querystring of ['pagination[page]=1&pagination[start]=0', 'pagination[pageSize]=5&pagination[limit]=5']) {
      expect(() => paginate(querystring)).toThrow(
        new ValidationError('Invalid pagination parameters. Expected either start/limit or page/pageSize'),
      );
    }
  });

  it('rejects values that are not integers', () => {
    expect(() => paginate('pagination[page]=two')).toThrow(
      new ValidationError('Invalid pagination[page] parameter. Expected an integer'),
    );
    expect(() => paginate('pagination[pageSize]=2.5')).toThrow('Invalid pagination[pageSize] parameter. Expected an integer');
    expect(() => paginate('pagination[start]=1e3')).toThrow('Invalid pagination[start] parameter. Expected an integer');
    expect(() => paginate('pagination[limit][a]=1')).toThrow('Invalid pagination[limit] parameter. Expected an integer');
  });

  it('rejects offsets beyond the safe integer range', () => {
    expect(() => paginate('pagination[page]=9007199254740991&pagination[pageSize]=50')).toThrow(ValidationError);
  });

  it('ignores a pagination parameter that is not an object', () => {
    expect(paginate('pagination=5').meta).toEqual({ page: 1, pageSize: 25, pageCount: 10, total: 230 });
  });
});
