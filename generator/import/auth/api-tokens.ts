/**
 * API tokens. Strapi and contentgen store a token the same way, HMAC-SHA512(access key,
 * salt) in hex, so the rows are copied with their `access_key` and every token keeps working
 * for a server started with API_TOKEN_SALT set to Strapi's `admin.apiToken.salt`. A custom
 * token's actions move from Strapi's permissions table and links into the `permissions` JSON
 * column; the other types keep `[]`.
 */
import { count, listed, type AuthProblem, type TargetRow } from './plan.js';
import { actionsByOwner, date, id, rowsOf, text, type AuthSource } from './source.js';

const tokenTypes = ['read-only', 'full-access', 'custom'];
/** A SHA-512 HMAC in hex. */
const storedHash = /^[0-9a-f]{128}$/;

export interface TokensPlan {
  readonly tokens: TargetRow[];
  readonly report: string[];
  readonly problems: AuthProblem[];
}

export function planApiTokens(source: AuthSource, knownActions: ReadonlySet<string>, now: Date): TokensPlan {
  const report: string[] = [];
  const problems: AuthProblem[] = [];
  const tokens: TargetRow[] = [];
  const actionsOf = tokenActions(source, problems);
  const names = new Set<string>();
  const keys = new Set<string>();
  const refused = { name: [] as number[], type: [] as number[], key: [] as number[] };
  const expired: string[] = [];

  for (const row of [...rowsOf(source, 'strapi_api_tokens')].sort((a, b) => (id(a.id) ?? 0) - (id(b.id) ?? 0))) {
    const tokenId = id(row.id);
    if (tokenId === null) continue;
    const name = text(row.name) ?? '';
    const type = text(row.type) ?? '';
    const accessKey = text(row.access_key) ?? '';
    if (name === '' || names.has(name)) {
      refused.name.push(tokenId);
      continue;
    }
    if (!tokenTypes.includes(type)) {
      refused.type.push(tokenId);
      continue;
    }
    if (!storedHash.test(accessKey) || keys.has(accessKey)) {
      refused.key.push(tokenId);
      continue;
    }
    names.add(name);
    keys.add(accessKey);

    const granted = type === 'custom' ? [...new Set(actionsOf.get(tokenId) ?? [])] : [];
    const unknown = granted.filter((a) => !knownActions.has(a));
    if (unknown.length) report.push(`strapi_api_tokens: token "${name}": ${count(unknown.length, 'action')} contentgen does not serve, left out: ${listed(unknown)}`);
    if (type === 'custom' && granted.length === unknown.length) report.push(`strapi_api_tokens: custom token "${name}" grants nothing here (no action it had is served)`);
    const expiresAt = date(row.expires_at);
    if (expiresAt && expiresAt.getTime() < now.getTime()) expired.push(name);
    const createdAt = date(row.created_at) ?? new Date(0);
    tokens.push({
      id: tokenId,
      name,
      description: text(row.description) ?? '',
      type,
      access_key: accessKey,
      permissions: granted.filter((a) => knownActions.has(a)),
      last_used_at: date(row.last_used_at),
      expires_at: expiresAt,
      lifespan: milliseconds(row.lifespan),
      created_at: createdAt,
      updated_at: date(row.updated_at) ?? createdAt,
    });
  }

  const refuse = (ids: number[], message: string, fix: string) => {
    if (ids.length) problems.push({ table: 'strapi_api_tokens', rows: ids, message: `${count(ids.length, 'token')} ${message}`, fix });
  };
  refuse(refused.name, 'without a name or with a name another token has (contentgen: unique)', 'rename them in Strapi, or skip them and create new ones with `npm run token -- create`');
  refuse(refused.type, `of a type other than ${tokenTypes.join(', ')}`, 'skip them and create new ones with `npm run token -- create`');
  refuse(refused.key, 'whose stored key is not an HMAC-SHA512 hex digest, or is another token\'s', 'skip them and create new ones with `npm run token -- create`');
  if (expired.length) report.push(`strapi_api_tokens: ${count(expired.length, 'token')} had expired already and stay expired: ${listed(expired)}`);
  if (tokens.length) {
    report.push(
      `strapi_api_tokens: ${count(tokens.length, 'token')} keep working only if the server runs with API_TOKEN_SALT set to Strapi's admin.apiToken.salt ` +
        '(config/admin.js, usually the API_TOKEN_SALT of its environment)',
    );
  }
  return { tokens, report, problems };
}

/** Token id → its actions, in Strapi's order (api_token_permission_order). Links to no permission or token are problems. */
function tokenActions(source: AuthSource, problems: AuthProblem[]): Map<number, string[]> {
  const tokenIds = new Set(rowsOf(source, 'strapi_api_tokens').map((t) => id(t.id)));
  const columns = { permission: 'api_token_permission_id', owner: 'api_token_id', order: 'api_token_permission_order' };
  const links = rowsOf(source, 'strapi_api_token_permissions_token_links');
  const { actions, dangling } = actionsByOwner(rowsOf(source, 'strapi_api_token_permissions'), links, columns, (tokenId) => (tokenId !== null && tokenIds.has(tokenId) ? tokenId : undefined));
  if (dangling.length) {
    problems.push({ table: 'strapi_api_token_permissions_token_links', rows: dangling, message: `${count(dangling.length, 'link')} to a token permission or token that does not exist`, fix: 'left out: they granted nothing' });
  }
  return actions;
}

/** `lifespan` is a bigint column in both databases. */
function milliseconds(value: unknown): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  return null;
}
