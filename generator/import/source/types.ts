/**
 * The normalized form every Strapi database reader answers in, whatever the dialect wrote
 * (storage reference §3): the later stages (plan, checks, write, and the users-permissions
 * import of generator/import/auth/) never see a dialect's encodings.
 *
 *   datetime, timestamp   a `Date` (an instant: SQLite's epoch milliseconds as they are,
 *                         PostgreSQL/MySQL local wall time read in the Strapi server's time zone)
 *   date                  `YYYY-MM-DD` text
 *   time                  `HH:mm:ss.SSS` text
 *   boolean               `true` / `false` (SQLite and MySQL store 0/1)
 *   integer, float        a number
 *   biginteger            a `bigint` (exact: SQLite integers above 2^53, PG/MySQL bigint text)
 *   decimal               decimal text (`9.99`), exact
 *   json                  the parsed value (objects, arrays, numbers…)
 *   anything else         text
 *   NULL                  `null`
 */
import type { ScalarType } from '../../../templates/runtime/meta.js';

export type { ScalarType };

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One value in normalized form (see the file comment). */
export type NormalizedValue = null | string | number | bigint | boolean | Date | JsonValue;

/** One row of a Strapi table, by column name, values normalized. */
export type NormalizedRow = Readonly<Record<string, NormalizedValue>>;

/** How each column of a table is decoded: its scalar type. Columns not listed are read as the driver gives them. */
export type ColumnTypes = Readonly<Record<string, ScalarType>>;

export type SourceDialect = 'sqlite' | 'postgresql' | 'mysql';

/** A `SELECT` a reader runs: whole rows of one table, or a query of the plan's own. */
export interface RowQuery {
  /** Table to read every column of (quoted by the reader). */
  readonly table: string;
  /** Columns to order by, ascending (quoted by the reader). Default `id`. */
  readonly orderBy?: readonly string[];
}

/**
 * An open Strapi database, only ever read. Rows come in batches (`batchSize`, default 1000),
 * so a table of any size is read in bounded memory.
 */
export interface StrapiSource {
  readonly dialect: SourceDialect;
  /** Where it is, for messages (a file path, or a URL without its password). */
  readonly label: string;
  tables(): Promise<ReadonlySet<string>>;
  columns(table: string): Promise<readonly string[]>;
  /** Every row of `query.table`, decoded by `types`, in batches. */
  rows(query: RowQuery, types: ColumnTypes, batchSize?: number): AsyncIterable<NormalizedRow[]>;
  /**
   * A query of the dialect's own SQL (identifiers quoted with `quote`, `?` placeholders), its
   * rows decoded by `types`, in batches.
   */
  select(sql: string, params: readonly unknown[], types: ColumnTypes, batchSize?: number): AsyncIterable<NormalizedRow[]>;
  /** The last id the table's id sequence gave (sqlite_sequence, PG sequence, MySQL AUTO_INCREMENT - 1); 0 when unknown. */
  lastId(table: string): Promise<number>;
  /** `"name"` (SQLite, PostgreSQL) or `` `name` `` (MySQL). */
  quote(identifier: string): string;
  close(): Promise<void>;
}

/**
 * The users-permissions, API token and webhook tables of a Strapi database, read whole and
 * normalized (source/auth-tables.ts), for generator/import/auth/. Every table is `[]` when the
 * database lacks it (the plugin was never installed).
 */
export interface StrapiAuthTables {
  /** `up_users`: id, username, email, provider, password, reset_password_token, confirmation_token, confirmed, blocked, created_at, updated_at (+ any column of the project's own user attributes). */
  readonly users: readonly NormalizedRow[];
  /** `up_roles`: id, name, description, type, created_at, updated_at. */
  readonly roles: readonly NormalizedRow[];
  /** `up_permissions`: id, action, created_at, updated_at. */
  readonly permissions: readonly NormalizedRow[];
  /** `up_permissions_role_links`: id, permission_id, role_id, permission_order. */
  readonly permissionRoleLinks: readonly NormalizedRow[];
  /** `up_users_role_links`: id, user_id, role_id, user_order. */
  readonly userRoleLinks: readonly NormalizedRow[];
  /** `strapi_api_tokens`: id, name, description, type, access_key, last_used_at, expires_at, lifespan (bigint), created_at, updated_at. */
  readonly apiTokens: readonly NormalizedRow[];
  /** `strapi_api_token_permissions`: id, action, created_at, updated_at. */
  readonly apiTokenPermissions: readonly NormalizedRow[];
  /** `strapi_api_token_permissions_token_links`: id, api_token_permission_id, api_token_id, api_token_permission_order. */
  readonly apiTokenPermissionLinks: readonly NormalizedRow[];
  /** `strapi_webhooks`: id, name, url, headers (json), events (json), enabled (boolean). */
  readonly webhooks: readonly NormalizedRow[];
  /** `strapi_core_store_settings`: id, key, value (text holding JSON, as stored), type, environment, tag. */
  readonly coreStore: readonly NormalizedRow[];
  /** `admin_users` count, `strapi_transfer_tokens` count, `strapi_releases` rows: for report lines only. */
  readonly adminUserCount: number;
  readonly transferTokenCount: number;
  readonly releases: readonly NormalizedRow[];
}

/**
 * What the auth import hands back to the writer: rows to insert (normalized values, by column
 * name of contentgen's table), files to write into the server folder, report lines.
 */
export interface TargetTableRows {
  /** contentgen's table name (`up_users`, `up_users_role_links`, `strapi_api_tokens`). */
  readonly table: string;
  readonly rows: readonly NormalizedRow[];
}
