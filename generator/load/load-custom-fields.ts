/**
 * A Strapi project's custom fields, read statically (nothing of the project is executed):
 * which plugins it installs, and the fields their server code registers with
 * `strapi.customFields.register({ name, plugin, type })` (or a list of such objects).
 *
 * Plugins: each dependency of package.json whose installed package.json says
 * `"strapi": {"kind": "plugin", "name": …}`; a dependency not installed counts by its name
 * (`@strapi/plugin-<p>`, `strapi-plugin-<p>`, `@scope/strapi-plugin-<p>`, or a package
 * ir/custom-fields.ts knows); and local plugins, `src/plugins/<p>` or a `resolve`d entry of
 * config/plugins.{js,ts}.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { builtInPluginPackages, isCustomFieldType, type CustomFieldType } from '../ir/custom-fields.js';
import type { StrapiProject } from './load-project.js';

export interface RegisteredCustomField {
  readonly type: CustomFieldType;
  /** Where the register call is: `node_modules/strapi-plugin-x/server/register.js`. */
  readonly source: string;
}

export interface ProjectCustomFields {
  /** Names of the plugins the project installs. */
  readonly plugins: ReadonlySet<string>;
  /** Custom fields registered in the installed plugins' server code (and the app's own src/index), by uid. */
  readonly registered: ReadonlyMap<string, RegisteredCustomField>;
  /** Dependencies not installed in node_modules: their plugin names are guessed from their package names. */
  readonly notInstalled: readonly string[];
}

/**
 * Whether the project installs `plugin`: a plugin it has, or a dependency not installed whose
 * package name ends with the plugin's name (`strapi-v4-plugin-<p>`, `@scope/<p>`), as a guess
 * is all there is then.
 */
export function installsPlugin(fields: ProjectCustomFields, plugin: string): boolean {
  return fields.plugins.has(plugin) || fields.notInstalled.some((name) => name === plugin || name.endsWith(`-${plugin}`) || name.endsWith(`/${plugin}`));
}

export async function loadProjectCustomFields(project: StrapiProject): Promise<ProjectCustomFields> {
  const plugins = new Set<string>();
  const registered = new Map<string, RegisteredCustomField>();
  const notInstalled: string[] = [];
  for (const dependency of Object.keys(project.dependencies).sort()) {
    const dir = path.join(project.root, 'node_modules', dependency);
    const json = await readJson(path.join(dir, 'package.json'));
    if (json) {
      const strapi = json.strapi as Record<string, unknown> | undefined;
      if (strapi?.kind !== 'plugin' || typeof strapi.name !== 'string') continue;
      plugins.add(strapi.name);
      await scanServerCode(dir, strapi.name, path.posix.join('node_modules', dependency), registered);
    } else {
      const name = pluginNameOfPackage(dependency);
      if (name) plugins.add(name);
      notInstalled.push(dependency);
    }
  }
  const localDir = path.join(project.root, 'src', 'plugins');
  for (const name of await dirs(localDir)) {
    plugins.add(name);
    await scanServerCode(path.join(localDir, name), name, `src/plugins/${name}`, registered);
  }
  for (const file of ['config/plugins.js', 'config/plugins.ts']) {
    const text = await readFile(path.join(project.root, file), 'utf8').catch(() => undefined);
    if (!text) continue;
    // `'my-plugin': { enabled: true, resolve: './src/plugins/my-plugin' }`
    for (const match of text.matchAll(/['"]?([A-Za-z0-9_-]+)['"]?\s*:\s*\{[^{}]*\bresolve\s*:/g)) plugins.add(match[1]!);
  }
  // The app's own (`global::<name>`) fields, registered in src/index's register().
  for (const file of ['src/index.js', 'src/index.ts']) {
    const text = await readFile(path.join(project.root, file), 'utf8').catch(() => undefined);
    if (text) collectRegistrations(text, undefined, file, registered);
  }
  return { plugins, registered, notInstalled };
}

/** `@strapi/plugin-graphql` → graphql, `strapi-plugin-x` → x, or a known package's plugin. */
export function pluginNameOfPackage(name: string): string | undefined {
  for (const [plugin, packages] of Object.entries(builtInPluginPackages)) if (packages.includes(name)) return plugin;
  const match = /^(?:@strapi\/plugin-|(?:@[^/]+\/)?strapi-plugin-)(.+)$/.exec(name);
  return match?.[1];
}

const serverDirs = ['server', 'dist/server', 'dist', 'strapi-server.js', 'strapi-server.mjs', 'strapi-server.cjs'];
const maxFiles = 400;
const maxBytes = 2_000_000;

async function scanServerCode(dir: string, plugin: string, label: string, out: Map<string, RegisteredCustomField>): Promise<void> {
  const files: string[] = [];
  for (const entry of serverDirs) await collectFiles(path.join(dir, entry), files);
  for (const file of [...new Set(files)].slice(0, maxFiles)) {
    const info = await stat(file).catch(() => undefined);
    if (!info || info.size > maxBytes) continue;
    const text = await readFile(file, 'utf8');
    if (!text.includes('register')) continue;
    collectRegistrations(text, plugin, `${label}/${path.relative(dir, file).split(path.sep).join('/')}`, out);
  }
}

async function collectFiles(p: string, out: string[]): Promise<void> {
  const info = await stat(p).catch(() => undefined);
  if (!info) return;
  if (info.isFile()) {
    if (/\.(?:c|m)?js$|\.ts$/.test(p) && !p.endsWith('.d.ts')) out.push(p);
    return;
  }
  if (!info.isDirectory() || out.length >= maxFiles || path.basename(p) === 'node_modules' || path.basename(p) === 'admin') return;
  for (const entry of (await readdir(p)).sort()) await collectFiles(path.join(p, entry), out);
}

/**
 * Every `customFields.register(` call of the text: its object (or each object of its list)
 * read for `name`, `plugin` and `type` written as string literals. Without a literal `plugin`
 * the field is the scanned plugin's (its register calls pass their own id); in the app's own
 * code it is a `global::` field.
 */
export function collectRegistrations(text: string, plugin: string | undefined, source: string, out: Map<string, RegisteredCustomField>): void {
  for (const match of text.matchAll(/customFields\s*\.\s*register\s*\(/g)) {
    const start = match.index! + match[0].length;
    for (const object of topLevelObjects(text, start)) {
      const name = object.get('name');
      const type = object.get('type');
      if (!name || !isCustomFieldType(type)) continue;
      const owner = object.get('plugin') ?? plugin;
      const uid = owner ? `plugin::${owner}.${name}` : `global::${name}`;
      if (!out.has(uid)) out.set(uid, { type, source });
    }
  }
}

/** The string-literal keys at depth one of each object literal in the call's arguments. */
function topLevelObjects(text: string, start: number): Map<string, string>[] {
  const objects: Map<string, string>[] = [];
  let depth = 0;
  let parens = 1;
  let current: Map<string, string> | undefined;
  const end = Math.min(text.length, start + 20_000);
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipString(text, i);
      continue;
    }
    if (ch === '(') parens++;
    else if (ch === ')') {
      if (--parens === 0) break;
    } else if (ch === '{') {
      depth++;
      if (depth === 1) objects.push((current = new Map()));
    } else if (ch === '}') depth--;
    else if (depth === 1 && current && /[A-Za-z_$]/.test(ch) && !/[\w$]/.test(text[i - 1] ?? '')) {
      const key = /^([A-Za-z_$][\w$]*)\s*:\s*(['"`])([^'"`\\]*)\2/.exec(text.slice(i, i + 300));
      if (key) {
        if (!current.has(key[1]!)) current.set(key[1]!, key[3]!);
        i += key[0].length - 1;
      } else {
        const word = /^[\w$]+/.exec(text.slice(i))!;
        i += word[0].length - 1;
      }
    }
  }
  return objects;
}

function skipString(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j;
  }
  return text.length;
}

async function readJson(file: string): Promise<Record<string, unknown> | undefined> {
  try {
    const json = JSON.parse(await readFile(file, 'utf8')) as unknown;
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function dirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}
