/**
 * Each dialect's stored values → the normalized form (types.ts), by the column's scalar type.
 * What Strapi 4.26.2 wrote (storage reference §3.1):
 *
 *   SQLite      datetimes as epoch milliseconds (integers), booleans 0/1, decimals as REAL,
 *               bigints as integers (read exactly: the reader asks for bigint), JSON as text.
 *   PostgreSQL  the reader takes every value as the server's text: `timestamp without time zone`
 *               is wall time of the Strapi process's zone, `t`/`f`, numeric and bigint text.
 *   MySQL       `dateStrings` wall time as PostgreSQL, tinyint(1) 0/1, JSON parsed or text.
 */
import type { ColumnTypes, JsonValue, NormalizedRow, NormalizedValue, ScalarType, SourceDialect } from './types.js';

export interface DecodeContext {
  readonly dialect: SourceDialect;
  /** IANA zone the Strapi server wrote PostgreSQL/MySQL timestamps in. */
  readonly timeZone: string;
}

/** A value the source holds that cannot be its column's type (bad JSON, an unreadable date). */
export class DecodeError extends Error {}

export function decodeRow(raw: Readonly<Record<string, unknown>>, types: ColumnTypes, context: DecodeContext): NormalizedRow {
  const out: Record<string, NormalizedValue> = {};
  for (const [column, value] of Object.entries(raw)) {
    const type = types[column];
    out[column] = type ? decodeValue(value, type, context) : untyped(value);
  }
  return out;
}

/** A column the plan has no type for (ids, order columns, link ids): numbers stay numbers. */
function untyped(value: unknown): NormalizedValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return value as JsonValue;
}

export function decodeValue(value: unknown, type: ScalarType, context: DecodeContext): NormalizedValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'datetime':
    case 'timestamp':
      return decodeInstant(value, context);
    case 'date':
      return decodeDate(value, context);
    case 'time':
      return decodeTime(value);
    case 'boolean':
      return value === true || value === 1 || value === 1n || value === '1' || value === 't' || value === 'true';
    case 'integer': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw new DecodeError(`${String(value)} is not an integer`);
      return n;
    }
    case 'biginteger':
      return BigInt(typeof value === 'number' ? Math.trunc(value) : String(value).replace(/\.0*$/, ''));
    case 'float': {
      const n = Number(value);
      if (Number.isNaN(n)) throw new DecodeError(`${String(value)} is not a number`);
      return n;
    }
    case 'decimal':
      return typeof value === 'string' ? value : String(value);
    case 'json':
    case 'array':
      return decodeJson(value);
    default:
      return Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
}

function decodeJson(value: unknown): JsonValue {
  if (Buffer.isBuffer(value)) value = value.toString('utf8');
  if (typeof value !== 'string') return value as JsonValue;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    throw new DecodeError(`not valid JSON: ${value.length > 60 ? `${value.slice(0, 60)}…` : value}`);
  }
}

const wallTime = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

function decodeInstant(value: unknown, context: DecodeContext): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return checked(new Date(Number(value)), value);
  const text = String(value).trim();
  if (/^-?\d+$/.test(text)) return checked(new Date(Number(text)), value);
  const match = wallTime.exec(text);
  if (match) {
    const [y, mo, d, h, mi, s, frac] = match.slice(1).map((part, i) => (i === 6 ? Number((part ?? '0').padEnd(3, '0').slice(0, 3)) : Number(part ?? 0)));
    // SQLite text datetimes (other tools than Strapi) are UTC, as SQLite's own functions write them.
    const zone = context.dialect === 'sqlite' ? 'UTC' : context.timeZone;
    return wallTimeToInstant([y!, mo!, d!, h!, mi!, s!, frac!], zone);
  }
  return checked(new Date(text), value);
}

function checked(date: Date, raw: unknown): Date {
  if (Number.isNaN(date.getTime())) throw new DecodeError(`${String(raw)} is not a date and time`);
  return date;
}

function decodeDate(value: unknown, context: DecodeContext): string {
  if (value instanceof Date || typeof value === 'number' || typeof value === 'bigint') return decodeInstant(value, context).toISOString().slice(0, 10);
  const text = String(value).trim();
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return text.slice(0, 10);
  throw new DecodeError(`${text} is not a date`);
}

function decodeTime(value: unknown): string {
  const text = String(value).trim();
  const match = /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(text);
  if (!match) throw new DecodeError(`${text} is not a time`);
  return `${match[1]}:${match[2]}:${match[3] ?? '00'}.${(match[4] ?? '').padEnd(3, '0').slice(0, 3)}`;
}

/** The instant a wall-clock time shows in `timeZone` (the earlier one in a repeated hour). */
export function wallTimeToInstant(parts: readonly [number, number, number, number, number, number, number], timeZone: string): Date {
  const [y, mo, d, h, mi, s, ms] = parts;
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return new Date(asUtc);
  // The zone's offsets half a day either side: a wall time means `asUtc - offset` for one of them
  // (both in a repeated hour: the earlier is taken; neither in a skipped hour: the one before it).
  const candidates = [zoneOffset(asUtc - 43_200_000, timeZone), zoneOffset(asUtc + 43_200_000, timeZone)].map((offset) => asUtc - offset);
  const valid = candidates.filter((t) => asUtc - zoneOffset(t, timeZone) === t);
  return new Date(valid.length ? Math.min(...valid) : candidates[0]!);
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function zoneOffset(instant: number, timeZone: string): number {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  const shown = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return shown - (instant - (((instant % 1000) + 1000) % 1000));
}

/** Whether `zone` is an IANA time zone this Node knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
