/**
 * locales.json and localized types at build time (issue 14): clear errors naming the file
 * for unknown or repeated codes and a default that is not listed; the attributes the i18n
 * plugin adds are reserved; permissions.json may grant
 * `createLocalization` on a localized type and `plugin::i18n.locales.listLocales`.
 */
import { describe, expect, it } from 'vitest';
import { buildIr } from '../../generator/ir/build-ir.js';
import { loadModels } from '../../generator/load/load-models.js';
import { formatModelError } from '../../generator/validate/model-error.js';
import { validateModels } from '../../generator/validate/validate.js';
import { withModelFiles } from '../helpers/paths.js';

const withModels = <T>(files: Record<string, unknown>, run: (dir: string) => Promise<T>) => withModelFiles('locales-models', files, run);

const page = (extra: Record<string, unknown> = {}, localized = true) => ({
  kind: 'collectionType',
  info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
  ...(localized ? { pluginOptions: { i18n: { localized: true } } } : {}),
  attributes: { title: { type: 'string', pluginOptions: { i18n: { localized: true } } }, ...extra },
});

const errorsOf = (files: Record<string, unknown>) => withModels(files, async (dir) => validateModels(await loadModels(dir)).map(formatModelError));

describe('locales.json', () => {
  it('is optional: English alone, the default', async () => {
    const ir = await withModels({ 'page.json': page() }, async (dir) => buildIr(await loadModels(dir), 'sqlite'));
    expect(ir.i18n).toEqual({ defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] });
    const type = ir.contentTypes.find((ct) => ct.uid === 'api::page.page')!;
    expect(type.localized).toBe(true);
    expect(type.attributes.map((a) => a.name)).toEqual(['id', 'title', 'createdAt', 'updatedAt', 'localizations', 'locale']);
  });

  it('is not read as a content type in a flat models folder, and gives the locales', async () => {
    const locales = { defaultLocale: 'fr', locales: [{ code: 'en', name: 'English (en)' }, { code: 'fr', name: 'Français' }] };
    const ir = await withModels({ 'page.json': page(), 'locales.json': locales }, async (dir) => buildIr(await loadModels(dir), 'sqlite'));
    expect(ir.i18n).toEqual(locales);
    expect(ir.contentTypes.some((ct) => ct.uid === 'api::locales.locales')).toBe(false);
  });

  it('names the file for unknown and repeated codes and a default not listed', async () => {
    expect(
      await errorsOf({
        'page.json': page(),
        'locales.json': { defaultLocale: 'it', locales: [{ code: 'en', name: 'English (en)' }, { code: 'xx' }, { code: 'en' }, { code: 'fr-XX' }] },
      }),
    ).toEqual([
      'locales.json /locales/1/code: locales.json: unknown locale code "xx" (an ISO locale such as "en", "fr" or "pt-BR")',
      'locales.json /locales/2/code: locales.json: locale "en" is listed twice',
      'locales.json /locales/3/code: locales.json: unknown locale code "fr-XX" (an ISO locale such as "en", "fr" or "pt-BR")',
      'locales.json /defaultLocale: locales.json: the default locale "it" is not listed in "locales" (en, xx, en, fr-XX)',
    ]);
    expect(await errorsOf({ 'page.json': page(), 'locales.json': { locales: [] } })).toEqual([
      'locales.json /locales: locales.json: "locales" must be a non-empty list of {"code", "name"}',
      'locales.json /defaultLocale: locales.json: "defaultLocale" must be the code of one of the locales',
    ]);
  });

  it('reserves locale and localizations, as Strapi does', async () => {
    expect(await errorsOf({ 'page.json': page({ locale: { type: 'string' } }) })).toEqual([
      'page.json /attributes/locale: content type "api::page.page", attribute "locale": "locale" is reserved (contentgen adds locale itself)',
    ]);
  });

  it('permissions.json grants createLocalization on localized types and listLocales', async () => {
    expect(
      await errorsOf({
        'page.json': page(),
        'permissions.json': { public: ['api::page.page.createLocalization', 'plugin::i18n.locales.listLocales'] },
      }),
    ).toEqual([]);
    const errors = await errorsOf({ 'page.json': page({}, false), 'permissions.json': { public: ['api::page.page.createLocalization'] } });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('unknown action "createLocalization"');
  });
});
