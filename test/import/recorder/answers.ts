/**
 * What a recording asks Strapi once the data is in: every entry of every type with deep populate,
 * as the public role and (drafts included) with the full-access token, the media library, the
 * users, a sorted and paginated list, and GraphQL queries of the set.
 */
import type { ModelSchema } from './app.js';
import { componentTypeName, pascalCase } from '../../../templates/runtime/graphql/naming.js';
import { deepPopulate, publicAuth, query, type Auth, type StrapiClient } from './client.js';

type Models = { types: ModelSchema[]; components: Map<string, Record<string, any>> };

export async function recordEntries(client: StrapiClient, models: Models, full: Auth): Promise<void> {
  for (const type of models.types) {
    // Lists populate every level of components and media, and relations as such; one entry at a
    // time also populates what its relations hold (their media, components and relations).
    const populate = deepPopulate(models, type.uid, 0);
    const deep = deepPopulate(models, type.uid, 1);
    const locale = type.localized ? { locale: 'all' } : {};
    if (type.kind === 'singleType') {
      const locales = type.localized ? ['en', 'fr', 'de'] : [undefined];
      for (const code of locales) {
        const params = { populate: deep, ...(code ? { locale: code } : {}) };
        const suffix = code ? `.${code}` : '';
        await client.record(`${type.singularName}.public${suffix}`, 'GET', `/api/${type.singularName}${query(params)}`, publicAuth);
        await client.record(`${type.singularName}.preview${suffix}`, 'GET', `/api/${type.singularName}${query({ ...params, publicationState: 'preview' })}`, full);
      }
      continue;
    }
    const list = { populate, sort: ['id:asc'], pagination: { pageSize: 100 }, ...locale };
    await client.record(`${type.pluralName}.list.public`, 'GET', `/api/${type.pluralName}${query(list)}`, publicAuth);
    const preview = await client.record(`${type.pluralName}.list.preview`, 'GET', `/api/${type.pluralName}${query({ ...list, publicationState: 'preview' })}`, full);
    for (const entry of preview?.data ?? []) {
      await client.record(`${type.pluralName}.findOne.${entry.id}`, 'GET', `/api/${type.pluralName}/${entry.id}${query({ populate: deep })}`, full);
    }
  }
}

export async function recordMediaAndUsers(client: StrapiClient, full: Auth, user: Auth): Promise<void> {
  const files = await client.record('upload.files', 'GET', '/api/upload/files', publicAuth);
  for (const file of files ?? []) await client.record(`upload.files.${file.id}`, 'GET', `/api/upload/files/${file.id}`, publicAuth);
  await client.record('upload.files.sorted', 'GET', `/api/upload/files${query({ sort: 'name:asc', filters: { mime: { $contains: 'image' } } })}`, publicAuth);
  await client.record('users.me', 'GET', '/api/users/me', user);
  await client.record('users.me.role', 'GET', `/api/users/me${query({ populate: ['role'] })}`, user);
  await client.record('users.list', 'GET', `/api/users${query({ populate: ['role'], sort: 'id:asc' })}`, full);
  await client.record('users-permissions.roles', 'GET', '/api/users-permissions/roles', full);
}

const articleFields = `id attributes {
  title slug summary body contactEmail views bignum price rating featured publishDate readTime scheduledAt meta kind
  createdAt updatedAt publishedAt
  author { data { id attributes { name email avatar { data { id attributes { url } } } } } }
  tags { data { id attributes { name } } }
  related { data { id attributes { title } } }
  relatedFrom { data { id attributes { title } } }
  owner { data { id attributes { username email } } }
  cover { data { id attributes { name url width height formats hash ext mime size } } }
  gallery { data { id attributes { name url mime } } }
  seo { id metaTitle metaDescription noIndex shareImage { data { id attributes { url } } } }
  links { id label url }
  blocks {
    __typename
    ... on ComponentSharedQuote { id text by }
    ... on ComponentSharedRichText { id body }
    ... on ComponentSectionsHero {
      id heading
      image { data { id attributes { url } } }
      pictures { data { id attributes { url } } }
      author { data { id attributes { name } } }
      tags { data { id attributes { name } } }
      ctas { id label icon { data { id attributes { url } } } target { data { id attributes { title } } } style { id color bold } }
    }
  }
}`;

export async function recordImportGraphql(client: StrapiClient, full: Auth, user: Auth): Promise<void> {
  await client.graphql('graphql.articles.preview', `query { articles(sort: "id:asc", pagination: { limit: 100 }, publicationState: PREVIEW) { data { ${articleFields} } meta { pagination { total page pageSize pageCount } } } }`, full);
  await client.graphql('graphql.articles.public', `query { articles(sort: ["views:desc", "title:asc"], pagination: { page: 1, pageSize: 2 }) { data { id attributes { title views kind } } meta { pagination { total page pageSize pageCount } } } }`, publicAuth);
  await client.graphql('graphql.article', `query($id: ID) { article(id: $id) { data { ${articleFields} } } }`, full, { id: 1 });
  await client.graphql('graphql.authors', `query { authors(sort: "id:asc") { data { id attributes { name email profile { data { id attributes { bio website } } } articles(sort: "id:asc") { data { id attributes { title } } } } } } }`, publicAuth);
  await client.graphql('graphql.homepage', `query { homepage(publicationState: PREVIEW) { data { id attributes { title publishedAt featured { data { id attributes { title } } } seo { id metaTitle } hero { id heading image { data { id } } author { data { id } } tags { data { id } } ctas { id label target { data { id } } style { color bold } } } } } } }`, full);
  await client.graphql('graphql.uploadFiles', `query { uploadFiles(sort: "id:asc") { data { id attributes { name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt updatedAt } } } }`, full);
  await client.graphql('graphql.me', `query { me { id username email confirmed blocked role { id name type } } }`, user);
  // Strapi types morph fields with the GenericMorph union and fails to resolve them: recorded as it answers.
  await client.graphql('graphql.notes', `query { notes(sort: "id:asc") { data { id attributes { title subject { __typename ... on Tag { name } ... on Article { title } } items { __typename ... on Tag { name } ... on Author { name } ... on Article { title } } } } } }`, full);
}

export async function recordImportLists(client: StrapiClient): Promise<void> {
  const params = { sort: ['views:desc', 'title:asc'], pagination: { page: 2, pageSize: 2 }, fields: ['title', 'views'], filters: { views: { $gte: 0 } } };
  await client.record('articles.sorted.page2', 'GET', `/api/articles${query(params)}`, publicAuth);
  await client.record('articles.filtered', 'GET', `/api/articles${query({ filters: { tags: { name: { $eq: 'life' } } }, sort: 'id:asc', populate: { tags: { sort: 'name:asc' } } })}`, publicAuth);
  await client.record('tags.withCount', 'GET', `/api/tags${query({ pagination: { start: 1, limit: 2 }, sort: 'name:desc' })}`, publicAuth);
}

export async function recordI18n(client: StrapiClient, full: Auth): Promise<void> {
  await client.record('i18n.locales', 'GET', '/api/i18n/locales', publicAuth);
  for (const locale of ['en', 'fr', 'de']) {
    await client.record(`pages.list.${locale}`, 'GET', `/api/pages${query({ locale, sort: 'id:asc', populate: { localizations: { fields: ['title', 'locale'] }, category: true } })}`, publicAuth);
  }
  await client.record('categories.list.fr', 'GET', `/api/categories${query({ locale: 'fr', populate: ['pages', 'localizations'] })}`, publicAuth);
  const pageFields = `id attributes { title slug body views locale publishedAt
    category { data { id attributes { name locale } } }
    seo { id metaTitle shareImage { data { id } } }
    sections { __typename ... on ComponentSharedQuote { id text by } ... on ComponentSharedSeo { id metaTitle } }
    localizations { data { id attributes { locale title } } } }`;
  await client.graphql('graphql.pages.fr', `query { pages(locale: "fr", sort: "id:asc", publicationState: PREVIEW) { data { ${pageFields} } } }`, full);
  await client.graphql('graphql.pages.all', `query { pages(locale: "all", sort: "id:asc") { data { ${pageFields} } meta { pagination { total } } } }`, publicAuth);
  await client.graphql('graphql.global.de', `query { global(locale: "de") { data { id attributes { siteName footer locale localizations { data { id attributes { locale } } } } } } }`, publicAuth);
}

/** Attribute types the GraphQL plugin answers as scalars (enumerations as their enum, blocks and json as JSON). */
const graphqlScalarTypes = new Set(['string', 'text', 'richtext', 'blocks', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal', 'boolean', 'date', 'time', 'datetime', 'timestamp', 'json']);
const graphqlName = (name: string) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(name);
const lowerFirst = (name: string) => name.charAt(0).toLowerCase() + name.slice(1);

type GraphqlModels = Models & { user?: Record<string, any> };

/** The scalar fields of a set of attributes (private ones and passwords are not in the schema). */
function scalarFields(attributes: Record<string, any>): string[] {
  return Object.entries(attributes ?? {}).filter(([name, a]) => graphqlScalarTypes.has(a.type) && !a.private && graphqlName(name)).map(([name]) => name);
}

/** What a relation's target is asked: its scalars (and timestamps), or for plugins' types a few of theirs. */
function targetScalars(models: GraphqlModels, target: string): string[] | undefined {
  if (target === 'plugin::upload.file') return ['url', 'name'];
  if (target === 'plugin::users-permissions.user') return ['username', 'email', 'confirmed', 'blocked', ...scalarFields(models.user ?? {})].filter((f, i, all) => all.indexOf(f) === i);
  if (target === 'plugin::users-permissions.role') return ['name', 'description', 'type'];
  const type = models.types.find((t) => t.uid === target);
  if (!type) return undefined;
  return [...scalarFields(type.attributes), 'createdAt', 'updatedAt', ...(type.draftAndPublish ? ['publishedAt'] : []), ...(type.localized ? ['locale'] : [])];
}

/**
 * The selection of a content type's entry for the generic GraphQL queries: every scalar, the
 * timestamps, relations one level deep with their scalars, media with url and name, components'
 * scalars and dynamic zones' components (scalars, aliased per component) by `__typename`. Morph relations are left out.
 */
export function graphqlEntryFields(models: GraphqlModels, type: ModelSchema): string {
  const fields = [...scalarFields(type.attributes), 'createdAt', 'updatedAt', ...(type.draftAndPublish ? ['publishedAt'] : []), ...(type.localized ? ['locale'] : [])];
  const component = (uid: string) => ['id', ...scalarFields(models.components.get(uid) ?? {})].join(' ');
  // A zone's components may share a field name with different types (two enums, String and
  // String!), which GraphQL's validation refuses in one selection: each fragment's fields aliased.
  const fragment = (uid: string, i: number) => ['id', ...scalarFields(models.components.get(uid) ?? {}).map((f) => `c${i}_${f}: ${f}`)].join(' ');
  for (const [name, a] of Object.entries(type.attributes) as [string, any][]) {
    if (a.private || !graphqlName(name)) continue;
    if (a.type === 'media') fields.push(`${name} { data { id attributes { url name } } }`);
    else if (a.type === 'component' && models.components.has(a.component)) fields.push(`${name} { ${component(a.component)} }`);
    else if (a.type === 'dynamiczone' && a.components?.length) {
      fields.push(`${name} { __typename ${a.components.map((c: string, i: number) => `... on ${componentTypeName(c)} { ${fragment(c, i)} }`).join(' ')} }`);
    } else if (a.type === 'relation' && a.target && !String(a.relation).startsWith('morph')) {
      const scalars = targetScalars(models, a.target);
      if (scalars) fields.push(`${name} { data { id attributes { ${scalars.join(' ')} } } }`);
    }
  }
  return `id attributes { ${fields.join(' ')} }`;
}

/**
 * Generic GraphQL queries of every content type, built from the models (the real-project round
 * trip): a collection's list (100 entries, by id, drafts included where draft & publish, every
 * locale where localized) and a single type's entry, with the full-access token.
 */
export async function recordGenericGraphql(client: StrapiClient, models: GraphqlModels, full: Auth): Promise<void> {
  for (const type of models.types) {
    const preview = type.draftAndPublish ? ', publicationState: PREVIEW' : '';
    const data = `data { ${graphqlEntryFields(models, type)} }`;
    if (type.kind === 'singleType') {
      const args = type.draftAndPublish ? '(publicationState: PREVIEW)' : '';
      await client.graphql(`graphql.${type.singularName}`, `query { ${lowerFirst(pascalCase(type.singularName))}${args} { ${data} } }`, full);
      continue;
    }
    const locale = type.localized ? ', locale: "all"' : '';
    await client.graphql(`graphql.${type.pluralName}`, `query { ${lowerFirst(pascalCase(type.pluralName))}(sort: "id:asc", pagination: { limit: 100 }${preview}${locale}) { ${data} meta { pagination { total } } } }`, full);
  }
}
