/**
 * users-permissions users and their role links. Password hashes are copied as they are: Strapi
 * writes bcryptjs `$2a$10$` hashes, which the server's bcrypt accepts, so logins keep working.
 * Reset-password and confirmation tokens are the exception: Strapi keeps them in clear,
 * contentgen keeps their SHA-256 (auth/routes.ts `hashCode`) and looks a code up by it, so
 * they are hashed here or the links of emails already sent would stop working.
 *
 * Ids are kept (a user JWT carries the id). Columns of attributes the project added to the
 * user model (extensions/users-permissions) pass through unchanged; Strapi's creator columns
 * are dropped.
 */
import { createHash } from 'node:crypto';
import { count, listed, type AuthProblem, type TargetRow } from './plan.js';
import { byOrder, date, flag, id, rowsOf, text, type AuthSource } from './source.js';

const creatorColumns = new Set(['created_by_id', 'updated_by_id']);
const bcryptHash = /^\$2[abxy]\$\d{2}\$[./A-Za-z0-9]{53}$/;

export interface UsersPlan {
  readonly users: TargetRow[];
  readonly roleLinks: TargetRow[];
  readonly report: string[];
  readonly problems: AuthProblem[];
}

/** The SHA-256 hex contentgen stores for a reset-password or confirmation code. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function planUsers(source: AuthSource, roleIds: ReadonlySet<number>): UsersPlan {
  const report: string[] = [];
  const problems: AuthProblem[] = [];
  const users: TargetRow[] = [];
  const byUsername = new Map<string, number>();
  const duplicates: number[] = [];
  const noPassword: number[] = [];
  const notBcrypt: number[] = [];
  const providers = new Map<string, number>();

  for (const row of [...rowsOf(source, 'up_users')].sort((a, b) => (id(a.id) ?? 0) - (id(b.id) ?? 0))) {
    const userId = id(row.id);
    if (userId === null) continue;
    const username = text(row.username);
    if (username !== null && byUsername.has(username)) {
      duplicates.push(userId);
      continue;
    }
    if (username !== null) byUsername.set(username, userId);
    const user = userRow(row);
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
  if (providers.size) {
    const byProvider = [...providers].map(([p, n]) => `${p}: ${n}`).join(', ');
    report.push(
      `up_users: ${count([...providers.values()].reduce((a, b) => a + b, 0), 'user')} signed up through an OAuth provider (${byProvider}); ` +
        'contentgen serves no provider login: they can log in again once their provider is set to local and they reset their password',
    );
  }
  if (noPassword.length) report.push(`up_users: ${count(noPassword.length, 'local user')} without a password (ids ${listed(noPassword.map(String))}) cannot log in until they reset it`);
  if (notBcrypt.length) report.push(`up_users: ${count(notBcrypt.length, 'password')} not stored as a bcrypt hash (ids ${listed(notBcrypt.map(String))}) will match nothing; those users must reset it`);

  const links = planRoleLinks(source, new Set(users.map((u) => u.id as number)), roleIds, problems);
  const withRole = new Set(links.map((l) => l.user_id as number));
  const roleless = users.filter((u) => !withRole.has(u.id as number)).map((u) => String(u.id));
  if (roleless.length) report.push(`up_users_role_links: ${count(roleless.length, 'user')} without a role (ids ${listed(roleless)}): each is given none, as in Strapi, and is refused what needs one`);
  return { users, roleLinks: links, report, problems };
}

/** One up_users row as contentgen stores it. */
export function userRow(row: Readonly<Record<string, unknown>>): TargetRow {
  const user: TargetRow = {};
  for (const [column, value] of Object.entries(row)) if (!creatorColumns.has(column)) user[column] = value;
  const code = (value: unknown) => {
    const clear = text(value);
    return clear ? hashCode(clear) : null;
  };
  user.id = id(row.id);
  user.reset_password_token = code(row.reset_password_token);
  user.confirmation_token = code(row.confirmation_token);
  user.confirmed = flag(row.confirmed);
  user.blocked = flag(row.blocked);
  const createdAt = date(row.created_at) ?? new Date(0);
  user.created_at = createdAt;
  user.updated_at = date(row.updated_at) ?? createdAt;
  return user;
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
