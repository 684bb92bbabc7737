/**
 * Database identifiers as each database ends up with Strapi v4's names. Strapi 4.26 sends its
 * names (collectionName, `lodash.snakeCase` of attribute and link names) verbatim and never
 * shortens them, so:
 *
 *   SQLite      every name as it is.
 *   PostgreSQL  cuts identifiers to 63 bytes, in DDL and in queries alike: a Strapi database
 *               has the cut name, so contentgen uses it. Two names cut to the same one would be
 *               one table or column (Strapi 4 fails to start on that): refused, naming both.
 *   MySQL       refuses names over 64 characters, so no Strapi database has one: contentgen keeps
 *               the first 55 characters and adds `_` and 8 hex digits of the full name's SHA-256
 *               (stable across builds, distinct for distinct names) and says so in a warning.
 *
 * Index and constraint names are contentgen's own (Prisma's defaults); `constraintMapName`
 * gives the ones too long for the database a name of the same kind.
 */
import { createHash } from 'node:crypto';
import type { ModelError } from '../validate/model-error.js';
import type { Provider } from './scalars.js';

/** The longest identifier each database keeps: PostgreSQL in bytes, MySQL in characters. */
export const identifierLimit: Readonly<Record<Provider, number>> = { postgresql: 63, mysql: 64, sqlite: Number.POSITIVE_INFINITY };

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** `text` cut to at most `bytes` UTF-8 bytes without splitting a character, as PostgreSQL cuts names. */
export function cutToBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/** The name the database keeps for a table or column Strapi names `natural`. */
export function databaseIdentifier(natural: string, provider: Provider): string {
  if (provider === 'postgresql') return cutToBytes(natural, identifierLimit.postgresql);
  if (provider === 'mysql' && [...natural].length > identifierLimit.mysql) return `${[...natural].slice(0, identifierLimit.mysql - 9).join('')}_${shortHash(natural)}`;
  return natural;
}

/**
 * The `map:` name of an index or constraint whose Prisma default name (`<table>_<columns>_<suffix>`)
 * is longer than the database keeps, or undefined when the default fits. Prisma would cut the
 * default, and two cut names can meet (two foreign keys of one long link table did); this one
 * keeps a prefix and a hash of the whole default name instead.
 */
export function constraintMapName(table: string, columns: readonly string[], suffix: 'key' | 'idx' | 'fkey' | 'pkey', provider: Provider): string | undefined {
  const limit = identifierLimit[provider];
  const natural = [table, ...columns, suffix].join('_');
  if (provider === 'sqlite' || Buffer.byteLength(natural) <= limit) return undefined;
  return `${cutToBytes([table, ...columns].join('_'), limit - suffix.length - 10)}_${shortHash(natural)}_${suffix}`;
}

/** Where a name comes from, for messages: the model file, the JSON pointer, and words for it. */
export interface NameSource {
  readonly file: string;
  readonly pointer: string;
  /** `content type "api::article.article", attribute "tags"` */
  readonly label: string;
}

export interface DatabaseNameReport {
  /** Names two sources share once the database cuts them (PostgreSQL): nothing may be built. */
  readonly errors: readonly ModelError[];
  /** Names shortened for MySQL/MariaDB. */
  readonly warnings: readonly string[];
}

interface Claim {
  readonly natural: string;
  readonly source: NameSource;
}

/**
 * Hands out database names for one build: each table and each column of a table is fitted to
 * the database and checked against the others already handed out.
 */
export class DatabaseNames {
  readonly errors: ModelError[] = [];
  readonly warnings: string[] = [];
  private readonly tables = new Map<string, Claim>();
  private readonly columns = new Map<string, Map<string, Claim>>();

  constructor(
    readonly provider: Provider,
    reservedTables: readonly string[] = [],
  ) {
    for (const table of reservedTables) this.tables.set(table.toLowerCase(), { natural: table, source: { file: '', pointer: '', label: 'contentgen itself' } });
  }

  /** The name of table `natural` (a collectionName or a link table name). */
  table(natural: string, source: NameSource): string {
    const name = this.fit(natural, 'table', source);
    this.check(this.tables, name, natural, source, 'table');
    return name;
  }

  /** The name of column `natural` of table `table` (the name `table()` returned). */
  column(table: string, natural: string, source: NameSource): string {
    const name = this.fit(natural, `column of table "${table}"`, source);
    if (!this.columns.has(table)) this.columns.set(table, new Map());
    this.check(this.columns.get(table)!, name, natural, source, `column of table "${table}"`);
    return name;
  }

  report(): DatabaseNameReport {
    return { errors: [...this.errors], warnings: [...this.warnings] };
  }

  private fit(natural: string, what: string, source: NameSource): string {
    const name = databaseIdentifier(natural, this.provider);
    if (name !== natural && this.provider === 'mysql') {
      this.warnings.push(
        `${source.file}: ${source.label}: MySQL/MariaDB refuses names over 64 characters, so the ${what} Strapi names "${natural}" is "${name}" here (a Strapi MySQL database cannot have it; on SQLite and PostgreSQL the name is Strapi's)`,
      );
    }
    return name;
  }

  private check(claims: Map<string, Claim>, name: string, natural: string, source: NameSource, what: string): void {
    const key = name.toLowerCase();
    const other = claims.get(key);
    if (!other) {
      claims.set(key, { natural, source });
      return;
    }
    // The same natural name twice (up to case) is the models' own clash, reported where it is made.
    if (other.natural.toLowerCase() === natural.toLowerCase()) return;
    this.errors.push({
      file: source.file,
      pointer: source.pointer,
      message:
        `${source.label}: PostgreSQL cuts identifiers to 63 bytes, and the ${what} "${natural}" becomes "${name}", ` +
        `as does "${other.natural}" of ${other.source.label}${other.source.file ? ` (${other.source.file})` : ''}. ` +
        'Strapi 4 cannot create both on PostgreSQL either; shorten one of the names (the collectionName or the attribute name) so they differ within the first 63 bytes',
    });
  }
}

/** Column of Strapi 5's documentId (Strapi's name) on every content type's table, and its Prisma field (docs/strapi5.md "Identity"). */
export const documentIdColumn = 'document_id';
export const documentIdPrismaField = 'documentId';
