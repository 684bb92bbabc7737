/**
 * users-permissions users and their role links. Password hashes are copied as they are: Strapi
 * writes bcryptjs `$2a$10$` hashes, which the server's bcrypt accepts, so logins keep working.
 * Reset-password and confirmation tokens are the exception: Strapi keeps them in clear,
 * contentgen keeps their SHA-256 (auth/routes.ts `hashCode`) and looks a code up by it, so
 * they are hashed here or the links of emails already sent would stop working.
 *
 * Ids are kept (a user JWT carries the id). Attributes the project added to the user model
 * (extensions/users-permissions) are copied by the user type's columns in the server's models;
 * a column they no longer have (an attribute since removed, Strapi's creator columns) is left
 * out, named in the report.
 */
// The server's own: what it stores for a reset-password or confirmation code and looks codes up by.
import { hashCode } from '../../../templates/runtime/auth/routes.js';
import { documentIdColumn } from '../../../templates/runtime/entity/document-id.js';
import type { ScalarType } from '../../ir/types.js';
import { count, listed, type AuthProblem, type TargetRow } from './plan.js';
import { byOrder, date, flag, id, json, rowsOf, text, type AuthSource } from './source.js';

/** up_users's scalar columns in the server (column → type), from the user type of its models. */
export type UserColumns = ReadonlyMap<string, ScalarType>;

/** Columns of Strapi's own every table has (Strapi 5: a user is a document), not the project's: never reported. */
const creatorColumns = new Set(['created_by_id', 'updated_by_id', 'published_at', 'locale']);
/** What the server's bcrypt verifies: `$2a$` (Strapi's bcryptjs) and `$2b$`; it refuses `$2x$`/`$2y$` (checked). */
const bcryptHash = /^\$2[ab]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export interface UsersPlan {
  readonly users: TargetRow[];
  readonly roleLinks: TargetRow[];
  readonly report: string[];
  readonly problems: AuthProblem[];
}


export function planUsers(source: AuthSource, roleIds: ReadonlySet<number>, columns: UserColumns): UsersPlan {
  const report: string[] = [];
  const problems: AuthProblem[] = [];
  const users: TargetRow[] = [];
  const byUsername = new Map<string, number>();
  const duplicates: number[] = [];
  const noPassword: number[] = [];
  const notBcrypt: number[] = [];
  const providers = new Map<string, number>();
  const dropped = new Set<string>();

  for (const row of [...rowsOf(source, 'up_users')].sort((a, b) => (id(a.id) ?? 0) - (id(b.id) ?? 0))) {
    const userId = id(row.id);
    if (userId === null) continue;
    const username = text(row.username);
    if (username !== null && byUsername.has(username)) {
      duplicates.push(userId);
      continue;
    }
    if (username !== null) byUsername.set(username, userId);
    const user = userRow(row, columns, dropped);
    users.push(user);
    const provider = text(row.provider) ?? 'local';
    if (provider !== 'local') providers.set(provider, (providers.get(provider) ?? 0) + 1);
    const password = text(row.password);
    if (provider === 'local' && !password) noPassword.push(userId);
    else if (password && !bcryptHash.test(password)) notBcrypt.push(userId);
  }

  if (duplicates.length) {
    problems.push({
      table: 'up_users',
      rows: duplicates,
      message: `${count(duplicates.length, 'user')} with a username another user already has (Strapi checks uniqueness in code only; contentgen has a unique index)`,
      fix: 'rename them in Strapi before importing, or skip them',
    });
  }
  const unexpected = [...dropped].filter((c) => !creatorColumns.has(c));
  if (unexpected.length) report.push(`up_users: ${count(unexpected.length, 'column')} of Strapi's that the user model here does not have, left out: ${listed(unexpected)}`);
  if (providers.size) {
    const byProvider = [...providers].map(([p, n]) => `${p}: ${n}`).join(', ');
    report.push(
      `up_users: ${count([...providers.values()].reduce((a, b) => a + b, 0), 'user')} signed up through an OAuth provider (${byProvider}); ` +
        'contentgen serves no provider login: they can log in again once their provider is set to local and they reset their password',
    );
  }
  if (noPassword.length) report.push(`up_users: ${count(noPassword.length, 'local user')} without a password (ids ${listed(noPassword.map(String))}) cannot log in until they reset it`);
  if (notBcrypt.length) report.push(`up_users: ${count(notBcrypt.length, 'password')} not stored as a bcrypt hash the server verifies ($2a$ or $2b$; ids ${listed(notBcrypt.map(String))}) will match nothing; those users must reset it`);

  const links = planRoleLinks(source, new Set(users.map((u) => u.id as number)), roleIds, problems);
  const withRole = new Set(links.map((l) => l.user_id as number));
  const roleless = users.filter((u) => !withRole.has(u.id as number)).map((u) => String(u.id));
  if (roleless.length) report.push(`up_users_role_links: ${count(roleless.length, 'user')} without a role (ids ${listed(roleless)}): each is given none, as in Strapi, and is refused what needs one`);
  return { users, roleLinks: links, report, problems };
}

/** One up_users row as contentgen stores it; columns the server's table lacks go to `dropped`. */
export function userRow(row: Readonly<Record<string, unknown>>, columns: UserColumns, dropped: Set<string>): TargetRow {
  const user: TargetRow = {};
  for (const [column, value] of Object.entries(row)) {
    const type = columns.get(column);
    // A Strapi 5 user keeps its documentId (auth/index.ts gives the others one).
    if (column === documentIdColumn) {
      if (text(value)) user[column] = text(value);
    } else if (type === undefined && column !== 'id') dropped.add(column);
    else user[column] = type === undefined ? value : scalar(value, type);
  }
  const code = (value: unknown) => {
    const clear = text(value);
    return clear ? hashCode(clear) : null;
  };
  user.id = id(row.id);
  user.reset_password_token = code(row.reset_password_token);
  user.confirmation_token = code(row.confirmation_token);
  const createdAt = date(row.created_at) ?? new Date(0);
  user.created_at = createdAt;
  user.updated_at = date(row.updated_at) ?? createdAt;
  return user;
}

/** A value of a project's own user attribute, in case the reader left it as the database gave it. */
function scalar(value: unknown, type: ScalarType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'boolean':
      return flag(value);
    case 'datetime':
    case 'timestamp':
      return date(value);
    case 'json':
      return json(value);
    case 'biginteger':
      return typeof value === 'bigint' ? value : /^-?\d+$/.test(String(value)) ? BigInt(String(value)) : value;
    default:
      return value;
  }
}

/**
 * up_users_role_links: one role per user (contentgen has a unique index on user_id; Strapi's
 * manyToOne means the same), `user_order` renumbered 1, 2, … per role in Strapi's order.
 */
function planRoleLinks(source: AuthSource, userIds: ReadonlySet<number>, roleIds: ReadonlySet<number>, problems: AuthProblem[]): TargetRow[] {
  const links: TargetRow[] = [];
  const dangling: number[] = [];
  const extra: number[] = [];
  const seen = new Set<number>();
  const position = new Map<number, number>();
  for (const link of [...rowsOf(source, 'up_users_role_links')].sort(byOrder('user_order'))) {
    const linkId = id(link.id) ?? 0;
    const userId = id(link.user_id);
    const roleId = id(link.role_id);
    if (userId === null || roleId === null || !userIds.has(userId) || !roleIds.has(roleId)) {
      dangling.push(linkId);
      continue;
    }
    if (seen.has(userId)) {
      extra.push(linkId);
      continue;
    }
    seen.add(userId);
    const order = (position.get(roleId) ?? 0) + 1;
    position.set(roleId, order);
    links.push({ user_id: userId, role_id: roleId, role_order: 1, user_order: order });
  }
  if (dangling.length) {
    problems.push({ table: 'up_users_role_links', rows: dangling, message: `${count(dangling.length, 'link')} to a user or role that does not exist (or was left out)`, fix: 'left out: they link nothing' });
  }
  if (extra.length) {
    problems.push({ table: 'up_users_role_links', rows: extra, message: `${count(extra.length, 'second role link')} of a user that already has a role`, fix: 'left out: a user has one role; the first link (lowest user_order) is kept' });
  }
  return links.sort((a, b) => (a.user_id as number) - (b.user_id as number));
}
