/**
 * Stage 0: what the build was pointed at. Either a Strapi v4 project root (its package.json
 * depends on `@strapi/strapi`; models under `src/`), whose installed plugins decide what the
 * server serves, or a bare models folder, which keeps contentgen's defaults.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { modelsFolderPlugins, pluginsOf, type ProjectPlugins } from '../ir/project-plugins.js';
import { loadProjectCode, type ProjectCode } from './project-code.js';
import { isPlainObject, loadProjectConfig, ProjectConfigError, type ProjectConfig } from './project-config.js';

export interface StrapiProject {
  /** The project root (the folder holding package.json, config/ and src/). */
  readonly root: string;
  /** `@strapi/strapi`'s version range as package.json has it. */
  readonly strapiVersion: string;
  /** dependencies and devDependencies of package.json, by package name. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** config/{server,api,plugins,middlewares} evaluated as Strapi does (load/project-config.ts); absent when that failed (`BuildInput.error`). */
  readonly config?: ProjectConfig;
  /** Its own code under src/ (controllers, routes, lifecycles…): load/project-code.ts. */
  readonly code?: ProjectCode;
}

export interface BuildInput {
  readonly kind: 'project' | 'models';
  /** The folder models are read from: the project's `src/`, or the folder given. */
  readonly modelsDir: string;
  readonly plugins: ProjectPlugins;
  /** Set for a project root. */
  readonly project?: StrapiProject;
  /** A problem with the input itself (a project whose package.json or config cannot be read). */
  readonly error?: string;
  /** The file of `error` (default package.json). */
  readonly errorFile?: string;
}

export async function resolveInput(dir: string): Promise<BuildInput> {
  const models: BuildInput = { kind: 'models', modelsDir: dir, plugins: modelsFolderPlugins };
  const packageFile = path.join(dir, 'package.json');
  if (!(await isFile(packageFile))) return models;
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(await readFile(packageFile, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    return { ...models, error: `package.json: ${(e as Error).message}` };
  }
  const dependencies = { ...asRecord(json.devDependencies), ...asRecord(json.dependencies) };
  const strapiVersion = dependencies['@strapi/strapi'];
  if (strapiVersion === undefined) return models;
  let config: ProjectConfig;
  try {
    config = loadProjectConfig(dir);
  } catch (e) {
    if (!(e instanceof ProjectConfigError)) throw e;
    return { kind: 'project', modelsDir: path.join(dir, 'src'), plugins: pluginsOf(Object.keys(dependencies), strapiVersion), project: { root: dir, strapiVersion, dependencies }, error: e.message, errorFile: e.file };
  }
  const project: StrapiProject = { root: dir, strapiVersion, dependencies, config, code: loadProjectCode(dir) };
  const plugins = withDisabled(pluginsOf(Object.keys(dependencies), strapiVersion), config);
  return { kind: 'project', modelsDir: path.join(dir, 'src'), plugins: { ...plugins, uploadAwsS3: plugins.uploadAwsS3 || uploadProviderOf(config) === 'aws-s3' }, project };
}

/** config/plugins.js `upload.config.provider` (Strapi's default: local). */
function uploadProviderOf(config: ProjectConfig): unknown {
  const upload = config.plugins['upload'];
  return isPlainObject(upload) && isPlainObject(upload.config) ? upload.config.provider : undefined;
}

/** A plugin installed but turned off in config/plugins.js (`graphql: { enabled: false }`) is off. */
function withDisabled(plugins: ProjectPlugins, config: ProjectConfig): ProjectPlugins {
  const names: Readonly<Partial<Record<keyof ProjectPlugins, string>>> = {
    graphql: 'graphql',
    i18n: 'i18n',
    documentation: 'documentation',
    populateDeep: 'strapi-plugin-populate-deep',
    transformer: 'transformer',
  };
  const out = { ...plugins };
  for (const key of Object.keys(names) as (keyof ProjectPlugins)[]) {
    const entry = config.plugins[names[key]!];
    if (isPlainObject(entry) && entry.enabled === false) out[key] = false;
  }
  return out;
}

function asRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

async function isFile(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined))?.isFile() ?? false;
}
