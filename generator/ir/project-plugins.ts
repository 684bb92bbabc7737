/**
 * The Strapi plugins a project installs that change what contentgen emits. A Strapi v4
 * project chooses them in its package.json; a bare models folder gets contentgen's defaults
 * (GraphQL, i18n and the documentation on; the community plugins off).
 */
export interface ProjectPlugins {
  /** `@strapi/plugin-graphql`: the /graphql endpoint, its schema and schema.graphql. */
  readonly graphql: boolean;
  /** `@strapi/plugin-i18n`: localized types, locales and their routes. */
  readonly i18n: boolean;
  /** `@strapi/plugin-documentation`: the documentation routes (Swagger UI). */
  readonly documentation: boolean;
  /** `strapi-plugin-populate-deep`: `populate=deep` and `populate=deep,N`. */
  readonly populateDeep: boolean;
  /** `strapi-plugin-transformer`: flattened answers, as its config says. */
  readonly transformer: boolean;
  /**
   * `@strapi/provider-upload-aws-s3`: uploads stored in S3 (runtime/upload/provider-s3.ts and
   * the AWS SDK, ~22 MB installed, which a server storing files locally goes without). Also on
   * when the project's config/plugins.js or the server's src/config.ts selects `'aws-s3'`.
   */
  readonly uploadAwsS3: boolean;
}

/** The npm package that installs each plugin. */
export const pluginPackages: Readonly<Record<keyof ProjectPlugins, readonly string[]>> = {
  graphql: ['@strapi/plugin-graphql'],
  i18n: ['@strapi/plugin-i18n'],
  documentation: ['@strapi/plugin-documentation'],
  populateDeep: ['strapi-plugin-populate-deep'],
  transformer: ['strapi-plugin-transformer'],
  uploadAwsS3: ['@strapi/provider-upload-aws-s3'],
};

export const modelsFolderPlugins: ProjectPlugins = { graphql: true, i18n: true, documentation: true, populateDeep: false, transformer: false, uploadAwsS3: false };

/**
 * The plugins of a project depending on these packages, with `@strapi/strapi` in the version
 * range `strapiVersion`: Strapi 5 has i18n in its core (no `@strapi/plugin-i18n` to install),
 * so a Strapi 5 project's localized types are localized whatever its package.json lists.
 */
export function pluginsOf(packages: readonly string[], strapiVersion = '4'): ProjectPlugins {
  const installed = (key: keyof ProjectPlugins) => pluginPackages[key].some((p) => packages.includes(p));
  return {
    graphql: installed('graphql'),
    i18n: installed('i18n') || strapiMajor(strapiVersion) >= 5,
    documentation: installed('documentation'),
    populateDeep: installed('populateDeep'),
    transformer: installed('transformer'),
    uploadAwsS3: installed('uploadAwsS3'),
  };
}

/** The major version a package.json range names (`^5.8.0`, `5.36.1`, `~4.26`); 4 when it names none. */
export function strapiMajor(range: string): number {
  const major = /\d+/.exec(range);
  return major ? Number(major[0]) : 4;
}

/** `graphql, i18n` — for the CLI's "read a Strapi project" line. */
export function describePlugins(plugins: ProjectPlugins): string {
  const on = (Object.keys(pluginPackages) as (keyof ProjectPlugins)[]).filter((k) => plugins[k]).map((k) => pluginPackages[k][0]!);
  return on.length ? on.join(', ') : 'none that contentgen serves';
}
