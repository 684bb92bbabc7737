/**
 * Casting a request value (a string from the query string, or a JSON/GraphQL scalar) to
 * the parameter the database expects for a column, so that every dialect compares the
 * same typed values.
 */
import { invalidParameter, ValidationError } from '../errors.js';
import type { Dialect, ScalarFieldMeta } from '../meta.js';
import { parseDateInput, parseDateTimeInput, parseTimeInput, toSqliteDateTime } from '../temporal.js';

// Strapi's integer is a 32-bit column everywhere; out-of-range values would be a
// database error on PostgreSQL and MariaDB but silently match nothing on SQLite.
const int32 = { min: -2147483648, max: 2147483647 };
const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

const integerPattern = /^[+-]?\d+$/;
const decimalPattern = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;

const trueValues: readonly unknown[] = [true, 'true', 't', '1', 1];
const falseValues: readonly unknown[] = [false, 'false', 'f', '0', 0];

/** Strapi's strict boolean reading: undefined for anything outside the two tables. */
export function parseBoolean(raw: unknown): boolean | undefined {
  if (trueValues.includes(raw)) return true;
  if (falseValues.includes(raw)) return false;
  return undefined;
}

/** `$null`/`$notNull` casting: the strict tables first, then JS truthiness (so '' is false). */
export function toTruthy(raw: unknown): boolean {
  return parseBoolean(raw) ?? Boolean(raw);
}

function invalidValue(field: ScalarFieldMeta, expected: string): ValidationError {
  return new ValidationError(`Invalid value for ${field.name}: expected ${expected}`);
}

function encodeInteger(field: ScalarFieldMeta, raw: unknown): number {
  const value = typeof raw === 'string' && integerPattern.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidValue(field, 'an integer');
  if (value < int32.min || value > int32.max) {
    throw invalidValue(field, `an integer between ${int32.min} and ${int32.max}`);
  }
  return value;
}

function encodeBigInteger(field: ScalarFieldMeta, raw: unknown): bigint {
  let value: bigint | undefined;
  if (typeof raw === 'bigint') value = raw;
  else if (typeof raw === 'number' && Number.isSafeInteger(raw)) value = BigInt(raw);
  else if (typeof raw === 'string' && /^-?\d+$/.test(raw.trim())) value = BigInt(raw.trim());
  if (value === undefined) throw invalidValue(field, 'an integer');
  if (value < int64.min || value > int64.max) {
    throw invalidValue(field, `an integer between ${int64.min} and ${int64.max}`);
  }
  return value;
}

function encodeNumber(field: ScalarFieldMeta, raw: unknown): number {
  const value = typeof raw === 'string' && decimalPattern.test(raw.trim()) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw invalidValue(field, 'a number');
  return value;
}

function encodeBoolean(dialect: Dialect, field: ScalarFieldMeta, raw: unknown): boolean | number {
  const value = parseBoolean(raw);
  if (value === undefined) throw invalidValue(field, 'a boolean (true, false, t, f, 1 or 0)');
  // Prisma stores booleans as 0/1 on SQLite and as TINYINT(1) on MySQL/MariaDB.
  return dialect === 'postgresql' ? value : value ? 1 : 0;
}

/** SQLite holds Prisma DateTimes as fixed-format text; the drivers of the others take a Date. */
function encodeInstant(dialect: Dialect, date: Date): Date | string {
  return dialect === 'sqlite' ? toSqliteDateTime(date) : date;
}

/**
 * PostgreSQL and MySQL store dates and times in DATE and TIME columns, compared here with
 * their plain literals (`2024-03-05`, `10:30:00.000`). A Date parameter would go through
 * the driver's date-time conversion instead: node-postgres sends a full timestamp, which
 * TIME rejects, and MariaDB compares TIME with DATETIME on today's date.
 */
function encodeCalendarDate(dialect: Dialect, date: Date): string {
  return dialect === 'sqlite' ? toSqliteDateTime(date) : date.toISOString().slice(0, 10);
}

function encodeTimeOfDay(dialect: Dialect, date: Date): string {
  return dialect === 'sqlite' ? toSqliteDateTime(date) : date.toISOString().slice(11, 23);
}

/** A request value read as text: scalars stringify, objects and arrays are a 400. */
export function encodeText(field: ScalarFieldMeta, raw: unknown): string {
  if (typeof raw === 'string') {
    // PostgreSQL refuses U+0000 in a text parameter (a 500); no stored text can hold it anyway.
    if (raw.includes('\u0000')) throw invalidValue(field, 'text without the NUL character (%00)');
    return raw;
  }
  if (typeof raw === 'number' || typeof raw === 'boolean' || typeof raw === 'bigint') return String(raw);
  throw invalidValue(field, 'a string');
}

/**
 * The database parameter for comparing `field` with a request value. Throws a 400
 * ValidationError when the value cannot be read as the field's type (null included:
 * callers turn null into IS NULL before encoding).
 */
export function encodeValue(dialect: Dialect, field: ScalarFieldMeta, raw: unknown): unknown {
  switch (field.type) {
    case 'integer':
      return encodeInteger(field, raw);
    case 'biginteger':
      return encodeBigInteger(field, raw);
    case 'float':
    case 'decimal':
      return encodeNumber(field, raw);
    case 'boolean':
      return encodeBoolean(dialect, field, raw);
    case 'datetime':
    case 'timestamp': {
      const date = parseDateTimeInput(raw);
      if (date === null) {
        throw invalidValue(field, 'an ISO 8601 date-time or a timestamp in milliseconds');
      }
      return encodeInstant(dialect, date);
    }
    case 'date': {
      const date = parseDateInput(raw);
      if (date === null) throw invalidValue(field, 'a date (YYYY-MM-DD)');
      return encodeCalendarDate(dialect, date);
    }
    case 'time': {
      const date = parseTimeInput(raw);
      if (date === null) throw invalidValue(field, 'a time (HH:mm, HH:mm:ss or HH:mm:ss.SSS)');
      return encodeTimeOfDay(dialect, date);
    }
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
    case 'enumeration':
      return encodeText(field, raw);
    case 'json':
    case 'array':
      // No portable equality or ordering for JSON columns; only $null/$notNull apply.
      throw invalidParameter(field.name);
  }
}
