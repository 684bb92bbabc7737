/** Every derived identifier, in one place. Emitters and templates never case-convert. */

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

/** `shared.seo` → `ComponentSharedSeo` (Strapi's component globalId). */
export function componentPascal(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `Component${pascalCase(category)}${pascalCase(name)}`;
}

export const kebabCasePattern = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
