/**
 * The one string-comparison rule shared by filters and ORDER BY: strings compare by
 * Unicode code point, case- and accent-sensitively, with no trailing-space padding, on
 * every database.
 *
 * - SQLite: the default BINARY collation already compares UTF-8 bytes, i.e. code points.
 * - PostgreSQL: `=` is exact under any deterministic collation, but ordering follows the
 *   database locale, so ordering uses `COLLATE "C"` (byte order). Enumerations may be
 *   native enum types, which sort by declaration and reject COLLATE: cast them to text.
 * - MySQL/MariaDB: tables are created `utf8mb4_bin` (generator/migrate/mysql-diff.ts), so
 *   unique indexes and Prisma's own `=` do not fold case or accents; but `utf8mb4_bin` still
 *   pads trailing spaces, and a database created elsewhere may use a `*_ci` collation.
 *   Comparing against a binary string makes the comparison bytewise, and UTF-8 byte order is
 *   code-point order. `CAST(x AS BINARY)` is used rather than the `BINARY x` operator, which
 *   MySQL 8 deprecates.
 */
import type { ScalarFieldMeta } from '../meta.js';
import { isStringType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';

/**
 * The column as the left side of a comparison. `ordering` is true for <, <=, >, >=,
 * BETWEEN and ORDER BY, false for =, <>, IN.
 */
export function comparableColumn(sql: SqlBuilder, field: ScalarFieldMeta, column: string, ordering: boolean): string {
  if (!isStringType(field.type)) return column;
  switch (sql.dialect) {
    case 'postgresql': {
      const text = field.type === 'enumeration' ? `CAST(${column} AS TEXT)` : column;
      return ordering ? `${text} COLLATE "C"` : text;
    }
    case 'mysql':
    case 'sqlite':
      return column;
  }
}

/** A placeholder as the right side of a comparison with the column. */
export function comparableOperand(sql: SqlBuilder, field: ScalarFieldMeta, placeholder: string): string {
  return sql.dialect === 'mysql' && isStringType(field.type) ? `CAST(${placeholder} AS BINARY)` : placeholder;
}

/** The column as an ORDER BY key. */
export function sortKey(sql: SqlBuilder, field: ScalarFieldMeta, column: string): string {
  if (sql.dialect === 'mysql' && isStringType(field.type)) return `CAST(${column} AS BINARY)`;
  return comparableColumn(sql, field, column, true);
}
