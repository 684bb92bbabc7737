/**
 * Scalars inside component JSON as SQL expressions of the same type the value would have
 * in a column of its own, so the filter and sort compilers treat them like columns:
 * strings as text, numbers as numbers, booleans as the dialect's booleans, dates, times
 * and datetimes as the values Prisma stores (see encode.ts).
 *
 * Component values are stored as they are returned (dates `YYYY-MM-DD`, times
 * `HH:mm:ss.SSS`, datetimes ISO with `Z`, big integers as strings).
 */
import type { Dialect, ScalarFieldMeta } from '../meta.js';
import type { SqlBuilder } from './sql.js';

/** Attribute names: letters of any script (`año`), digits, `_`; never a quote. */
const keyPattern = /^[\p{L}_][\p{L}\p{N}_]*$/u;
const asciiKey = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A JSON path member: `año` quoted (`"año"`: MySQL's unquoted keys are ECMAScript identifiers it may not take), the others as written. */
const pathMember = (key: string): string => (asciiKey.test(key) ? key : `"${key}"`);

/** `$.a.b` / `'a','b'`: keys come from metadata; the check keeps it that way. */
function checkedKeys(keys: readonly string[]): readonly string[] {
  for (const key of keys) if (!keyPattern.test(key)) throw new Error(`unsafe JSON key: ${key}`);
  return keys;
}

/** The JSON text at `keys` inside `json`, SQL NULL when absent or JSON null. */
function jsonText(dialect: Dialect, json: string, keys: readonly string[]): string {
  const safe = checkedKeys(keys);
  switch (dialect) {
    case 'sqlite':
      return `json_extract(${json}, '$.${safe.map(pathMember).join('.')}')`;
    case 'postgresql':
      return `(${json} #>> '{${safe.join(',')}}')`;
    case 'mysql': {
      const value = `JSON_EXTRACT(${json}, '$.${safe.map(pathMember).join('.')}')`;
      return `(CASE WHEN JSON_TYPE(${value}) = 'NULL' THEN NULL ELSE JSON_UNQUOTE(${value}) END)`;
    }
  }
}

/** The scalar `field` stored at `keys` inside the JSON expression `json`, typed like a column. */
export function jsonScalar(sql: SqlBuilder, json: string, keys: readonly string[], field: ScalarFieldMeta): string {
  const text = jsonText(sql.dialect, json, keys);
  const d = sql.dialect;
  switch (field.type) {
    case 'integer':
    case 'biginteger':
    case 'float':
    case 'decimal':
      return d === 'sqlite' ? `CAST(${text} AS NUMERIC)` : d === 'postgresql' ? `CAST(${text} AS NUMERIC)` : `CAST(${text} AS DECIMAL(65,30))`;
    case 'boolean':
      if (d === 'sqlite') return `(CASE ${text} WHEN 1 THEN 1 WHEN 0 THEN 0 END)`;
      if (d === 'postgresql') return `CAST(${text} AS BOOLEAN)`;
      return `(CASE ${text} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
    case 'date':
      if (d === 'sqlite') return `(${text} || 'T00:00:00.000+00:00')`;
      return d === 'postgresql' ? `CAST(${text} AS DATE)` : `CAST(${text} AS DATE)`;
    case 'time':
      if (d === 'sqlite') return `('1970-01-01T' || ${text} || '+00:00')`;
      return d === 'postgresql' ? `CAST(${text} AS TIME(3))` : `CAST(${text} AS TIME(3))`;
    case 'datetime':
    case 'timestamp':
      if (d === 'sqlite') return `strftime('%Y-%m-%dT%H:%M:%f+00:00', ${text})`;
      if (d === 'postgresql') return `CAST(${text} AS TIMESTAMPTZ(3))`;
      return `CAST(REPLACE(REPLACE(${text}, 'T', ' '), 'Z', '') AS DATETIME(3))`;
    default:
      return text;
  }
}

/**
 * `FROM` items iterating the elements of a JSON array (a repeatable component), with the
 * expression of one element: `{ from: "json_each(col) AS e1", element: "e1.value" }`.
 */
export function jsonElements(sql: SqlBuilder, json: string): { from: string; element: string } {
  const alias = sql.ident(sql.alias('e'));
  switch (sql.dialect) {
    case 'sqlite':
      return { from: `json_each(${json}) AS ${alias}`, element: `${alias}.value` };
    case 'postgresql':
      // The columns are `json` (text kept as written), not `jsonb`: see the generator's scalars.ts.
      return { from: `json_array_elements(CASE WHEN json_typeof(${json}) = 'array' THEN ${json} ELSE '[]'::json END) AS ${alias}(value)`, element: `${alias}.value` };
    case 'mysql':
      return { from: `JSON_TABLE(${json}, '$[*]' COLUMNS (value JSON PATH '$')) AS ${alias}`, element: `${alias}.value` };
  }
}
