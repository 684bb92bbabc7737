/**
 * A Strapi project's own code under src/: what it customises, and where each piece goes in the
 * emitted server. Code is not translated (Strapi's `strapi.*` API has no one-to-one counterpart),
 * but nothing is dropped silently: every file that customises Strapi is listed with the
 * user-owned file of the server that takes its place, and the one declarative part, a core
 * router's settings (`only`, `except`, `config.<action>.auth: false`), is carried over.
 *
 * Files are read, not run, except routes files: those are data (`createCoreRouter(uid, {...})`,
 * `{ routes: [...] }`) and are evaluated against a recording `@strapi/strapi`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { isPlainObject, runModule } from './project-config.js';

export type CodeRole =
  | 'controller'
  | 'service'
  | 'router'
  | 'routes'
  | 'lifecycles'
  | 'policy'
  | 'middleware'
  | 'app'
  | 'extension'
  | 'plugin'
  | 'admin'
  | 'module';

export interface ProjectCodeFile {
  /** Relative to the project root, with `/`: `src/api/article/controllers/article.js`. */
  readonly file: string;
  readonly role: CodeRole;
  /** The content type it belongs to, from its folder: `api::article.article`. */
  readonly uid?: string;
  /** What it holds, when read: the custom routes of a routes file, the settings of a core router. */
  readonly detail?: string;
}

/** `createCoreRouter(uid, settings)`: the settings a server can honour as they are. */
export interface CoreRouterSettings {
  readonly file: string;
  readonly only?: readonly string[];
  readonly except?: readonly string[];
  /** Actions Strapi serves without authentication (`config.<action>.auth: false`). */
  readonly public?: readonly string[];
  /** Policies and middlewares named in `config.<action>`, not carried over (their code is the project's). */
  readonly guarded?: Readonly<Record<string, readonly string[]>>;
}

export interface CustomRoute {
  readonly method: string;
  readonly path: string;
  readonly handler: string;
}

export interface ProjectCode {
  /** Files that customise Strapi, in path order. */
  readonly files: readonly ProjectCodeFile[];
  /** Core router settings by content type uid. */
  readonly routers: ReadonlyMap<string, CoreRouterSettings>;
  /** Custom routes by content type uid (routes files of its API folder). */
  readonly customRoutes: ReadonlyMap<string, readonly CustomRoute[]>;
  /** Files that only call Strapi's factories (`createCoreController(uid)`): nothing to carry. */
  readonly boilerplate: number;
}

const codeFile = /\.(js|cjs|mjs|ts)$/;
const ignoredFile = /(\.d\.ts|\.test\.[cm]?[jt]s|\.spec\.[cm]?[jt]s|\.example\.[cm]?[jt]s)$/;

export function loadProjectCode(root: string): ProjectCode {
  const src = path.resolve(root, 'src');
  const files: ProjectCodeFile[] = [];
  const routers = new Map<string, CoreRouterSettings>();
  const customRoutes = new Map<string, CustomRoute[]>();
  let boilerplate = 0;
  for (const rel of walk(src)) {
    const file = `src/${rel}`;
    const parts = rel.split('/');
    const text = readFileSync(path.join(src, rel), 'utf8');
    const [top, api, kind] = parts;
    if (top === 'admin' || top === 'plugins') {
      // One entry per folder: a plugin or the admin panel is moved (or not) as a whole.
      const folder = top === 'admin' ? 'src/admin/' : `src/plugins/${api}/`;
      const entry = files.find((f) => f.file === folder);
      const count = (entry ? Number(/^\d+/.exec(entry.detail!)![0]) : 0) + 1;
      const detail = `${count} code file${count === 1 ? '' : 's'}`;
      if (entry) files[files.indexOf(entry)] = { ...entry, detail };
      else files.push({ file: folder, role: top === 'admin' ? 'admin' : 'plugin', detail });
    } else if (top === 'extensions' && isExtensionFile(parts)) {
      files.push({ file, role: 'extension', detail: `extends the ${api} plugin` });
    } else if (top === 'policies' || (top === 'api' && kind === 'policies')) {
      files.push({ file, role: 'policy' });
    } else if (top === 'middlewares' || (top === 'api' && kind === 'middlewares')) {
      files.push({ file, role: 'middleware' });
    } else if (parts.length === 1 && /^index\./.test(top!)) {
      if (isScaffoldApp(text)) boilerplate++;
      else files.push({ file, role: 'app' });
    } else if (top === 'api' && api && (kind === 'controllers' || kind === 'services')) {
      const uid = `api::${api}.${stem(parts[3]!)}`;
      if (isFactoryOnly(text, kind === 'controllers' ? 'Controller' : 'Service')) boilerplate++;
      else files.push({ file, role: kind === 'controllers' ? 'controller' : 'service', uid });
    } else if (top === 'api' && api && kind === 'routes') {
      const read = readRoutesFile(path.join(src, rel), file, api);
      if (read.kind === 'router') {
        if (read.settings) routers.set(read.uid, read.settings);
        if (read.settings) files.push({ file, role: 'router', uid: read.uid, detail: routerDetail(read.settings) });
        else boilerplate++;
      } else if (read.kind === 'routes') {
        const uid = uidOfRoutes(read.routes, api);
        customRoutes.set(uid, [...(customRoutes.get(uid) ?? []), ...read.routes]);
        if (read.core?.settings) routers.set(read.core.uid, read.core.settings);
        const core = read.core ? ` (beside the core router of ${read.core.uid}${read.core.settings ? `: ${routerDetail(read.core.settings)}` : ''})` : '';
        files.push({ file, role: 'routes', uid, detail: read.routes.map((r) => `${r.method} ${r.path} → ${r.handler}`).join('; ') + core });
      } else {
        files.push({ file, role: 'routes', uid: `api::${api}.${api}`, detail: `could not be read (${read.reason})` });
      }
    } else if (top === 'api' && api && kind === 'content-types' && /^lifecycles\./.test(parts[4] ?? '')) {
      files.push({ file, role: 'lifecycles', uid: `api::${api}.${parts[3]}` });
    } else if (top === 'api' && kind === 'content-types' && /^index\./.test(parts[4] ?? '') && isSchemaIndex(text)) {
      boilerplate++;
    } else {
      files.push({ file, role: 'module' });
    }
  }
  return { files, routers, customRoutes, boilerplate };
}

/**
 * Whether a file under src/extensions/ is part of a plugin extension as Strapi v4 loads them:
 * `<plugin>/strapi-server.js|ts` and what is under `<plugin>/content-types/`. Any other file
 * there (a helper module next to them, a dev launcher's scripts) is a module of the project.
 */
function isExtensionFile(parts: readonly string[]): boolean {
  const [, plugin, name] = parts;
  if (!plugin || !name) return false;
  return (parts.length === 3 && /^strapi-server\.[cm]?[jt]s$/.test(name)) || (parts.length > 3 && name === 'content-types');
}

/** Code files under src/, relative, sorted; models (JSON) and node_modules left out. */
function walk(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = path.join(dir, name);
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(full).isDirectory()) out.push(...walk(full, rel));
    else if (codeFile.test(name) && !ignoredFile.test(name)) out.push(rel);
  }
  return out;
}

const stem = (name: string) => name.replace(/\.[^.]+$/, '');

/** The text without comments, `'use strict'`, imports/requires of @strapi/strapi, or whitespace. */
function normalized(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`])\/\/[^\n]*/g, '$1')
    .replace(/['"]use strict['"];?/g, '')
    .replace(/import\s*\{[^}]*\}\s*from\s*['"]@strapi\/strapi['"];?/g, '')
    .replace(/(const|let|var)\s*(\{[^}]*\}|\w+)\s*=\s*require\(\s*['"]@strapi\/strapi['"]\s*\)(\.factories)?;?/g, '')
    .replace(/\s+/g, '');
}

/** `module.exports = createCoreController('api::x.x');` and its TypeScript/ES forms. */
function isFactoryOnly(text: string, kind: 'Controller' | 'Service'): boolean {
  return new RegExp(`^(module\\.exports=|exportdefault)(factories\\.)?createCore${kind}\\((['"\`])[^'"\`]+\\3\\);?$`).test(normalized(text));
}

/** Strapi's generated `src/index.js`: `register() {}` and `bootstrap() {}`, both empty. */
function isScaffoldApp(text: string): boolean {
  return /^(module\.exports=|exportdefault)\{((async)?(register|bootstrap|destroy)\([^)]*\)\{\},?)*\};?$/.test(normalized(text));
}

/** A content type's `index.js` that only gathers its schema (and lifecycles, listed on their own). */
function isSchemaIndex(text: string): boolean {
  return !/function|=>|\bstrapi\b/.test(normalized(text).replace(/require\([^)]*\)/g, ''));
}

type RoutesFile =
  | { kind: 'router'; uid: string; settings?: CoreRouterSettings }
  /** `core`: the core router the file also made, when it exports `{ routes }` built on it. */
  | { kind: 'routes'; routes: CustomRoute[]; core?: { uid: string; settings?: CoreRouterSettings } }
  | { kind: 'unreadable'; reason: string };

const factoryMark = Symbol('strapi factory');

interface FactoryCall {
  readonly [factoryMark]: string;
  readonly uid: unknown;
  readonly settings: unknown;
}

/**
 * A `@strapi/strapi` whose factories record what they were called with. A recorded router also
 * looks like Strapi's (`prefix`, `routes`: none of its core routes, which the server makes
 * itself), for files that wrap it: `{ get routes() { return core.routes.concat(extra) } }`.
 */
function recordingStrapi(calls: FactoryCall[]) {
  const factory = (kind: string) => (uid: unknown, settings?: unknown): FactoryCall => {
    const call: FactoryCall = { [factoryMark]: kind, uid, settings, ...(kind === 'router' ? { prefix: undefined, routes: [] } : {}) };
    calls.push(call);
    return call;
  };
  const factories = { createCoreRouter: factory('router'), createCoreController: factory('controller'), createCoreService: factory('service') };
  return { factories, default: { factories } };
}

const coreRouterOf = (call: FactoryCall, file: string, api: string) => ({
  uid: typeof call.uid === 'string' ? call.uid : `api::${api}.${api}`,
  ...(call.settings === undefined ? {} : { settings: routerSettings(file, call.settings) }),
});

function readRoutesFile(full: string, file: string, api: string): RoutesFile {
  const calls: FactoryCall[] = [];
  // Everything that runs the project's code is inside the try, getters included: a file this
  // cannot read is reported, never the end of the build.
  try {
    let exported = runModule(full, readFileSync(full, 'utf8'), () => {}, { '@strapi/strapi': recordingStrapi(calls) });
    if (isPlainObject(exported) && 'default' in exported && (exported['__esModule'] || Object.keys(exported).length === 1)) exported = exported['default'];
    if (typeof exported === 'function') exported = (exported as (args: unknown) => unknown)({ strapi: undefined });
    if (isPlainObject(exported) && factoryMark in exported) return { kind: 'router', ...coreRouterOf(exported as unknown as FactoryCall, file, api) };
    const listed = isPlainObject(exported) ? exported['routes'] : undefined;
    if (Array.isArray(listed)) {
      const routes = listed.filter(isPlainObject).map((r) => ({ method: String(r['method'] ?? 'GET').toUpperCase(), path: String(r['path'] ?? ''), handler: String(r['handler'] ?? '') }));
      const router = calls.find((c) => c[factoryMark] === 'router');
      return { kind: 'routes', routes, ...(router ? { core: coreRouterOf(router, file, api) } : {}) };
    }
  } catch (e) {
    return { kind: 'unreadable', reason: (e as Error).message.split('\n')[0]! };
  }
  return { kind: 'unreadable', reason: 'neither createCoreRouter(uid, …) nor { routes: [...] }' };
}

function routerSettings(file: string, settings: unknown): CoreRouterSettings {
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : undefined);
  const s = isPlainObject(settings) ? settings : {};
  const publicActions: string[] = [];
  const guarded: Record<string, string[]> = {};
  for (const [action, config] of Object.entries(isPlainObject(s['config']) ? s['config'] : {})) {
    if (!isPlainObject(config)) continue;
    if (config['auth'] === false) publicActions.push(action);
    const names = [...(Array.isArray(config['policies']) ? config['policies'] : []), ...(Array.isArray(config['middlewares']) ? config['middlewares'] : [])]
      .map((p) => (typeof p === 'string' ? p : isPlainObject(p) && typeof p['name'] === 'string' ? p['name'] : typeof p === 'function' ? '(inline function)' : '(inline)'));
    if (names.length) guarded[action] = names;
  }
  const only = strings(s['only']);
  const except = strings(s['except']);
  return {
    file,
    ...(only ? { only } : {}),
    ...(except ? { except } : {}),
    ...(publicActions.length ? { public: publicActions } : {}),
    ...(Object.keys(guarded).length ? { guarded } : {}),
  };
}

function routerDetail(settings: CoreRouterSettings): string {
  const parts: string[] = [];
  if (settings.only) parts.push(`only ${settings.only.join(', ')}`);
  if (settings.except) parts.push(`except ${settings.except.join(', ')}`);
  if (settings.public) parts.push(`public (auth: false): ${settings.public.join(', ')}`);
  for (const [action, names] of Object.entries(settings.guarded ?? {})) parts.push(`${action}: ${names.join(', ')}`);
  return parts.join('; ') || 'no settings';
}

/** Custom routes belong to the content type their handlers name (`article.featured`), else the API's. */
function uidOfRoutes(routes: readonly CustomRoute[], api: string): string {
  for (const { handler } of routes) {
    const full = /^(api::[\w-]+\.[\w-]+)\.[\w-]+$/.exec(handler);
    if (full) return full[1]!;
    const short = /^([\w-]+)\.[\w-]+$/.exec(handler);
    if (short) return `api::${api}.${short[1]}`;
  }
  return `api::${api}.${api}`;
}
