/**
 * The users-permissions and admin side of `contentgen import`: users, roles and permissions,
 * API tokens, the plugin's settings and webhooks, from the rows of a Strapi 4.26.2 database to
 * what a contentgen server keeps. Pure: rows in, rows and files out, no I/O.
 *
 *   const plan = planAuthImport(source, { actions: catalogActions(actionCatalog(ir)) });
 *
 * `source` holds the decoded rows of each Strapi table it names (source.ts: dates as Date,
 * booleans, numbers or bigints, JSON parsed; Strapi's column names). The plan holds:
 *
 * - `rows`: per contentgen table, the rows to insert, keyed by column:
 *   `up_users` (ids kept, password hashes as they were, reset/confirmation codes as their
 *   SHA-256), `up_roles` (Strapi's ids, contentgen's names), `up_users_role_links`,
 *   `strapi_api_tokens` (`permissions` a JSON array). Ids are Strapi's: set the sequences
 *   after inserting (PostgreSQL). `up_permissions` and its links stay empty on purpose: the
 *   server writes them from permissions.json at its first start (auth/sync.ts); delete any rows
 *   a previous start left in `up_roles`, `up_permissions`, `up_permissions_role_links` first.
 * - `files`: `permissions.json` beside the models (the next build compiles it in),
 *   `src/config.imported.ts` in the server (settings and webhooks; src/config.ts is the user's,
 *   settings.ts says why it is not edited), and the values of credential-like webhook headers
 *   for the environment (kind `secrets`).
 * - `report`: one line per thing that moves differently or not at all (custom role names,
 *   actions of plugins contentgen does not serve, OAuth users and providers, edited email
 *   templates, admin users, transfer tokens, releases, the secrets to carry over).
 * - `problems`: rows contentgen's constraints refuse (duplicate usernames or token names,
 *   links to nothing), left out of `rows`; a real import stops on them unless told to skip.
 *
 * With API_TOKEN_SALT and JWT_SECRET set to Strapi's values, API tokens and user JWTs keep
 * working; passwords keep working in any case.
 */
import { count, listed, type AuthProblem, type ImportFile, type TargetRow } from './plan.js';
import { planApiTokens } from './api-tokens.js';
import { planRoles } from './roles.js';
import { planSettings } from './settings.js';
import { planUsers } from './users.js';
import { date, rowsOf, text, type AuthSource } from './source.js';

export type { AuthSource, Row } from './source.js';
export { authTables } from './source.js';
export type { AuthProblem, ImportFile, TargetRow } from './plan.js';
export { hashCode } from './users.js';

export interface AuthTarget {
  /** Every action the built server grants (`catalogActions(actionCatalog(ir))`). */
  readonly actions: readonly string[];
  /** "Now", for what has expired or is still pending (default: the time of the call). */
  readonly now?: Date;
}

export interface AuthImportPlan {
  readonly rows: {
    up_users: TargetRow[];
    up_roles: TargetRow[];
    up_users_role_links: TargetRow[];
    strapi_api_tokens: TargetRow[];
  };
  readonly files: ImportFile[];
  readonly report: string[];
  readonly problems: AuthProblem[];
}

export function planAuthImport(source: AuthSource, target: AuthTarget): AuthImportPlan {
  const known = new Set(target.actions);
  const now = target.now ?? new Date();
  const roles = planRoles(source, known);
  const users = planUsers(source, new Set(roles.typeOf.keys()));
  const tokens = planApiTokens(source, known, now);
  const settings = planSettings(source, new Set(roles.typeOf.values()), (type) => roles.renamed.get(type) ?? type);
  return {
    rows: { up_users: users.users, up_roles: roles.roleRows, up_users_role_links: users.roleLinks, strapi_api_tokens: tokens.tokens },
    files: [roles.file, ...settings.files],
    report: [
      ...summary(users.users.length, roles.roleRows.length, tokens.tokens.length),
      ...roles.report,
      ...users.report,
      ...tokens.report,
      ...settings.report,
      ...unmapped(source, now),
    ],
    problems: [...roles.problems, ...users.problems, ...tokens.problems],
  };
}

function summary(users: number, roles: number, tokens: number): string[] {
  const lines = [`users-permissions: ${count(users, 'user')}, ${count(roles, 'role')} (permissions.json), ${count(tokens, 'API token')}`];
  if (users) lines.push("up_users: user JWTs Strapi issued keep working only if the server runs with JWT_SECRET set to Strapi's users-permissions jwtSecret (usually JWT_SECRET of its environment)");
  return lines;
}

/** What has no home in contentgen: a line each, so nobody expects it. */
function unmapped(source: AuthSource, now: Date): string[] {
  const lines: string[] = [];
  const admins = rowsOf(source, 'admin_users');
  if (admins.length) {
    const emails = admins.map((a) => text(a.email) ?? '').filter(Boolean);
    lines.push(`admin_users: ${count(admins.length, 'admin panel user')} (${listed(emails, 5)}) not imported: contentgen has no admin panel (manage API tokens with \`npm run token\`)`);
  }
  const transfer = rowsOf(source, 'strapi_transfer_tokens');
  if (transfer.length) lines.push(`strapi_transfer_tokens: ${count(transfer.length, 'transfer token')} not imported: contentgen has no data-transfer endpoint`);
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
