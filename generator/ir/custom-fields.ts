/**
 * Custom fields (`{"type": "customField", "customField": "plugin::color-picker.color"}`): a
 * plugin's admin input over one of Strapi's own types, which is what the database stores and
 * the APIs serve. contentgen knows the underlying type of the well-known plugins' fields; a
 * project maps any other in `customFields.json` beside the models (which also overrides these):
 *
 *   { "plugin::my-plugin.my-field": "string" }
 */

/** The types a custom field may store (Strapi's `CustomFieldServerOptions.type`), and `blocks`. */
export const customFieldTypes = [
  'biginteger', 'boolean', 'date', 'datetime', 'decimal', 'email', 'enumeration', 'float', 'integer', 'json',
  'password', 'richtext', 'string', 'text', 'time', 'uid', 'blocks',
] as const;

export type CustomFieldType = (typeof customFieldTypes)[number];

/** The underlying type of well-known Strapi v4 custom fields, as each plugin registers it. */
export const builtInCustomFields: Readonly<Record<string, CustomFieldType>> = {
  // @strapi/plugin-color-picker
  'plugin::color-picker.color': 'string',
  // @ckeditor/strapi-plugin-ckeditor
  'plugin::ckeditor.CKEditor': 'richtext',
  // strapi-plugin-ckeditor5; @_sh/strapi-plugin-ckeditor 2.x and later (strapi.name 'ckeditor5',
  // server/register.js: name 'CKEditor', type 'richtext'; 1.x replaced the wysiwyg, no custom field)
  'plugin::ckeditor5.CKEditor': 'richtext',
  // strapi-plugin-multi-select
  'plugin::multi-select.multi-select': 'json',
  // strapi-google-maps
  'plugin::google-maps.location-picker': 'json',
  // strapi-plugin-remote-select
  'plugin::remote-select.remote-select': 'text',
  'plugin::remote-select.remote-select-multi': 'json',
  'plugin::remote-select.searchable-remote-select': 'text',
  'plugin::remote-select.searchable-remote-select-multi': 'json',
  // @bn-digital/strapi-plugin-field-uuid (server/register.js: name 'uuid', plugin 'field-uuid', type 'string')
  'plugin::field-uuid.uuid': 'string',
  // strapi-plugin-oembed (server: name 'oembed', plugin its strapi.name 'oembed', type 'text'; the admin side says json, the server's type is stored)
  'plugin::oembed.oembed': 'text',
  // strapi-plugin-iconhub (server/src/register.ts: name 'iconhub', plugin 'strapi-plugin-iconhub', type 'json')
  'plugin::strapi-plugin-iconhub.iconhub': 'json',
  // strapi-plugin-magic-editor-x (server register: name 'richtext', plugin 'magic-editor-x', type 'text')
  'plugin::magic-editor-x.richtext': 'text',
  // strapi-plugin-editorjs-field (server/src/register.ts: name and plugin its id, type 'richtext')
  'plugin::editorjs-field.editorjs-field': 'richtext',
  // strapi-plugin-tinymce (server/src/register.ts: name 'tinymce', plugin 'tinymce', type 'string')
  'plugin::tinymce.tinymce': 'string',
  // strapi-plugin-icon-picker (server/src/register.ts: name 'icon', plugin 'icon-picker', type 'string')
  'plugin::icon-picker.icon': 'string',
};

/**
 * npm packages that install the plugins above (plugin name → packages), for a project whose
 * node_modules is not installed: Strapi needs the plugin installed to start.
 */
export const builtInPluginPackages: Readonly<Record<string, readonly string[]>> = {
  'color-picker': ['@strapi/plugin-color-picker'],
  ckeditor: ['@ckeditor/strapi-plugin-ckeditor'],
  ckeditor5: ['strapi-plugin-ckeditor5', '@_sh/strapi-plugin-ckeditor'],
  'multi-select': ['strapi-plugin-multi-select'],
  'google-maps': ['strapi-google-maps'],
  'remote-select': ['strapi-plugin-remote-select'],
  'field-uuid': ['@bn-digital/strapi-plugin-field-uuid', 'strapi-plugin-field-uuid'],
  oembed: ['strapi-plugin-oembed'],
  'strapi-plugin-iconhub': ['strapi-plugin-iconhub'],
  'magic-editor-x': ['strapi-plugin-magic-editor-x'],
  'editorjs-field': ['strapi-plugin-editorjs-field'],
  tinymce: ['strapi-plugin-tinymce', '@sklinet/strapi-plugin-tinymce'],
  'icon-picker': ['strapi-plugin-icon-picker'],
};

export const customFieldsFile = 'customFields.json';

/** `plugin::<plugin>.<field>` or `global::<field>` (custom fields registered by the app itself). */
export const customFieldUidPattern = /^(?:plugin::[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|global::[A-Za-z0-9_-]+)$/;

export function isCustomFieldType(type: unknown): type is CustomFieldType {
  return typeof type === 'string' && (customFieldTypes as readonly string[]).includes(type);
}

/** The project's mapping (customFields.json) over the built-in one; invalid entries are left out (validation reports them). */
export function customFieldTypesOf(json: unknown): ReadonlyMap<string, CustomFieldType> {
  const map = new Map<string, CustomFieldType>(Object.entries(builtInCustomFields));
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    for (const [uid, type] of Object.entries(json)) if (isCustomFieldType(type)) map.set(uid, type);
  }
  return map;
}

/**
 * The type an attribute stores: its `type`, or for a custom field the type its plugin field
 * stores (undefined when unknown).
 */
export function storedType(attribute: Record<string, unknown>, customFields: ReadonlyMap<string, CustomFieldType>): string | undefined {
  if (attribute.type !== 'customField') return typeof attribute.type === 'string' ? attribute.type : undefined;
  return typeof attribute.customField === 'string' ? customFields.get(attribute.customField) : undefined;
}
