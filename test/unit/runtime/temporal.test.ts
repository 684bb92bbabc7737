/**
 * The one reading of date, time and datetime values that writes (entity/) and filters
 * (query/encode.ts) share.
 */
import { describe, expect, it } from 'vitest';
import { parseDateInput, parseDateTimeInput, parseTimeInput, toSqliteDateTime } from '../../../templates/runtime/temporal.js';
import { encodeValue } from '../../../templates/runtime/query/encode.js';
import type { ScalarFieldMeta } from '../../../templates/runtime/meta.js';

const iso = (date: Date | null) => date?.toISOString() ?? null;

describe('parseDateTimeInput', () => {
  it.each([
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['2024-03', '2024-03-01T00:00:00.000Z'],
    ['2024-03-05', '2024-03-05T00:00:00.000Z'],
    ['2024-03-05T10:27', '2024-03-05T10:27:00.000Z'],
    ['2024-03-05 10:27:55.123456', '2024-03-05T10:27:55.123Z'],
    ['2024-03-05T10:27:55+02:00', '2024-03-05T08:27:55.000Z'],
    ['2024-03-05T10:27:55-0530', '2024-03-05T15:57:55.000Z'],
    ['1709634475000', '2024-03-05T10:27:55.000Z'],
    [1709634475000, '2024-03-05T10:27:55.000Z'],
  ])('reads %j as UTC %s', (value, expected) => {
    expect(iso(parseDateTimeInput(value))).toBe(expected);
  });

  it.each(['2024-02-30', '2024-13', '2024-03-05T24:00', '2024-03-05T10:00+24:00', '0999-12-31', '10000-01-01', 'yesterday', 1.5, {}, true])(
    'refuses %j',
    (value) => {
      expect(parseDateTimeInput(value)).toBeNull();
    },
  );
});

describe('parseDateInput', () => {
  it('keeps the written day of a datetime, as Strapi keeps the leading YYYY-MM-DD', () => {
    expect(iso(parseDateInput('2024-03-05T23:30:00-05:00'))).toBe('2024-03-05T00:00:00.000Z');
    expect(iso(parseDateInput('2024-02-29'))).toBe('2024-02-29T00:00:00.000Z');
  });

  it.each(['2023-02-29', '2024-03', '05/03/2024', 20240305])('refuses %j', (value) => {
    expect(parseDateInput(value)).toBeNull();
  });
});

describe('parseTimeInput', () => {
  it.each([
    ['10:27', '1970-01-01T10:27:00.000Z'],
    ['10:27:55.1', '1970-01-01T10:27:55.100Z'],
  ])('reads %j', (value, expected) => {
    expect(iso(parseTimeInput(value))).toBe(expected);
  });

  it.each(['24:00', '10:60', '10:27:55.1234', '1027'])('refuses %j', (value) => {
    expect(parseTimeInput(value)).toBeNull();
  });
});

describe('filters compare with what writes accept', () => {
  const field = (type: ScalarFieldMeta['type']) => ({ kind: 'scalar', name: 'at', column: 'at', type }) as unknown as ScalarFieldMeta;

  it.each(['2024', '2024-03-05T10:27:55+02:00', '1709634475000'])('datetime %j encodes to the stored SQLite text', (value) => {
    expect(encodeValue('sqlite', field('datetime'), value)).toBe(toSqliteDateTime(parseDateTimeInput(value)!));
  });

  it('a date filter takes the written day of a datetime, like a date write', () => {
    expect(encodeValue('postgresql', field('date'), '2024-03-05T23:30:00-05:00')).toBe('2024-03-05');
  });

  it('a value no write accepts is a 400 in a filter too', () => {
    expect(() => encodeValue('sqlite', field('datetime'), '2024-02-30')).toThrow(/Invalid|must be|an ISO 8601/i);
  });
});
