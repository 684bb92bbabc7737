/**
 * Strapi 5's GraphQL "v4 compatibility mode" (STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE=true) on the
 * blog models: what v4-shaped queries get there. The mode adds deprecated `id`, `attributes` and
 * `data` fields (an entry's `attributes`/`data` resolve to the entry itself) and `data`/`meta` on
 * `…_connection` types; it does not bring back v4's query shapes (`articles` stays a list,
 * `article` takes a documentId).
 */
import { publicAuth, type Auth, type StrapiClient } from '../../import/recorder/client.js';

export async function recordV4Compat(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const author = (await rec('fill.author', 'POST', '/api/authors', full, { data: { name: 'Ada', email: 'ada@example.com' } }))?.data;
  const tag = (await rec('fill.tag', 'POST', '/api/tags', full, { data: { name: 'alpha' } }))?.data;
  const article = (await rec('fill.article', 'POST', '/api/articles', full, { data: { title: 'Hello v4 clients', views: 3, author: author?.documentId, tags: [tag?.documentId] } }))?.data;
  await rec('fill.article.draft', 'POST', '/api/articles?status=draft', full, { data: { title: 'A draft' } });

  const gql = client.graphql.bind(client);
  const v4Entry = 'id attributes { title views publishedAt author { data { id attributes { name } } } tags { data { id attributes { name } } } }';
  // The v4 shapes, as a v4 client sends them.
  await gql('v4.articles', `query { articles(sort: "id:asc") { data { ${v4Entry} } meta { pagination { total page pageSize pageCount } } } }`, publicAuth);
  await gql('v4.articles.publicationState', `query { articles(publicationState: PREVIEW) { data { id } } }`, publicAuth);
  await gql('v4.article.byId', `query { article(id: ${article?.id}) { data { ${v4Entry} } } }`, publicAuth);
  await gql('v4.createArticle', `mutation { createArticle(data: { title: "From a v4 client", publishedAt: null }) { data { id attributes { title publishedAt } } } }`, full);
  await gql('v4.deleteArticle.byId', `mutation { deleteArticle(id: ${article?.id}) { data { id } } }`, full);
  // What the mode does serve: the compatibility fields on v5 queries.
  await gql('compat.articles.list', `query { articles(sort: "title:asc") { id documentId data { title } attributes { title } author { data { id attributes { name } } } tags_connection { data { id attributes { name } } } } }`, publicAuth);
  await gql('compat.articles_connection', `query { articles_connection(sort: "title:asc") { data { id attributes { title views } } meta { pagination { total page pageSize pageCount } } nodes { documentId } pageInfo { total } } }`, publicAuth);
  await gql('compat.article', `query($documentId: ID!) { article(documentId: $documentId) { id documentId attributes { title author { name } } } }`, publicAuth, { documentId: article?.documentId });
  await gql('compat.updateArticle', `mutation($documentId: ID!) { updateArticle(documentId: $documentId, data: { views: 4 }) { id data { id views } } }`, full, { documentId: article?.documentId });
}
