/**
 * Every GraphQL name of the Content API, derived from the per-type metadata in one place
 * (Strapi v4's `utils/naming`): `Article`, `ArticleEntity`, `ArticleFiltersInput`,
 * `articles`, `createArticle`, `ENUM_ARTICLE_STATUS`, `ArticleBlocksDynamicZone`, … The
 * generator prints schema.graphql with these same functions, so the file and the served
 * schema cannot disagree.
 */
import type { ComponentMeta, ContentTypeMeta } from '../meta.js';

/**
 * lodash's `upperFirst(camelCase(name))`, which Strapi names every type with: words split at
 * separators, case changes and digits (`blog-post` → `BlogPost`, `seoMeta` → `SeoMeta`,
 * `SEO` → `Seo`, `a1b` → `A1B`, `1st` stays a word), each lower-cased then capitalised. Only
 * ASCII letters and digits survive, so the result is a valid GraphQL name part whatever a
 * file was called.
 */
export function pascalCase(name: string): string {
  let pascal = pascalCases.get(name);
  if (pascal === undefined) {
    pascal = lodashWords(name)
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
      .join('');
    if (pascalCases.size < 10_000) pascalCases.set(name, pascal);
  }
  return pascal;
}

/** Resolvers name types per request: the names come from the models (and stored component uids); bounded all the same. */
const pascalCases = new Map<string, string>();

/** lodash's `words` for ASCII text (its "unicode" splitting, which any separator or case change selects). */
const wordPattern = /[A-Z]?[a-z]+(?=[^A-Za-z0-9]|[A-Z]|$)|[A-Z]+(?=[^A-Za-z0-9]|[A-Z][a-z]|$)|[A-Z]?[a-z]+|[A-Z]+|\d*(?:1ST|2ND|3RD|(?![123])\dTH)(?=\b|[a-z_])|\d*(?:1st|2nd|3rd|(?![123])\dth)(?=\b|[A-Z_])|\d+/g;

function lodashWords(name: string): string[] {
  return deburr(name).match(wordPattern) ?? [];
}

/** Latin letters lodash's `deburr` spells out; other accented letters lose their accents. */
const deburred: Readonly<Record<string, string>> = { ß: 'ss', Æ: 'Ae', æ: 'ae', Ø: 'O', ø: 'o', Œ: 'Oe', œ: 'oe', Þ: 'Th', þ: 'th', Ð: 'D', ð: 'd', Ł: 'L', ł: 'l', ı: 'i' };

function deburr(text: string): string {
  return [...text].map((ch) => deburred[ch] ?? ch).join('').normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * lodash's `upperFirst(camelCase(name))` for attribute names: words split at separators
 * and case changes, acronyms kept as one word (`HTMLBody` → `HtmlBody`, `hero_image` →
 * `HeroImage`).
 */
export function attributePascal(name: string): string {
  return pascalCase(name);
}

/** `Article`, `UsersPermissionsUser`, `UploadFile`: plugin prefix + singular name. */
export function typeName(meta: Pick<ContentTypeMeta, 'singularName' | 'plugin'>): string {
  return (meta.plugin ? pascalCase(meta.plugin) : '') + pascalCase(meta.singularName);
}

/** `Articles`, `UsersPermissionsUsers`: plugin prefix + plural name. */
function pluralTypeName(meta: Pick<ContentTypeMeta, 'pluralName' | 'plugin'>): string {
  return (meta.plugin ? pascalCase(meta.plugin) : '') + pascalCase(meta.pluralName);
}

/** `shared.seo` → `ComponentSharedSeo` (the component's globalId). */
export function componentTypeName(uid: string): string {
  const dot = uid.indexOf('.');
  return `Component${pascalCase(uid.slice(0, dot))}${pascalCase(uid.slice(dot + 1))}`;
}

/** The GraphQL type name of a content type or a component. */
export function ownerTypeName(owner: ContentTypeMeta | ComponentMeta): string {
  return isContentType(owner) ? typeName(owner) : componentTypeName(owner.uid);
}

export function isContentType(owner: ContentTypeMeta | ComponentMeta): owner is ContentTypeMeta {
  return (owner as ContentTypeMeta).kind !== undefined;
}

export const entityName = (meta: ContentTypeMeta): string => `${typeName(meta)}Entity`;
export const entityResponseName = (meta: ContentTypeMeta): string => `${typeName(meta)}EntityResponse`;
export const entityResponseCollectionName = (meta: ContentTypeMeta): string => `${typeName(meta)}EntityResponseCollection`;
export const relationResponseCollectionName = (meta: ContentTypeMeta): string => `${typeName(meta)}RelationResponseCollection`;
export const filtersInputName = (owner: ContentTypeMeta | ComponentMeta): string => `${ownerTypeName(owner)}FiltersInput`;
export const inputName = (owner: ContentTypeMeta | ComponentMeta): string => `${ownerTypeName(owner)}Input`;

/** `article`, `usersPermissionsUser`: the findOne query (and a single type's query). */
export const findOneQueryName = (meta: ContentTypeMeta): string => lowerFirst(typeName(meta));
/** `articles`, `uploadFiles`: the find query of a collection type. */
export const findQueryName = (meta: ContentTypeMeta): string => lowerFirst(pluralTypeName(meta));
export const createMutationName = (meta: ContentTypeMeta): string => `create${typeName(meta)}`;
export const updateMutationName = (meta: ContentTypeMeta): string => `update${typeName(meta)}`;
export const deleteMutationName = (meta: ContentTypeMeta): string => `delete${typeName(meta)}`;

/** `ENUM_ARTICLE_STATUS`, `ENUM_COMPONENTSHAREDSEO_KIND`. */
export function enumTypeName(owner: ContentTypeMeta | ComponentMeta, attribute: string): string {
  return `ENUM_${ownerTypeName(owner).toUpperCase()}_${attribute.toUpperCase()}`;
}

/** `ArticleBlocksDynamicZone`: the union of a dynamic zone's components. */
export function dynamicZoneName(meta: ContentTypeMeta, attribute: string): string {
  return `${typeName(meta)}${attributePascal(attribute)}DynamicZone`;
}

/** `ArticleBlocksDynamicZoneInput`: the scalar a dynamic zone's items are written with. */
export const dynamicZoneInputName = (meta: ContentTypeMeta, attribute: string): string => `${dynamicZoneName(meta, attribute)}Input`;

/** Scalar filter inputs: `StringFilterInput`, `IDFilterInput`, … */
export const scalarFilterName = (scalar: string): string => `${scalar}FilterInput`;

/**
 * @sindresorhus/transliterate's replacements (which Strapi's slugify applies before it
 * strips diacritics) for letters NFD does not decompose: German umlauts, Latin ligatures,
 * Cyrillic (Russian, Ukrainian, Macedonian) and Greek. `Новый` → `Novyj`, `Ελλάδα` → `Ellada`.
 */
const transliterations: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'SS', ä: 'ae', Ä: 'Ae', ö: 'oe', Ö: 'Oe', ü: 'ue', Ü: 'Ue',
  æ: 'ae', Æ: 'AE', œ: 'oe', Œ: 'OE', ø: 'o', Ø: 'O', ð: 'd', Ð: 'D', đ: 'd', Đ: 'D',
  þ: 'th', Þ: 'TH', ł: 'l', Ł: 'L', ı: 'i',
  ...letters('АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯЁ', ['A', 'B', 'V', 'G', 'D', 'E', 'Zh', 'Z', 'I', 'J', 'K', 'L', 'M', 'N', 'O', 'P', 'R', 'S', 'T', 'U', 'F', 'H', 'Cz', 'Ch', 'Sh', 'Shh', '', 'Y', '', 'E', 'Yu', 'Ya', 'Yo']),
  ...letters('ЄІЇҐЌЉЊ', ['Ye', 'I', 'Yi', 'G', 'Kj', 'Lj', 'Nj']),
  ...letters('ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΆΈΊΌΎΉΏΪΫ', ['A', 'B', 'G', 'D', 'E', 'Z', 'I', 'TH', 'I', 'K', 'L', 'M', 'N', 'KS', 'O', 'P', 'R', 'S', 'T', 'Y', 'F', 'X', 'PS', 'O', 'A', 'E', 'I', 'O', 'Y', 'I', 'O', 'I', 'Y']),
  ...letters('αβγδεζηθικλμνξοπρστυφχψωάέίόύήώςϊΰϋΐ', ['a', 'v', 'g', 'd', 'e', 'z', 'i', 'th', 'i', 'k', 'l', 'm', 'n', 'ks', 'o', 'p', 'r', 's', 't', 'y', 'f', 'x', 'ps', 'o', 'a', 'e', 'i', 'o', 'y', 'i', 'o', 's', 'i', 'y', 'y', 'i']),
};

/** Upper-case letters and their spellings, with the lower-case pairs for Cyrillic. */
function letters(chars: string, spellings: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  [...chars].forEach((ch, i) => {
    const spelling = spellings[i]!;
    out[ch] = spelling;
    const lower = ch.toLowerCase();
    // Greek lower case has its own table (β is v, not b); Cyrillic pairs with its upper case.
    if (lower !== ch && /[\u0400-\u04ff]/.test(ch)) out[lower] = spelling.toLowerCase();
  });
  return out;
}

/**
 * An enumeration value as a GraphQL enum member, Strapi's `toRegressedEnumValue`
 * (slugify with `_`, case kept): `in progress` → `in_progress`, `Ünïcode` → `Uenicode`,
 * `rock & roll` → `rock_and_roll`. A result GraphQL would refuse (empty, or starting with
 * a digit) gets a leading `_`.
 */
export function enumValueName(value: string): string {
  const slug = regressedEnumValue(value);
  return /^[A-Za-z_]/.test(slug) ? slug : `_${slug}`;
}

/**
 * Strapi's `toRegressedEnumValue` itself: `''` for a value with no letter or digit it can
 * spell, `1st` for `1st`. Strapi refuses to start on a content type whose enumeration has a
 * value this gives no GraphQL name (empty, or a leading digit) or two values one name.
 */
export function regressedEnumValue(value: string): string {
  const ascii = [...value.normalize().replace(/&/g, ' and ')]
    .map((ch) => transliterations[ch] ?? ch)
    .join('')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
  return ascii.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** A name GraphQL accepts (the spec's Name). */
export const graphqlNamePattern = /^[_A-Za-z][_0-9A-Za-z]*$/;
