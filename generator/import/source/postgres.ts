/**
 * A Strapi PostgreSQL database, only read: every read is a cursor in a READ ONLY transaction
 * of its own connection (rows come a batch at a time; nested reads take another connection).
 * Values arrive as PostgreSQL's text and are decoded here: `timestamp without time zone`
 * is the Strapi process's wall time (§3.1), so it is read in the zone the import is told.
 */
import pg from 'pg';
import { decodeRow, decodeValue, type DecodeContext } from './decode.js';
import type { ColumnTypes, NormalizedRow, NormalizedValue, RowQuery, ScalarType, StrapiSource } from './types.js';

/** Types of columns the plan does not type (ids, order columns), by PostgreSQL type OID. */
const oidTypes: Readonly<Record<number, ScalarType>> = {
  16: 'boolean', 20: 'biginteger', 21: 'integer', 23: 'integer', 700: 'float', 701: 'float', 1700: 'decimal',
  114: 'json', 3802: 'json', 1114: 'datetime', 1184: 'datetime', 1082: 'date', 1083: 'time',
};

const asText = { getTypeParser: () => (text: string) => text };

export function openPostgresSource(url: string, timeZone: string): StrapiSource {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const context: DecodeContext = { dialect: 'postgresql', timeZone };
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  let cursors = 0;

  function decode(raw: Record<string, unknown>, fields: readonly pg.FieldDef[], types: ColumnTypes): NormalizedRow {
    const typed: Record<string, NormalizedValue> = { ...decodeRow(raw, types, context) };
    for (const field of fields) {
      if (types[field.name] || raw[field.name] === null) continue;
      const type = oidTypes[field.dataTypeID];
      let value = type ? decodeValue(raw[field.name], type, context) : raw[field.name];
      if (typeof value === 'bigint' && Number.isSafeInteger(Number(value))) value = Number(value);
      if (type === 'decimal') value = Number(value);
      typed[field.name] = value as NormalizedValue;
    }
    return typed;
  }

  async function* select(sql: string, params: readonly unknown[], types: ColumnTypes, batchSize = 1000): AsyncGenerator<NormalizedRow[]> {
    const client = await pool.connect();
    const cursor = `contentgen_import_${++cursors}`;
    try {
      await client.query('BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query({ text: `DECLARE ${cursor} NO SCROLL CURSOR FOR ${numbered(sql)}`, values: [...params] });
      for (;;) {
        const result = await client.query({ text: `FETCH ${batchSize} FROM ${cursor}`, types: asText });
        if (result.rows.length === 0) break;
        yield result.rows.map((raw) => decode(raw, result.fields, types));
        if (result.rows.length < batchSize) break;
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  return {
    dialect: 'postgresql',
    label: withoutPassword(url),
    quote,
    async tables() {
      const { rows } = await pool.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`);
      return new Set(rows.map((r: { table_name: string }) => r.table_name));
    },
    async columns(table) {
      const { rows } = await pool.query(`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`, [table]);
      return rows.map((r: { column_name: string }) => r.column_name);
    },
    rows(query: RowQuery, types: ColumnTypes, batchSize?: number) {
      const order = (query.orderBy ?? ['id']).map(quote).join(', ');
      return select(`SELECT * FROM ${quote(query.table)} ORDER BY ${order}`, [], types, batchSize);
    },
    select,
    async lastId(table) {
      const { rows } = await pool.query(`SELECT pg_get_serial_sequence($1, 'id') AS seq`, [quote(table)]).catch(() => ({ rows: [] as { seq: string | null }[] }));
      const sequence = rows[0]?.seq;
      if (!sequence) return 0;
      const last = await pool.query(`SELECT last_value, is_called FROM ${sequence}`);
      const row = last.rows[0] as { last_value: string; is_called: boolean } | undefined;
      return row && row.is_called ? Number(row.last_value) : 0;
    },
    async close() {
      await pool.end();
    },
  };
}

/** `?` placeholders → `$1`, `$2`… (outside quoted text). */
export function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/'(?:''|[^'])*'|"(?:""|[^"])*"|\?/g, (match) => (match === '?' ? `$${++n}` : match));
}

export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
