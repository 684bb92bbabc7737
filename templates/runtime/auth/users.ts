/**
 * Users of the users-permissions plugin, read and written for its routes. Reads reuse the
 * REST query layer (filters, sort, fields, _q are validated as for any content type) and
 * answer Strapi's plugin shape: bare objects `{ id, username, email, … }`, no `attributes`,
 * private fields (password, reset and confirmation tokens) never selected. Writes reuse
 * the REST input validation (minLength, unique, password hashing) and keep the role link.
 */
import { DbNull } from '@prisma/client/runtime/client';
import type { Database } from '../db/database.js';
import { prepareWriteData, prismaJson } from '../entity/input.js';
import { assertUniqueAttributes, rethrowUniqueViolation } from '../entity/unique.js';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { buildFindOneQuery, buildFindQuery } from '../query/list.js';
import { SqlBuilder } from '../query/sql.js';
import { jsonFieldsFor, populateEntries } from '../populate/execute.js';
import { parsePopulate, type PopulateTree } from '../populate/parse.js';
import type { PopulateDeepOptions } from '../populate/deep.js';
import { findActionOf } from '../rest/routes.js';
import { toEntry, type Entry } from '../rest/transform.js';
import type { UsersPermissionsStore } from './store.js';
import { newDocumentId } from '../entity/document-id.js';

export type UserObject = Record<string, unknown> & { id: number };

/** What the caller may see: populated relations need `<target>.find`. */
export type Can = (action: string) => boolean;

/** Refuses a taken username or email (throws); runs on the write's transaction. */
export type IdentityCheck = (tx: Database) => Promise<void>;


/** Attributes register never takes from the body, whatever the model says (Strapi's list). */
const systemFields = new Set([
  'confirmed', 'blocked', 'confirmationToken', 'resetPasswordToken', 'provider', 'id', 'role',
  'createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'publishedAt', 'strapi_reviewWorkflows_stage',
]);

export class UserService {
  readonly meta: ContentTypeMeta;

  constructor(
    private readonly db: Database,
    private readonly store: UsersPermissionsStore,
    private readonly registry: Registry,
    private readonly hashPassword: (plain: string) => Promise<string>,
    /** strapi-plugin-populate-deep is installed: `populate=deep[,N]` (populate/deep.ts). */
    private readonly populateDeep?: PopulateDeepOptions,
  ) {
    this.meta = store.user;
  }

  /**
   * GET /api/users: every matching user. Like Strapi's entity service, paging comes from
   * top-level `start`/`limit` or `page`/`pageSize` (not `pagination[…]`), and there is no
   * default limit.
   */
  async find(query: Record<string, unknown>, can: Can): Promise<UserObject[]> {
    const tree = this.populateTree(query, can);
    const plan = buildFindQuery(this.meta, { ...query, pagination: userPagination(query) }, { ...this.readOptions(false, can), extraFields: jsonFieldsFor(tree) });
    const rows = await this.db.query(plan.select.sql, plan.select.params);
    return this.toUsers(this.db, rows, plan.fields, tree);
  }

  /** GET /api/users/count: the number of users matching `filters` / `_q`. */
  async count(query: Record<string, unknown>, can: Can): Promise<number> {
    const plan = buildFindQuery(this.meta, { filters: query['filters'], _q: query['_q'], pagination: { start: 0, limit: 1 } }, this.readOptions(true, can));
    const [row] = await this.db.query<{ count: unknown }>(plan.count!.sql, plan.count!.params);
    return Number(row?.count ?? 0);
  }

  /** One user, or null (ids that are not positive integers find nothing). */
  async findOne(id: unknown, query: Record<string, unknown>, can: Can, db: Database = this.db): Promise<UserObject | null> {
    const userId = parseUserId(id);
    if (userId === null) return null;
    const tree = this.populateTree(query, can);
    const plan = buildFindOneQuery(this.meta, userId, query, { dialect: db.dialect, extraFields: jsonFieldsFor(tree), registry: this.registry, canFind: (uid) => can(findActionOf(uid)) });
    const rows = await db.query(plan.select.sql, plan.select.params);
    const [user] = await this.toUsers(db, rows, plan.fields, tree);
    return user ?? null;
  }

  /** The body keys register accepts besides username, email and password. */
  registerFields(allowedFields: readonly string[] | null): string[] {
    if (allowedFields !== null) return [...allowedFields];
    return (Object.values(this.meta.fields) as FieldMeta[])
      .filter((f) => !systemFields.has(f.name) && !f.private && !(f.kind === 'scalar' && f.writable === false))
      .map((f) => f.name);
  }

  /**
   * Validates and stores a new user with this role; returns its id. `checkIdentity` runs in
   * the same transaction, after the user identity lock and before the insert: the place to
   * refuse a taken email that no concurrent request can slip past.
   */
  async create(data: Record<string, unknown>, roleId: number, checkIdentity?: IdentityCheck): Promise<number> {
    const now = new Date();
    const prepared = await prepareWriteData(this.meta, data, { mode: 'create', hashPassword: this.hashPassword, now, jsonNull: DbNull, jsonValue: prismaJson });
    return this.db.transaction(async (tx) => {
      await this.checkIdentity(tx, checkIdentity);
      await assertUniqueAttributes(tx, this.meta, prepared, null);
      const created = await tx.prisma[this.meta.delegate]
        .create({ data: { ...prepared, documentId: newDocumentId(), createdAt: now, updatedAt: now }, select: { id: true } })
        .catch((err: unknown) => rethrowUniqueViolation(this.meta, err));
      const id = Number(created.id);
      await this.store.setUserRole(tx, id, roleId);
      return id;
    });
  }

  /** Validates and applies a partial update; `roleId` replaces the role when given; `checkIdentity` as for create. */
  async update(id: number, data: Record<string, unknown>, roleId?: number, checkIdentity?: IdentityCheck): Promise<void> {
    const prepared = await prepareWriteData(this.meta, data, { mode: 'update', hashPassword: this.hashPassword, now: new Date(), jsonNull: DbNull, jsonValue: prismaJson });
    await this.db.transaction(async (tx) => {
      await this.checkIdentity(tx, checkIdentity);
      await assertUniqueAttributes(tx, this.meta, prepared, id);
      await tx.prisma[this.meta.delegate]
        .update({ where: { id }, data: { ...prepared, updatedAt: new Date() }, select: { id: true } })
        .catch((err: unknown) => rethrowUniqueViolation(this.meta, err));
      if (roleId !== undefined) await this.store.setUserRole(tx, id, roleId);
    });
  }

  private async checkIdentity(tx: Database, check: IdentityCheck | undefined): Promise<void> {
    if (!check) return;
    await this.store.lockUserIdentities(tx);
    await check(tx);
  }

  /** Writes columns without validation (tokens, flags, an already validated password hash). */
  async setColumns(id: number, data: Record<string, unknown>): Promise<void> {
    await this.db.prisma[this.meta.delegate].update({ where: { id }, data: { ...data, updatedAt: new Date() }, select: { id: true } });
  }

  /** Deletes a user and its links; returns what it was (as `findOne` shows it), or null. */
  async delete(id: unknown, query: Record<string, unknown>, can: Can): Promise<UserObject | null> {
    return this.db.transaction(async (tx) => {
      const user = await this.findOne(id, query, can, tx);
      if (!user) return null;
      const sql = new SqlBuilder(tx.dialect);
      const link = this.store.userRole;
      await tx.execute(`DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(user.id)}`, sql.params);
      await tx.prisma[this.meta.delegate].delete({ where: { id: user.id }, select: { id: true } });
      return user;
    });
  }

  /** Id of the user whose (private) attribute holds exactly `value`, or null. */
  async idWhere(attribute: string, value: string): Promise<number | null> {
    const [id] = await this.store.userIdsWhere(this.db, [[attribute, value]]);
    return id ?? null;
  }

  /** Filtering through a type the caller may not `find` (a user's `role`) is a 400, as in Strapi. */
  private readOptions(withCount: boolean, can: Can) {
    return { dialect: this.db.dialect, registry: this.registry, defaultLimit: 25, maxLimit: 0, withCount, canFind: (uid: string) => can(findActionOf(uid)) };
  }

  /** `populate` like any content type (the shared planner), for the types the caller may `find`. */
  private populateTree(query: Record<string, unknown>, can: Can): PopulateTree {
    return parsePopulate(this.meta, query['populate'], {
      registry: this.registry,
      maxDepth: populateMaxDepth,
      canFind: (uid) => can(findActionOf(uid)),
      ...(this.populateDeep ? { deep: this.populateDeep } : {}),
    });
  }

  /**
   * Rows → users as users-permissions answers them: bare objects, populated relations
   * flattened too (`role: {id, name, …}`, not `{data: {id, attributes}}`).
   */
  private async toUsers(db: Database, rows: Record<string, unknown>[], fields: string[], tree: PopulateTree): Promise<UserObject[]> {
    const entries = rows.map((row) => toEntry(this.meta, row, fields));
    await populateEntries(
      { db, registry: this.registry, maxRelationEntries: 100, publicationState: 'live' },
      entries.map((entry, i) => ({ id: entry.id, row: rows[i]!, attributes: entry.attributes })),
      tree,
    );
    return entries.map((entry) => {
      const user = flattenEntry(entry, tree) as UserObject;
      // Strapi never lists a role's users inside a user.
      if (user.role && typeof user.role === 'object') delete (user.role as Record<string, unknown>).users;
      return user;
    });
  }

}

export function flatten(entry: Entry): UserObject {
  return { id: entry.id, ...entry.attributes };
}

/** An entry as users-permissions shows it: `{id, ...attributes}`, its populated fields flattened too. */
function flattenEntry(entry: Entry, tree: PopulateTree): Record<string, unknown> {
  const out: Record<string, unknown> = { id: entry.id, ...entry.attributes };
  flattenPopulated(out, tree);
  return out;
}

/** Walks what was populated (never other values, which may be JSON of any shape). */
function flattenPopulated(out: Record<string, unknown>, tree: PopulateTree): void {
  for (const [name, node] of tree) {
    const value = out[name];
    switch (node.field.kind) {
      case 'relation':
      case 'media': {
        const data = (value as { data?: Entry | Entry[] | null } | null)?.data ?? null;
        out[name] = Array.isArray(data) ? data.map((e) => flattenEntry(e, node.children)) : data ? flattenEntry(data, node.children) : null;
        break;
      }
      case 'component':
        for (const instance of Array.isArray(value) ? value : value ? [value] : []) flattenPopulated(instance as Record<string, unknown>, node.children);
        break;
      case 'dynamiczone':
        for (const item of Array.isArray(value) ? (value as Record<string, unknown>[]) : []) {
          const inner = node.on.get(String(item.__component));
          if (inner) flattenPopulated(item, inner);
        }
        break;
    }
  }
}

const populateMaxDepth = 5;

export function parseUserId(id: unknown): number | null {
  const text = typeof id === 'number' ? String(id) : typeof id === 'string' ? id : '';
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}

/** The entity service's paging parameters, as the query layer's `pagination`. */
function userPagination(query: Record<string, unknown>): Record<string, unknown> {
  const has = (key: string) => query[key] !== undefined && query[key] !== null;
  if (has('page') || has('pageSize')) {
    return { ...(has('page') ? { page: query['page'] } : {}), ...(has('pageSize') ? { pageSize: query['pageSize'] } : {}), ...(has('start') ? { start: query['start'] } : {}), ...(has('limit') ? { limit: query['limit'] } : {}) };
  }
  return { start: has('start') ? query['start'] : 0, limit: has('limit') ? query['limit'] : -1 };
}
