/**
 * The src/config.ts sections of the community plugins: written for a project that installs
 * them, with the plugin's defaults or the values of its config/plugins.js (`projectConfig`),
 * refused with the key named when those have the wrong type; read back by the runtime.
 */
import { describe, expect, it } from 'vitest';
import { communityPluginSettings } from '../../../generator/ir/community-plugins.js';
import { communityPluginsSection } from '../../../generator/emit/project/community-plugins.js';
import { modelsFolderPlugins } from '../../../generator/ir/project-plugins.js';
import { resolveConfig } from '../../../templates/runtime/config.js';

const installed = { ...modelsFolderPlugins, populateDeep: true, transformer: true };

describe('community plugin settings', () => {
  it('a models folder (neither plugin) gets no section', () => {
    const { settings, errors } = communityPluginSettings({ plugins: modelsFolderPlugins });
    expect(errors).toEqual([]);
    expect(communityPluginsSection(settings)).toBe('');
  });

  it('an installed plugin gets its defaults, on', () => {
    const { settings } = communityPluginSettings({ plugins: installed });
    expect(settings.populateDeep).toEqual({ enabled: true, defaultDepth: 5, skipCreatorFields: true });
    expect(settings.transformer).toEqual({
      enabled: true,
      responseTransforms: { removeAttributesKey: false, removeDataKey: false },
      requestTransforms: { wrapBodyWithDataKey: false },
      contentTypeFilter: { uids: {} },
      plugins: { ids: {} },
    });
  });

  it("takes config/plugins.js's values (ir.projectConfig.plugins), and they reach the runtime as they were", () => {
    const projectConfig = {
      plugins: {
        'strapi-plugin-populate-deep': { config: { defaultDepth: 3 } },
        transformer: {
          enabled: true,
          config: {
            responseTransforms: { removeAttributesKey: true, removeDataKey: true },
            requestTransforms: { wrapBodyWithDataKey: true },
            contentTypeFilter: { mode: 'deny', uids: { 'api::article.article': { GET: true } } },
            plugins: { ids: { 'users-permissions': true } },
            hooks: {},
          },
        },
      },
    };
    const { settings, errors } = communityPluginSettings({ plugins: installed, projectConfig });
    expect(errors).toEqual([]);
    const section = communityPluginsSection(settings);
    expect(section).toContain('populateDeep: { enabled: true, defaultDepth: 3, skipCreatorFields: true },');
    expect(section).toContain("contentTypeFilter: { mode: 'deny', uids: { 'api::article.article': { GET: true } } },");
    const config = resolveConfig({ plugins: settings as never }, {});
    expect(config.plugins.transformer.responseTransforms).toEqual({ removeAttributesKey: true, removeDataKey: true });
    expect(config.plugins.transformer.plugins).toEqual({ ids: { 'users-permissions': true } });
    expect(config.plugins.populateDeep.defaultDepth).toBe(3);
  });

  it('`enabled: false` in config/plugins.js turns an installed plugin off', () => {
    const { settings } = communityPluginSettings({ plugins: installed, projectConfig: { plugins: { transformer: { enabled: false } } } });
    expect(settings.transformer?.enabled).toBe(false);
  });

  it('wrong types are errors naming config/plugins.js and the key', () => {
    const projectConfig = {
      plugins: {
        'strapi-plugin-populate-deep': { config: { defaultDepth: 'deep' } },
        transformer: { config: { responseTransforms: { removeDataKey: 'yes' }, contentTypeFilter: { mode: 'only', uids: { x: 3 } } } },
      },
    };
    const { errors } = communityPluginSettings({ plugins: installed, projectConfig });
    expect(errors.map((e) => `${e.file} ${e.pointer}`)).toEqual([
      'config/plugins.js /strapi-plugin-populate-deep/config/defaultDepth',
      'config/plugins.js /transformer/config/responseTransforms/removeDataKey',
      'config/plugins.js /transformer/config/contentTypeFilter/mode',
      'config/plugins.js /transformer/config/contentTypeFilter/uids/x',
    ]);
  });

  it('the runtime refuses bad values in src/config.ts, and is off by default', () => {
    expect(resolveConfig({}, {}).plugins.transformer.enabled).toBe(false);
    expect(resolveConfig({}, {}).plugins.populateDeep.enabled).toBe(false);
    expect(() => resolveConfig({ plugins: { transformer: { contentTypeFilter: { mode: 'only' as never } } } }, {})).toThrow("config plugins.transformer.contentTypeFilter.mode must be 'allow' or 'deny'");
    expect(() => resolveConfig({ plugins: { populateDeep: { defaultDepth: 1.5 } } }, {})).toThrow('config plugins.populateDeep.defaultDepth must be a whole number');
    expect(() => resolveConfig({ plugins: { transformer: { hooks: { preResponseTransform: 'x' as never } } } }, {})).toThrow('config plugins.transformer.hooks.preResponseTransform must be a function');
  });
});
