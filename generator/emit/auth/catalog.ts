/**
 * The users-permissions plugin's data, known at build time: every action a role or an API
 * token can be granted (Strapi's `getActions()`), the two default roles and the plugin
 * actions they get by default (reference §6.4).
 */
import { uploadActions, usersPermissionsActions } from '../../ir/plugins.js';
import type { ContentType, Schema } from '../../ir/types.js';
import { createLocalizationAction } from '../../ir/i18n.js';

export { uploadActions, usersPermissionsActions };

/** `api::article` / `plugin::users-permissions` → controller → actions, in Strapi's order. */
export type ActionCatalog = Record<string, Record<string, string[]>>;

const upPrefix = 'plugin::users-permissions';

/** Enabled on first boot in Strapi, and always granted here. */
export const defaultRoleActions: Readonly<Record<'public' | 'authenticated', readonly string[]>> = {
  public: ['auth.callback', 'auth.connect', 'auth.forgotPassword', 'auth.resetPassword', 'auth.register', 'auth.emailConfirmation', 'auth.sendEmailConfirmation'].map(
    (a) => `${upPrefix}.${a}`,
  ),
  authenticated: ['user.me', 'auth.changePassword'].map((a) => `${upPrefix}.${a}`),
};

const defaultRoles: Readonly<Record<string, { name: string; description: string }>> = {
  authenticated: { name: 'Authenticated', description: 'Default role given to authenticated user.' },
  public: { name: 'Public', description: 'Default role given to unauthenticated user.' },
};

const collectionActions = ['find', 'findOne', 'create', 'update', 'delete'];
const singleActions = ['find', 'update', 'delete'];

/** Every grantable action: the user's content types (by api, then controller), then the plugins'. */
export function actionCatalog(ir: Schema): ActionCatalog {
  const catalog: ActionCatalog = {};
  const apis = ir.contentTypes.filter((ct) => !ct.plugin).map((ct) => ({ ct, ...splitUid(ct) }));
  apis.sort((a, b) => compare(a.api, b.api) || compare(a.controller, b.controller));
  for (const { ct, api, controller } of apis) {
    const custom = (ir.customActions[ct.uid] ?? []).filter((a) => !collectionActions.includes(a));
    const i18n = ct.localized ? [createLocalizationAction] : [];
    (catalog[api] ??= {})[controller] = [...(ct.kind === 'singleType' ? singleActions : collectionActions), ...i18n, ...custom.filter((a) => !i18n.includes(a))];
  }
  catalog['plugin::upload'] = { 'content-api': [...uploadActions] };
  if (ir.plugins.i18n) catalog['plugin::i18n'] = { locales: ['listLocales'] };
  catalog[upPrefix] = Object.fromEntries(Object.entries(usersPermissionsActions).map(([c, actions]) => [c, [...actions]]));
  return catalog;
}

/** Flat list of `<api>.<controller>.<action>` strings of a catalog. */
export function catalogActions(catalog: ActionCatalog): string[] {
  return Object.entries(catalog).flatMap(([api, controllers]) =>
    Object.entries(controllers).flatMap(([controller, actions]) => actions.map((a) => `${api}.${controller}.${a}`)),
  );
}

export interface RoleDefinition {
  readonly type: string;
  readonly name: string;
  readonly description: string;
  readonly actions: readonly string[];
}

/**
 * The roles of permissions.json (public and authenticated always exist), each with the
 * plugin's default actions added for the two default roles; actions sorted. In the order a new
 * database gets them (their ids): Authenticated (1) and Public (2) first, as Strapi 4.26.2's
 * users-permissions bootstrap creates them, then the others by type (docs/auth.md).
 */
export function roleDefinitions(ir: Schema): RoleDefinition[] {
  const types = new Set(['authenticated', 'public', ...Object.keys(ir.permissions)]);
  const builtIn = (type: string) => (type === 'authenticated' ? 0 : type === 'public' ? 1 : 2);
  return [...types].sort((a, b) => builtIn(a) - builtIn(b) || compare(a, b)).map((type) => {
    const declared = ir.permissions[type] ?? [];
    const defaults = type === 'public' || type === 'authenticated' ? defaultRoleActions[type] : [];
    return {
      type,
      ...roleIdentity(type, ir.roleNames?.[type]),
      actions: [...new Set([...defaults, ...declared])].sort(compare),
    };
  });
}

/**
 * The name and description a role gets in up_roles: those permissions.json gives it, else the
 * built-in ones', else made of its type.
 */
export function roleIdentity(type: string, declared: { readonly name?: string; readonly description?: string } = {}): { name: string; description: string } {
  const made = defaultRoles[type] ?? { name: roleName(type), description: `Role "${type}" declared in permissions.json.` };
  return { name: declared.name ?? made.name, description: declared.description ?? made.description };
}

/** `content-editor` → `Content editor`. */
function roleName(type: string): string {
  const words = type.replace(/[-_]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** `api::blog.article` → api `api::blog`, controller `article`. */
function splitUid(ct: ContentType): { api: string; controller: string } {
  const dot = ct.uid.indexOf('.');
  return { api: ct.uid.slice(0, dot), controller: ct.uid.slice(dot + 1) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
