/**
 * Which locale codes exist. Strapi checks codes against its list of ISO locales (`en`,
 * `fr-CA`, `zh-Hans-CN`…); here the same question is asked of the ICU data Node ships: a
 * code is known when it is in canonical form and ICU can name its language, region and
 * script (`xx` and `fr-XX` are not). Used by the build (locales.json) and by GraphQL's
 * `I18NLocaleCode` literals.
 */
const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

export function isIsoLocale(code: string): boolean {
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(code)[0];
  } catch {
    return false;
  }
  return canonical === code && names.of(code) !== undefined;
}

/** Strapi's name of a locale: `French (fr)`. */
export function localeDisplayName(code: string): string {
  return `${names.of(code) ?? code} (${code})`;
}
