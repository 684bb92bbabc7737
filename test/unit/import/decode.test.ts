/** Each dialect's stored values → the normalized form (generator/import/source/decode.ts), as Strapi 4.26.2 wrote them. */
import { describe, expect, it } from 'vitest';
import { DecodeError, decodeValue, wallTimeToInstant } from '../../../generator/import/source/decode.js';

const sqlite = { dialect: 'sqlite', timeZone: 'UTC' } as const;
const paris = { dialect: 'postgresql', timeZone: 'Europe/Paris' } as const;
const mysql = { dialect: 'mysql', timeZone: 'Europe/Paris' } as const;

describe('decodeValue', () => {
  it('reads SQLite epoch milliseconds, 0/1 booleans, exact bigints and REAL decimals', () => {
    expect(decodeValue(1795757704709n, 'datetime', sqlite)).toEqual(new Date(1795757704709));
    expect(decodeValue(1, 'boolean', sqlite)).toBe(true);
    expect(decodeValue(0n, 'boolean', sqlite)).toBe(false);
    expect(decodeValue(9007199254740993n, 'biginteger', sqlite)).toBe(9007199254740993n);
    expect(decodeValue(9.99, 'decimal', sqlite)).toBe('9.99');
    expect(decodeValue('10:30:00.000', 'time', sqlite)).toBe('10:30:00.000');
    expect(decodeValue('{"lang":"en","n":1}', 'json', sqlite)).toEqual({ lang: 'en', n: 1 });
  });

  it('reads PostgreSQL and MySQL wall times in the Strapi server\'s zone, summer and winter', () => {
    expect(decodeValue('2024-01-15 10:00:00', 'datetime', paris)).toEqual(new Date('2024-01-15T09:00:00.000Z'));
    expect(decodeValue('2024-07-01 12:00:00.123456', 'datetime', paris)).toEqual(new Date('2024-07-01T10:00:00.123Z'));
    expect(decodeValue('2024-07-01 12:00:00.000000', 'datetime', mysql)).toEqual(new Date('2024-07-01T10:00:00.000Z'));
    expect(decodeValue('t', 'boolean', paris)).toBe(true);
    expect(decodeValue('10:30:00', 'time', paris)).toBe('10:30:00.000');
    expect(decodeValue('2024-01-15', 'date', paris)).toBe('2024-01-15');
  });

  it('takes the earlier instant of an hour the clocks repeat', () => {
    expect(wallTimeToInstant([2024, 10, 27, 2, 30, 0, 0], 'Europe/Paris')).toEqual(new Date('2024-10-27T00:30:00.000Z'));
  });

  it('refuses values that cannot be their column\'s type', () => {
    expect(() => decodeValue('{broken', 'json', sqlite)).toThrow(DecodeError);
    expect(() => decodeValue('yesterday', 'datetime', paris)).toThrow(DecodeError);
  });
});
