/**
 * Every derived identifier, in one place. Emitters and templates never case-convert.
 *
 * Names are collision-free by construction: each kind of name lives in a `Namespace` that
 * hands out the natural spelling when it is free and valid there, and `<name>_2`, `<name>_3`…
 * otherwise. Natural names are claimed first, so a suffixed one never takes a name the
 * models spelled out.
 */
import { componentTypeName } from '../../templates/runtime/graphql/naming.js';

/** `blog-post` / `blog_post` / `blogPost` → `BlogPost` */
export function pascalCase(name: string): string {
  return name
    .split(/[-_.\s]+|(?=[A-Z])/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/** `blog-post` → `blogPost` */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/**
 * lodash's `snakeCase` (4.17), which Strapi v4's database layer names every column, link table
 * and link column with: `publishedAt` → `published_at`, `h1Title` → `h_1_title`,
 * `top2Writers` → `top_2_writers`, `SEO2Title` → `seo_2_title`, `utrecht-logos` → `utrecht_logos`.
 * The same steps as lodash: Latin letters lose their accents, apostrophes go, the text is cut
 * into words (lodash's word pattern) and the words are joined lower-cased with `_`.
 */
export function snakeCase(name: string): string {
  return lodashWords(deburr(name).replace(/['\u2019]/g, ''))
    .map((word) => word.toLowerCase())
    .join('_');
}

// lodash 4.17's word patterns, composed as lodash composes them (lodash.js, "Used to compose
// unicode character classes").
const rsAstralRange = '\\ud800-\\udfff';
const rsComboRange = '\\u0300-\\u036f' + '\\ufe20-\\ufe2f' + '\\u20d0-\\u20ff';
const rsDingbatRange = '\\u2700-\\u27bf';
const rsLowerRange = 'a-z\\xdf-\\xf6\\xf8-\\xff';
const rsMathOpRange = '\\xac\\xb1\\xd7\\xf7';
const rsNonCharRange = '\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\xbf';
const rsPunctuationRange = '\\u2000-\\u206f';
const rsSpaceRange =
  ' \\t\\x0b\\f\\xa0\\ufeff\\n\\r\\u2028\\u2029\\u1680\\u180e\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200a\\u202f\\u205f\\u3000';
const rsUpperRange = 'A-Z\\xc0-\\xd6\\xd8-\\xde';
const rsVarRange = '\\ufe0e\\ufe0f';
const rsBreakRange = rsMathOpRange + rsNonCharRange + rsPunctuationRange + rsSpaceRange;
const rsApos = "['\u2019]";
const rsBreak = `[${rsBreakRange}]`;
const rsCombo = `[${rsComboRange}]`;
const rsDigits = '\\d+';
const rsDingbat = `[${rsDingbatRange}]`;
const rsLower = `[${rsLowerRange}]`;
const rsMisc = `[^${rsAstralRange}${rsBreakRange}${rsDigits}${rsDingbatRange}${rsLowerRange}${rsUpperRange}]`;
const rsFitz = '\\ud83c[\\udffb-\\udfff]';
const rsModifier = `(?:${rsCombo}|${rsFitz})`;
const rsNonAstral = `[^${rsAstralRange}]`;
const rsRegional = '(?:\\ud83c[\\udde6-\\uddff]){2}';
const rsSurrPair = '[\\ud800-\\udbff][\\udc00-\\udfff]';
const rsUpper = `[${rsUpperRange}]`;
const rsZWJ = '\\u200d';
const rsMiscLower = `(?:${rsLower}|${rsMisc})`;
const rsMiscUpper = `(?:${rsUpper}|${rsMisc})`;
const rsOptContrLower = `(?:${rsApos}(?:d|ll|m|re|s|t|ve))?`;
const rsOptContrUpper = `(?:${rsApos}(?:D|LL|M|RE|S|T|VE))?`;
const reOptMod = `${rsModifier}?`;
const rsOptVar = `[${rsVarRange}]?`;
const rsOptJoin = `(?:${rsZWJ}(?:${[rsNonAstral, rsRegional, rsSurrPair].join('|')})${rsOptVar}${reOptMod})*`;
const rsOrdLower = '\\d*(?:1st|2nd|3rd|(?![123])\\dth)(?=\\b|[A-Z_])';
const rsOrdUpper = '\\d*(?:1ST|2ND|3RD|(?![123])\\dTH)(?=\\b|[a-z_])';
const rsSeq = rsOptVar + reOptMod + rsOptJoin;
const rsEmoji = `(?:${[rsDingbat, rsRegional, rsSurrPair].join('|')})${rsSeq}`;
const reUnicodeWord = new RegExp(
  [
    `${rsUpper}?${rsLower}+${rsOptContrLower}(?=${[rsBreak, rsUpper, '$'].join('|')})`,
    `${rsMiscUpper}+${rsOptContrUpper}(?=${[rsBreak, rsUpper + rsMiscLower, '$'].join('|')})`,
    `${rsUpper}?${rsMiscLower}+${rsOptContrLower}`,
    `${rsUpper}+${rsOptContrUpper}`,
    rsOrdUpper,
    rsOrdLower,
    rsDigits,
    rsEmoji,
  ].join('|'),
  'g',
);
const reHasUnicodeWord = /[a-z][A-Z]|[A-Z]{2}[a-z]|[0-9][a-zA-Z]|[a-zA-Z][0-9]|[^a-zA-Z0-9 ]/;
// eslint-disable-next-line no-control-regex
const reAsciiWord = /[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/g;
const reLatin = /[\xc0-\xd6\xd8-\xf6\xf8-\xff\u0100-\u017f]/g;
const reComboMark = new RegExp(rsCombo, 'g');

function lodashWords(text: string): string[] {
  return text.match(reHasUnicodeWord.test(text) ? reUnicodeWord : reAsciiWord) ?? [];
}

function deburr(text: string): string {
  return text.replace(reLatin, (letter) => deburredLetters[letter] ?? letter).replace(reComboMark, '');
}

/** lodash's `deburredLetters`: Latin-1 Supplement and Latin Extended-A letters → basic Latin. */
const deburredLetters: Readonly<Record<string, string>> = (() => {
  const table: Record<string, string> = {};
  const add = (letters: string, plain: string) => {
    for (const letter of letters) table[letter] = plain;
  };
  add('\xc0\xc1\xc2\xc3\xc4\xc5', 'A');
  add('\xe0\xe1\xe2\xe3\xe4\xe5', 'a');
  add('\xc7', 'C');
  add('\xe7', 'c');
  add('\xd0', 'D');
  add('\xf0', 'd');
  add('\xc8\xc9\xca\xcb', 'E');
  add('\xe8\xe9\xea\xeb', 'e');
  add('\xcc\xcd\xce\xcf', 'I');
  add('\xec\xed\xee\xef', 'i');
  add('\xd1', 'N');
  add('\xf1', 'n');
  add('\xd2\xd3\xd4\xd5\xd6\xd8', 'O');
  add('\xf2\xf3\xf4\xf5\xf6\xf8', 'o');
  add('\xd9\xda\xdb\xdc', 'U');
  add('\xf9\xfa\xfb\xfc', 'u');
  add('\xdd', 'Y');
  add('\xfd\xff', 'y');
  add('\xc6', 'Ae');
  add('\xe6', 'ae');
  add('\xde', 'Th');
  add('\xfe', 'th');
  add('\xdf', 'ss');
  add('\u0100\u0102\u0104', 'A');
  add('\u0101\u0103\u0105', 'a');
  add('\u0106\u0108\u010a\u010c', 'C');
  add('\u0107\u0109\u010b\u010d', 'c');
  add('\u010e\u0110', 'D');
  add('\u010f\u0111', 'd');
  add('\u0112\u0114\u0116\u0118\u011a', 'E');
  add('\u0113\u0115\u0117\u0119\u011b', 'e');
  add('\u011c\u011e\u0120\u0122', 'G');
  add('\u011d\u011f\u0121\u0123', 'g');
  add('\u0124\u0126', 'H');
  add('\u0125\u0127', 'h');
  add('\u0128\u012a\u012c\u012e\u0130', 'I');
  add('\u0129\u012b\u012d\u012f\u0131', 'i');
  add('\u0134', 'J');
  add('\u0135', 'j');
  add('\u0136', 'K');
  add('\u0137\u0138', 'k');
  add('\u0139\u013b\u013d\u013f\u0141', 'L');
  add('\u013a\u013c\u013e\u0140\u0142', 'l');
  add('\u0143\u0145\u0147\u014a', 'N');
  add('\u0144\u0146\u0148\u014b', 'n');
  add('\u014c\u014e\u0150', 'O');
  add('\u014d\u014f\u0151', 'o');
  add('\u0154\u0156\u0158', 'R');
  add('\u0155\u0157\u0159', 'r');
  add('\u015a\u015c\u015e\u0160', 'S');
  add('\u015b\u015d\u015f\u0161', 's');
  add('\u0162\u0164\u0166', 'T');
  add('\u0163\u0165\u0167', 't');
  add('\u0168\u016a\u016c\u016e\u0170\u0172', 'U');
  add('\u0169\u016b\u016d\u016f\u0171\u0173', 'u');
  add('\u0174', 'W');
  add('\u0175', 'w');
  add('\u0176\u0178', 'Y');
  add('\u0177', 'y');
  add('\u0179\u017b\u017d', 'Z');
  add('\u017a\u017c\u017e', 'z');
  add('\u0132', 'IJ');
  add('\u0133', 'ij');
  add('\u0152', 'Oe');
  add('\u0153', 'oe');
  add('\u0149', "'n");
  add('\u017f', 's');
  return table;
})();

/** `shared.seo` → `ComponentSharedSeo` (Strapi's component globalId, as the GraphQL schema names it). */
export function componentPascal(uid: string): string {
  return componentTypeName(uid);
}

export const kebabCasePattern = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Words an ES module (strict mode) does not accept as a binding name, and globals best left alone. */
export const reservedJsWords: readonly string[] = [
  'arguments', 'await', 'break', 'case', 'catch', 'class', 'const', 'continue', 'debugger', 'default', 'delete', 'do',
  'else', 'enum', 'eval', 'export', 'extends', 'false', 'finally', 'for', 'function', 'if', 'implements', 'import', 'in',
  'instanceof', 'interface', 'let', 'new', 'null', 'package', 'private', 'protected', 'public', 'return', 'static',
  'super', 'switch', 'this', 'throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with', 'yield',
  'undefined', 'NaN', 'Infinity', 'globalThis',
];

/**
 * Names Prisma refuses for a model (its scalar types) or that clash with its client
 * (`Prisma`, `PrismaClient`).
 */
export const reservedPrismaModelNames: readonly string[] = [
  'String', 'Boolean', 'Int', 'BigInt', 'Float', 'Decimal', 'DateTime', 'Json', 'Bytes', 'Unsupported', 'Prisma', 'PrismaClient',
];

/**
 * A set of names that must stay distinct. `claim` returns the preferred name when it is free
 * (and accepted by `accepts`), otherwise the first free `<name>_2`, `<name>_3`…
 */
export class Namespace {
  private readonly taken = new Set<string>();

  constructor(
    reserved: Iterable<string> = [],
    private readonly accepts: (name: string) => boolean = () => true,
  ) {
    for (const name of reserved) this.taken.add(name);
  }

  has(name: string): boolean {
    return this.taken.has(name);
  }

  /** The first of `preferred`, `preferred_2`, … for which every derived name is free. */
  claim(preferred: string, derived: (stem: string) => readonly string[] = (stem) => [stem]): string {
    for (let n = 1; ; n++) {
      const stem = n === 1 ? preferred : `${preferred}_${n}`;
      const names = derived(stem);
      if (names.every((name) => !this.taken.has(name) && this.accepts(name))) {
        for (const name of names) this.taken.add(name);
        return stem;
      }
    }
  }
}

/** A valid identifier from any text: ASCII letters and digits, `_` first when it would start with a digit. */
export function identifierStem(text: string): string {
  const stem = text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return stem === '' || /^[0-9]/.test(stem) ? `_${stem}` : stem;
}

export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

/**
 * Prisma field names of attributes whose names Prisma cannot spell (letters outside ASCII:
 * `año`): every character outside `[A-Za-z0-9_]` becomes `_x<hex code point>_` (`a_xf1_o`),
 * `x` first when the result would not start with a letter, `_` appended while the name is
 * another attribute's or another such field's. Deterministic; only the names needing one are
 * in the map (the others are their own Prisma field). The column stays Strapi's
 * (`snakeCase`: `ano`), given by `@map`.
 */
export function prismaFieldNames(names: readonly string[]): ReadonlyMap<string, string> {
  const taken = new Set(names);
  const out = new Map<string, string>();
  for (const name of names) {
    if (/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) continue;
    let field = asciiSpelling(name);
    while (taken.has(field)) field += '_';
    taken.add(field);
    out.set(name, field);
  }
  return out;
}

/** `name` in ASCII letters, digits and `_` (`año` → `a_xf1_o`; `x` first when it would not start with a letter): prismaFieldNames's spelling, unchecked for collisions. */
export function asciiSpelling(name: string): string {
  if (/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) return name;
  const spelled = [...name].map((c) => (/[A-Za-z0-9_]/.test(c) ? c : `_x${c.codePointAt(0)!.toString(16)}_`)).join('');
  return /^[A-Za-z]/.test(spelled) ? spelled : `x${spelled}`;
}
