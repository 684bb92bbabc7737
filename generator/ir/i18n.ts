/**
 * The i18n plugin (Strapi v4's `@strapi/plugin-i18n`), as the build sees it: the locales of
 * `locales.json`, which content types and attributes are localized, and the two attributes
 * the plugin adds to a localized type (its `register()`): `localizations`, a one-way
 * oneToMany to the same type (stored in a `<table>_localizations_links` table like any
 * relation), and `locale`, a string. Like Strapi, they come after every other attribute.
 */
import type { LoadedModels, RawContentType, RawFile } from '../load/load-models.js';

export const localesFile = 'locales.json';

export const localeUid = 'plugin::i18n.locale';

export interface Locale {
  readonly code: string;
  readonly name: string;
}

export interface I18nSettings {
  readonly defaultLocale: string;
  /** In the file's order. */
  readonly locales: readonly Locale[];
}

/** A fresh Strapi's: one locale, English. */
export const defaultI18n: I18nSettings = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] };

/** `plugin::i18n.locales.listLocales`: `GET /api/i18n/locales`. */
export const i18nActions: readonly string[] = ['plugin::i18n.locales.listLocales'];

/** The action that creates a localization of an entry of a localized type. */
export const createLocalizationAction = 'createLocalization';

type Json = Record<string, any>;

/** `pluginOptions.i18n.localized: true` on a content type. */
export function isLocalizedType(json: unknown): boolean {
  return (json as Json | null)?.pluginOptions?.i18n?.localized === true;
}

/**
 * Strapi's `isLocalizedAttribute`: one that says `pluginOptions.i18n.localized: true`, any
 * relation, any uid. Every other attribute of a localized type is shared by all its
 * localizations (the Content-Type Builder writes the option on every attribute it makes).
 */
export function isLocalizedAttribute(attribute: Json): boolean {
  return attribute?.pluginOptions?.i18n?.localized === true || attribute?.type === 'relation' || attribute?.type === 'uid';
}

/** The names of the attributes a localized type's localizations share, in declared order. */
export function sharedAttributeNames(json: unknown): string[] {
  const attributes = ((json as Json | null)?.attributes ?? {}) as Json;
  return Object.entries(attributes)
    .filter(([name, a]) => !i18nAttributeNames.includes(name) && !isLocalizedAttribute(a))
    .map(([name]) => name);
}

/** What Strapi 5's core sets on every content type, over a model's own (`@strapi/core` domain/content-type). */
export const strapi5CoreAttributeNames: readonly string[] = ['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy'];

/** The attributes the plugin adds to a localized type. */
export const i18nAttributeNames: readonly string[] = ['localizations', 'locale'];

/**
 * A Strapi 5 project's content type that declares `locale` or `localizations` itself: Strapi
 * 5.54.0 starts, and its i18n (in the core) replaces them on every content type
 * (`@strapi/i18n` register, extendContentTypes): on a localized type they are the document's
 * locale and localizations; on any other type `locale` is a private, writable string (written
 * from a body, never answered, refused in filters, sort and fields) and `localizations` a
 * private virtual relation (nothing to serve). The models as Strapi 5 serves them: a localized
 * type's own two are dropped (withI18nAttributes adds them), another's `locale` becomes
 * `{ type: 'string', private: true }` and its `localizations` is dropped. The validation warns.
 * Strapi 5's core likewise replaces a model's own timestamps and creator fields
 * (`strapi5CoreAttributeNames`, `@strapi/core` domain/content-type: addTimestamps,
 * addDraftAndPublish, addCreatorFields): they are dropped, contentgen adds its own.
 */
export function withStrapi5ReplacedAttributes(models: LoadedModels): LoadedModels {
  const replaced = (ct: RawContentType): RawContentType => {
    const json = ct.json as Json;
    const attributes = json?.attributes as Json | undefined;
    const replacedNames = [...i18nAttributeNames, ...strapi5CoreAttributeNames];
    if (ct.plugin || !attributes || !replacedNames.some((n) => Object.prototype.hasOwnProperty.call(attributes, n))) return ct;
    // Strapi's `_.set` keeps the attribute where the model declared it.
    const localized = isLocalizedType(json);
    const own = Object.fromEntries(
      Object.entries(attributes)
        .filter(([name]) => name !== 'localizations' && !(localized && name === 'locale') && !strapi5CoreAttributeNames.includes(name))
        .map(([name, a]) => [name, name === 'locale' ? { type: 'string', private: true } : a]),
    );
    return { ...ct, json: { ...json, attributes: own } };
  };
  return { ...models, contentTypes: models.contentTypes.map(replaced) };
}

/** The models with `localizations` and `locale` added to each localized type's attributes. */
export function withI18nAttributes(models: LoadedModels): LoadedModels {
  return { ...models, contentTypes: models.contentTypes.map((ct) => (isLocalizedType(ct.json) ? localized(ct) : ct)) };
}

function localized(ct: RawContentType): RawContentType {
  const json = ct.json as Json;
  return {
    ...ct,
    json: {
      ...json,
      attributes: {
        ...json.attributes,
        localizations: { type: 'relation', relation: 'oneToMany', target: ct.uid },
        locale: { type: 'string' },
      },
    },
  };
}

/** The locales of `locales.json` (validated already), or a fresh Strapi's. */
export function i18nSettings(file: RawFile | undefined): I18nSettings {
  if (!file) return defaultI18n;
  const json = file.json as Json;
  return { defaultLocale: json.defaultLocale, locales: (json.locales as Json[]).map((l) => ({ code: l.code, name: typeof l.name === 'string' ? l.name : l.code })) };
}

/** Strapi's locale content type (`i18n_locale`), served by GraphQL's `i18NLocale(s)` and `GET /api/i18n/locales`. */
export const localeContentType = {
  kind: 'collectionType',
  collectionName: 'i18n_locale',
  info: { singularName: 'locale', pluralName: 'locales', displayName: 'Locale' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    code: { type: 'string', unique: true },
  },
};
