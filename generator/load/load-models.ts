/**
 * Stage 1: read model files from disk. Two layouts are accepted:
 *  - a Strapi v4 `src/` folder: `api/<api>/content-types/<name>/schema.json` and
 *    `components/<category>/<name>.json`;
 *  - a flat folder: `<name>.json` content types plus `components/<category>/<name>.json`.
 * An optional `permissions.json` maps role types to granted actions, an optional
 * `customFields.json` custom fields to the types they store (ir/custom-fields.ts).
 *
 * Nothing is interpreted here beyond JSON parsing; errors are collected, not thrown.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ModelError } from '../validate/model-error.js';
import { pluginContentTypes } from '../ir/plugins.js';
import { customFieldsFile } from '../ir/custom-fields.js';
import { localesFile } from '../ir/i18n.js';
import { modelsFolderPlugins, type ProjectPlugins } from '../ir/project-plugins.js';
import type { StrapiProject } from './load-project.js';
import type { ProjectCustomFields } from './load-custom-fields.js';

export interface RawFile {
  /** Path relative to the models folder, with forward slashes. */
  readonly file: string;
  /** Parsed JSON (unknown until validated). */
  readonly json: unknown;
}

export interface RawContentType extends RawFile {
  readonly uid: string;
  /** Set for content types a plugin brings (users-permissions, upload). */
  readonly plugin?: string;
}

export interface RawComponent extends RawFile {
  readonly uid: string;
  readonly category: string;
}

export interface LoadedModels {
  readonly root: string;
  readonly contentTypes: readonly RawContentType[];
  readonly components: readonly RawComponent[];
  readonly permissions?: RawFile;
  /** customFields.json: custom field uid → the type it stores. */
  readonly customFields?: RawFile;
  /** locales.json: the i18n plugin's locales and default locale (ir/i18n.ts). */
  readonly locales?: RawFile;
  readonly errors: readonly ModelError[];
  /** Custom route actions of the output folder's src/api/ files, by content type uid (load-user-code.ts). */
  readonly customActions?: ReadonlyMap<string, readonly string[]>;
  /** The plugins that shape the server: the project's (load-project.ts), or a models folder's defaults. */
  readonly plugins: ProjectPlugins;
  /** Set when the build was pointed at a Strapi project root. */
  readonly project?: StrapiProject;
  /** A project's installed plugins and the custom fields they register (load-custom-fields.ts). */
  readonly projectCustomFields?: ProjectCustomFields;
}

export async function loadModels(root: string, plugins: ProjectPlugins = modelsFolderPlugins): Promise<LoadedModels> {
  const errors: ModelError[] = [];
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) {
    return { root, contentTypes: [], components: [], plugins, errors: [{ file: root, pointer: '', message: 'models folder not found' }] };
  }

  const read = async (rel: string): Promise<RawFile | undefined> => {
    const text = await readFile(path.join(root, rel), 'utf8');
    try {
      return { file: rel, json: JSON.parse(text) };
    } catch (err) {
      errors.push({ file: rel, pointer: '', message: describeJsonError(text, err as Error) });
      return undefined;
    }
  };

  const contentTypes: RawContentType[] = [];
  const apiDir = path.join(root, 'api');
  if (await isDir(apiDir)) {
    for (const api of await sortedDirs(apiDir)) {
      const ctDir = path.join(apiDir, api, 'content-types');
      if (!(await isDir(ctDir))) continue;
      for (const name of await sortedDirs(ctDir)) {
        const rel = toPosix(path.join('api', api, 'content-types', name, 'schema.json'));
        if (!(await isFile(path.join(root, rel)))) continue;
        const raw = await read(rel);
        if (raw) contentTypes.push({ ...raw, json: plugins.i18n ? raw.json : withoutI18n(raw.json), uid: `api::${api}.${name}` });
      }
    }
  }
  for (const entry of await sortedEntries(root)) {
    if (!entry.endsWith('.json') || entry === 'permissions.json' || entry === customFieldsFile || entry === localesFile) continue;
    if (!(await isFile(path.join(root, entry)))) continue;
    const name = entry.slice(0, -'.json'.length);
    const raw = await read(entry);
    if (raw) contentTypes.push({ ...raw, json: plugins.i18n ? raw.json : withoutI18n(raw.json), uid: `api::${name}.${name}` });
  }

  // Plugin types come after the user's, with a user extension of the user model merged in.
  const userExtension = 'extensions/users-permissions/content-types/user/schema.json';
  const extension = (await isFile(path.join(root, userExtension))) ? await read(userExtension) : undefined;
  for (const plugin of pluginContentTypes) {
    // The i18n plugin's locale type exists when the project installs the plugin.
    if (plugin.plugin === 'i18n' && !plugins.i18n) continue;
    let json: unknown = plugin.json;
    let file = `(built-in ${plugin.uid})`;
    if (plugin.uid === 'plugin::users-permissions.user' && extension) {
      json = mergeExtension(plugin.json, extension.json);
      file = extension.file;
    }
    contentTypes.push({ file, json, uid: plugin.uid, plugin: plugin.plugin });
  }

  const components: RawComponent[] = [];
  const componentsDir = path.join(root, 'components');
  if (await isDir(componentsDir)) {
    for (const category of await sortedDirs(componentsDir)) {
      for (const entry of await sortedEntries(path.join(componentsDir, category))) {
        if (!entry.endsWith('.json')) continue;
        const rel = toPosix(path.join('components', category, entry));
        const raw = await read(rel);
        if (raw) components.push({ ...raw, uid: `${category}.${entry.slice(0, -'.json'.length)}`, category });
      }
    }
  }

  const permissions = (await isFile(path.join(root, 'permissions.json'))) ? await read('permissions.json') : undefined;
  const customFields = (await isFile(path.join(root, customFieldsFile))) ? await read(customFieldsFile) : undefined;
  const locales = (await isFile(path.join(root, localesFile))) ? await read(localesFile) : undefined;

  if (!contentTypes.some((ct) => !ct.plugin) && errors.length === 0) {
    errors.push({
      file: '.',
      pointer: '',
      message: 'no content types found (expected api/<api>/content-types/<name>/schema.json or <name>.json files)',
    });
  }
  return { root, contentTypes, components, plugins, ...(permissions ? { permissions } : {}), ...(customFields ? { customFields } : {}), ...(locales ? { locales } : {}), errors };
}

/**
 * A content type as Strapi sees it without the i18n plugin: `pluginOptions.i18n` (of the type
 * and of its attributes) is ignored, so the type is not localized.
 */
export function withoutI18n(json: unknown): unknown {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return json;
  const strip = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const { pluginOptions, ...rest } = value as Record<string, unknown>;
    if (typeof pluginOptions !== 'object' || pluginOptions === null || Array.isArray(pluginOptions) || !('i18n' in pluginOptions)) return value;
    const { i18n: _ignored, ...others } = pluginOptions as Record<string, unknown>;
    return Object.keys(others).length ? { ...rest, pluginOptions: others } : rest;
  };
  const type = strip(json) as Record<string, unknown>;
  const attributes = type.attributes;
  if (typeof attributes !== 'object' || attributes === null || Array.isArray(attributes)) return type;
  return { ...type, attributes: Object.fromEntries(Object.entries(attributes).map(([name, a]) => [name, strip(a)])) };
}

/** An extension adds attributes to the plugin's user model (or overrides them), keeping the rest. */
function mergeExtension(base: Record<string, unknown>, extension: unknown): unknown {
  if (typeof extension !== 'object' || extension === null || Array.isArray(extension)) return extension;
  const ext = extension as Record<string, unknown>;
  const baseAttributes = base.attributes as Record<string, unknown>;
  const extAttributes = typeof ext.attributes === 'object' && ext.attributes !== null ? (ext.attributes as Record<string, unknown>) : {};
  return { ...base, attributes: { ...baseAttributes, ...extAttributes } };
}

/** JSON.parse reports a character offset; people want a line and column. */
export function describeJsonError(text: string, err: Error): string {
  const position = /position (\d+)/.exec(err.message);
  const lineCol = /line (\d+) column (\d+)/.exec(err.message);
  let where = '';
  if (lineCol) {
    where = `line ${lineCol[1]}, column ${lineCol[2]}`;
  } else if (position) {
    const offset = Number(position[1]);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    where = `line ${line}, column ${column}`;
  } else {
    where = `line ${text.split('\n').length} (end of file)`;
  }
  const reason = err.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return `invalid JSON at ${where}: ${reason}`;
}

async function isDir(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isDirectory() ?? false;
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isFile() ?? false;
}

/** readdir order is filesystem-dependent; sort so builds are deterministic. */
async function sortedEntries(dir: string): Promise<string[]> {
  return (await readdir(dir)).sort(compareStrings);
}

async function sortedDirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await sortedEntries(dir)) if (await isDir(path.join(dir, entry))) out.push(entry);
  return out;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** Locale-independent ordering by UTF-16 code units. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
