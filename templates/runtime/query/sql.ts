/**
 * SqlBuilder: collects parameters and spells identifiers and placeholders for one dialect.
 * One builder serves one statement, so placeholder numbers ($1, $2…) match `params`.
 */
import type { Dialect, ScalarFieldMeta } from '../meta.js';
import { encodeValue } from './encode.js';

export { encodeValue, parseBoolean, toTruthy } from './encode.js';

/** A finished statement, ready for the executor. */
export interface CompiledSql {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/**
 * Table names are Strapi's collectionNames, which may hold `-` (always quoted). Result names
 * are attribute names, which may hold letters outside ASCII (`… AS "año"`): letters and digits
 * of any script, never a quote.
 */
const identifierPattern = /^[\p{L}\p{N}_][\p{L}\p{N}_-]*$/u;

/**
 * Values one statement built from a list of any length (ids to link, to check, to look up)
 * binds at most: such lists are cut into batches of this size. The databases' own limits are
 * far above it (SQLite 32,766, PostgreSQL and MySQL 65,535), and statements stay small.
 */
export const maxBoundParameters = 1000;

/** `items` in consecutive batches of at most `size`. */
export function batches<T>(items: readonly T[], size: number = maxBoundParameters): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export class SqlBuilder {
  readonly dialect: Dialect;
  readonly params: unknown[] = [];
  #aliases = 0;

  constructor(dialect: Dialect) {
    this.dialect = dialect;
  }

  /** A fresh table alias (`t1`, `l2`, …) for subqueries, unique within this statement. */
  alias(prefix: string): string {
    this.#aliases += 1;
    return `${prefix}${this.#aliases}`;
  }

  /**
   * Quotes a table, column or alias name. Names only ever come from metadata; the check
   * is a defence so that a metadata bug can never become an injection.
   */
  ident(name: string): string {
    if (!identifierPattern.test(name)) throw new Error(`Refusing to quote unsafe SQL identifier ${JSON.stringify(name)}`);
    return this.dialect === 'mysql' ? `\`${name}\`` : `"${name}"`;
  }

  /** `"alias"."column"`, or just `"column"` without an alias. */
  column(column: string, alias?: string): string {
    return alias === undefined ? this.ident(column) : `${this.ident(alias)}.${this.ident(column)}`;
  }

  /** Adds a parameter and returns its placeholder. */
  param(value: unknown): string {
    this.params.push(value);
    return this.dialect === 'postgresql' ? `$${this.params.length}` : '?';
  }

  /** The parameter value for comparing `field` with a request value; see encode.ts. */
  encodeValue(field: ScalarFieldMeta, raw: unknown): unknown {
    return encodeValue(this.dialect, field, raw);
  }

  /** Encodes `raw` for `field` and adds it as a parameter. */
  value(field: ScalarFieldMeta, raw: unknown): string {
    return this.param(this.encodeValue(field, raw));
  }

  finish(sql: string): CompiledSql {
    return { sql, params: [...this.params] };
  }
}
