/**
 * Deterministic parsing of request date/time values into UTC instants.
 *
 * `Date.parse` reads date-times without an offset as *local* time, which would make a
 * filter's meaning depend on the server's TZ; these parsers read them as UTC instead.
 */

const isoDateTimePattern =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const datePrefixPattern = /^(\d{4})-(\d{2})-(\d{2})/;

// Strapi's TIME_REGEX: HH:mm, HH:mm:ss or HH:mm:ss.S{1,3}.
const timePattern = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.(\d{1,3}))?)?$/;

// The years every database stores (see entity/temporal.ts): 1000–9999.
const minTimestamp = Date.parse('1000-01-01T00:00:00.000Z');
const maxTimestamp = Date.parse('9999-12-31T23:59:59.999Z');

/** Builds a UTC instant, or undefined when a component is out of range (Feb 30, 25:00). */
function utcInstant(
  year: number,
  month: number,
  day: number,
  hours = 0,
  minutes = 0,
  seconds = 0,
  millis = 0,
): Date | undefined {
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hours, minutes, seconds, millis);
  const roundTrips =
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hours &&
    date.getUTCMinutes() === minutes &&
    date.getUTCSeconds() === seconds;
  return roundTrips ? date : undefined;
}

function inStorableRange(date: Date): boolean {
  const time = date.getTime();
  return !Number.isNaN(time) && time >= minTimestamp && time <= maxTimestamp;
}

/** Milliseconds from a fraction written with any number of digits ('5' → 500, '123456' → 123). */
function fractionToMillis(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, '0'));
}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0'));
}

/**
 * An ISO 8601 date or date-time (`2024-03-05`, `2024-03-05T10:00:00.000Z`,
 * `2024-03-05 10:00+02:00`; no offset means UTC) or an integer timestamp in
 * milliseconds, as Strapi accepts for datetime attributes.
 */
export function parseDateTime(raw: unknown): Date | undefined {
  if (raw instanceof Date) return inStorableRange(raw) ? new Date(raw.getTime()) : undefined;
  if (typeof raw === 'number') {
    return Number.isInteger(raw) && inStorableRange(new Date(raw)) ? new Date(raw) : undefined;
  }
  if (typeof raw !== 'string') return undefined;
  const value = raw.trim();
  const match = isoDateTimePattern.exec(value);
  if (match === null) {
    return /^-?\d+$/.test(value) ? parseDateTime(Number(value)) : undefined;
  }
  const [, year, month = '1', day = '1', hours = '0', minutes = '0', seconds = '0', fraction, zone] = match;
  const local = utcInstant(
    Number(year),
    Number(month),
    Number(day),
    Number(hours),
    Number(minutes),
    Number(seconds),
    fractionToMillis(fraction),
  );
  if (local === undefined) return undefined;
  const instant = new Date(local.getTime() - offsetMinutes(zone) * 60_000);
  return inStorableRange(instant) ? instant : undefined;
}

/**
 * A calendar date as midnight UTC. Like Strapi, only the `YYYY-MM-DD` prefix of a string
 * counts, so a full date-time names its (written) day.
 */
export function parseDate(raw: unknown): Date | undefined {
  if (raw instanceof Date) {
    if (!inStorableRange(raw)) return undefined;
    return utcInstant(raw.getUTCFullYear(), raw.getUTCMonth() + 1, raw.getUTCDate());
  }
  if (typeof raw !== 'string') return undefined;
  const match = datePrefixPattern.exec(raw.trim());
  if (match === null) return undefined;
  return utcInstant(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** A time of day as that time on 1970-01-01 UTC, the way Prisma stores `@db.Time`-less times. */
export function parseTime(raw: unknown): Date | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = timePattern.exec(raw.trim());
  if (match === null) return undefined;
  const [, hours, minutes, seconds = '0', fraction] = match;
  return utcInstant(1970, 1, 1, Number(hours), Number(minutes), Number(seconds), fractionToMillis(fraction));
}

/** Prisma's SQLite text form of a DateTime: `2024-03-05T00:00:00.000+00:00`. */
export function toSqliteDateTime(date: Date): string {
  return date.toISOString().replace(/Z$/, '+00:00');
}
