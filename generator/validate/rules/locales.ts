import { isIsoLocale } from '../../../templates/runtime/i18n/iso-locales.js';
import { localesFile } from '../../ir/i18n.js';
import { isPlainObject, pointer, type ValidationRule } from '../context.js';

/**
 * locales.json: `{"defaultLocale": "en", "locales": [{"code": "en", "name": "English (en)"}]}`.
 * Each code an ISO locale (as Strapi's list), listed once; the default one of them. (No
 * model may declare `locale` or `localizations`: attributes.ts reserves them, as Strapi.)
 */
export const localesRule: ValidationRule = ({ models, report }) => {
  const file = models.locales;
  if (!file) return;
  const json = file.json;
  if (!isPlainObject(json)) return report(file, '', `${localesFile} must be an object: {"defaultLocale": "en", "locales": [{"code": "en", "name": "English (en)"}]}`);
  for (const key of Object.keys(json)) {
    if (key !== 'defaultLocale' && key !== 'locales') report(file, pointer(key), `${localesFile}: unknown key "${key}" (expected defaultLocale and locales)`);
  }
  const codes: string[] = [];
  if (!Array.isArray(json.locales) || json.locales.length === 0) {
    report(file, pointer('locales'), `${localesFile}: "locales" must be a non-empty list of {"code", "name"}`);
  } else {
    json.locales.forEach((locale, i) => {
      if (!isPlainObject(locale) || typeof locale.code !== 'string') return report(file, pointer('locales', i), `${localesFile}: each locale must be an object with a string "code"`);
      const code = locale.code;
      if (!isIsoLocale(code)) report(file, pointer('locales', i, 'code'), `${localesFile}: unknown locale code "${code}" (an ISO locale such as "en", "fr" or "pt-BR")`);
      else if (codes.includes(code)) report(file, pointer('locales', i, 'code'), `${localesFile}: locale "${code}" is listed twice`);
      if (locale.name !== undefined && (typeof locale.name !== 'string' || locale.name.length === 0 || locale.name.length > 50)) {
        report(file, pointer('locales', i, 'name'), `${localesFile}: the name of locale "${code}" must be a string of 1 to 50 characters`);
      }
      for (const key of Object.keys(locale)) {
        if (key !== 'code' && key !== 'name') report(file, pointer('locales', i, key), `${localesFile}: unknown key "${key}" in locale "${code}" (expected code and name)`);
      }
      codes.push(code);
    });
  }
  if (typeof json.defaultLocale !== 'string') report(file, pointer('defaultLocale'), `${localesFile}: "defaultLocale" must be the code of one of the locales`);
  else if (codes.length > 0 && !codes.includes(json.defaultLocale)) {
    report(file, pointer('defaultLocale'), `${localesFile}: the default locale "${json.defaultLocale}" is not listed in "locales" (${codes.join(', ')})`);
  }
};
