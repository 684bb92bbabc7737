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

/** `publishedAt` → `published_at`, `SEO2Title` → `seo2_title`: Strapi's column naming. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[-\s.]+/g, '_')
    .toLowerCase();
}

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
