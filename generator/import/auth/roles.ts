/**
 * Roles and their permissions. contentgen keeps them as a file, not as data: `permissions.json`
 * (role type → granted actions) is the policy the build compiles in, and at every start the
 * server rewrites up_roles/up_permissions to match it (templates/runtime/auth/sync.ts). So
 * Strapi's up_permissions become `permissions.json`, and up_roles rows are written with
 * Strapi's ids (so user links can be copied as they are) and the names permissions.json gives
 * them, which leaves the sync nothing to rename; it adds the permissions at the first start.
 *
 * A role whose name or description is not the one contentgen would give its type (every custom
 * role: Strapi's "Editor" / "Role editor") is written `{ name, description, actions }`, so the
 * server names it as Strapi did. What permissions.json cannot say is reported: default actions
 * Strapi's admin had taken away (contentgen always grants them), and actions of plugins
 * contentgen does not serve (the build would refuse the file with them).
 */
import { defaultRoleActions, roleIdentity } from '../../emit/auth/catalog.js';
import { documentIdColumn } from '../../../templates/runtime/entity/document-id.js';
import { count, listed, type AuthProblem, type ImportFile, type TargetRow } from './plan.js';
import { actionsByOwner, date, id, rowsOf, text, type AuthSource } from './source.js';

const roleTypePattern = /^[a-z][a-z0-9-_]*$/;


export interface RolesPlan {
  /** Strapi role id → contentgen role type. */
  readonly typeOf: ReadonlyMap<number, string>;
  /** Strapi role type → contentgen role type (the first role of a type, where Strapi had two). */
  readonly renamed: ReadonlyMap<string, string>;
  readonly roleRows: TargetRow[];
  readonly file: ImportFile;
  readonly report: string[];
  readonly problems: AuthProblem[];
}

export function planRoles(source: AuthSource, knownActions: ReadonlySet<string>): RolesPlan {
  const report: string[] = [];
  const problems: AuthProblem[] = [];
  const typeOf = new Map<number, string>();
  const roleRows: TargetRow[] = [];
  const taken = new Set<string>();
  const renamed = new Map<string, string>();
  /** Roles named otherwise than contentgen names their type: their names go into permissions.json. */
  const identities = new Map<string, { name: string; description: string }>();

  for (const role of [...rowsOf(source, 'up_roles')].sort((a, b) => (id(a.id) ?? 0) - (id(b.id) ?? 0))) {
    const roleId = id(role.id);
    if (roleId === null) continue;
    const strapiType = text(role.type) ?? '';
    const type = roleType(strapiType, text(role.name), taken);
    if (taken.has(strapiType) && type !== strapiType) {
      report.push(`up_roles: role ${roleId} has the type "${strapiType}" of an earlier role (contentgen: unique): imported as "${type}", its users keep it`);
    } else if (type !== strapiType) {
      report.push(`up_roles: role ${roleId} type "${strapiType}" is not a role type contentgen accepts (lower-case letters, digits, - and _): imported as "${type}"`);
    }
    taken.add(type);
    typeOf.set(roleId, type);
    if (!renamed.has(strapiType)) renamed.set(strapiType, type);
    const made = roleIdentity(type);
    const name = text(role.name) ?? made.name;
    const description = text(role.description) ?? '';
    if (name !== made.name || description !== made.description) identities.set(type, { name, description });
    const createdAt = date(role.created_at) ?? new Date(0);
    // A Strapi 5 role keeps its documentId (auth/index.ts gives the others one).
    const documentId = text(role[documentIdColumn]);
    roleRows.push({ id: roleId, name, description, type, created_at: createdAt, updated_at: date(role.updated_at) ?? createdAt, ...(documentId ? { [documentIdColumn]: documentId } : {}) });
  }
  for (const type of ['authenticated', 'public']) {
    if (!taken.has(type)) report.push(`up_roles: Strapi had no "${type}" role; contentgen creates it at start`);
  }

  const granted = grantedActions(source, typeOf, problems);
  const permissions: Record<string, PermissionsEntry> = {};
  for (const type of [...taken].sort()) {
    const actions = [...new Set(granted.get(type) ?? [])];
    const defaults: readonly string[] = type === 'public' || type === 'authenticated' ? defaultRoleActions[type] : [];
    const missingDefaults = defaults.filter((a) => !actions.includes(a));
    if (missingDefaults.length) {
      const register = missingDefaults.includes('plugin::users-permissions.auth.register') ? ' (registration is turned off with advanced.allow_register)' : '';
      report.push(`up_permissions: role "${type}" did not grant ${listed(missingDefaults)} in Strapi; contentgen always grants ${missingDefaults.length === 1 ? 'it' : 'them'}${register}`);
    }
    const unknown = actions.filter((a) => !knownActions.has(a) && !defaults.includes(a));
    if (unknown.length) {
      report.push(`up_permissions: role "${type}": ${count(unknown.length, 'action')} contentgen does not serve, left out of permissions.json: ${listed(unknown)}`);
    }
    const kept = actions.filter((a) => knownActions.has(a) && !defaults.includes(a)).sort();
    const identity = identities.get(type);
    permissions[type] = identity ? { ...identity, actions: kept } : kept;
  }
  return { typeOf, renamed, roleRows, file: permissionsFile(permissions), report, problems };
}

/** Role type → its actions, in Strapi's permission order. Links to no permission or role are problems. */
function grantedActions(source: AuthSource, typeOf: ReadonlyMap<number, string>, problems: AuthProblem[]): Map<string, string[]> {
  const columns = { permission: 'permission_id', owner: 'role_id', order: 'permission_order' };
  const { actions, dangling } = actionsByOwner(rowsOf(source, 'up_permissions'), rowsOf(source, 'up_permissions_role_links'), columns, (roleId) => typeOf.get(roleId ?? -1));
  if (dangling.length) {
    problems.push({
      table: 'up_permissions_role_links',
      rows: dangling,
      message: `${count(dangling.length, 'link')} to a permission or role that does not exist`,
      fix: 'nothing is lost: they granted nothing in Strapi either; they are left out',
    });
  }
  return actions;
}

/**
 * A Strapi role type as contentgen accepts it. Strapi derives a custom role's type from its
 * name (snake case) and checks nothing more, so a type may hold capitals, spaces or start
 * with a digit, or be empty.
 */
function roleType(strapiType: string, name: string | null, taken: ReadonlySet<string>): string {
  let type = strapiType;
  if (!roleTypePattern.test(type)) {
    const base = (type || name || 'role')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9-_]+/g, '_')
      .replace(/^_+|_+$/g, '');
    type = /^[a-z]/.test(base) ? base : `role_${base}`.replace(/_+$/, '');
  }
  let unique = type;
  for (let n = 2; taken.has(unique); n++) unique = `${type}_${n}`;
  return unique;
}

/** A role of permissions.json: its actions, or its own name and description with them. */
type PermissionsEntry = string[] | { name: string; description: string; actions: string[] };

/** permissions.json as the build reads it: role types sorted, each role's actions sorted. */
function permissionsFile(permissions: Record<string, PermissionsEntry>): ImportFile {
  return { path: 'permissions.json', root: 'models', kind: 'permissions', content: `${JSON.stringify(permissions, null, 2)}\n` };
}
