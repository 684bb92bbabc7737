/**
 * Normalized values → what the server's database column holds, as Prisma writes it (storage
 * reference §3.2): on SQLite datetimes are ISO text with `+00:00`, dates midnight UTC, times on
 * 1970-01-01, decimals REAL, booleans 0/1; PostgreSQL and MySQL take their own types (MySQL
 * DATETIME(3) in UTC).
 */
import type { Provider } from '../../ir/scalars.js';
import type { NormalizedValue, ScalarType } from '../source/types.js';

export function encodeValue(value: NormalizedValue, type: ScalarType | undefined, dialect: Provider): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return encodeInstant(value, dialect);
  switch (type) {
    case 'date':
      return dialect === 'sqlite' ? `${String(value)}T00:00:00.000+00:00` : String(value);
    case 'time':
      return dialect === 'sqlite' ? `1970-01-01T${String(value)}+00:00` : String(value);
    case 'decimal':
      return dialect === 'sqlite' ? Number(value) : String(value);
    case 'json':
    case 'array':
      return JSON.stringify(value);
    default:
      break;
  }
  if (typeof value === 'boolean') return dialect === 'postgresql' ? value : value ? 1 : 0;
  if (typeof value === 'bigint') return dialect === 'sqlite' ? value : value.toString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** Rows keyed by column name (the auth import's) as an INSERT takes them: the columns any row has, each row's values encoded. */
export function encodeRows(rows: readonly Readonly<Record<string, unknown>>[], types: Readonly<Record<string, ScalarType>> | undefined, dialect: Provider): { columns: string[]; values: unknown[][] } {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return { columns, values: rows.map((r) => columns.map((c) => encodeValue((r[c] ?? null) as NormalizedValue, types?.[c], dialect))) };
}

function encodeInstant(date: Date, dialect: Provider): unknown {
  if (dialect === 'sqlite') return date.toISOString().replace(/Z$/, '+00:00');
  if (dialect === 'mysql') return date.toISOString().replace('T', ' ').replace('Z', '');
  return date;
}

/** Component JSON holds values as the REST API answers them (entity/components.ts toStoredJson). */
export function componentJsonValue(value: NormalizedValue, type: ScalarType): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  switch (type) {
    case 'biginteger':
      return value.toString();
    case 'decimal':
    case 'float':
    case 'integer':
      return Number(value);
    default:
      return typeof value === 'bigint' ? value.toString() : value;
  }
}
