import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';

describe('parseQueryString', () => {
  it('nests bracket notation', () => {
    expect(parseQueryString('filters[title][$eq]=x&filters[$or][0][id]=1&filters[$or][1][id]=2')).toEqual({
      filters: { title: { $eq: 'x' }, $or: [{ id: '1' }, { id: '2' }] },
    });
  });

  it('parses a key without "=" as null, and "key=" as an empty string', () => {
    expect(parseQueryString('filters[title][$null]&filters[slug]=')).toEqual({
      filters: { title: { $null: null }, slug: '' },
    });
  });

  it('decodes percent-encoded separators and wildcards', () => {
    expect(parseQueryString('sort=title%3Adesc&fields=%2A')).toEqual({ sort: 'title:desc', fields: '*' });
  });

  it('keeps indexed lists of up to 100 elements as arrays, longer ones become objects', () => {
    const list = (length: number) => Array.from({ length }, (_, i) => `f[${i}]=${i}`).join('&');
    expect(Array.isArray(parseQueryString(list(100))['f'])).toBe(true);
    expect(Array.isArray(parseQueryString(list(101))['f'])).toBe(false);
    expect(parseQueryString('f[100]=x')).toEqual({ f: { 100: 'x' } });
  });

  it('tolerates a leading "?"', () => {
    expect(parseQueryString('?_q=a')).toEqual({ _q: 'a' });
  });

  it('stops nesting at depth 20', () => {
    const deep = `${'a'}${'[b]'.repeat(22)}=x`;
    let node: unknown = parseQueryString(deep)['a'];
    let depth = 0;
    while (typeof node === 'object' && node !== null && 'b' in node) {
      node = (node as Record<string, unknown>)['b'];
      depth++;
    }
    expect(depth).toBe(20);
  });
});

describe('parseQueryString limits', () => {
  it('1,000 parameters parse; one more is a 400 (Strapi silently drops the rest)', () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `filters[$or][${i % 100}][id]=${i}`).join('&');
    expect(() => parseQueryString(params(1000))).not.toThrow();
    expect(() => parseQueryString(params(1001))).toThrow(new ValidationError('Too many query parameters: at most 1000'));
    expect(() => parseQueryString('&'.repeat(1000))).toThrow(ValidationError);
    expect(() => parseQueryString(`?${'a=1&'.repeat(999)}a=1`)).not.toThrow();
  });
});

describe('parseQueryString answers kept per query string', () => {
  it('gives every caller its own copy: changing one answer changes no later one', () => {
    const first = parseQueryString('populate[author][fields][0]=name&sort[0]=title');
    (first['populate'] as Record<string, Record<string, string[]>>)['author']!['fields']!.push('bio');
    first['sort'] = 'changed';
    expect(parseQueryString('populate[author][fields][0]=name&sort[0]=title')).toEqual({ populate: { author: { fields: ['name'] } }, sort: ['title'] });
  });
});
