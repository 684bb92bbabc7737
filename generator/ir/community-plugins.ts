/**
 * Settings of the two community plugins contentgen serves (strapi-plugin-populate-deep and
 * strapi-plugin-transformer) as the emitted src/config.ts gets them: present when the
 * project installs the plugin (`ir.plugins`), with the plugin's defaults, overridden by the
 * project's config/plugins.js when the build read it (`ir.projectConfig.plugins`, keyed as
 * in that file: `transformer`, `'strapi-plugin-populate-deep'`, each `{ enabled, config }`).
 *
 * `projectConfig` is read loosely (it is whatever config/plugins.js held): wrong types are
 * errors naming config/plugins.js and the key; keys the plugins do not know are ignored.
 * Hooks (functions) cannot come from there: they are written in src/config.ts.
 */
import type { ModelError } from '../validate/model-error.js';
import type { Schema } from './types.js';

export interface PopulateDeepSettings {
  readonly enabled: boolean;
  readonly defaultDepth: number;
  readonly skipCreatorFields: boolean;
}

type Filter = Record<string, boolean | Record<string, boolean>>;

export interface TransformerSettings {
  readonly enabled: boolean;
  readonly responseTransforms: { readonly removeAttributesKey: boolean; readonly removeDataKey: boolean };
  readonly requestTransforms: { readonly wrapBodyWithDataKey: boolean };
  readonly contentTypeFilter: { readonly mode?: 'allow' | 'deny'; readonly uids: Filter };
  readonly plugins: { readonly mode?: 'allow' | 'deny'; readonly ids: Filter };
}

export interface CommunityPluginSettings {
  readonly populateDeep?: PopulateDeepSettings;
  readonly transformer?: TransformerSettings;
}

const file = 'config/plugins.js';

export function communityPluginSettings(ir: Pick<Schema, 'plugins'> & { readonly projectConfig?: unknown }): { settings: CommunityPluginSettings; errors: ModelError[] } {
  const errors: ModelError[] = [];
  const fail = (pointer: string, message: string) => errors.push({ file, pointer, message });
  const plugins = field(field(ir.projectConfig, 'plugins'), undefined);
  const settings: { populateDeep?: PopulateDeepSettings; transformer?: TransformerSettings } = {};

  if (ir.plugins.populateDeep) {
    const entry = field(plugins, 'strapi-plugin-populate-deep');
    const config = objectAt(field(entry, 'config'), '/strapi-plugin-populate-deep/config', fail);
    const defaultDepth = field(config, 'defaultDepth');
    if (defaultDepth !== undefined && !(Number.isInteger(defaultDepth) && (defaultDepth as number) >= 0)) {
      fail('/strapi-plugin-populate-deep/config/defaultDepth', `must be a whole number, got ${JSON.stringify(defaultDepth)}`);
    }
    settings.populateDeep = {
      enabled: booleanAt(field(entry, 'enabled'), true, '/strapi-plugin-populate-deep/enabled', fail),
      defaultDepth: typeof defaultDepth === 'number' && Number.isInteger(defaultDepth) && defaultDepth >= 0 ? defaultDepth : 5,
      skipCreatorFields: booleanAt(field(config, 'skipCreatorFields'), true, '/strapi-plugin-populate-deep/config/skipCreatorFields', fail),
    };
  }

  if (ir.plugins.transformer) {
    const entry = field(plugins, 'transformer');
    const at = '/transformer/config';
    const config = objectAt(field(entry, 'config'), at, fail);
    const response = objectAt(field(config, 'responseTransforms'), `${at}/responseTransforms`, fail);
    const request = objectAt(field(config, 'requestTransforms'), `${at}/requestTransforms`, fail);
    const filter = (name: 'contentTypeFilter' | 'plugins', valuesKey: 'uids' | 'ids') => {
      const object = objectAt(field(config, name), `${at}/${name}`, fail);
      const mode = field(object, 'mode');
      if (mode !== undefined && mode !== 'allow' && mode !== 'deny') fail(`${at}/${name}/mode`, `must be 'allow' or 'deny', got ${JSON.stringify(mode)}`);
      const values = objectAt(field(object, valuesKey), `${at}/${name}/${valuesKey}`, fail) ?? {};
      const checked: Filter = {};
      for (const [id, value] of Object.entries(values)) {
        if (typeof value === 'boolean') checked[id] = value;
        else if (isObject(value) && Object.values(value).every((v) => typeof v === 'boolean')) checked[id] = value as Record<string, boolean>;
        else fail(`${at}/${name}/${valuesKey}/${id}`, 'must be true, false, or true/false per HTTP method ({ GET: true })');
      }
      return { ...(mode === 'allow' || mode === 'deny' ? { mode } : {}), [valuesKey]: checked };
    };
    settings.transformer = {
      enabled: booleanAt(field(entry, 'enabled'), true, '/transformer/enabled', fail),
      responseTransforms: {
        removeAttributesKey: booleanAt(field(response, 'removeAttributesKey'), false, `${at}/responseTransforms/removeAttributesKey`, fail),
        removeDataKey: booleanAt(field(response, 'removeDataKey'), false, `${at}/responseTransforms/removeDataKey`, fail),
      },
      requestTransforms: {
        wrapBodyWithDataKey: booleanAt(field(request, 'wrapBodyWithDataKey'), false, `${at}/requestTransforms/wrapBodyWithDataKey`, fail),
      },
      contentTypeFilter: filter('contentTypeFilter', 'uids') as TransformerSettings['contentTypeFilter'],
      plugins: filter('plugins', 'ids') as TransformerSettings['plugins'],
    };
  }
  return { settings, errors };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value[key]` when value is an object (`key` undefined: value itself when an object). */
function field(value: unknown, key: string | undefined): unknown {
  if (!isObject(value)) return undefined;
  return key === undefined ? value : value[key];
}

function objectAt(value: unknown, pointer: string, fail: (pointer: string, message: string) => void): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isObject(value)) {
    fail(pointer, `must be an object, got ${JSON.stringify(value)}`);
    return undefined;
  }
  return value;
}

function booleanAt(value: unknown, fallback: boolean, pointer: string, fail: (pointer: string, message: string) => void): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    fail(pointer, `must be true or false, got ${JSON.stringify(value)}`);
    return fallback;
  }
  return value;
}
