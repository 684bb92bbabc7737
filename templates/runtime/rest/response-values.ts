/**
 * Stored values as the REST API renders them, one function per scalar type. Each accepts
 * what Prisma returns and what raw SQL rows hold on every database (SQLite text datetimes,
 * 0/1 booleans, JSON text, bigints, decimal strings); null and undefined give null.
 *
 * One function a type, looked up once per field rather than per value: the per-type row
 * converters (src/generated/content-types/, rest/rows.ts) call them directly, and a string
 * attribute's value is returned without the date patterns being tried on it.
 */
import type { ScalarFieldMeta, ScalarType } from '../meta.js';
import { formatDateTime, formatStoredDate, formatStoredTime, readStoredInstant } from '../temporal.js';

export type ResponseValue = (value: unknown) => unknown;

/** `2024-03-05T10:30:00.000+00:00`: how Prisma's SQLite adapter stores DateTime. */
const storedUtcInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;
/** `2024-03-05T10:30:00.000Z`: already the response form. */
const responseInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Text, enumerations, uids, emails: as stored. */
export function asStored(value: unknown): unknown {
  return value ?? null;
}

/** An instant as `2024-03-05T10:30:00.000Z`. SQLite's stored text is the common case: sliced, not parsed. */
export function dateTimeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (storedUtcInstant.test(value)) return `${value.slice(0, 23)}Z`;
    if (responseInstant.test(value)) return value;
  }
  const instant = readStoredInstant(value);
  return instant ? formatDateTime(instant) : value;
}

/** A date as `YYYY-MM-DD`. */
export function dateValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && storedUtcInstant.test(value)) return value.slice(0, 10);
  return formatStoredDate(value) ?? value;
}

/** A time as `HH:mm:ss.SSS`. */
export function timeValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && storedUtcInstant.test(value)) return value.slice(11, 23);
  return formatStoredTime(value) ?? value;
}

/** Strapi returns bigintegers as strings so no precision is lost in JSON. */
export function bigIntegerValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value).toString() : String(value);
  return typeof value === 'string' ? value : String(value);
}

/** Numbers, bigints, numeric strings and Prisma Decimal objects (decimal.js) as a JS number. */
export function numberValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string') return value.trim() === '' ? value : Number(value);
  if (typeof value === 'object') {
    const decimal = value as { toNumber?: () => number };
    return typeof decimal.toNumber === 'function' ? decimal.toNumber() : Number(String(value));
  }
  return value;
}

const TRUE_TEXT = new Set(['true', 't', '1']);
const FALSE_TEXT = new Set(['false', 'f', '0']);

/** Booleans, and the 0/1 (or text) SQLite and MySQL store them as. */
export function booleanValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return value !== 0 && value !== 0n;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (TRUE_TEXT.has(text)) return true;
    if (FALSE_TEXT.has(text)) return false;
  }
  return value;
}

/**
 * A string is taken as raw JSON text (SQLite, MySQL) and parsed; text that is not JSON is
 * returned as is. Note a caller passing already-parsed values must not pass a JSON string
 * that itself looks like JSON (`"123"` would come back as 123).
 */
export function jsonValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The renderer of each scalar type. */
export const responseValues: Readonly<Record<ScalarType, ResponseValue>> = {
  string: asStored,
  text: asStored,
  richtext: asStored,
  enumeration: asStored,
  email: asStored,
  password: asStored,
  uid: asStored,
  date: dateValue,
  time: timeValue,
  datetime: dateTimeValue,
  timestamp: dateTimeValue,
  integer: numberValue,
  biginteger: bigIntegerValue,
  float: numberValue,
  decimal: numberValue,
  boolean: booleanValue,
  json: jsonValue,
  array: jsonValue,
};

/** A stored value of `field` as the REST API renders it. */
export function toResponseValue(field: ScalarFieldMeta, value: unknown): unknown {
  return (responseValues[field.type] ?? asStored)(value);
}
