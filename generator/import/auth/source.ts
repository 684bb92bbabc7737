/**
 * What the auth import reads: the rows of Strapi 4.26.2's users-permissions and admin tables,
 * already decoded by the database reader (dates as Date, booleans as boolean, numbers as
 * number or bigint, JSON columns parsed), keyed by Strapi's column names. Absent tables are
 * empty: a project without API tokens simply has none.
 */
export type Row = Readonly<Record<string, unknown>>;

/** Strapi tables this import reads rows of, by name. */
export const authTables = [
  'up_users',
  'up_roles',
  'up_permissions',
  'up_permissions_role_links',
  'up_users_role_links',
  'strapi_api_tokens',
  'strapi_api_token_permissions',
  'strapi_api_token_permissions_token_links',
  'strapi_webhooks',
  'strapi_core_store_settings',
  'strapi_releases',
] as const;

export type AuthTable = (typeof authTables)[number];

export type AuthSource = Partial<Record<AuthTable, readonly Row[]>> & {
  /** Rows of tables only counted, for what has no home here. */
  readonly counts?: { readonly admin_users?: number; readonly strapi_transfer_tokens?: number };
};

/** The tables as the import's reader hands them over: source/types.ts (read whole, normalized). */
export type { StrapiAuthTables } from '../source/types.js';
import type { StrapiAuthTables } from '../source/types.js';

export function fromAuthTables(t: StrapiAuthTables): AuthSource {
  return {
    up_users: t.users,
    up_roles: t.roles,
    up_permissions: t.permissions,
    up_permissions_role_links: t.permissionRoleLinks,
    up_users_role_links: t.userRoleLinks,
    strapi_api_tokens: t.apiTokens,
    strapi_api_token_permissions: t.apiTokenPermissions,
    strapi_api_token_permissions_token_links: t.apiTokenPermissionLinks,
    strapi_webhooks: t.webhooks,
    strapi_core_store_settings: t.coreStore,
    strapi_releases: t.releases,
    counts: { admin_users: t.adminUserCount, strapi_transfer_tokens: t.transferTokenCount },
  };
}

export function rowsOf(source: AuthSource, table: AuthTable): readonly Row[] {
  return source[table] ?? [];
}

export function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}

/** Ids arrive as number or bigint (PostgreSQL bigint columns). */
export function id(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

/** A decoded boolean; 0/1 are accepted too, as a reader that missed a column would leave them. */
export function flag(value: unknown): boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 1n || value === '1' || value === 't' || value === 'true') return true;
  if (value === 0 || value === 0n || value === '0' || value === 'f' || value === 'false') return false;
  return null;
}

export function date(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const d = value instanceof Date ? value : typeof value === 'number' || typeof value === 'bigint' ? new Date(Number(value)) : new Date(String(value));
  return Number.isNaN(d.getTime()) ? null : d;
}

/** A JSON column: parsed already, or text the reader left as it was. */
export function json(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** Strapi's order columns are floats that may be NULL or tied: order by them (NULL first), then by link id. */
export function byOrder(orderColumn: string): (a: Row, b: Row) => number {
  const order = (row: Row) => (row[orderColumn] === null || row[orderColumn] === undefined ? -Infinity : Number(row[orderColumn]));
  return (a, b) => order(a) - order(b) || (id(a.id) ?? 0) - (id(b.id) ?? 0);
}

/**
 * A permissions table's actions grouped by their owner through its link table, in Strapi's
 * order (up_permissions → roles, strapi_api_token_permissions → tokens). Links whose permission
 * or owner does not exist come back as `dangling` (their link ids).
 */
export function actionsByOwner<K>(
  permissions: readonly Row[],
  links: readonly Row[],
  columns: { readonly permission: string; readonly owner: string; readonly order: string },
  ownerOf: (ownerId: number | null) => K | undefined,
): { actions: Map<K, string[]>; dangling: number[] } {
  const actionOf = new Map(permissions.map((p) => [id(p.id), text(p.action)] as const));
  const actions = new Map<K, string[]>();
  const dangling: number[] = [];
  for (const link of [...links].sort(byOrder(columns.order))) {
    const owner = ownerOf(id(link[columns.owner]));
    const action = actionOf.get(id(link[columns.permission]));
    if (owner === undefined || !action) dangling.push(id(link.id) ?? 0);
    else actions.set(owner, [...(actions.get(owner) ?? []), action]);
  }
  return { actions, dangling };
}
