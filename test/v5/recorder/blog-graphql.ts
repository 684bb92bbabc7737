/**
 * The blog set's GraphQL operations in Strapi 5's schema: flat types, `documentId` arguments,
 * `…_connection` queries, `status`, DeleteMutationResponse, users and errors.
 */
import { publicAuth, type Auth, type StrapiClient } from '../../import/recorder/client.js';
import { recordComponentRelationsGraphql } from './component-relations.js';

const articleFields = `documentId title slug description content status views rating price impressions featured publishDate readingTime lastReviewedAt metadata
  createdAt updatedAt publishedAt
  author { documentId name email }
  category { documentId name slug }
  tags(sort: "name:asc") { documentId name }
  tags_connection { nodes { documentId name } }
  cover { documentId name url width height formats hash ext mime size alternativeText caption provider }
  seo { id metaTitle metaDescription }
  links { id label url }
  blocks { __typename ... on ComponentSharedQuote { id title body } ... on ComponentSharedRichText { id body } ... on Error { code message } }`;

const pageInfo = 'pageInfo { total page pageSize pageCount }';

export async function recordBlogGraphql(client: StrapiClient, full: Auth, user: Auth, ids: { article: string; author: string; tag: string }): Promise<void> {
  const gql = client.graphql.bind(client);
  // Reads.
  await gql('graphql.articles', `query { articles(sort: "title:asc") { ${articleFields} } }`, publicAuth);
  await gql('graphql.articles.draft', `query { articles(sort: "title:asc", status: DRAFT) { documentId title publishedAt } }`, full);
  await gql('graphql.articles.draft.public', `query { articles(sort: "title:asc", status: DRAFT) { documentId title publishedAt } }`, publicAuth);
  await gql('graphql.articles.page', `query { articles(sort: ["views:desc", "title:asc"], pagination: { page: 2, pageSize: 1 }) { title views } }`, publicAuth);
  await gql('graphql.articles.overMax', `query { articles_connection(pagination: { pageSize: 500 }) { nodes { title } ${pageInfo} } }`, publicAuth);
  await gql('graphql.articles.pageAndOffset', `query { articles(pagination: { page: 1, start: 0 }) { title } }`, publicAuth);
  await gql('graphql.articles.filters.component', `query { articles(filters: { seo: { metaTitle: { startsWith: "Hello" } } }) { title seo { metaTitle } } }`, publicAuth);
  await gql('graphql.articles.offset', `query { articles(sort: "title:asc", pagination: { start: 1, limit: 1 }) { title } }`, publicAuth);
  await gql('graphql.articles.filters', `query($doc: ID) { articles(filters: { or: [{ documentId: { eq: $doc } }, { tags: { name: { eq: "gamma" } } }] }, sort: "title:asc") { documentId title } }`, publicAuth, { doc: ids.article });
  await gql('graphql.articles.filters.relation', `query { articles(filters: { author: { name: { eq: "Ada" } } }) { title author { name } } }`, publicAuth);
  await gql('graphql.articles_connection', `query { articles_connection(sort: "title:asc", pagination: { pageSize: 2 }) { nodes { documentId title } ${pageInfo} } }`, publicAuth);
  await gql('graphql.articles_connection.draft', `query { articles_connection(status: DRAFT, sort: "title:asc") { nodes { title publishedAt } ${pageInfo} } }`, full);
  await gql('graphql.articles.publicationFilter', `query { articles(status: DRAFT, publicationFilter: MODIFIED, sort: "title:asc") { title publishedAt } }`, publicAuth);
  await gql('graphql.articles.hasPublishedVersion', `query { articles(status: DRAFT, hasPublishedVersion: false, sort: "title:asc") { title } }`, publicAuth);
  await gql('graphql.article', `query($documentId: ID!) { article(documentId: $documentId) { ${articleFields} } }`, publicAuth, { documentId: ids.article });
  await gql('graphql.article.draft', `query($documentId: ID!) { article(documentId: $documentId, status: DRAFT) { title views publishedAt } }`, full, { documentId: ids.article });
  await gql('graphql.article.missing', `query { article(documentId: "zzzzzzzzzzzzzzzzzzzzzzzz") { title } }`, publicAuth);
  await gql('graphql.authors', `query { authors(sort: "name:asc") { documentId name email bio articles(sort: "title:asc") { title } articles_connection { nodes { title } } } }`, publicAuth);
  await gql('graphql.author', `query($documentId: ID!) { author(documentId: $documentId) { name articles { title } } }`, publicAuth, { documentId: ids.author });
  await gql('graphql.tags_connection', `query { tags_connection(sort: "name:asc", pagination: { page: 1, pageSize: 2 }) { nodes { name articles { title } } ${pageInfo} } }`, publicAuth);
  await gql('graphql.global', `query { global { documentId siteName siteDescription defaultSeo { metaTitle } } }`, publicAuth);
  await gql('graphql.uploadFiles', `query { uploadFiles(sort: "name:asc") { documentId name alternativeText caption width height formats hash ext mime size url previewUrl provider provider_metadata createdAt updatedAt publishedAt } }`, full);
  await gql('graphql.uploadFiles.related', `query { uploadFiles(sort: "name:asc") { name related { __typename } } }`, full);
  await gql('graphql.uploadFiles_connection', `query { uploadFiles_connection { nodes { name } ${pageInfo} } }`, publicAuth);
  await gql('graphql.me', `query { me { id documentId username email confirmed blocked role { id name type } } }`, user);
  await gql('graphql.me.public', `query { me { id username } }`, publicAuth);
  await gql('graphql.usersPermissionsUsers', `query { usersPermissionsUsers { documentId username email role { name } } }`, full);

  // Writes.
  const created = await gql(
    'graphql.createArticle',
    `mutation($data: ArticleInput!) { createArticle(data: $data) { ${articleFields} } }`,
    full,
    { data: { title: 'Made by GraphQL', views: 5, author: ids.author, tags: [ids.tag], seo: { metaTitle: 'gql' }, links: [{ label: 'g', url: 'https://g.example' }], blocks: [{ __typename: 'ComponentSharedQuote', title: 'gq', body: 'from graphql' }] } },
  );
  const doc = created?.data?.createArticle?.documentId;
  await gql('graphql.createArticle.draft', `mutation { createArticle(status: DRAFT, data: { title: "GraphQL draft" }) { documentId title publishedAt } }`, full);
  await gql('graphql.createArticle.zoneComponent', `mutation($data: ArticleInput!) { createArticle(data: $data) { title blocks { __typename ... on ComponentSharedQuote { title } } } }`, full, {
    data: { title: 'Zone with __component', blocks: [{ __component: 'shared.quote', title: 'by __component' }] },
  });
  await gql('graphql.updateArticle.draft', `mutation($documentId: ID!) { updateArticle(documentId: $documentId, status: DRAFT, data: { title: "GraphQL draft edit" }) { documentId title publishedAt } }`, full, { documentId: doc });
  await gql('graphql.updateArticle.draft.published', `query($documentId: ID!) { article(documentId: $documentId) { title publishedAt } }`, publicAuth, { documentId: doc });
  await gql('graphql.articles.publicationFilter.modified', `query { articles(status: DRAFT, publicationFilter: MODIFIED, sort: "title:asc") { title publishedAt } }`, publicAuth);
  await gql('graphql.updateArticle', `mutation($documentId: ID!) { updateArticle(documentId: $documentId, data: { views: 6 }) { documentId title views publishedAt } }`, full, { documentId: doc });
  await gql('graphql.updateArticle.missing', `mutation { updateArticle(documentId: "zzzzzzzzzzzzzzzzzzzzzzzz", data: { views: 6 }) { documentId } }`, full);
  await gql('graphql.updateArticle.invalid', `mutation($documentId: ID!) { updateArticle(documentId: $documentId, data: { title: "ab" }) { documentId } }`, full, { documentId: doc });
  await gql('graphql.createArticle.forbidden', `mutation { createArticle(data: { title: "nope nope" }) { documentId } }`, publicAuth);
  await gql('graphql.updateGlobal', `mutation { updateGlobal(data: { siteName: "GraphQL site", defaultSeo: { metaTitle: "g" } }) { documentId siteName defaultSeo { metaTitle } } }`, full);
  await gql('graphql.global.afterUpdate', `query { global { documentId siteName defaultSeo { metaTitle } } }`, publicAuth);
  await gql('graphql.deleteArticle', `mutation($documentId: ID!) { deleteArticle(documentId: $documentId) { documentId } }`, full, { documentId: doc });
  await gql('graphql.deleteArticle.missing', `mutation { deleteArticle(documentId: "zzzzzzzzzzzzzzzzzzzzzzzz") { documentId } }`, full);
  await gql('graphql.deleteGlobal', `mutation { deleteGlobal { documentId } }`, full);
  await gql('graphql.login', `mutation { login(input: { identifier: "alice", password: "Secret123" }) { jwt user { id documentId username email confirmed blocked role { name } } } }`, publicAuth);
  await gql('graphql.login.wrong', `mutation { login(input: { identifier: "alice", password: "wrong" }) { jwt } }`, publicAuth);
  await gql('graphql.register', `mutation { register(input: { username: "dora", email: "dora@example.com", password: "Secret123" }) { jwt user { username email } } }`, publicAuth);

  // Errors.
  await gql('graphql.error.unknownField', `query { articles { nope } }`, publicAuth);
  await gql('graphql.error.idField', `query { articles { id title } }`, publicAuth);
  await gql('graphql.error.badArg', `query { article(id: 1) { title } }`, publicAuth);
  await gql('graphql.error.syntax', `query { articles { `, publicAuth);
  await gql('graphql.v4.attributes', `query { articles { data { id attributes { title } } } }`, publicAuth);
  await recordComponentRelationsGraphql(client, full);
}
