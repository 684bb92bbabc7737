/**
 * `npm run token -- <command>`: API tokens from the command line, since there is no admin
 * panel. Uses the server's DATABASE_URL and API_TOKEN_SALT (same rules as the server) and
 * applies pending migrations first.
 *
 *   create --name ci --type full-access [--description …] [--lifespan 30] [--actions a,b]
 *   list
 *   revoke <id|name>
 *
 * Exit codes: 0 done, 1 refused (unknown token, name taken, bad action…), 2 wrong usage.
 */
import path from 'node:path';
import { resolveConfig, type UserConfig } from '../config.js';
import { createDatabase, type PrismaLike } from '../db/database.js';
import { applyMigrations } from '../db/migrate.js';
import { createAdapterFactory, providerFromUrl } from '../db/provider.js';
import { ApplicationError } from '../errors.js';
import { ApiTokens, type ApiToken } from './api-tokens.js';
import { Policy, apiTokenTypes, type PolicyTable } from './policy.js';
import { resolveSecrets, StartupError } from './secrets.js';

export interface TokenCliOptions {
  readonly root: string;
  readonly userConfig: UserConfig;
  readonly policy: PolicyTable;
  readonly createPrisma: (adapter: unknown) => PrismaLike;
  readonly stdout?: (text: string) => void;
  readonly stderr?: (text: string) => void;
}

export const tokenUsage = `Usage: npm run token -- <command> [options]

Commands:
  create --name <name> --type <${apiTokenTypes.join('|')}>
         [--description <text>] [--lifespan <days>] [--actions <action>,<action>,…]
                      creates a token and prints it once (only its hash is stored)
  list                lists the tokens (never their keys)
  revoke <id|name>    deletes a token

Options:
  --json              machine-readable output
  -h, --help          this help

Custom tokens take the actions they grant, e.g. --actions api::article.article.find,api::article.article.findOne
Uses DATABASE_URL and API_TOKEN_SALT like the server; applies pending migrations first.`;

class UsageError extends Error {}

interface Parsed {
  readonly command: string | undefined;
  readonly positional: string[];
  readonly flags: Map<string, string[]>;
  readonly json: boolean;
  readonly help: boolean;
}

const valueFlags = new Set(['name', 'type', 'description', 'lifespan', 'actions']);

function parseArgs(argv: readonly string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--json') json = true;
    else if (arg === '-h' || arg === '--help') help = true;
    else if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (!valueFlags.has(name)) throw new UsageError(`unknown option --${name}`);
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else positional.push(arg);
  }
  return { command: positional.shift(), positional, flags, json, help };
}

function one(parsed: Parsed, name: string): string | undefined {
  const values = parsed.flags.get(name);
  if (values && values.length > 1) throw new UsageError(`--${name} given more than once`);
  return values?.[0];
}

export async function runTokenCommand(argv: readonly string[], options: TokenCliOptions): Promise<number> {
  const out = options.stdout ?? ((text: string) => process.stdout.write(`${text}\n`));
  const err = options.stderr ?? ((text: string) => process.stderr.write(`${text}\n`));
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
    if (parsed.help || parsed.command === undefined) {
      (parsed.help ? out : err)(tokenUsage);
      return parsed.help ? 0 : 2;
    }
    if (!['create', 'list', 'revoke'].includes(parsed.command)) throw new UsageError(`unknown command "${parsed.command}"`);
    if (parsed.command === 'revoke' && parsed.positional.length !== 1) throw new UsageError('revoke takes one token id or name');
    if (parsed.command !== 'revoke' && parsed.positional.length) throw new UsageError(`unexpected argument "${parsed.positional[0]}"`);
    if (parsed.command === 'create') {
      if (!one(parsed, 'name')) throw new UsageError('create needs --name');
      if (!one(parsed, 'type')) throw new UsageError(`create needs --type (${apiTokenTypes.join(', ')})`);
    } else if (parsed.flags.size) {
      throw new UsageError(`${parsed.command} takes no --${[...parsed.flags.keys()][0]}`);
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    err(`token: ${e.message}\n\n${tokenUsage}`);
    return 2;
  }

  process.chdir(options.root);
  const config = resolveConfig(options.userConfig);
  let secrets;
  try {
    secrets = resolveSecrets(options.root, process.env, err);
  } catch (e) {
    if (e instanceof StartupError) {
      err(e.message);
      return 1;
    }
    throw e;
  }
  const applied = await applyMigrations({
    databaseUrl: config.databaseUrl,
    migrationsDir: path.join(options.root, 'prisma/migrations'),
    schemaPath: path.join(options.root, 'prisma/schema.prisma'),
  });
  if (applied.length) err(`applied migrations: ${applied.join(', ')}`);
  const prisma = options.createPrisma(await createAdapterFactory(config.databaseUrl));
  try {
    const db = createDatabase(prisma, providerFromUrl(config.databaseUrl));
    const tokens = new ApiTokens(db, secrets.apiTokenSalt, new Policy(options.policy));
    switch (parsed.command) {
      case 'create':
        return await create(tokens, parsed, out);
      case 'list':
        return await list(tokens, parsed.json, out);
      default:
        return await revoke(tokens, parsed.positional[0]!, parsed.json, out, err);
    }
  } catch (e) {
    if (e instanceof ApplicationError) {
      err(`token: ${e.message}`);
      return 1;
    }
    throw e;
  } finally {
    await prisma.$disconnect();
  }
}

async function create(tokens: ApiTokens, parsed: Parsed, out: (text: string) => void): Promise<number> {
  const lifespanText = one(parsed, 'lifespan');
  let lifespanDays: number | null = null;
  if (lifespanText !== undefined && lifespanText !== 'unlimited') {
    if (!/^\d+$/.test(lifespanText)) throw new ApplicationError(`--lifespan is a number of days (or "unlimited"), got "${lifespanText}"`);
    lifespanDays = Number(lifespanText);
  }
  const actions = (parsed.flags.get('actions') ?? []).flatMap((list) => list.split(',')).map((a) => a.trim()).filter(Boolean);
  const description = one(parsed, 'description');
  const { token, accessKey } = await tokens.create({
    name: one(parsed, 'name')!,
    type: one(parsed, 'type')!,
    ...(description !== undefined ? { description } : {}),
    lifespanDays,
    actions,
  });
  if (parsed.json) {
    out(JSON.stringify({ ...view(token), accessKey }));
    return 0;
  }
  out(`Created API token ${token.id} "${token.name}" (${token.type}, ${token.expiresAt ? `expires ${token.expiresAt.toISOString()}` : 'never expires'}).`);
  if (token.type === 'custom') out(`Grants: ${token.permissions.join(', ')}`);
  out('Copy it now: it is not shown again. Send it as `Authorization: Bearer <token>`.');
  out('');
  out(accessKey);
  return 0;
}

async function list(tokens: ApiTokens, json: boolean, out: (text: string) => void): Promise<number> {
  const all = await tokens.list();
  if (json) {
    out(JSON.stringify(all.map(view)));
    return 0;
  }
  if (all.length === 0) {
    out('No API tokens. Create one with: npm run token -- create --name <name> --type <type>');
    return 0;
  }
  const rows = [
    ['id', 'name', 'type', 'expires', 'last used', 'created', 'description'],
    ...all.map((t) => [String(t.id), t.name, t.type === 'custom' ? `custom (${t.permissions.length})` : t.type, date(t.expiresAt, 'never'), date(t.lastUsedAt, '-'), date(t.createdAt, '-'), t.description]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const row of rows) out(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
  return 0;
}

async function revoke(tokens: ApiTokens, idOrName: string, json: boolean, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const token = await tokens.revoke(idOrName);
  if (!token) {
    err(`token: no API token with id or name "${idOrName}"`);
    return 1;
  }
  out(json ? JSON.stringify(view(token)) : `Revoked API token ${token.id} "${token.name}".`);
  return 0;
}

function view(token: ApiToken) {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    type: token.type,
    permissions: token.permissions,
    lifespan: token.lifespan,
    expiresAt: token.expiresAt?.toISOString() ?? null,
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    createdAt: token.createdAt.toISOString(),
  };
}

function date(value: Date | null, none: string): string {
  return value ? value.toISOString().replace('T', ' ').slice(0, 16) : none;
}
