/** The static read of `strapi.customFields.register(...)` calls (load/load-custom-fields.ts): literals only, nothing run. */
import { describe, expect, it } from 'vitest';
import { collectRegistrations, pluginNameOfPackage, type RegisteredCustomField } from '../../../generator/load/load-custom-fields.js';

const read = (text: string, plugin?: string) => {
  const out = new Map<string, RegisteredCustomField>();
  collectRegistrations(text, plugin, 'server.js', out);
  return Object.fromEntries([...out].map(([uid, field]) => [uid, field.type]));
};

describe('custom field registrations', () => {
  it('reads one object, a list, nested options and strings holding braces', () => {
    expect(
      read(
        `strapi.customFields.register({ name: 'color', plugin: 'color-picker', type: 'string', inputSize: { default: 4, type: 'x' }, note: "a } brace (and a paren" });
         strapi.customFields.register([{ name: "a", type: "json" }, { name: \`b\`, type: "integer", options: { base: [{ type: 'checkbox' }] } }]);`,
        'mine',
      ),
    ).toEqual({ 'plugin::color-picker.color': 'string', 'plugin::mine.a': 'json', 'plugin::mine.b': 'integer' });
  });

  it('skips names and types that are not literals, and types a custom field cannot store', () => {
    expect(read(`strapi.customFields.register({ name: NAME, type: 'string' }); strapi.customFields.register({ name: 'x', type: 'relation' });`, 'p')).toEqual({});
  });

  it("the app's own fields are global", () => {
    expect(read(`module.exports = { register({ strapi }) { strapi.customFields.register({ name: 'rating', type: 'integer' }); } };`)).toEqual({ 'global::rating': 'integer' });
  });

  it('names the plugin of a package not installed', () => {
    // @_sh/strapi-plugin-ckeditor is plugin ckeditor5 (its strapi.name from 2.0 on; yoodee-public-cms)
    expect(['@strapi/plugin-color-picker', 'strapi-plugin-ckeditor5', '@_sh/strapi-plugin-ckeditor', '@bn-digital/strapi-plugin-field-uuid', 'strapi-google-maps', 'lodash'].map(pluginNameOfPackage)).toEqual([
      'color-picker',
      'ckeditor5',
      'ckeditor5',
      'field-uuid',
      'google-maps',
      undefined,
    ]);
  });
});
