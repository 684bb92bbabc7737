/**
 * The users-permissions plugin's emitted parts: the policy table
 * (src/generated/permissions.ts) and the Prisma models of the two tables that are not
 * content types, API tokens and rate-limit counters.
 */
import { scalarTypes } from '../../ir/scalars.js';
import type { Provider, Schema } from '../../ir/types.js';
import { FileMap } from '../file-map.js';
import type { FieldRow, PrismaModel } from '../prisma/schema.js';
import { render } from '../templates.js';
import { tsLiteral } from '../ts-literal.js';
import { actionCatalog, roleDefinitions } from './catalog.js';

export const permissionsPath = 'src/generated/permissions.ts';

export function emitAuth(ir: Schema): FileMap {
  const policy = { roles: roleDefinitions(ir), actions: actionCatalog(ir) };
  return new FileMap().add(permissionsPath, render('project/permissions.ts.hbs', { policy: tsLiteral(policy) }));
}

/** Tables of the plugin that are not content types; appended to prisma/schema.prisma. */
export function authPrismaModels(ir: Schema): PrismaModel[] {
  const string = native(ir.provider, 'string');
  const datetime = native(ir.provider, 'datetime');
  const row = (name: string, type: string, ...attrs: (string | undefined)[]): FieldRow => [name, type, attrs.filter(Boolean).join(' ')];
  return [
    {
      comment: 'API tokens (created with `npm run token`): the HMAC-SHA512 of each access key, never the key',
      name: 'AdminApiToken',
      table: 'strapi_api_tokens',
      fields: [
        row('id', 'Int', '@id @default(autoincrement())'),
        row('name', 'String', '@unique', string),
        row('description', 'String', '@default("")', string),
        row('type', 'String', string),
        row('accessKey', 'String', '@unique @map("access_key")', string),
        row('permissions', 'Json?'),
        row('lastUsedAt', 'DateTime?', '@map("last_used_at")', datetime),
        row('expiresAt', 'DateTime?', '@map("expires_at")', datetime),
        row('lifespan', 'BigInt?'),
        row('createdAt', 'DateTime', '@map("created_at")', datetime),
        row('updatedAt', 'DateTime', '@map("updated_at")', datetime),
      ],
      blockAttributes: [],
    },
    {
      comment: 'Rate-limit counters of the auth routes, shared by every server process (key: SHA-256 of identifier, path and IP)',
      name: 'UsersPermissionsRateLimit',
      table: 'up_rate_limits',
      fields: [
        row('key', 'String', '@id', ir.provider === 'mysql' ? '@db.VarChar(64)' : undefined),
        row('hits', 'Int'),
        row('resetAt', 'BigInt', '@map("reset_at")'),
      ],
      blockAttributes: ['@@index([resetAt])'],
    },
  ];
}

function native(provider: Provider, type: 'string' | 'datetime'): string | undefined {
  return scalarTypes[type].nativeType?.[provider];
}
