/**
 * A Strapi project's evaluated config (load/project-config.ts) mapped onto the server's
 * src/config.ts: what the first build seeds it with, the record of it a build leaves in
 * `.contentgen/project-config.json`, and what a later build says when the project's config
 * changed (src/config.ts is the user's: it is not changed).
 *
 * Values the project reads from the environment stay environment reads (`env('NAME',
 * default)` of runtime/env.ts). Secrets never land in a file: a variable named like a secret
 * (…SECRET…, …KEY…, …SALT…, …PASSWORD…, …TOKEN…) is read without its default, and a literal
 * under a secret-looking key is left out with a warning.
 */
import type { EnvSource, ProjectConfig, ProjectConfigFile } from '../../load/project-config.js';
import { isPlainObject, sourceKey } from '../../load/project-config.js';
import { quote, tsLiteral, type LiteralStyle } from '../ts-literal.js';

export const projectConfigRecordPath = '.contentgen/project-config.json';

const secretName = /SECRET|KEY|SALT|PASSWORD|TOKEN/i;

/** A value of the seeded config that is read from the environment. */
class EnvRead {
  constructor(readonly source: EnvSource) {}
}

interface Seeded {
  /** Where in src/config.ts (`['api', 'rest', 'maxLimit']`). */
  readonly target: readonly string[];
  /** For messages and the record: `config/api.js rest.maxLimit`. */
  readonly label: string;
  /** A literal, or an EnvRead, or a tree of them. */
  readonly value: unknown;
}

export interface ConfigSeed {
  /** The values seeded, in src/config.ts's order. */
  readonly entries: readonly Seeded[];
  /** What the project sets that is not seeded (not served, or a literal secret). */
  readonly warnings: readonly string[];
  /** `.contentgen/project-config.json`'s values: by label, the value or `{ env, default }`. */
  readonly record: Readonly<Record<string, unknown>>;
}

/** Settings of src/config.ts that are numbers. */
const numericTargets = new Set(['port', 'api.rest.defaultLimit', 'api.rest.maxLimit', 'plugins.graphql.depthLimit', 'plugins.graphql.defaultLimit', 'plugins.graphql.maxLimit']);

/** The keys of Strapi's `upload.config` the server reads (runtime/upload/config.ts); Strapi ignores others. */
const uploadConfigKeys = new Set([
  'provider', 'providerOptions', 'actionOptions', 'sizeLimit', 'maxFiles', 'maxFields', 'fieldSizeLimit', 'breakpoints',
  'responsiveDimensions', 'sizeOptimization', 'autoOrientation', 'maxImagePixels', 'imageConcurrency', 'tmpDir', 'maxAge',
]);

const knownMiddlewares = new Set([
  'strapi::errors', 'strapi::security', 'strapi::cors', 'strapi::poweredBy', 'strapi::query', 'strapi::body',
  'strapi::session', 'strapi::favicon', 'strapi::public', 'strapi::logger',
]);

/**
 * Strapi's aws-s3 provider still takes the layouts before 4.15 (accessKeyId, region, params…
 * beside s3Options; accessKeyId and secretAccessKey in s3Options rather than its credentials)
 * and moves them itself; src/config.ts gets the 4.15 layout our provider reads, with the same
 * precedence (keys at the root over s3Options').
 */
function s3OptionsLayout(uploadConfig: unknown): unknown {
  if (!isPlainObject(uploadConfig) || !isPlainObject(uploadConfig.providerOptions)) return uploadConfig;
  const { baseUrl, rootPath, s3Options, accessKeyId, secretAccessKey, ...legacy } = uploadConfig.providerOptions;
  const { accessKeyId: innerKeyId, secretAccessKey: innerSecret, ...s3 } = isPlainObject(s3Options) ? s3Options : {};
  const keys = Object.fromEntries(Object.entries({ accessKeyId: accessKeyId ?? innerKeyId, secretAccessKey: secretAccessKey ?? innerSecret }).filter(([, v]) => v !== undefined));
  if (Object.keys(keys).length === 0 && Object.keys(legacy).length === 0) return uploadConfig;
  const credentials = Object.keys(keys).length ? { credentials: { ...(isPlainObject(s3.credentials) ? s3.credentials : {}), ...keys } } : {};
  const root = Object.fromEntries(Object.entries({ baseUrl, rootPath }).filter(([, v]) => v !== undefined));
  return { ...uploadConfig, providerOptions: { ...root, s3Options: { ...s3, ...legacy, ...credentials } } };
}

export function seedProjectConfig(config: ProjectConfig): ConfigSeed {
  const entries: Seeded[] = [];
  const warnings: string[] = [];
  const file = (name: ProjectConfigFile) => config.fileNames[name];

  /** The value at `keys` of `name`, with its environment reads, or undefined when absent or left out. */
  const pick = (name: ProjectConfigFile, keys: readonly (string | number)[], root: unknown): unknown => {
    const label = `${file(name)} ${keys.join('.')}`;
    const walk = (value: unknown, at: (string | number)[]): unknown => {
      const key = sourceKey(name, at);
      const source = config.sources[key];
      if (source) return new EnvRead(source);
      const derived = config.derived[key];
      const last = String(at[at.length - 1] ?? '');
      if (derived && derived.some((n) => secretName.test(n))) {
        warnings.push(`${file(name)} ${at.join('.')} is computed from ${derived.join(', ')}: a secret is not copied into src/config.ts; set it there from the environment`);
        return undefined;
      }
      if (Array.isArray(value)) return value.map((v, i) => walk(v, [...at, i])).filter((v) => v !== undefined);
      if (isPlainObject(value)) {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) {
          const walked = walk(v, [...at, k]);
          if (walked !== undefined) out[k] = walked;
        }
        return out;
      }
      if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') {
        warnings.push(`${file(name)} ${at.join('.')} is a ${typeof value}: not copied into src/config.ts`);
        return undefined;
      }
      if (value !== undefined && value !== null && secretName.test(last) && typeof value !== 'boolean' && typeof value !== 'number') {
        warnings.push(`${file(name)} ${at.join('.')} is a secret written in the file: not copied into src/config.ts; set it there from the environment`);
        return undefined;
      }
      if (derived) warnings.push(`${file(name)} ${at.join('.')} is computed from ${derived.join(', ')}: src/config.ts gets its value today (${JSON.stringify(value)})`);
      return value;
    };
    void label;
    return walk(root, [...keys]);
  };
  const add = (target: readonly string[], name: ProjectConfigFile, keys: readonly (string | number)[], root: unknown) => {
    if (root === undefined) return;
    let value = pick(name, keys, root);
    // `env('MAX_LIMIT', 100)` gives Strapi a string when the variable is set, which it takes as
    // a number; the server's config is typed, so a number setting reads it with env.int.
    if (value instanceof EnvRead && value.source.kind === 'string' && numericTargets.has(target.join('.'))) value = new EnvRead({ ...value.source, kind: 'int' });
    if (value !== undefined) entries.push({ target, label: `${file(name)} ${keys.join('.')}`, value });
  };
  const ignored = (name: ProjectConfigFile, keys: readonly string[], what = 'is not read by contentgen') => warnings.push(`${file(name)} ${keys.join('.')} ${what}`);

  // config/server.js
  const server = config.server;
  for (const key of ['host', 'port', 'url'] as const) add([key], 'server', [key], server[key]);
  for (const key of Object.keys(server)) if (!['host', 'port', 'url', 'app'].includes(key)) ignored('server', [key]);

  // config/api.js
  const rest = isPlainObject(config.api.rest) ? config.api.rest : {};
  for (const key of ['prefix', 'defaultLimit', 'maxLimit', 'withCount'] as const) add(['api', 'rest', key], 'api', ['rest', key], rest[key]);
  for (const key of Object.keys(rest)) if (!['prefix', 'defaultLimit', 'maxLimit', 'withCount'].includes(key)) ignored('api', ['rest', key]);
  for (const key of Object.keys(config.api)) if (key !== 'rest') ignored('api', [key]);

  // config/middlewares.js
  if (config.middlewares) {
    const kept: unknown[] = [];
    config.middlewares.forEach((entry, i) => {
      const name = typeof entry === 'string' ? entry : isPlainObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
      if (name === undefined || !knownMiddlewares.has(name)) {
        warnings.push(`${file('middlewares')} [${i}] ${name ?? JSON.stringify(entry)} is not copied into src/config.ts: ${name?.startsWith('strapi::') ? 'contentgen has no such built-in middleware' : 'write it in src/middlewares/ and add it to middlewares in src/config.ts'}`);
        return;
      }
      const value = pick('middlewares', [i], entry);
      if (value !== undefined) kept.push(value);
    });
    entries.push({ target: ['middlewares'], label: `${file('middlewares')}`, value: kept });
  }

  // config/plugins.js
  const plugin = (name: string): Record<string, unknown> => {
    const entry = config.plugins[name];
    return isPlainObject(entry) && isPlainObject(entry.config) ? entry.config : {};
  };
  const up = plugin('users-permissions');
  const jwt = isPlainObject(up.jwt) ? up.jwt : {};
  add(['plugins', 'users-permissions', 'jwt', 'expiresIn'], 'plugins', ['users-permissions', 'config', 'jwt', 'expiresIn'], jwt.expiresIn);
  for (const key of Object.keys(jwt)) if (key !== 'expiresIn') ignored('plugins', ['users-permissions', 'config', 'jwt', key]);
  const ratelimit = isPlainObject(up.ratelimit) ? up.ratelimit : {};
  for (const key of ['enabled', 'interval', 'max'] as const) add(['plugins', 'users-permissions', 'ratelimit', key], 'plugins', ['users-permissions', 'config', 'ratelimit', key], ratelimit[key]);
  for (const key of Object.keys(ratelimit)) if (!['enabled', 'interval', 'max'].includes(key)) ignored('plugins', ['users-permissions', 'config', 'ratelimit', key]);
  if (isPlainObject(up.register)) add(['plugins', 'users-permissions', 'register', 'allowedFields'], 'plugins', ['users-permissions', 'config', 'register', 'allowedFields'], up.register.allowedFields);
  const jwtSecret = config.sources[sourceKey('plugins', ['users-permissions', 'config', 'jwtSecret'])];
  if (up.jwtSecret !== undefined && jwtSecret?.name !== 'JWT_SECRET') {
    warnings.push(`${file('plugins')} users-permissions.config.jwtSecret: the server reads its JWT secret from JWT_SECRET${jwtSecret ? `, not ${jwtSecret.name}` : ''} (never from a file)`);
  }
  for (const key of Object.keys(up)) if (!['jwt', 'ratelimit', 'register', 'jwtSecret'].includes(key)) ignored('plugins', ['users-permissions', 'config', key]);

  const graphql = plugin('graphql');
  for (const key of ['endpoint', 'shadowCRUD', 'playgroundAlways', 'depthLimit', 'defaultLimit', 'maxLimit'] as const) {
    add(['plugins', 'graphql', key], 'plugins', ['graphql', 'config', key], graphql[key]);
  }
  if (graphql.amountLimit !== undefined && graphql.maxLimit === undefined) add(['plugins', 'graphql', 'maxLimit'], 'plugins', ['graphql', 'config', 'amountLimit'], graphql.amountLimit);
  const apollo = isPlainObject(graphql.apolloServer) ? graphql.apolloServer : {};
  if (apollo.introspection === true && graphql.playgroundAlways === undefined) {
    add(['plugins', 'graphql', 'playgroundAlways'], 'plugins', ['graphql', 'config', 'apolloServer', 'introspection'], apollo.introspection);
    warnings.push(`${file('plugins')} graphql.config.apolloServer.introspection: true is seeded as playgroundAlways: true (introspection and the playground in production too)`);
  } else if (apollo.introspection !== undefined && apollo.introspection !== true) {
    ignored('plugins', ['graphql', 'config', 'apolloServer', 'introspection'], `is ${JSON.stringify(apollo.introspection)}: the server allows introspection outside production, and in production with playgroundAlways`);
  }
  for (const key of Object.keys(apollo)) if (key !== 'introspection') ignored('plugins', ['graphql', 'config', 'apolloServer', key]);
  for (const key of Object.keys(graphql)) if (!['endpoint', 'shadowCRUD', 'playgroundAlways', 'depthLimit', 'defaultLimit', 'maxLimit', 'amountLimit', 'apolloServer'].includes(key)) ignored('plugins', ['graphql', 'config', key]);

  const upload = Object.fromEntries(Object.entries(plugin('upload')).filter(([key]) => {
    if (!uploadConfigKeys.has(key)) ignored('plugins', ['upload', 'config', key]);
    return uploadConfigKeys.has(key);
  }));
  if (Object.keys(upload).length) {
    const provider = upload.provider ?? 'local';
    if (provider === 'local' || provider === 'aws-s3') {
      add(['plugins', 'upload', 'config'], 'plugins', ['upload', 'config'], provider === 'local' ? localUploadConfig(upload, (key) => ignored('plugins', ['upload', 'config', 'providerOptions', key], 'is not an option of the local provider (sizeLimit, localServer)')) : upload);
      const last = entries[entries.length - 1];
      if (provider === 'aws-s3' && last?.target.join('.') === 'plugins.upload.config') entries[entries.length - 1] = { ...last, value: s3OptionsLayout(last.value) };
    } else {
      warnings.push(`${file('plugins')} upload.config.provider ${JSON.stringify(provider)} is not served by contentgen (local and aws-s3 are): files are stored in public/uploads/ (its providerOptions are not copied)`);
      const { provider: _p, providerOptions: _o, ...rest } = upload;
      for (const key of Object.keys(rest)) add(['plugins', 'upload', 'config', key], 'plugins', ['upload', 'config', key], rest[key]);
    }
  }

  const record: Record<string, unknown> = {};
  // `config/middlewares.js 3.config.origin`: the file, a space, the keys.
  const child = (label: string, key: string | number) => (label.includes(' ') ? `${label}.${key}` : `${label} ${key}`);
  const recordLeaves = (label: string, value: unknown) => {
    if (value instanceof EnvRead) {
      const secret = secretName.test(value.source.name);
      record[label] = { env: value.source.name, ...(value.source.default !== undefined && !secret ? { default: value.source.default } : {}) };
    } else if (Array.isArray(value)) value.forEach((v, i) => recordLeaves(child(label, i), v));
    else if (isPlainObject(value) && Object.keys(value).length) for (const [k, v] of Object.entries(value)) recordLeaves(child(label, k), v);
    else record[label] = value instanceof Date ? value.toISOString() : value;
  };
  for (const entry of entries) recordLeaves(entry.label, entry.value);
  return { entries, warnings, record };
}

/**
 * `upload.config` of the local provider with only the providerOptions it reads (sizeLimit,
 * localServer): Strapi merges config/env/<env>/plugins.js into config/plugins.js, so a local
 * provider for development can keep another provider's options, which it ignores.
 */
function localUploadConfig(upload: Record<string, unknown>, dropped: (key: string) => void): Record<string, unknown> {
  if (!isPlainObject(upload.providerOptions)) return upload;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(upload.providerOptions)) {
    if (key === 'sizeLimit' || key === 'localServer') kept[key] = value;
    else dropped(key);
  }
  const { providerOptions: _o, ...rest } = upload;
  return Object.keys(kept).length ? { ...rest, providerOptions: kept } : rest;
}

/** The record's text (`.contentgen/project-config.json`). */
export function projectConfigRecordText(config: ProjectConfig, seed: ConfigSeed): string {
  return `${JSON.stringify({ version: 1, environment: config.environment, files: config.files, values: seed.record }, null, 2)}\n`;
}

/** Warnings for what changed in the project's config since the record a build left. */
export function projectConfigChanges(previousText: string | undefined, seed: ConfigSeed): string[] {
  if (previousText === undefined) return [];
  let previous: Record<string, unknown>;
  try {
    previous = (JSON.parse(previousText) as { values?: Record<string, unknown> }).values ?? {};
  } catch {
    return [];
  }
  const show = (v: unknown) => (v === undefined ? '(unset)' : isPlainObject(v) && typeof v.env === 'string' ? `env(${JSON.stringify(v.env)}${v.default !== undefined ? `, ${JSON.stringify(v.default)}` : ''})` : JSON.stringify(v));
  const warnings: string[] = [];
  for (const label of [...new Set([...Object.keys(previous), ...Object.keys(seed.record)])].sort()) {
    const before = previous[label];
    const after = seed.record[label];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    warnings.push(`${label} changed ${show(before)} → ${show(after)}: src/config.ts is yours, not changed`);
  }
  return warnings;
}

// ---------------------------------------------------------------------------------------
// src/config.ts text

/** The seeded values as src/config.ts's template places them: TypeScript text by slot. */
export function seedView(seed: ConfigSeed | undefined): Record<string, string | boolean> {
  const at = (target: string): unknown => seed?.entries.filter((e) => e.target.join('.') === target).at(-1)?.value;
  const slot = (target: string, fallback: string, indent: string) => {
    const value = at(target);
    return value === undefined ? fallback : tsValue(value, indent);
  };
  const ratelimit = ['enabled', 'interval', 'max'].map((k) => [k, at(`plugins.users-permissions.ratelimit.${k}`)] as const);
  const top = ['host', 'port', 'url'].filter((k) => at(k) !== undefined).map((k) => `  ${k}: ${tsValue(at(k), '  ')},\n`).join('');
  const middlewares = at('middlewares');
  const allowedFields = at('plugins.users-permissions.register.allowedFields');
  const upload = at('plugins.upload.config') ?? (seed?.entries.some((e) => e.target.join('.').startsWith('plugins.upload.config.')) ? Object.fromEntries(seed.entries.filter((e) => e.target.join('.').startsWith('plugins.upload.config.')).map((e) => [e.target[3]!, e.value])) : undefined);
  const usesEnv = seed?.entries.some((e) => containsEnv(e.value)) ?? false;
  return {
    seeded: seed !== undefined,
    usesEnv,
    top: top + (middlewares !== undefined ? `  // Strapi's config/middlewares.js, as the project had it.\n  middlewares: ${tsValue(middlewares, '  ')},\n` : ''),
    restPrefix: slot('api.rest.prefix', "'/api'", '      '),
    restDefaultLimit: slot('api.rest.defaultLimit', '25', '      '),
    restMaxLimit: slot('api.rest.maxLimit', '100', '      '),
    restWithCount: slot('api.rest.withCount', 'true', '      '),
    jwtExpiresIn: slot('plugins.users-permissions.jwt.expiresIn', "'30d'", '      '),
    ratelimit: ratelimit.some(([, v]) => v !== undefined)
      ? `{ ${ratelimit.map(([k, v]) => `${k}: ${v === undefined ? { enabled: 'true', interval: '60_000', max: '10' }[k] : tsValue(v, '      ')}`).join(', ')} }`
      : '{ enabled: true, interval: 60_000, max: 10 }',
    register: allowedFields !== undefined ? `      register: { allowedFields: ${tsValue(allowedFields, '      ')} },\n` : '',
    graphqlEndpoint: slot('plugins.graphql.endpoint', "'/graphql'", '      '),
    graphqlShadowCRUD: slot('plugins.graphql.shadowCRUD', 'true', '      '),
    graphqlPlaygroundAlways: slot('plugins.graphql.playgroundAlways', 'false', '      '),
    graphqlDepthLimit: slot('plugins.graphql.depthLimit', '10', '      '),
    graphqlDefaultLimit: slot('plugins.graphql.defaultLimit', '25', '      '),
    graphqlMaxLimit: slot('plugins.graphql.maxLimit', '100', '      '),
    upload: upload !== undefined ? `    // Strapi's upload plugin config, as the project had it.\n    upload: { config: ${tsValue(upload, '    ')} },\n` : '',
  };
}

/** The variables the seeded config reads, sorted, with their defaults (none for a secret), for .env.example. */
export function seedEnvVariables(seed: ConfigSeed | undefined): { name: string; example: string }[] {
  const found = new Map<string, string>();
  const walk = (value: unknown): void => {
    if (value instanceof EnvRead) {
      const { name, default: fallback } = value.source;
      const example = secretName.test(name) || fallback === undefined ? '' : Array.isArray(fallback) ? fallback.join(',') : typeof fallback === 'object' && fallback !== null ? JSON.stringify(fallback) : String(fallback);
      if (!found.has(name)) found.set(name, example);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isPlainObject(value)) Object.values(value).forEach(walk);
  };
  for (const entry of seed?.entries ?? []) walk(entry.value);
  return [...found].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, example]) => ({ name, example }));
}

function containsEnv(value: unknown): boolean {
  if (value instanceof EnvRead) return true;
  if (Array.isArray(value)) return value.some(containsEnv);
  if (isPlainObject(value)) return Object.values(value).some(containsEnv);
  return false;
}

/**
 * How src/config.ts prints seeded values: env() reads and dates as calls, anything but plain
 * data as undefined, a list or object on one line while the line stays under 100 characters.
 */
const configStyle: LiteralStyle = {
  oneLine: (flat, indent) => flat.length + indent.length < 100,
  keepUndefined: true,
  special(value) {
    if (value instanceof EnvRead) return envCall(value.source);
    if (value instanceof Date) return `new Date(${JSON.stringify(value.toISOString())})`;
    const data = value === null || ['string', 'number', 'boolean'].includes(typeof value) || Array.isArray(value) || isPlainObject(value);
    return data ? undefined : 'undefined';
  },
};

/** TypeScript source of a seeded value (`indent`: the indentation of the line it starts on). */
export function tsValue(value: unknown, indent: string): string {
  return tsLiteral(value, indent, configStyle);
}

function envCall(source: EnvSource): string {
  const fn = source.kind === 'string' ? 'env' : `env.${source.kind}`;
  const secret = secretName.test(source.name);
  const args = [quote(source.name)];
  if (source.kind === 'oneOf') args.push(tsValue(source.oneOf ?? [], ''));
  if (source.default !== undefined && !secret) args.push(tsValue(source.default, ''));
  return `${fn}(${args.join(', ')})`;
}
