/**
 * The users-permissions, API token and webhook tables, read whole and normalized for
 * generator/import/auth/ (which never touches a database). These tables are small: users are
 * the only one that grows, and a user row is a few hundred bytes.
 */
import { strapi4Layout, type StrapiLayout } from './layout.js';
import type { ColumnTypes, NormalizedRow, StrapiAuthTables, StrapiSource } from './types.js';

const stamps: ColumnTypes = { created_at: 'datetime', updated_at: 'datetime' };

/** Column types of the tables `readAuthTables` reads; columns not named are ids and order numbers. */
export const authTableTypes: Readonly<Record<string, ColumnTypes>> = {
  up_users: { ...stamps, username: 'string', email: 'email', provider: 'string', password: 'password', reset_password_token: 'string', confirmation_token: 'string', confirmed: 'boolean', blocked: 'boolean' },
  up_roles: { ...stamps, name: 'string', description: 'string', type: 'string' },
  up_permissions: { ...stamps, action: 'string' },
  up_permissions_role_links: {},
  up_users_role_links: {},
  strapi_api_tokens: { ...stamps, name: 'string', description: 'string', type: 'string', access_key: 'string', last_used_at: 'datetime', expires_at: 'datetime', lifespan: 'biginteger' },
  strapi_api_token_permissions: { ...stamps, action: 'string' },
  strapi_api_token_permissions_token_links: {},
  strapi_webhooks: { name: 'string', url: 'text', headers: 'json', events: 'json', enabled: 'boolean' },
  strapi_core_store_settings: { key: 'string', value: 'text', type: 'string', environment: 'string', tag: 'string' },
  strapi_releases: { ...stamps, name: 'string', released_at: 'datetime', scheduled_at: 'datetime', timezone: 'string' },
};

/**
 * `layout`: a Strapi 5 database's link tables (`up_users_role_lnk`, `user_ord`…) are read under
 * Strapi 4's names, so generator/import/auth/ reads both alike.
 */
export async function readAuthTables(source: StrapiSource, userTypes: ColumnTypes = {}, layout: StrapiLayout = strapi4Layout): Promise<StrapiAuthTables> {
  const tables = await source.tables();
  const read = async (table: string, types: ColumnTypes = authTableTypes[table] ?? {}): Promise<NormalizedRow[]> => {
    if (!tables.has(table)) return [];
    const rows: NormalizedRow[] = [];
    for await (const batch of source.rows({ table }, types)) rows.push(...batch);
    return rows;
  };
  const readLinks = async (v4Table: string): Promise<NormalizedRow[]> => {
    const rows = await read(layout.linkTable(v4Table), {});
    const v4Column = (column: string) => (column.endsWith('_ord') && layout.orderColumn(`${column.slice(0, -4)}_order`) === column ? `${column.slice(0, -4)}_order` : column);
    return rows.map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [v4Column(column), value])));
  };
  const count = async (table: string) => {
    if (!tables.has(table)) return 0;
    let n = 0;
    for await (const batch of source.select(`SELECT COUNT(*) AS n FROM ${source.quote(table)}`, [], {})) n = Number(batch[0]?.n ?? 0);
    return n;
  };
  return {
    users: await read('up_users', { ...userTypes, ...authTableTypes.up_users }),
    roles: await read('up_roles'),
    permissions: await read('up_permissions'),
    permissionRoleLinks: await readLinks('up_permissions_role_links'),
    userRoleLinks: await readLinks('up_users_role_links'),
    apiTokens: await read('strapi_api_tokens'),
    apiTokenPermissions: await read('strapi_api_token_permissions'),
    apiTokenPermissionLinks: await readLinks('strapi_api_token_permissions_token_links'),
    webhooks: await read('strapi_webhooks'),
    coreStore: await read('strapi_core_store_settings'),
    adminUserCount: await count('admin_users'),
    transferTokenCount: await count('strapi_transfer_tokens'),
    releases: await read('strapi_releases'),
  };
}
