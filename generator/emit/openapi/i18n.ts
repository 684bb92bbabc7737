/**
 * The i18n plugin in openapi.json: the `locale` query parameter of the localized types' lists
 * and single-type routes, their `POST …/localizations` routes (unwrapped body, bare answer)
 * and `GET /api/i18n/locales` (a bare array).
 */
import type { Schema } from '../../ir/types.js';

type Json = Record<string, any>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const paramRef = (name: string): Json => ({ $ref: `#/components/parameters/${name}` });
const respRef = (name: string): Json => ({ $ref: `#/components/responses/${name}` });
const json = (schema: Json): Json => ({ description: 'OK', content: { 'application/json': { schema } } });
const errors = { '400': respRef('BadRequest'), '401': respRef('Unauthorized'), '403': respRef('Forbidden') };

export function i18nParameters(ir: Schema): Record<string, Json> {
  if (!ir.contentTypes.some((ct) => ct.localized)) return {};
  return {
    locale: {
      name: 'locale',
      in: 'query',
      description: `The locale to read (default \`${ir.i18n.defaultLocale}\`); \`all\`: every locale.`,
      schema: { type: 'string', enum: [...ir.i18n.locales.map((l) => l.code), 'all'] },
    },
  };
}

/** Adds the i18n routes to `paths` and their schemas to `schemas`. */
export function addI18nPaths(ir: Schema, paths: Record<string, Json>, schemas: Record<string, Json>): void {
  const codes = ir.i18n.locales.map((l) => l.code);
  schemas.I18nLocaleObject = {
    type: 'object',
    required: ['id', 'name', 'code', 'createdAt', 'updatedAt', 'isDefault'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      code: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updatedAt: { type: 'string', format: 'date-time' },
      isDefault: { type: 'boolean' },
    },
  };
  paths['/api/i18n/locales'] = {
    get: { tags: ['I18n'], operationId: 'listLocales', summary: 'List the locales (a bare array)', responses: { '200': json({ type: 'array', items: ref('I18nLocaleObject') }), ...errors } },
  };
  for (const ct of ir.contentTypes) {
    if (!ct.localized || ct.plugin) continue;
    const pascal = ct.names.pascal;
    const base = `/api/${ct.names.route}`;
    for (const method of ct.kind === 'collectionType' ? ['get'] : ['get', 'put', 'delete']) {
      const operation = paths[base]?.[method];
      if (operation) operation.parameters = [...(operation.parameters ?? []), paramRef('locale')];
    }
    schemas[`${pascal}LocalizationInput`] = {
      allOf: [ref(`${pascal}Input`), { type: 'object', required: ['locale'], properties: { locale: { type: 'string', enum: codes } } }],
    };
    schemas[`${pascal}Localization`] = {
      type: 'object',
      description: 'The entry’s attributes beside its id (no `data` envelope); `localizations` a plain list of entries.',
      required: ['id', 'locale'],
      properties: { id: { type: 'integer' }, locale: { type: 'string' }, localizations: { type: 'array', items: { type: 'object', additionalProperties: true } } },
      additionalProperties: true,
    };
    const path = ct.kind === 'collectionType' ? `${base}/{id}/localizations` : `${base}/localizations`;
    paths[path] = {
      ...(ct.kind === 'collectionType' ? { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }] } : {}),
      post: {
        tags: [ct.displayName],
        operationId: `createLocalization${pascal}`,
        summary: `Create a localization of a ${ct.displayName} entry (unwrapped body, bare answer)`,
        requestBody: { required: true, content: { 'application/json': { schema: ref(`${pascal}LocalizationInput`) } } },
        responses: { '200': json(ref(`${pascal}Localization`)), ...errors, '404': respRef('NotFound') },
      },
    };
  }
}
