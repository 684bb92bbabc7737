/**
 * SQL for the text operators ($contains, $startsWithi, $eqi, ...), identical in meaning on
 * every dialect.
 *
 * The user's value always matches literally: `%`, `_` and `\` are escaped in LIKE
 * patterns, `*`, `?` and `[` in GLOB patterns. (Strapi passes them through as
 * wildcards; closing that leak is deliberate.)
 *
 * Case-sensitive matching: SQLite's LIKE ignores ASCII case, so SQLite uses GLOB;
 * MySQL/MariaDB's default collations ignore case, so the pattern is cast to a binary
 * string; PostgreSQL's LIKE is already case-sensitive.
 *
 * Case-insensitive matching folds the ASCII letters A–Z, and nothing else, on both sides:
 * `É` and `é`, `ß` and `SS` stay different. That is the one folding every database can do
 * identically: SQLite's LOWER() folds ASCII only, while PostgreSQL's and MariaDB's fold by
 * the database's locale or character set (and PostgreSQL's not at all under LC_CTYPE=C).
 * The column is folded with LOWER() on SQLite, TRANSLATE() on PostgreSQL and a REPLACE()
 * per letter on MySQL/MariaDB (which has no TRANSLATE); the value is folded here.
 */
import type { ScalarFieldMeta } from '../meta.js';
import { isStringType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';

export interface TextMatch {
  /** `equals` is only used case-insensitively ($eqi/$nei); $eq is a plain comparison. */
  readonly kind: 'equals' | 'contains' | 'startsWith' | 'endsWith';
  readonly caseSensitive: boolean;
  readonly negated: boolean;
}

/** LIKE metacharacters and the escape character itself, escaped with `\`. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** GLOB metacharacters, each wrapped in a one-character class (`*` → `[*]`). */
export function escapeGlob(value: string): string {
  return value.replace(/[*?[]/g, (char) => `[${char}]`);
}

function wrapPattern(escaped: string, kind: TextMatch['kind'], wildcard: string): string {
  switch (kind) {
    case 'equals':
      return escaped;
    case 'contains':
      return `${wildcard}${escaped}${wildcard}`;
    case 'startsWith':
      return `${escaped}${wildcard}`;
    case 'endsWith':
      return `${wildcard}${escaped}`;
  }
}

/** The column as text; non-string columns (integers) are cast. */
function textColumn(sql: SqlBuilder, field: ScalarFieldMeta, column: string): string {
  // PostgreSQL enumerations may be native enum types, which LIKE does not accept.
  if (isStringType(field.type) && !(sql.dialect === 'postgresql' && field.type === 'enumeration')) return column;
  return sql.dialect === 'mysql' ? `CAST(${column} AS CHAR)` : `CAST(${column} AS TEXT)`;
}

/** `ESCAPE '\'`; MySQL string literals treat the backslash as an escape, so it is doubled there. */
function escapeClause(sql: SqlBuilder): string {
  return sql.dialect === 'mysql' ? `ESCAPE '\\\\'` : `ESCAPE '\\'`;
}

const upperAscii = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `text` with A–Z lowered and every other character kept. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 32));
}

/** SQL lowering the ASCII letters of the text expression `text`, and only those. */
export function asciiLowerSql(sql: SqlBuilder, text: string): string {
  switch (sql.dialect) {
    case 'sqlite':
      return `LOWER(${text})`; // SQLite (without ICU) folds ASCII only
    case 'postgresql':
      return `TRANSLATE(${text}, '${upperAscii}', '${upperAscii.toLowerCase()}')`;
    case 'mysql':
      // REPLACE() matches case-sensitively whatever the collation.
      return [...upperAscii].reduce((inner, letter) => `REPLACE(${inner}, '${letter}', '${letter.toLowerCase()}')`, text);
  }
}

function caseInsensitiveMatch(sql: SqlBuilder, field: ScalarFieldMeta, column: string, match: TextMatch, value: string): string {
  const text = sql.dialect === 'postgresql' ? `CAST(${column} AS TEXT)` : textColumn(sql, field, column);
  const lowered = asciiLowerSql(sql, text);
  const folded = asciiLower(value);
  const pattern = match.kind === 'equals' ? folded : wrapPattern(escapeLike(folded), match.kind, '%');
  const placeholder = sql.param(pattern);
  // Binary on MySQL so that only case is ignored, not accents or trailing spaces.
  const operand = sql.dialect === 'mysql' ? `CAST(${placeholder} AS BINARY)` : placeholder;
  if (match.kind === 'equals') return `${lowered} ${match.negated ? '<>' : '='} ${operand}`;
  return `${lowered} ${match.negated ? 'NOT LIKE' : 'LIKE'} ${operand} ${escapeClause(sql)}`;
}

function caseSensitiveMatch(sql: SqlBuilder, field: ScalarFieldMeta, column: string, match: TextMatch, value: string): string {
  const text = textColumn(sql, field, column);
  switch (sql.dialect) {
    case 'sqlite':
      return `${text} ${match.negated ? 'NOT GLOB' : 'GLOB'} ${sql.param(wrapPattern(escapeGlob(value), match.kind, '*'))}`;
    case 'postgresql':
    case 'mysql': {
      const placeholder = sql.param(wrapPattern(escapeLike(value), match.kind, '%'));
      const operand = sql.dialect === 'mysql' ? `CAST(${placeholder} AS BINARY)` : placeholder;
      return `${text} ${match.negated ? 'NOT LIKE' : 'LIKE'} ${operand} ${escapeClause(sql)}`;
    }
  }
}

/** A boolean SQL expression matching `column` against the literal text `value`. */
export function compileTextMatch(
  sql: SqlBuilder,
  field: ScalarFieldMeta,
  column: string,
  match: TextMatch,
  value: string,
): string {
  return match.caseSensitive
    ? caseSensitiveMatch(sql, field, column, match, value)
    : caseInsensitiveMatch(sql, field, column, match, value);
}
