/**
 * At start, makes up_roles and up_permissions say what the emitted policy table says (the
 * table is the source of truth): missing roles are created, names and descriptions
 * updated, permissions added and removed. A role that is no longer declared is deleted and
 * its users move to the default role, as when Strapi deletes a role.
 *
 * Runs in one transaction, serialised between processes starting at once (PostgreSQL
 * advisory lock, MySQL named lock; SQLite transactions are serial already).
 */
import type { Database } from '../db/database.js';
import { SqlBuilder } from '../query/sql.js';
import type { Policy, RoleDefinition } from './policy.js';
import type { UsersPermissionsStore } from './store.js';
import { newDocumentId } from '../entity/document-id.js';

export interface SyncReport {
  readonly createdRoles: string[];
  readonly deletedRoles: string[];
  readonly added: number;
  readonly removed: number;
}

const lockName = 'contentgen_users_permissions_sync';
// Any fixed 64-bit number: the advisory lock of this sync.
const advisoryKey = 7_343_117_001;

export async function syncRoles(db: Database, store: UsersPermissionsStore, policy: Policy, defaultRole: string): Promise<SyncReport> {
  // Every start but the first finds the tables in sync: answering that with reads alone keeps
  // a server that only serves reads from loading Prisma's query compiler (tens of MB) at all.
  if (await inSync(db, store, policy)) return { createdRoles: [], deletedRoles: [], added: 0, removed: 0 };
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction((tx) => syncInTransaction(tx, store, policy, defaultRole));
    } catch (err) {
      // Another process won a race on a unique role type; its result is ours too.
      if (attempt >= 3) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  }
}

/** Whether the stored roles and permissions already say exactly what the policy table says. */
async function inSync(db: Database, store: UsersPermissionsStore, policy: Policy): Promise<boolean> {
  const stored = await store.roles(db);
  if (stored.length !== policy.roles.length) return false;
  for (const existing of stored) {
    const role = policy.role(String(existing.type));
    if (!role || roleChanged(existing, role)) return false;
    const { have, stale } = comparePermissions(await store.permissionsOfRole(db, Number(existing.id)), role.actions);
    if (stale.length > 0 || have.size !== new Set(role.actions).size) return false;
  }
  return true;
}

/** Whether a stored role's name or description differs from the policy table's. */
function roleChanged(existing: Record<string, unknown>, role: RoleDefinition): boolean {
  return existing.name !== role.name || existing.description !== role.description;
}

/** A role's stored permissions against its granted actions: the actions it has, and the ids no longer granted or duplicated. */
function comparePermissions(current: readonly { id: number; action: string }[], actions: readonly string[]): { have: Set<string>; stale: number[] } {
  const wanted = new Set(actions);
  const have = new Set<string>();
  const stale: number[] = [];
  for (const p of current) {
    if (wanted.has(p.action) && !have.has(p.action)) have.add(p.action);
    else stale.push(p.id);
  }
  return { have, stale };
}

async function syncInTransaction(db: Database, store: UsersPermissionsStore, policy: Policy, defaultRole: string): Promise<SyncReport> {
  if (db.dialect === 'postgresql') await db.execute(`SELECT pg_advisory_xact_lock(${advisoryKey})`, []);
  // MySQL's named locks are server-wide: the database's name keeps other databases' servers out.
  const mysqlLock = `LEFT(CONCAT('${lockName}:', DATABASE()), 64)`;
  if (db.dialect === 'mysql') await db.execute(`SELECT GET_LOCK(${mysqlLock}, 60)`, []);
  try {
    return await sync(db, store, policy, defaultRole);
  } finally {
    if (db.dialect === 'mysql') await db.execute(`SELECT RELEASE_LOCK(${mysqlLock})`, []);
  }
}

async function sync(db: Database, store: UsersPermissionsStore, policy: Policy, defaultRole: string): Promise<SyncReport> {
  const now = new Date();
  const roleDelegate = db.prisma[store.role.delegate];
  const permissionDelegate = db.prisma[store.permission.delegate];
  const stored = await store.roles(db);
  const byType = new Map(stored.map((r) => [String(r.type), r]));
  const createdRoles: string[] = [];
  const ids = new Map<string, number>();

  for (const role of policy.roles) {
    const existing = byType.get(role.type);
    if (!existing) {
      const created = await roleDelegate.create({
        data: { name: role.name, description: role.description, type: role.type, documentId: newDocumentId(), createdAt: now, updatedAt: now },
        select: { id: true },
      });
      ids.set(role.type, Number(created.id));
      createdRoles.push(role.type);
    } else {
      ids.set(role.type, Number(existing.id));
      if (roleChanged(existing, role)) {
        await roleDelegate.update({ where: { id: Number(existing.id) }, data: { name: role.name, description: role.description, updatedAt: now }, select: { id: true } });
      }
    }
  }

  let added = 0;
  let removed = 0;
  const deletedRoles: string[] = [];
  const fallback = ids.get(defaultRole) ?? ids.get('authenticated')!;
  for (const role of stored) {
    const type = String(role.type);
    if (policy.role(type)) continue;
    const id = Number(role.id);
    removed += await deletePermissions(db, store, (await store.permissionsOfRole(db, id)).map((p) => p.id));
    await moveUsers(db, store, id, fallback);
    await roleDelegate.delete({ where: { id }, select: { id: true } });
    deletedRoles.push(type);
  }

  for (const role of policy.roles) {
    const roleId = ids.get(role.type)!;
    const current = await store.permissionsOfRole(db, roleId);
    const { have, stale } = comparePermissions(current, role.actions);
    removed += await deletePermissions(db, store, stale);
    let order = current.length - stale.length;
    for (const action of role.actions) {
      if (have.has(action)) continue;
      const created = await permissionDelegate.create({ data: { action, documentId: newDocumentId(), createdAt: now, updatedAt: now }, select: { id: true } });
      await store.insertLink(db, store.permissionRole, Number(created.id), roleId, ++order);
      added += 1;
    }
  }
  return { createdRoles, deletedRoles, added, removed };
}

async function deletePermissions(db: Database, store: UsersPermissionsStore, ids: readonly number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const link = store.permissionRole;
  let sql = new SqlBuilder(db.dialect);
  await db.execute(`DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} IN (${ids.map((id) => sql.param(id)).join(', ')})`, sql.params);
  sql = new SqlBuilder(db.dialect);
  const idColumn = sql.ident(store.column(store.permission, 'id'));
  await db.execute(`DELETE FROM ${sql.ident(store.permission.table)} WHERE ${idColumn} IN (${ids.map((id) => sql.param(id)).join(', ')})`, sql.params);
  return ids.length;
}

/** Users of a deleted role get the default role (Strapi's deleteRole does the same). */
async function moveUsers(db: Database, store: UsersPermissionsStore, fromRole: number, toRole: number): Promise<void> {
  const link = store.userRole;
  const sql = new SqlBuilder(db.dialect);
  await db.execute(
    `UPDATE ${sql.ident(link.table)} SET ${sql.ident(link.targetColumn)} = ${sql.param(toRole)} WHERE ${sql.ident(link.targetColumn)} = ${sql.param(fromRole)}`,
    sql.params,
  );
}
