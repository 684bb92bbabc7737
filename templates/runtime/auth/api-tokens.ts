/**
 * API tokens, as Strapi's admin stores them: the access key (128 random bytes, 256 hex
 * characters) is shown once at creation; the database keeps only HMAC-SHA512(accessKey,
 * API_TOKEN_SALT) in hex. Types: read-only (find/findOne routes), full-access, custom (a list
 * of actions). Optional lifespan; `lastUsedAt` is refreshed at most hourly.
 *
 * Stored in `strapi_api_tokens` through the Prisma model AdminApiToken.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { SqlBuilder } from '../query/sql.js';
import { ApplicationError } from '../errors.js';
import { apiTokenTypes, type ApiTokenType, type Policy } from './policy.js';

export interface ApiToken {
  readonly id: number;
  readonly name: string;
  readonly description: string;
  readonly type: ApiTokenType;
  /** Custom tokens: the granted actions. Empty for the other types. */
  readonly permissions: readonly string[];
  readonly lifespan: number | null;
  readonly expiresAt: Date | null;
  readonly lastUsedAt: Date | null;
  readonly createdAt: Date;
}

export interface CreateApiToken {
  readonly name: string;
  readonly description?: string;
  readonly type: string;
  /** Days until expiry; absent or null: never expires. */
  readonly lifespanDays?: number | null;
  /** Custom tokens only. */
  readonly actions?: readonly string[];
}

const accessKeyPattern = /^[0-9a-f]{256}$/;
const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
const delegate = 'adminApiToken';

export class ApiTokens {
  readonly #salt: string;
  /**
   * Access key → its HMAC and the token last read for it: the same few keys come with every
   * request, an HMAC-SHA512 costs more than the SELECT, and the row rarely changes.
   */
  readonly #keys = new Map<string, KnownKey>();
  /** The lookup statement never changes: built once (and so prepared once by the read executor). */
  readonly #findSql: string;

  constructor(
    private readonly db: Database,
    salt: string,
    private readonly policy: Policy,
  ) {
    this.#salt = salt;
    this.#findSql = findByAccessKeySql(db.dialect);
  }

  /** Whether a bearer value can be an access key at all (JWTs cannot). */
  static looksLikeAccessKey(value: string): boolean {
    return accessKeyPattern.test(value);
  }

  hash(accessKey: string): string {
    return createHmac('sha512', this.#salt).update(accessKey).digest('hex');
  }

  /** Runs on every token-authenticated request: one indexed SELECT through the read path. */
  async findByAccessKey(accessKey: string): Promise<ApiToken | null> {
    const known = this.#known(accessKey);
    const [row] = await this.db.query(this.#findSql, [known.hash]);
    if (!row) return null;
    if (known.last && sameValues(known.last.row, row)) return copyToken(known.last.token);
    const token = toToken(row);
    known.last = { row, token: copyToken(token) };
    return token;
  }

  #known(accessKey: string): KnownKey {
    let known = this.#keys.get(accessKey);
    if (known === undefined) {
      known = { hash: this.hash(accessKey) };
      // Bounded: a client sending random keys only ever evicts the oldest.
      if (this.#keys.size >= knownKeys) this.#keys.delete(this.#keys.keys().next().value!);
      this.#keys.set(accessKey, known);
    }
    return known;
  }

  /**
   * Sets lastUsedAt unless it was set less than an hour ago (one conditional UPDATE, in SQL:
   * the first request of a token must not load Prisma's query compiler).
   */
  async touch(token: ApiToken, now: Date = new Date()): Promise<void> {
    if (token.lastUsedAt && now.getTime() - token.lastUsedAt.getTime() < hourMs) return;
    const sql = new SqlBuilder(this.db.dialect);
    const lastUsedAt = sql.ident('last_used_at');
    const compiled = sql.finish(
      `UPDATE ${sql.ident(tokenTable)} SET ${lastUsedAt} = ${sql.param(now)} WHERE ${sql.ident('id')} = ${sql.param(token.id)} ` +
        `AND (${lastUsedAt} IS NULL OR ${lastUsedAt} <= ${sql.param(new Date(now.getTime() - hourMs))})`,
    );
    await this.db.execute(compiled.sql, compiled.params);
  }

  /** Creates a token; the access key is returned here and never again. */
  async create(input: CreateApiToken, now: Date = new Date()): Promise<{ token: ApiToken; accessKey: string }> {
    const name = input.name.trim();
    if (name === '' || name.length > 100) throw new ApplicationError('The name must be 1 to 100 characters long');
    if (!(apiTokenTypes as readonly string[]).includes(input.type)) {
      throw new ApplicationError(`Unknown token type "${input.type}": one of ${apiTokenTypes.join(', ')}`);
    }
    const type = input.type as ApiTokenType;
    const actions = [...new Set(input.actions ?? [])];
    if (type === 'custom') {
      const unknown = this.policy.unknownActions(actions);
      if (unknown.length) throw new ApplicationError(`Unknown permissions provided: ${unknown.join(', ')}`);
      if (actions.length === 0) throw new ApplicationError('A custom token needs at least one action');
    } else if (actions.length) {
      throw new ApplicationError(`Only custom tokens take a list of actions; a ${type} token grants ${type === 'read-only' ? 'find and findOne' : 'every action'}`);
    }
    const days = input.lifespanDays ?? null;
    if (days !== null && !(Number.isInteger(days) && days > 0 && days <= 36500)) throw new ApplicationError('The lifespan must be a whole number of days (1 to 36500)');
    const lifespan = days === null ? null : days * dayMs;

    const existing = await this.db.prisma[delegate].findUnique({ where: { name }, select: { id: true } });
    if (existing) throw new ApplicationError('Name already taken');
    const accessKey = randomBytes(128).toString('hex');
    const row = await this.db.prisma[delegate].create({
      data: {
        name,
        description: input.description ?? '',
        type,
        accessKey: this.hash(accessKey),
        permissions: type === 'custom' ? actions : [],
        lifespan: lifespan === null ? null : BigInt(lifespan),
        expiresAt: lifespan === null ? null : new Date(now.getTime() + lifespan),
        createdAt: now,
        updatedAt: now,
      },
    });
    return { token: toToken(row), accessKey };
  }

  async list(): Promise<ApiToken[]> {
    const rows: unknown[] = await this.db.prisma[delegate].findMany({ orderBy: { id: 'asc' } });
    return rows.map(toToken);
  }

  /** Deletes the token with this id (digits) or name; returns it, or null when there is none. */
  async revoke(idOrName: string): Promise<ApiToken | null> {
    const byId = /^\d{1,15}$/.test(idOrName) ? await this.db.prisma[delegate].findUnique({ where: { id: Number(idOrName) } }) : null;
    const row = byId ?? (await this.db.prisma[delegate].findUnique({ where: { name: idOrName } }));
    if (!row) return null;
    await this.db.prisma[delegate].delete({ where: { id: row.id } });
    return toToken(row);
  }
}

export function isExpired(token: ApiToken, now: Date = new Date()): boolean {
  return token.expiresAt !== null && token.expiresAt.getTime() < now.getTime();
}

/** The table of AdminApiToken (generator/emit/auth/auth.ts). */
const tokenTable = 'strapi_api_tokens';

/** Access keys whose HMAC is kept (a few tokens are in use at a time). */
const knownKeys = 256;

interface KnownKey {
  readonly hash: string;
  /** The row last read for this key and a private copy of the token made of it (dates parse slowly). */
  last?: { readonly row: Record<string, unknown>; readonly token: ApiToken };
}

/** Whether two rows hold the same primitive values (an object value, such as a Date, never matches). */
function sameValues(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  for (const key in b) {
    const value = b[key];
    if (value !== a[key] || (typeof value === 'object' && value !== null)) return false;
  }
  return true;
}

function findByAccessKeySql(dialect: Database['dialect']): string {
  const sql = new SqlBuilder(dialect);
  const column = (name: string, alias: string) => `${sql.ident(name)} AS ${sql.ident(alias)}`;
  const columns = [
    column('id', 'id'),
    column('name', 'name'),
    column('description', 'description'),
    column('type', 'type'),
    column('permissions', 'permissions'),
    column('lifespan', 'lifespan'),
    column('expires_at', 'expiresAt'),
    column('last_used_at', 'lastUsedAt'),
    column('created_at', 'createdAt'),
  ];
  return `SELECT ${columns.join(', ')} FROM ${sql.ident(tokenTable)} WHERE ${sql.ident('access_key')} = ${sql.param('')}`;
}

function toToken(raw: unknown): ApiToken {
  const row = raw as Record<string, unknown>;
  // JSON arrives parsed from Prisma, as text from the SQLite read path.
  const stored = typeof row.permissions === 'string' ? (JSON.parse(row.permissions) as unknown) : row.permissions;
  const permissions = Array.isArray(stored) ? stored.filter((p): p is string => typeof p === 'string') : [];
  return {
    id: Number(row.id),
    name: String(row.name),
    description: typeof row.description === 'string' ? row.description : '',
    type: row.type as ApiTokenType,
    permissions,
    lifespan: row.lifespan === null || row.lifespan === undefined ? null : Number(row.lifespan),
    expiresAt: toDate(row.expiresAt),
    lastUsedAt: toDate(row.lastUsedAt),
    createdAt: toDate(row.createdAt) ?? new Date(0),
  };
}

/** Each request gets its own token: callers may change what they are given. */
function copyToken(token: ApiToken): ApiToken {
  const date = (value: Date | null) => (value === null ? null : new Date(value.getTime()));
  return { ...token, permissions: [...token.permissions], expiresAt: date(token.expiresAt), lastUsedAt: date(token.lastUsedAt), createdAt: date(token.createdAt)! };
}

function toDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(String(value));
  return Number.isNaN(date.getTime()) ? null : date;
}
