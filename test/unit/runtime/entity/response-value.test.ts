/**
 * toResponseValue: a stored value (from Prisma or a raw SQL row) as Strapi v4's REST API
 * renders it (reference §3.1).
 */
import { describe, expect, it } from 'vitest';
import { toResponseValue } from '../../../../templates/runtime/entity/input.js';
import { scalar } from './fixtures.js';

describe('toResponseValue', () => {
  it('null and undefined render as null, whatever the type', () => {
    expect(toResponseValue(scalar('at', 'datetime'), null)).toBeNull();
    expect(toResponseValue(scalar('n', 'biginteger'), undefined)).toBeNull();
    expect(toResponseValue(scalar('s', 'string'), null)).toBeNull();
  });

  describe.each(['datetime', 'timestamp'] as const)('%s → ISO string with milliseconds and Z', (type) => {
    const field = scalar('at', type);
    it.each([
      ['a Date', new Date('2020-08-20T10:27:55Z')],
      ['SQLite text with +00:00', '2020-08-20T10:27:55.000+00:00'],
      ['SQLite text with a space and no offset', '2020-08-20 10:27:55'],
      ['another offset', '2020-08-20T12:27:55.000+02:00'],
      ['epoch milliseconds', Date.UTC(2020, 7, 20, 10, 27, 55)],
      ['epoch milliseconds as bigint', BigInt(Date.UTC(2020, 7, 20, 10, 27, 55))],
    ])('from %s', (_label, stored) => {
      expect(toResponseValue(field, stored)).toBe('2020-08-20T10:27:55.000Z');
    });
  });

  describe('date → YYYY-MM-DD', () => {
    const field = scalar('day', 'date');
    it.each([
      ['a Date at midnight UTC', new Date('2020-08-20T00:00:00Z')],
      ['date text', '2020-08-20'],
      ['SQLite datetime text', '2020-08-20T00:00:00.000+00:00'],
      ['epoch milliseconds', Date.UTC(2020, 7, 20)],
    ])('from %s', (_label, stored) => {
      expect(toResponseValue(field, stored)).toBe('2020-08-20');
    });
  });

  describe('time → HH:mm:ss.SSS', () => {
    const field = scalar('at', 'time');
    it.each([
      ['a Date on 1970-01-01', new Date('1970-01-01T10:27:55.100Z'), '10:27:55.100'],
      ['time text', '10:27:55', '10:27:55.000'],
      ['time text with a short fraction', '10:27:55.1', '10:27:55.100'],
      ['SQLite datetime text', '1970-01-01T10:27:55.123+00:00', '10:27:55.123'],
    ])('from %s', (_label, stored, expected) => {
      expect(toResponseValue(field, stored)).toBe(expected);
    });
  });

  describe('biginteger → decimal string', () => {
    const field = scalar('big', 'biginteger');
    it.each([
      ['a bigint', 9007199254740993n, '9007199254740993'],
      ['a number', 42, '42'],
      ['a string', '9007199254740993', '9007199254740993'],
      ['a negative bigint', -5n, '-5'],
    ])('from %s', (_label, stored, expected) => {
      expect(toResponseValue(field, stored)).toBe(expected);
    });
  });

  describe('decimal → number', () => {
    const field = scalar('price', 'decimal');
    // Prisma's Decimal is decimal.js; only toNumber() matters here.
    const prismaDecimal = { toNumber: () => 12.5, toString: () => '12.50' };
    it.each([
      ['a Prisma Decimal', prismaDecimal],
      ['a string', '12.50'],
      ['a number', 12.5],
      ['an object with only toString', { toString: () => '12.5' }],
    ])('from %s', (_label, stored) => {
      expect(toResponseValue(field, stored)).toBe(12.5);
    });
  });

  it.each(['integer', 'float'] as const)('%s → number (from bigint and text too)', (type) => {
    const field = scalar('n', type);
    expect(toResponseValue(field, 7)).toBe(7);
    expect(toResponseValue(field, 7n)).toBe(7);
    expect(toResponseValue(field, '7.5')).toBe(7.5);
  });

  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    [1n, true],
    [0n, false],
    ['1', true],
    ['0', false],
    ['true', true],
    ['f', false],
  ])('boolean from %s → %s', (stored, expected) => {
    expect(toResponseValue(scalar('flag', 'boolean'), stored)).toBe(expected);
  });

  describe.each(['json', 'array'] as const)('%s → parsed value', (type) => {
    const field = scalar('data', type);
    it('parses JSON text (SQLite, MySQL)', () => {
      expect(toResponseValue(field, '{"a":[1,2]}')).toEqual({ a: [1, 2] });
      expect(toResponseValue(field, '[1,"x"]')).toEqual([1, 'x']);
    });
    it('passes parsed values through', () => {
      const value = { a: [1, 2] };
      expect(toResponseValue(field, value)).toBe(value);
    });
    it('returns text that is not JSON as is', () => {
      expect(toResponseValue(field, 'not json')).toBe('not json');
    });
  });

  it.each(['string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'password'] as const)(
    '%s is returned as is',
    (type) => {
      expect(toResponseValue(scalar('s', type), 'value')).toBe('value');
    },
  );
});
