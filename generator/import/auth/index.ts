/**
 * The users-permissions and admin side of `contentgen import`: users, roles and permissions,
 * API tokens, the plugin's settings and webhooks, from the rows of a Strapi 4.26.2 database to
 * what a contentgen server keeps. Pure: rows in, rows and files out, no I/O.
 *
 *   const auth = importAuth(await readAuthTables(source), { ir });
 *
 * The input is import-core's `StrapiAuthTables` (every table read whole, values normalized:
 * dates as Date, booleans, numbers or bigints, JSON parsed; Strapi's column names). The result:
 *
 * - `tables`: rows to insert, in this order, keyed by contentgen's columns:
 *   `up_roles` (Strapi's ids and names, as the sync will keep them), `up_users` (ids kept, password
 *   hashes as they were, reset/confirmation codes as their SHA-256, the project's own
 *   attributes by the server's user type, columns it lacks left out), `up_users_role_links`, `strapi_api_tokens` (same access_key HMAC, `permissions` a
 *   JSON array, `lifespan` a bigint); up_users carries `types`, its columns' scalar types, for
 *   the writer (and `userColumnTypes(ir)` gives the reader the same to decode the project's own
 *   user attributes in the right time zone). Ids are Strapi's: set the sequences after inserting
 *   (PostgreSQL). `up_permissions` and its links are left empty on purpose: the server writes
 *   them from permissions.json at its next start (auth/sync.ts). A target a server has
 *   started on already holds up_roles/up_permissions rows of its own: clear those three tables
 *   first.
 * - `files`: `permissions.json` (root `models`: beside the models the build reads, a Strapi
 *   project's `src/`; custom roles as `{ name, description, actions }` with Strapi's names; the
 *   server compiles its policy in, so it takes a rebuild),
 *   `src/config.imported.ts` (root `server`: settings and webhooks; settings.ts says why
 *   src/config.ts is not edited) and, when webhooks had credential-like headers, their values
 *   for the environment (kind `secrets`: mode 0600, not for version control).
 * - `notes`: a line per thing that moves differently or not at all (role types Strapi
 *   wrote that contentgen does not accept, actions of plugins contentgen does not serve, OAuth users and providers, edited email templates,
 *   admin users, transfer tokens, releases, the two secrets to carry over).
 * - `problems`: rows contentgen's constraints would refuse (a username or token name twice,
 *   links to nothing), left out of `tables`; a real import stops on them unless told to skip.
 *
 * Passwords keep working as they are; API tokens with API_TOKEN_SALT = Strapi's
 * `admin.apiToken.salt`; user JWTs with JWT_SECRET = Strapi's users-permissions `jwtSecret`.
 */
import type { ScalarType, Schema } from '../../ir/types.js';
import { sourceKey, type ProjectConfig } from '../../load/project-config.js';
import { actionCatalog, catalogActions } from '../../emit/auth/catalog.js';
import { count, listed, type AuthProblem, type ImportFile, type TargetRow } from './plan.js';
import { planApiTokens } from './api-tokens.js';
import { planRoles } from './roles.js';
import { planSettings } from './settings.js';
import { planUsers, type UserColumns } from './users.js';
import { date, fromAuthTables, rowsOf, text, type AuthSource, type StrapiAuthTables } from './source.js';
import { documentIdColumn, newDocumentId } from '../../../templates/runtime/entity/document-id.js';

export type { AuthSource, Row, StrapiAuthTables } from './source.js';
export type { AuthProblem, ImportFile, TargetRow } from './plan.js';

export interface AuthImportOptions {
  /** The models the server is built from: which actions it grants (permissions and custom tokens are checked against them). */
  readonly ir: Schema;
  /** "Now", for what has expired or is still pending (default: the time of the call). */
  readonly now?: Date;
}

/** Rows for one contentgen table, keyed by its column names. */
export interface TargetTableRows {
  readonly table: string;
  readonly rows: readonly TargetRow[];
  /** The scalar type of columns whose encoding depends on it (date, time, decimal, json): up_users's. */
  readonly types?: Readonly<Record<string, ScalarType>>;
}

export interface AuthImport {
  /** In the order to insert them: up_roles, up_users, up_users_role_links, strapi_api_tokens. */
  readonly tables: readonly TargetTableRows[];
  readonly files: readonly ImportFile[];
  readonly problems: readonly AuthProblem[];
  readonly notes: readonly string[];
}

export function importAuth(tables: StrapiAuthTables, options: AuthImportOptions): AuthImport {
  const { ir } = options;
  const plan = planAuthImport(fromAuthTables(tables), {
    actions: catalogActions(actionCatalog(ir)),
    userColumns: userColumns(ir),
    ...(ir.projectConfig ? { projectConfig: ir.projectConfig } : {}),
    now: options.now ?? new Date(),
  });
  // Users and roles are content types of the server: each row gets a documentId (Strapi 5's
  // identity; a Strapi 5 database's rows keep their own).
  const contentTables = new Set(ir.contentTypes.map((ct) => ct.names.table));
  const withDocumentIds = (rows: AuthImport['tables'][number]['rows']) =>
    rows.map((row) => ({ ...row, [documentIdColumn]: typeof row[documentIdColumn] === 'string' && row[documentIdColumn] !== '' ? row[documentIdColumn] : newDocumentId() }));
  return { ...plan, tables: plan.tables.map((table) => (contentTables.has(table.table) ? { ...table, rows: withDocumentIds(table.rows) } : table)) };
}

export interface AuthTarget {
  /** Every action the server grants. */
  readonly actions: readonly string[];
  /** up_users's scalar columns and their types. */
  readonly userColumns: UserColumns;
  /** A Strapi project's evaluated config/ (its server.js `webhooks.defaultHeaders`). */
  readonly projectConfig?: ProjectConfig;
  readonly now: Date;
}

/** The same from rows keyed by Strapi table name and what the server has. */
export function planAuthImport(source: AuthSource, target: AuthTarget): AuthImport {
  const { now } = target;
  const known = new Set(target.actions);
  const roles = planRoles(source, known);
  const users = planUsers(source, new Set(roles.typeOf.keys()), target.userColumns);
  const tokens = planApiTokens(source, known, now);
  const settings = planSettings(source, target.projectConfig, new Set(roles.typeOf.values()), (type) => roles.renamed.get(type) ?? type);
  return {
    tables: [
      { table: 'up_roles', rows: roles.roleRows },
      { table: 'up_users', rows: users.users, types: Object.fromEntries(target.userColumns) },
      { table: 'up_users_role_links', rows: users.roleLinks },
      { table: 'strapi_api_tokens', rows: tokens.tokens },
    ],
    files: [roles.file, ...settings.files],
    notes: [
      ...summary(users.users.length, roles.roleRows.length, tokens.tokens.length, target.projectConfig),
      ...roles.report,
      ...users.report,
      ...tokens.report,
      ...settings.report,
      ...unmapped(source, now),
    ],
    problems: [...roles.problems, ...users.problems, ...tokens.problems],
  };
}

/**
 * The scalar columns of the server's user type and their types, its own attributes included:
 * what the reader needs to decode up_users (`readAuthTables(source, userColumnTypes(ir))`) and
 * the writer to encode it. Strapi names the columns as the server does (lodash snake case).
 */
export function userColumnTypes(ir: Schema): Record<string, ScalarType> {
  const user = ir.contentTypes.find((ct) => ct.uid === 'plugin::users-permissions.user');
  return Object.fromEntries((user?.attributes ?? []).flatMap((a) => (a.kind === 'scalar' ? [[a.column, a.type] as const] : [])));
}

function userColumns(ir: Schema): UserColumns {
  return new Map(Object.entries(userColumnTypes(ir)));
}

function summary(users: number, roles: number, tokens: number, config: ProjectConfig | undefined): string[] {
  const lines = [`users-permissions: ${count(users, 'user')}, ${count(roles, 'role')} (permissions.json), ${count(tokens, 'API token')}`];
  // Strapi reads it from config/plugins.js, which defaults to the JWT_SECRET of its environment.
  const read = config?.sources[sourceKey('plugins', ['users-permissions', 'config', 'jwtSecret'])]?.name ?? 'JWT_SECRET';
  if (users) lines.push(`up_users: user JWTs Strapi issued keep working only if the server runs with JWT_SECRET set to Strapi's users-permissions jwtSecret (Strapi read it from the environment variable ${read})`);
  return lines;
}

/** What has no home in contentgen: a line each, so nobody expects it. */
function unmapped(source: AuthSource, now: Date): string[] {
  const lines: string[] = [];
  const admins = source.counts?.admin_users ?? 0;
  if (admins) lines.push(`admin_users: ${count(admins, 'admin panel user')} not imported: contentgen has no admin panel (manage API tokens with \`npm run token\`)`);
  const transfer = source.counts?.strapi_transfer_tokens ?? 0;
  if (transfer) lines.push(`strapi_transfer_tokens: ${count(transfer, 'transfer token')} not imported: contentgen has no data-transfer endpoint`);
  const releases = rowsOf(source, 'strapi_releases');
  if (releases.length) {
    const pending = releases.filter((r) => {
      const at = date(r.scheduled_at);
      return r.released_at == null && (at === null || at.getTime() > now.getTime());
    });
    const names = pending.map((r) => text(r.name) ?? '').filter(Boolean);
    lines.push(
      `strapi_releases: ${count(releases.length, 'release')} not imported: contentgen has no releases` +
        (pending.length ? `; ${count(pending.length, 'was', 'were')} not released yet (${listed(names, 5)}): publish their entries yourself` : ''),
    );
  }
  return lines;
}
