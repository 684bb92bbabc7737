/**
 * The users-permissions tables as the auth layer needs them: users with their role, roles,
 * permissions and the link tables between them. Table and column names come from the
 * emitted metadata of `plugin::users-permissions.user|role|permission`; every value is a
 * bound parameter.
 */
import type { Database } from '../db/database.js';
import { toResponseValue } from '../entity/input.js';
import type { ContentTypeMeta, LinkMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';

export const userUid = 'plugin::users-permissions.user';
export const roleUid = 'plugin::users-permissions.role';
export const permissionUid = 'plugin::users-permissions.permission';

/** The user an authenticated request runs as (`ctx.state.user`); never holds secrets. */
export interface AuthUser {
  readonly id: number;
  readonly username: string | null;
  readonly email: string | null;
  readonly provider: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
  readonly role: { readonly id: number; readonly type: string; readonly name: string | null } | null;
}

/** What login needs of a user: the stored hash and the flags checked after it. */
export interface LoginCandidate {
  readonly id: number;
  readonly password: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
}

export interface StoredRole {
  readonly id: number;
  readonly type: string;
}

export class UsersPermissionsStore {
  readonly user: ContentTypeMeta;
  readonly role: ContentTypeMeta;
  readonly permission: ContentTypeMeta;
  readonly userRole: LinkMeta;
  readonly permissionRole: LinkMeta;

  constructor(registry: Registry) {
    this.user = need(registry, userUid);
    this.role = need(registry, roleUid);
    this.permission = need(registry, permissionUid);
    this.userRole = linkOf(this.user, 'role');
    this.permissionRole = linkOf(this.permission, 'role');
  }

  /** Column of a scalar attribute. */
  column(meta: ContentTypeMeta, name: string): string {
    const field = meta.fields[name];
    if (field?.kind !== 'scalar') throw new Error(`${meta.uid} has no scalar attribute ${name}`);
    return field.column;
  }

  private scalar(meta: ContentTypeMeta, name: string): ScalarFieldMeta {
    return meta.fields[name] as ScalarFieldMeta;
  }

  /** The user with this id and its role, or null. */
  async authUser(db: Database, id: number): Promise<AuthUser | null> {
    const sql = new SqlBuilder(db.dialect);
    const u = (name: string) => sql.column(this.column(this.user, name), 'u');
    const r = (name: string) => sql.column(this.column(this.role, name), 'r');
    const { userRole: link } = this;
    const text = [
      `SELECT ${u('id')} AS ${sql.ident('id')}, ${u('username')} AS ${sql.ident('username')}, ${u('email')} AS ${sql.ident('email')},`,
      `${u('provider')} AS ${sql.ident('provider')}, ${u('confirmed')} AS ${sql.ident('confirmed')}, ${u('blocked')} AS ${sql.ident('blocked')},`,
      `${r('id')} AS ${sql.ident('role_id')}, ${r('type')} AS ${sql.ident('role_type')}, ${r('name')} AS ${sql.ident('role_name')}`,
      `FROM ${sql.ident(this.user.table)} ${sql.ident('u')}`,
      `LEFT JOIN ${sql.ident(link.table)} ${sql.ident('l')} ON ${sql.column(link.ownerColumn, 'l')} = ${u('id')}`,
      `LEFT JOIN ${sql.ident(this.role.table)} ${sql.ident('r')} ON ${r('id')} = ${sql.column(link.targetColumn, 'l')}`,
      `WHERE ${u('id')} = ${sql.param(id)}`,
    ].join(' ');
    const [row] = await db.query(text, sql.params);
    if (!row) return null;
    return {
      id: Number(row.id),
      username: (row.username as string | null) ?? null,
      email: (row.email as string | null) ?? null,
      provider: (row.provider as string | null) ?? null,
      confirmed: toBoolean(row.confirmed),
      blocked: toBoolean(row.blocked),
      role: row.role_id === null || row.role_id === undefined ? null : { id: Number(row.role_id), type: String(row.role_type), name: (row.role_name as string | null) ?? null },
    };
  }

  /** Strapi's login lookup: provider `local`, email (lower-cased) or username. */
  async loginCandidate(db: Database, identifier: string): Promise<LoginCandidate | null> {
    const sql = new SqlBuilder(db.dialect);
    const c = (name: string) => sql.ident(this.column(this.user, name));
    const text =
      `SELECT ${c('id')} AS ${sql.ident('id')}, ${c('password')} AS ${sql.ident('password')}, ${c('confirmed')} AS ${sql.ident('confirmed')}, ` +
      `${c('blocked')} AS ${sql.ident('blocked')} FROM ${sql.ident(this.user.table)} ` +
      `WHERE ${c('provider')} = ${sql.param('local')} AND (${c('email')} = ${sql.param(identifier.toLowerCase())} OR ${c('username')} = ${sql.param(identifier)}) ` +
      `ORDER BY ${c('id')} LIMIT 1`;
    const [row] = await db.query(text, sql.params);
    if (!row) return null;
    return { id: Number(row.id), password: (row.password as string | null) ?? null, confirmed: toBoolean(row.confirmed), blocked: toBoolean(row.blocked) };
  }

  /** Ids of users matching any of `clauses` (attribute = value), and `extra` when given. */
  async userIdsWhere(db: Database, clauses: ReadonlyArray<readonly [attribute: string, value: unknown]>, extra?: readonly [attribute: string, value: unknown]): Promise<number[]> {
    if (clauses.length === 0) return [];
    const sql = new SqlBuilder(db.dialect);
    const c = (name: string) => sql.ident(this.column(this.user, name));
    const any = clauses.map(([name, value]) => `${c(name)} = ${sql.param(value)}`).join(' OR ');
    const also = extra ? ` AND ${c(extra[0])} = ${sql.param(extra[1])}` : '';
    const rows = await db.query(`SELECT ${c('id')} AS ${sql.ident('id')} FROM ${sql.ident(this.user.table)} WHERE (${any})${also} ORDER BY ${c('id')}`, sql.params);
    return rows.map((row) => Number(row.id));
  }

  /** The stored password hash (and provider) of a user. */
  async credentials(db: Database, id: number): Promise<{ password: string | null; provider: string | null } | null> {
    const sql = new SqlBuilder(db.dialect);
    const c = (name: string) => sql.ident(this.column(this.user, name));
    const [row] = await db.query(
      `SELECT ${c('password')} AS ${sql.ident('password')}, ${c('provider')} AS ${sql.ident('provider')} FROM ${sql.ident(this.user.table)} WHERE ${c('id')} = ${sql.param(id)}`,
      sql.params,
    );
    return row ? { password: (row.password as string | null) ?? null, provider: (row.provider as string | null) ?? null } : null;
  }

  async roleByType(db: Database, type: string): Promise<StoredRole | null> {
    const sql = new SqlBuilder(db.dialect);
    const c = (name: string) => sql.ident(this.column(this.role, name));
    const [row] = await db.query(
      `SELECT ${c('id')} AS ${sql.ident('id')}, ${c('type')} AS ${sql.ident('type')} FROM ${sql.ident(this.role.table)} WHERE ${c('type')} = ${sql.param(type)}`,
      sql.params,
    );
    return row ? { id: Number(row.id), type: String(row.type) } : null;
  }

  /**
   * Inside a transaction: holds a lock until it ends that every other transaction calling
   * this waits for. Email has no unique index (nor has it in Strapi: the check is the
   * application's), so "is this email taken? then insert" must not interleave with another
   * registration of the same address. A no-op UPDATE of the public role's row (which always
   * exists) takes that row's lock on PostgreSQL and MySQL and SQLite's write lock; it is the
   * transaction's first statement, so MySQL's snapshot is taken after it.
   */
  async lockUserIdentities(tx: Database): Promise<void> {
    const sql = new SqlBuilder(tx.dialect);
    const id = sql.ident(this.column(this.role, 'id'));
    await tx.execute(`UPDATE ${sql.ident(this.role.table)} SET ${id} = ${id} WHERE ${sql.ident(this.column(this.role, 'type'))} = ${sql.param('public')}`, sql.params);
  }

  async roleById(db: Database, id: number): Promise<StoredRole | null> {
    const sql = new SqlBuilder(db.dialect);
    const c = (name: string) => sql.ident(this.column(this.role, name));
    const [row] = await db.query(
      `SELECT ${c('id')} AS ${sql.ident('id')}, ${c('type')} AS ${sql.ident('type')} FROM ${sql.ident(this.role.table)} WHERE ${c('id')} = ${sql.param(id)}`,
      sql.params,
    );
    return row ? { id: Number(row.id), type: String(row.type) } : null;
  }

  /** Every role with its stored columns, keyed by attribute name. */
  async roles(db: Database): Promise<Record<string, unknown>[]> {
    const sql = new SqlBuilder(db.dialect);
    const names = ['id', 'name', 'description', 'type', 'createdAt', 'updatedAt'];
    const list = names.map((name) => `${sql.ident(this.column(this.role, name))} AS ${sql.ident(name)}`).join(', ');
    const rows = await db.query(`SELECT ${list} FROM ${sql.ident(this.role.table)} ORDER BY ${sql.ident(this.column(this.role, 'id'))}`, sql.params);
    return rows.map((row) => Object.fromEntries(names.map((name) => [name, name === 'id' ? Number(row.id) : toResponseValue(this.scalar(this.role, name), row[name])])));
  }

  /** Number of users per role id. */
  async userCounts(db: Database): Promise<Map<number, number>> {
    const sql = new SqlBuilder(db.dialect);
    const target = sql.ident(this.userRole.targetColumn);
    const rows = await db.query(`SELECT ${target} AS ${sql.ident('role_id')}, COUNT(*) AS ${sql.ident('count')} FROM ${sql.ident(this.userRole.table)} GROUP BY ${target}`, []);
    return new Map(rows.map((row) => [Number(row.role_id), Number(row.count)]));
  }

  /** Role id of each of these users (users without a role are absent). */
  async roleIdsOfUsers(db: Database, userIds: readonly number[]): Promise<Map<number, number>> {
    if (userIds.length === 0) return new Map();
    const sql = new SqlBuilder(db.dialect);
    const { userRole: link } = this;
    const rows = await db.query(
      `SELECT ${sql.ident(link.ownerColumn)} AS ${sql.ident('user_id')}, ${sql.ident(link.targetColumn)} AS ${sql.ident('role_id')} FROM ${sql.ident(link.table)} ` +
        `WHERE ${sql.ident(link.ownerColumn)} IN (${userIds.map((id) => sql.param(id)).join(', ')})`,
      sql.params,
    );
    return new Map(rows.map((row) => [Number(row.user_id), Number(row.role_id)]));
  }

  /** Actions stored for a role (its up_permissions rows), with their ids. */
  async permissionsOfRole(db: Database, roleId: number): Promise<{ id: number; action: string }[]> {
    const sql = new SqlBuilder(db.dialect);
    const { permissionRole: link } = this;
    const p = (name: string) => sql.column(this.column(this.permission, name), 'p');
    const rows = await db.query(
      `SELECT ${p('id')} AS ${sql.ident('id')}, ${p('action')} AS ${sql.ident('action')} FROM ${sql.ident(this.permission.table)} ${sql.ident('p')} ` +
        `JOIN ${sql.ident(link.table)} ${sql.ident('l')} ON ${sql.column(link.ownerColumn, 'l')} = ${p('id')} ` +
        `WHERE ${sql.column(link.targetColumn, 'l')} = ${sql.param(roleId)} ORDER BY ${p('id')}`,
      sql.params,
    );
    return rows.map((row) => ({ id: Number(row.id), action: String(row.action) }));
  }

  /** Gives a user this role (a to-one relation: any previous link is replaced). */
  async setUserRole(db: Database, userId: number, roleId: number): Promise<void> {
    const { userRole: link } = this;
    let sql = new SqlBuilder(db.dialect);
    await db.execute(`DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(userId)}`, sql.params);
    sql = new SqlBuilder(db.dialect);
    const [max] = await db.query(
      `SELECT MAX(${sql.ident(link.inverseOrderColumn)}) AS ${sql.ident('max')} FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} = ${sql.param(roleId)}`,
      sql.params,
    );
    const order = Number(max?.max ?? 0) + 1;
    await this.insertLink(db, link, userId, roleId, order);
  }

  async insertLink(db: Database, link: LinkMeta, ownerId: number, targetId: number, inverseOrder: number): Promise<void> {
    const sql = new SqlBuilder(db.dialect);
    const columns = [link.ownerColumn, link.targetColumn, link.orderColumn, link.inverseOrderColumn].map((c) => sql.ident(c)).join(', ');
    const values = [ownerId, targetId, 1, inverseOrder].map((v) => sql.param(v)).join(', ');
    await db.execute(`INSERT INTO ${sql.ident(link.table)} (${columns}) VALUES (${values})`, sql.params);
  }
}

function need(registry: Registry, uid: string): ContentTypeMeta {
  const meta = registry.contentTypes.get(uid);
  if (!meta) throw new Error(`the registry has no ${uid}`);
  return meta;
}

function linkOf(meta: ContentTypeMeta, name: string): LinkMeta {
  const field = meta.fields[name];
  if (field?.kind !== 'relation' || !field.link) throw new Error(`${meta.uid}.${name} is not a stored relation`);
  return field.link;
}

/** SQLite and MySQL return booleans as 0/1, PostgreSQL as booleans. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === 1n || value === '1' || value === 't' || value === 'true';
}
