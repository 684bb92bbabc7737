/**
 * The blog set's drafts with relations and media (docs/strapi5.md "Drafts"): a published
 * article's draft saved with `connect` (positions), `disconnect`, `set`, a to-one relation and a
 * media field; both views read, populated, filtered and counted; the other side of the
 * relations; publishing; a draft's links when its document is deleted. REST, and the v5
 * GraphQL schema (a mutation with `status: DRAFT`). Own entries: nothing earlier is assumed.
 */
import { png, publicAuth, query, type Auth, type StrapiClient } from '../../import/recorder/client.js';

export async function recordBlogDraftLinks(client: StrapiClient, full: Auth, user: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const tag = async (name: string) => (await rec(`draftLinks.tags.create.${name}`, 'POST', '/api/tags', full, { data: { name } }))?.data;
  const [one, two, three] = [await tag('dl-one'), await tag('dl-two'), await tag('dl-three')];
  const grace = (await rec('draftLinks.authors.create.grace', 'POST', '/api/authors', full, { data: { name: 'Grace', email: 'grace@example.com' } }))?.data;
  const linus = (await rec('draftLinks.authors.create.linus', 'POST', '/api/authors', full, { data: { name: 'Linus', email: 'linus@example.com' } }))?.data;
  const [green] = (await client.recordUpload('draftLinks.upload', user, [{ name: 'green.png', type: 'image/png', data: await png(3, 2, [10, 200, 10]) }])) ?? [];

  const populate = { author: { fields: ['name'] }, tags: { fields: ['name'] }, cover: { fields: ['name'] } };
  const article = (
    await rec('draftLinks.create', 'POST', `/api/articles${query({ populate })}`, full, { data: { title: 'Linked', slug: 'linked', author: grace?.documentId, tags: [one?.documentId, two?.documentId] } })
  )?.data;
  const D = article?.documentId;
  const read = (name: string, status?: string, auth: Auth = full) => rec(name, 'GET', `/api/articles/${D}${query({ fields: ['title', 'publishedAt'], populate, ...(status ? { status } : {}) })}`, auth);

  // A draft save: to-one, connect at a position, disconnect, media.
  await rec('draftLinks.saveDraft', 'PUT', `/api/articles/${D}${query({ status: 'draft', populate })}`, full, {
    data: { title: 'Linked (draft)', author: linus?.documentId, tags: { connect: [{ documentId: three?.documentId, position: { start: true } }], disconnect: [one?.documentId] }, cover: green?.id },
  });
  await rec('draftLinks.saveDraft.again', 'PUT', `/api/articles/${D}${query({ status: 'draft', populate })}`, full, {
    data: { tags: { connect: [{ documentId: one?.documentId, position: { after: three?.documentId } }] } },
  });
  await read('draftLinks.read.draft', 'draft');
  await read('draftLinks.read.published');
  await read('draftLinks.read.published.public', undefined, publicAuth);
  // Filters and counts through the draft's links, and through the live ones.
  const list = (name: string, params: Record<string, unknown>) => rec(name, 'GET', `/api/articles${query({ fields: ['title'], sort: 'title:asc', ...params })}`, full);
  await list('draftLinks.list.draft.author', { status: 'draft', filters: { author: { name: { $eq: 'Linus' } } } });
  await list('draftLinks.list.published.author', { filters: { author: { name: { $eq: 'Linus' } } } });
  await list('draftLinks.list.draft.tag', { status: 'draft', filters: { tags: { name: { $eq: 'dl-three' } } } });
  await list('draftLinks.list.published.tag', { filters: { tags: { name: { $eq: 'dl-three' } } } });
  await list('draftLinks.list.draft.cover', { status: 'draft', filters: { cover: { name: { $eq: 'green.png' } } } });
  await rec('draftLinks.count.draft', 'GET', `/api/articles/${D}${query({ fields: ['title'], status: 'draft', populate: { tags: { count: true } } })}`, full);
  // The other side of the relations.
  await rec('draftLinks.tag.articles', 'GET', `/api/tags/${three?.documentId}${query({ fields: ['name'], populate: { articles: { fields: ['title', 'publishedAt'] } } })}`, full);
  await rec('draftLinks.author.articles', 'GET', `/api/authors/${linus?.documentId}${query({ fields: ['name'], populate: { articles: { fields: ['title', 'publishedAt'] } } })}`, full);
  await rec('draftLinks.author.articles.draft', 'GET', `/api/authors/${linus?.documentId}${query({ fields: ['name'], status: 'draft', populate: { articles: { fields: ['title', 'publishedAt'] } } })}`, full);

  // Publishing applies the draft's links; then a draft with `set` and a media field emptied.
  await rec('draftLinks.publish', 'PUT', `/api/articles/${D}${query({ fields: ['title', 'publishedAt'], populate })}`, full, { data: {} });
  await read('draftLinks.publish.read');
  await rec('draftLinks.publish.tag.articles', 'GET', `/api/tags/${three?.documentId}${query({ fields: ['name'], populate: { articles: { fields: ['title'] } } })}`, full);
  await rec('draftLinks.saveDraft.set', 'PUT', `/api/articles/${D}${query({ status: 'draft', populate })}`, full, {
    data: { author: null, tags: { set: [{ documentId: one?.documentId }, { documentId: two?.documentId }] }, cover: null },
  });
  await read('draftLinks.set.read.draft', 'draft');
  await read('draftLinks.set.read.published');

  // GraphQL (last: the REST replay sends these to v4's endpoint): the draft's relations, and a draft saved by a mutation.
  const gqlFields = 'title publishedAt author { name } tags { name } cover { name }';
  await client.graphql('graphql.draftLinks.article.draft', `query($d: ID!) { article(documentId: $d, status: DRAFT) { ${gqlFields} } }`, full, { d: D });
  await client.graphql('graphql.draftLinks.article.published', `query($d: ID!) { article(documentId: $d) { ${gqlFields} } }`, full, { d: D });
  await client.graphql(
    'graphql.draftLinks.updateDraft',
    `mutation($d: ID!, $tags: [ID]) { updateArticle(documentId: $d, status: DRAFT, data: { tags: $tags }) { ${gqlFields} } }`,
    full,
    { d: D, tags: [two?.documentId, three?.documentId] },
  );

  // Deleting the document: its draft's links go with it.
  await rec('draftLinks.delete', 'DELETE', `/api/articles/${D}`, full);
  await rec('draftLinks.delete.tag.articles', 'GET', `/api/tags/${one?.documentId}${query({ fields: ['name'], populate: { articles: { fields: ['title'] } } })}`, full);

  // What this module made goes again: the set's final database (imported by test/import) stays the earlier script's.
  for (const [name, id] of [['one', one], ['two', two], ['three', three]] as const) await rec(`draftLinks.cleanup.tag.${name}`, 'DELETE', `/api/tags/${id?.documentId}`, full);
  await rec('draftLinks.cleanup.author.grace', 'DELETE', `/api/authors/${grace?.documentId}`, full);
  await rec('draftLinks.cleanup.author.linus', 'DELETE', `/api/authors/${linus?.documentId}`, full);
  await rec('draftLinks.cleanup.file', 'DELETE', `/api/upload/files/${green?.id}`, user);
}
