/**
 * Parsing and formatting of Strapi's date, time and datetime values: one reading for what is
 * written (entity/) and what is filtered on (query/), so every value that can be stored can
 * also be compared with.
 *
 * Everything is UTC. A datetime without an offset is read as UTC (Strapi's date-fns would use
 * the server's zone, which makes the stored instant depend on where the server runs).
 */

/**
 * `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (date-fns' parseISO, which Strapi uses, takes all three),
 * a full date optionally followed by a time (`T` or space) and an offset.
 */
const ISO_DATETIME =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

/** The leading `YYYY-MM-DD` that Strapi's parseDate keeps of a date value (the rest is ignored). */
const DATE_PREFIX = /^(\d{4})-(\d{2})-(\d{2})/;

/** `HH:mm`, `HH:mm:ss` or `HH:mm:ss.S…` (one to three fraction digits, like Strapi). */
const TIME_OF_DAY = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,3}))?)?$/;

/** Epoch milliseconds sent as a string, as Strapi's date-fns `parse(value, 'T')` accepts. */
const EPOCH_DIGITS = /^-?\d+$/;

const MS_PER_DAY = 86_400_000;

/**
 * The years every database stores: MySQL/MariaDB's DATE and DATETIME are specified for
 * 1000–9999 (MariaDB reads earlier DATETIME years back wrongly), PostgreSQL has no year 0,
 * and four digits is what the ISO text form and SQLite's text hold.
 */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;

interface IsoParts {
  /** The calendar date as written, `YYYY-MM-DD` (`-01` filled in for a missing month or day). */
  date: string;
  /** The instant, offset applied. */
  instant: Date;
  hasTime: boolean;
}

/** Parses an ISO 8601 date or datetime; null if malformed or not a real calendar date. */
export function parseIsoParts(text: string): IsoParts | null {
  const m = ISO_DATETIME.exec(text);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', fraction = '', offset] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (!isCalendarDate(year, month, day)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const offsetMinutes = parseOffset(offset);
  if (offsetMinutes === null) return null;
  const ms = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const instant = utcDate(year, month, day, Number(h), Number(mi), Number(s), ms);
  instant.setTime(instant.getTime() - offsetMinutes * 60_000);
  return { date: `${y}-${mo}-${d}`, instant, hasTime: m[4] !== undefined };
}

function parseOffset(offset: string | undefined): number | null {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `Date.UTC` maps years 0–99 to 1900–1999; setUTCFullYear does not. */
function utcDate(year: number, month: number, day: number, h = 0, mi = 0, s = 0, ms = 0): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(h, mi, s, ms);
  return date;
}

function inSupportedRange(date: Date): boolean {
  const time = date.getTime();
  if (!Number.isFinite(time)) return false;
  const year = date.getUTCFullYear();
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** datetime/timestamp input: an ISO 8601 string, epoch ms (number or digit string) or a Date. */
export function parseDateTimeInput(value: unknown): Date | null {
  let date: Date | null = null;
  if (value instanceof Date) date = new Date(value.getTime());
  else if (typeof value === 'number' && Number.isInteger(value)) date = new Date(value);
  else if (typeof value === 'string') {
    // ISO first, as Strapi's parseDateTimeOrTimestamp: `2024` is a year, `1709634475000` epoch ms.
    const text = value.trim();
    date = parseIsoParts(text)?.instant ?? null;
    if (date === null && EPOCH_DIGITS.test(text)) {
      const ms = Number(text);
      date = Number.isSafeInteger(ms) ? new Date(ms) : null;
    }
  }
  return date && inSupportedRange(date) ? date : null;
}

/**
 * date input: the leading `YYYY-MM-DD` of a string, whatever follows (what Strapi's parseDate
 * does: a full datetime names the day as written), or a Date's UTC day. Stored as midnight UTC.
 */
export function parseDateInput(value: unknown): Date | null {
  if (value instanceof Date) {
    if (!inSupportedRange(value)) return null;
    return new Date(Math.floor(value.getTime() / MS_PER_DAY) * MS_PER_DAY);
  }
  if (typeof value !== 'string') return null;
  const m = DATE_PREFIX.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!isCalendarDate(year, month, day)) return null;
  const date = utcDate(year, month, day);
  return inSupportedRange(date) ? date : null;
}

/** time input: `HH:mm`, `HH:mm:ss` or `HH:mm:ss.SSS`; stored as that UTC time on 1970-01-01. */
export function parseTimeInput(value: unknown): Date | null {
  if (value instanceof Date) {
    if (!Number.isFinite(value.getTime())) return null;
    return new Date(((value.getTime() % MS_PER_DAY) + MS_PER_DAY) % MS_PER_DAY);
  }
  if (typeof value !== 'string') return null;
  const m = TIME_OF_DAY.exec(value.trim());
  if (!m) return null;
  const [, h, mi, s = '00', fraction = ''] = m;
  return new Date(Date.UTC(1970, 0, 1, Number(h), Number(mi), Number(s), Number(fraction.padEnd(3, '0'))));
}

/**
 * A stored datetime as a Date: Prisma gives Dates, raw SQLite rows give text such as
 * `2020-08-20T10:27:55.000+00:00` or `2020-08-20 10:27:55`, or epoch milliseconds.
 */
export function readStoredInstant(value: unknown): Date | null {
  if (value instanceof Date) return Number.isFinite(value.getTime()) ? value : null;
  if (typeof value === 'bigint') return readStoredInstant(Number(value));
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (EPOCH_DIGITS.test(text)) return new Date(Number(text));
  return parseIsoParts(text)?.instant ?? null;
}

/** Prisma's SQLite text form of a DateTime (`2024-03-05T00:00:00.000+00:00`): how raw SQL compares with it. */
export function toSqliteDateTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}

/** `2020-08-20T10:27:55.000Z`. */
export function formatDateTime(date: Date): string {
  return date.toISOString();
}

/** `YYYY-MM-DD` of the UTC calendar day. */
export function formatDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `HH:mm:ss.SSS` of the UTC time of day. */
export function formatTime(date: Date): string {
  return date.toISOString().slice(11, 23);
}

/** A stored time (`10:27:55`, `10:27:55.1`, a Date, a datetime text) as `HH:mm:ss.SSS`. */
export function formatStoredTime(value: unknown): string | null {
  if (typeof value === 'string') {
    const m = TIME_OF_DAY.exec(value.trim());
    if (m) {
      const [, h, mi, s = '00', fraction = ''] = m;
      return `${h}:${mi}:${s}.${fraction.padEnd(3, '0')}`;
    }
  }
  const instant = readStoredInstant(value);
  return instant ? formatTime(instant) : null;
}

/** A stored date (`2020-08-20`, a Date at midnight UTC, a datetime text) as `YYYY-MM-DD`. */
export function formatStoredDate(value: unknown): string | null {
  if (typeof value === 'string') {
    const parts = parseIsoParts(value.trim());
    if (parts && !parts.hasTime) return parts.date;
  }
  const instant = readStoredInstant(value);
  return instant ? formatDate(instant) : null;
}
