/**
 * A Strapi v4 project's config/ folder, evaluated as Strapi evaluates it: each of
 * `config/{api,plugins,middlewares,server}.{js,ts}` exports an object or a function of
 * `{ env }`; `.env` at the project root fills the environment (variables already set win);
 * `config/env/<NODE_ENV>/<file>` merges over the base (NODE_ENV default `development`).
 *
 * `env` records which values came from which variable: each variable read is evaluated again
 * with a probe value, and the config values that then equal the probe are that variable's
 * (`sources`). The seeded src/config.ts keeps them environment reads (project-config-seed.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { ts } from 'ts-morph';

/** The config files read, by Strapi's name (`config/<name>.js`). */
export const projectConfigFiles = ['server', 'api', 'plugins', 'middlewares'] as const;
export type ProjectConfigFile = (typeof projectConfigFiles)[number];

export type EnvKind = 'string' | 'int' | 'float' | 'bool' | 'json' | 'array' | 'date' | 'oneOf';

/** A value of the config that is an `env(...)` read as it stands. */
export interface EnvSource {
  readonly name: string;
  readonly kind: EnvKind;
  /** The default the file gives (`env('X', default)`); absent when it gives none. */
  readonly default?: unknown;
  /** For `env.oneOf(name, values, default)`. */
  readonly oneOf?: readonly unknown[];
}

/** One value of the config: where in which file, and what it is. */
export interface ProjectConfigValue {
  readonly file: ProjectConfigFile;
  /** Keys from the file's export to the value. */
  readonly path: readonly (string | number)[];
  readonly value: unknown;
  /** Set when the value is an environment read. */
  readonly env?: EnvSource;
  /** Variables the value depends on when it is not a plain read of one (`${env('HOST')}:1337`). */
  readonly derivedFrom?: readonly string[];
}

/**
 * The evaluated config of a Strapi project (`LoadedModels.project.config`, `Schema.projectConfig`):
 * what each file exports once evaluated and merged for the environment, and where the
 * environment decided a value.
 */
export interface ProjectConfig {
  /** NODE_ENV the files were evaluated for. */
  readonly environment: string;
  /** The files read, relative to the project root (`config/api.js`, `config/env/production/api.js`). */
  readonly files: readonly string[];
  /** `config/server.js`: host, port, url, app.keys, … */
  readonly server: Readonly<Record<string, unknown>>;
  /** `config/api.js`: `rest.prefix`, `rest.defaultLimit`, … */
  readonly api: Readonly<Record<string, unknown>>;
  /** `config/plugins.js`, by plugin name: `{ enabled?, config? }` (e.g. `plugins.graphql.config.depthLimit`, `plugins['strapi-plugin-transformer'].config`). */
  readonly plugins: Readonly<Record<string, unknown>>;
  /** `config/middlewares.js`: the stack (absent: the file is absent). */
  readonly middlewares?: readonly unknown[];
  /** Values that came from environment variables, by `<file>:<dotted path>` (e.g. `plugins:users-permissions.config.jwt.expiresIn`). */
  readonly sources: Readonly<Record<string, EnvSource>>;
  /** Values computed from environment variables, by `<file>:<dotted path>`: the variables. */
  readonly derived: Readonly<Record<string, readonly string[]>>;
  /** The file each top-level name came from (for messages): `config/plugins.js`. */
  readonly fileNames: Readonly<Record<ProjectConfigFile, string>>;
  /**
   * Modules the files require that cannot be loaded here (a package the project's
   * node_modules would hold, or a file that is not JavaScript or TypeScript): `<file> → <module>`.
   * They are stood in for by an inert value, so what a file takes from them is not read.
   */
  readonly unloaded?: readonly string[];
}

/** A config file that could not be evaluated: the build stops, nothing is written. */
export class ProjectConfigError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

export const sourceKey = (file: ProjectConfigFile, keys: readonly (string | number)[]) => `${file}:${keys.join('.')}`;

/** Reads `.env` and the config files of `root` for `environment` (default NODE_ENV or `development`). */
export function loadProjectConfig(root: string, options: { environment?: string; env?: NodeJS.ProcessEnv } = {}): ProjectConfig {
  const environment = options.environment ?? options.env?.NODE_ENV ?? process.env.NODE_ENV ?? 'development';
  const variables = { ...readDotEnv(root), ...(options.env ?? process.env) };
  const files: string[] = [];
  const sources: Record<string, EnvSource> = {};
  const derived: Record<string, string[]> = {};
  const fileNames = {} as Record<ProjectConfigFile, string>;
  const unloaded = new Set<string>();
  const out: Record<ProjectConfigFile, unknown> = { server: undefined, api: undefined, plugins: undefined, middlewares: undefined };
  for (const name of projectConfigFiles) {
    const base = findConfigFile(root, path.join('config', name));
    const override = findConfigFile(root, path.join('config', 'env', environment, name));
    fileNames[name] = toPosix(base ?? override ?? `config/${name}.js`);
    let value: unknown = undefined;
    for (const file of [base, override]) {
      if (!file) continue;
      files.push(toPosix(file));
      const evaluated = evaluateWithSources(root, file, variables, unloaded);
      // What the environment's file sets replaces the base's, and where the base's came from.
      for (const keys of leafKeys(evaluated.value)) {
        const prefix = sourceKey(name, keys);
        for (const table of [sources, derived]) {
          for (const key of Object.keys(table)) if (key === prefix || key.startsWith(`${prefix}.`) || prefix.startsWith(`${key}.`)) delete table[key];
        }
      }
      for (const [keys, source] of evaluated.sources) sources[sourceKey(name, keys)] = source;
      for (const [keys, names] of evaluated.derived) derived[sourceKey(name, keys)] = names;
      value = value === undefined ? evaluated.value : merge(value, evaluated.value);
    }
    out[name] = value;
  }
  const record = (name: ProjectConfigFile): Record<string, unknown> => {
    const value = out[name];
    if (value === undefined) return {};
    if (!isPlainObject(value)) throw new ProjectConfigError(fileNames[name], `${fileNames[name]} must export an object (or a function of { env } returning one)`);
    return value;
  };
  const middlewares = out.middlewares;
  if (middlewares !== undefined && !Array.isArray(middlewares)) {
    throw new ProjectConfigError(fileNames.middlewares, `${fileNames.middlewares} must export an array of middlewares (or a function of { env } returning one)`);
  }
  return {
    environment,
    files,
    server: record('server'),
    api: record('api'),
    plugins: record('plugins'),
    ...(middlewares !== undefined ? { middlewares: middlewares as unknown[] } : {}),
    sources,
    derived,
    fileNames,
    ...(unloaded.size ? { unloaded: [...unloaded].sort() } : {}),
  };
}

/**
 * One more config file evaluated the same way (`config/<name>` merged with
 * `config/env/<NODE_ENV>/<name>`, `.env` under the environment): `contentgen import` reads
 * `config/database` to find the Strapi database. Undefined when the project has no such file.
 */
export function evaluateProjectConfigFile(root: string, name: string, options: { environment?: string; env?: NodeJS.ProcessEnv } = {}): unknown {
  const environment = options.environment ?? options.env?.NODE_ENV ?? process.env.NODE_ENV ?? 'development';
  const variables = { ...readDotEnv(root), ...(options.env ?? process.env) };
  let value: unknown = undefined;
  for (const file of [findConfigFile(root, path.join('config', name)), findConfigFile(root, path.join('config', 'env', environment, name))]) {
    if (!file) continue;
    const evaluated = evaluateFile(root, file, makeEnv(variables, [], undefined), new Set());
    value = value === undefined ? evaluated : merge(value, evaluated);
  }
  return value;
}

function findConfigFile(root: string, stem: string): string | undefined {
  for (const ext of ['.js', '.cjs', '.ts', '.json']) {
    if (existsSync(path.join(root, stem + ext))) return stem + ext;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------
// .env

/**
 * The variables of `<root>/.env` (dotenv's format: `NAME=value`, `export NAME=value`,
 * single/double/back-quoted values, `\n` in double quotes, `#` comments). A small parser
 * of our own: contentgen does not depend on the dotenv package.
 */
export function readDotEnv(root: string): Record<string, string> {
  const file = path.join(root, '.env');
  if (!existsSync(file)) return {};
  return parseDotEnv(readFileSync(file, 'utf8'));
}

export function parseDotEnv(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const line = /^\s*(?:export\s+)?([\w.-]+)\s*(?:=|:)\s*('(?:\\'|[^'])*'|"(?:\\"|[^"])*"|`(?:\\`|[^`])*`|[^#\r\n]*)?\s*(?:#.*)?$/gm;
  for (const match of text.replace(/\r\n?/g, '\n').matchAll(line)) {
    const name = match[1]!;
    let value = (match[2] ?? '').trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.endsWith(quote) && value.length >= 2) {
      value = value.slice(1, -1);
      if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    }
    out[name] = value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// evaluation

interface EnvRead {
  readonly name: string;
  readonly kind: EnvKind;
  readonly default?: unknown;
  readonly hasDefault: boolean;
  readonly oneOf?: readonly unknown[];
}

type Probe = { readonly name: string; readonly value: (kind: EnvKind, real: unknown) => unknown } | undefined;

/** Strapi's env helper (@strapi/utils env-helper), reading `variables`, with every read recorded. */
function makeEnv(variables: Readonly<Record<string, string | undefined>>, reads: EnvRead[], probe: Probe) {
  const has = (name: string) => Object.prototype.hasOwnProperty.call(variables, name) && variables[name] !== undefined;
  const read = <T>(name: string, kind: EnvKind, args: unknown[], compute: () => T, extra: Partial<EnvRead> = {}): T => {
    reads.push({ name, kind, hasDefault: args.length > 0 && args[0] !== undefined, ...(args.length > 0 && args[0] !== undefined ? { default: args[0] } : {}), ...extra });
    const real = compute();
    return probe?.name === name ? (probe.value(kind, real) as T) : real;
  };
  const env = (name: string, ...rest: unknown[]) => read(name, 'string', rest, () => (has(name) ? variables[name] : rest[0]));
  Object.assign(env, {
    int: (name: string, ...rest: unknown[]) => read(name, 'int', rest, () => (has(name) ? parseInt(variables[name]!, 10) : rest[0])),
    float: (name: string, ...rest: unknown[]) => read(name, 'float', rest, () => (has(name) ? parseFloat(variables[name]!) : rest[0])),
    bool: (name: string, ...rest: unknown[]) => read(name, 'bool', rest, () => (has(name) ? variables[name] === 'true' : rest[0])),
    json: (name: string, ...rest: unknown[]) =>
      read(name, 'json', rest, () => {
        if (!has(name)) return rest[0];
        try {
          return JSON.parse(variables[name]!);
        } catch (e) {
          throw new Error(`Invalid json environment variable ${name}: ${(e as Error).message}`);
        }
      }),
    array: (name: string, ...rest: unknown[]) =>
      read(name, 'array', rest, () => {
        if (!has(name)) return rest[0];
        let value = variables[name]!;
        if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
        return value.split(',').map((v) => v.trim().replace(/^"+|"+$/g, ''));
      }),
    date: (name: string, ...rest: unknown[]) => read(name, 'date', rest, () => (has(name) ? new Date(variables[name]!) : rest[0])),
    oneOf: (name: string, values: unknown[], ...rest: unknown[]) =>
      read(name, 'oneOf', rest, () => {
        const value = has(name) ? variables[name] : rest[0];
        if (!Array.isArray(values) || !values.includes(value)) throw new Error(`env.oneOf: ${name} must be one of ${JSON.stringify(values)}`);
        return value;
      }, { oneOf: values }),
  });
  return env;
}

const probeString = '\u0000contentgen-probe\u0000';
const probeNumber = 987_654_321;

function probeValue(kind: EnvKind, real: unknown): unknown {
  switch (kind) {
    case 'int':
      return probeNumber;
    case 'float':
      return probeNumber + 0.5;
    case 'bool':
      return real === true ? false : true;
    case 'array':
      return [probeString];
    case 'json':
      return { [probeString]: probeNumber };
    case 'date':
      return new Date(probeNumber * 1000);
    default:
      return probeString;
  }
}

/** Evaluates one file: CommonJS (`module.exports`) or an ES/TypeScript module (`export default`). */
function evaluateFile(root: string, file: string, env: unknown, unloaded: Set<string>): unknown {
  const full = path.resolve(root, file);
  let code: string;
  try {
    code = readFileSync(full, 'utf8');
  } catch (e) {
    throw new ProjectConfigError(file, `${file}: ${(e as Error).message}`);
  }
  let exported: unknown;
  try {
    exported = file.endsWith('.json') ? JSON.parse(code) : runModule(full, code, (from, id) => unloaded.add(`${toPosix(path.relative(root, from))} → ${id}`));
    if (isPlainObject(exported) && '__esModule' in exported && 'default' in exported) exported = exported.default;
    return typeof exported === 'function' ? (exported as (args: { env: unknown }) => unknown)({ env }) : exported;
  } catch (e) {
    if (e instanceof ProjectConfigError) throw e;
    throw new ProjectConfigError(file, `${file} could not be evaluated: ${(e as Error).message}`);
  }
}

/**
 * Runs a CommonJS, ES or TypeScript module and answers its `module.exports`. What it requires
 * loads as Node would; failing that, a project file in TypeScript (`./cron` → `cron/index.ts`)
 * runs the same way; failing that (a package the project's node_modules would hold: Strapi
 * loads config with them installed, a build need not), an inert stand-in, reported through
 * `missing` (the module that asked, and what), so the rest of the file is still read. `stubs`
 * answer for module ids before anything else (a recording `@strapi/strapi`, project-code.ts).
 */
export function runModule(full: string, code: string, missing: (from: string, id: string) => void, stubs: Readonly<Record<string, unknown>> = {}): unknown {
  const commonJs = full.endsWith('.ts') || /^\s*(export|import)\s/m.test(code)
    ? ts.transpileModule(code, { fileName: full, compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText
    : code;
  const nodeRequire = createRequire(full);
  const require = (id: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(stubs, id)) return stubs[id];
    try {
      return nodeRequire(id);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    }
    const local = id.startsWith('.') ? localModule(path.resolve(path.dirname(full), id)) : undefined;
    if (local) return runModule(local, readFileSync(local, 'utf8'), missing, stubs);
    missing(full, id);
    return inertModule;
  };
  // `require.resolve(id)` (a plugin's config reading a file of a workspace package, as a Strapi 5
  // monorepo's config/plugins.ts does): where Node finds it; else, as for a module it cannot
  // load, a stand-in reported as not loaded: the empty file `os.devNull`, so that reading it
  // (`readFileSync(require.resolve(…))`) gives '' and the rest of the file is still read.
  require.resolve = (id: string, options?: { paths?: string[] }): string => {
    try {
      return nodeRequire.resolve(id, options);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    }
    const local = id.startsWith('.') ? localModule(path.resolve(path.dirname(full), id)) : undefined;
    if (local) return local;
    missing(full, id);
    return os.devNull;
  };
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInThisContext(`(function (exports, require, module, __filename, __dirname) {${commonJs}\n})`, { filename: full }) as (...args: unknown[]) => void;
  wrapper(module.exports, require, module, full, path.dirname(full));
  return module.exports;
}

/** A project's own module Node cannot load: `<stem>.ts`, `<stem>/index.ts` (or .js, .cjs, .mjs). */
function localModule(stem: string): string | undefined {
  for (const candidate of ['.ts', '.js', '.cjs', '.mjs'].flatMap((ext) => [stem + ext, path.join(stem, `index${ext}`)])) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Stands in for a module that cannot be loaded: any property of it, any call or construction
 * of it is itself, so `tasks: cronTasks` or `require('x').y()` evaluate; it is no ES module
 * (`import x from` takes it whole) and turns into '' in strings.
 */
const inertModule: unknown = new Proxy(function inert() {}, {
  get: (_target, key) => (key === Symbol.toPrimitive ? () => '' : key === '__esModule' ? false : typeof key === 'symbol' ? undefined : inertModule),
  apply: () => inertModule,
  construct: () => inertModule as object,
});

function evaluateWithSources(root: string, file: string, variables: Readonly<Record<string, string | undefined>>, unloaded: Set<string>) {
  const reads: EnvRead[] = [];
  const value = evaluateFile(root, file, makeEnv(variables, reads, undefined), unloaded);
  const sources = new Map<readonly (string | number)[], EnvSource>();
  const derivedBy = new Map<string, { keys: (string | number)[]; names: Set<string> }>();
  for (const name of new Set(reads.map((r) => r.name))) {
    const probeReads: EnvRead[] = [];
    let probed: unknown;
    try {
      probed = evaluateFile(root, file, makeEnv(variables, probeReads, { name, value: probeValue }), unloaded);
    } catch {
      continue; // the file refuses the probe (it checks the value): its values stay as they are
    }
    const read = reads.find((r) => r.name === name)!;
    for (const { keys, before, after } of differences(value, probed)) {
      if (isProbe(after, read.kind, before)) {
        sources.set(keys, {
          name,
          kind: read.kind,
          ...(read.hasDefault ? { default: read.default } : {}),
          ...(read.oneOf ? { oneOf: read.oneOf } : {}),
        });
      } else {
        const key = keys.join('\u0000');
        const entry = derivedBy.get(key) ?? { keys, names: new Set<string>() };
        entry.names.add(name);
        derivedBy.set(key, entry);
      }
    }
  }
  // A value that is a plain read of one variable is not also "derived" from another.
  for (const keys of sources.keys()) derivedBy.delete(keys.join('\u0000'));
  const derived = new Map<readonly (string | number)[], string[]>([...derivedBy.values()].map((e) => [e.keys, [...e.names].sort()]));
  return { value, sources, derived };
}

function isProbe(value: unknown, kind: EnvKind, real: unknown): boolean {
  const probe = probeValue(kind, real);
  if (probe instanceof Date) return value instanceof Date && value.getTime() === probe.getTime();
  return JSON.stringify(value) === JSON.stringify(probe);
}

/** The leaves (or subtrees) where `a` and `b` differ. */
function differences(a: unknown, b: unknown, keys: (string | number)[] = []): { keys: (string | number)[]; before: unknown; after: unknown }[] {
  if (Object.is(a, b)) return [];
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime() ? [] : [{ keys, before: a, after: b }];
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) return a.flatMap((v, i) => differences(v, b[i], [...keys, i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const names = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...names].flatMap((k) => differences(a[k], b[k], [...keys, k]));
  }
  if (typeof a === 'function' && typeof b === 'function') return [];
  return [{ keys, before: a, after: b }];
}

function leafKeys(value: unknown, keys: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leafKeys(v, [...keys, i]));
  if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : leafKeys(v, [...keys, k])));
  return [keys];
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === null || proto === Object.prototype || Object.getPrototypeOf(proto) === null;
}

/** lodash's merge, as Strapi merges an environment's file over the base: objects and arrays by key, undefined skipped. */
function merge(base: unknown, over: unknown): unknown {
  if (over === undefined) return base;
  if (Array.isArray(base) && Array.isArray(over)) {
    const out = [...base];
    over.forEach((v, i) => (out[i] = merge(out[i], v)));
    return out;
  }
  if (isPlainObject(base) && isPlainObject(over)) {
    const out: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = merge(out[k], v);
    return out;
  }
  return over;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}
