/**
 * The two secrets of the auth layer: JWT_SECRET signs users' JWTs, API_TOKEN_SALT keys the
 * HMAC that API tokens are stored as. Both come from the environment.
 *
 * In development (NODE_ENV unset, `development` or `test`) a missing secret is generated
 * once and kept in `.dev-secrets.json` in the server's folder (mode 0600, git-ignored), so
 * tokens survive restarts. Anywhere else (`production`, `staging`, …) a missing secret stops
 * the server at start.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, openSync, readFileSync, renameSync, statSync, writeFileSync, closeSync } from 'node:fs';
import path from 'node:path';

export const devSecretsFile = '.dev-secrets.json';

export interface Secrets {
  readonly jwtSecret: string;
  readonly apiTokenSalt: string;
}

/** A problem the operator must fix before the server can start; shown without a stack. */
export class StartupError extends Error {
  override name = 'StartupError';
}

const names = { jwtSecret: 'JWT_SECRET', apiTokenSalt: 'API_TOKEN_SALT' } as const;
const purposes = {
  jwtSecret: 'signs the JWTs of logged-in users',
  apiTokenSalt: 'keys the HMAC under which API tokens are stored',
} as const;

export function isDevelopment(env: NodeJS.ProcessEnv = process.env): boolean {
  const mode = env.NODE_ENV ?? '';
  return mode === '' || mode === 'development' || mode === 'test';
}

export function resolveSecrets(root: string, env: NodeJS.ProcessEnv = process.env, log: (message: string) => void = console.log): Secrets {
  const fromEnv = { jwtSecret: env[names.jwtSecret] ?? '', apiTokenSalt: env[names.apiTokenSalt] ?? '' };
  const missing = (Object.keys(names) as (keyof Secrets)[]).filter((key) => fromEnv[key] === '');
  if (missing.length === 0) return fromEnv;

  if (!isDevelopment(env)) {
    throw new StartupError(
      [
        `Refusing to start: ${missing.map((k) => names[k]).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set (NODE_ENV=${env.NODE_ENV}).`,
        ...missing.map((k) => `  ${names[k]} ${purposes[k]}.`),
        'Set each to a long random value in the environment, for example the output of',
        `  node -e "console.log(require('node:crypto').randomBytes(32).toString('base64'))"`,
        'and keep it: changing JWT_SECRET logs every user out, changing API_TOKEN_SALT invalidates every API token.',
      ].join('\n'),
    );
  }

  const stored = readDevSecrets(root, missing, log);
  return { jwtSecret: fromEnv.jwtSecret || stored.jwtSecret, apiTokenSalt: fromEnv.apiTokenSalt || stored.apiTokenSalt };
}

/** Reads `.dev-secrets.json`, creating it (or adding missing keys) with fresh random values. */
function readDevSecrets(root: string, needed: readonly (keyof Secrets)[], log: (message: string) => void): Secrets {
  const file = path.join(root, devSecretsFile);
  const generate = () => randomBytes(32).toString('base64');
  const fresh = { jwtSecret: generate(), apiTokenSalt: generate() };
  try {
    // O_EXCL: when two processes start at once, exactly one creates the file.
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeFileSync(fd, `${JSON.stringify({ [names.jwtSecret]: fresh.jwtSecret, [names.apiTokenSalt]: fresh.apiTokenSalt }, null, 2)}\n`);
    } finally {
      closeSync(fd);
    }
    log(`development secrets generated in ${devSecretsFile} (set ${needed.map((k) => names[k]).join(' and ')} in the environment in production)`);
    return fresh;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  restrictMode(file);
  const json = readJson(file);
  const stored = { jwtSecret: stringOr(json[names.jwtSecret]), apiTokenSalt: stringOr(json[names.apiTokenSalt]) };
  if (stored.jwtSecret && stored.apiTokenSalt) return stored;
  const completed = { jwtSecret: stored.jwtSecret || fresh.jwtSecret, apiTokenSalt: stored.apiTokenSalt || fresh.apiTokenSalt };
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ ...json, [names.jwtSecret]: completed.jwtSecret, [names.apiTokenSalt]: completed.apiTokenSalt }, null, 2)}\n`, { mode: 0o600 });
  renameSync(temp, file);
  return completed;
}

function readJson(file: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new StartupError(`${file} is not a JSON object of secrets; delete it to generate new development secrets.`);
}

/** The file holds secrets: only its owner may read it. */
function restrictMode(file: string): void {
  try {
    if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  } catch {
    // not ours to change (another user's file): reading it still works or fails clearly
  }
}

function stringOr(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
