/**
 * Relations and media inside components and dynamic-zone entries through Strapi 5 (issue #30 item
 * 2): `shared.seo` (single: `image` media, `tags` to-many), `shared.link` (repeatable: `article`
 * to-one, `icon` media), `shared.quote` (zone entry: `author` to-one, `pictures` media, multiple).
 * Shorthand documentIds, `connect`/`disconnect`/`set` with `{documentId, locale}` objects and
 * positions, numeric ids, unknown documentIds, media by file id and by documentId, what populated
 * reads answer afterwards (a draft-only target in published and draft reads); GraphQL mutations
 * with the same. Everything it names it creates itself (own tags, authors, articles, files), so it
 * runs after the blog script without touching what the script recorded before.
 */
import { png, publicAuth, query, type Auth, type StrapiClient } from '../../import/recorder/client.js';

const missing = 'zzzzzzzzzzzzzzzzzzzzzzzz';

/** Everything inside the components, populated. */
const deep = {
  fields: ['title'],
  populate: {
    seo: { populate: { image: { fields: ['name'] }, tags: { fields: ['name'] } } },
    links: { populate: { article: { fields: ['title', 'publishedAt'] }, icon: { fields: ['name'] } } },
    blocks: { on: { 'shared.quote': { populate: { author: { fields: ['name'] }, pictures: { fields: ['name'] } } }, 'shared.rich-text': true } },
  },
};

export async function recordComponentRelations(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const read = (name: string, documentId: string | undefined, extra: Record<string, unknown> = {}, auth: Auth = full) =>
    rec(name, 'GET', `/api/articles/${documentId}${query({ ...deep, ...extra })}`, auth);

  // What the components name: tags, authors, a published and a draft-only article, two files.
  const tags: string[] = [];
  const tagIds: number[] = [];
  for (const name of ['cr-one', 'cr-two', 'cr-three', 'cr-four']) {
    const tag = (await rec(`cr.tags.create.${name}`, 'POST', '/api/tags', full, { data: { name } }))?.data;
    tags.push(tag?.documentId);
    tagIds.push(tag?.id);
  }
  const [one, two, three, four] = tags;
  const eve = (await rec('cr.authors.create.eve', 'POST', '/api/authors', full, { data: { name: 'Eve', email: 'eve@example.com' } }))?.data;
  const finn = (await rec('cr.authors.create.finn', 'POST', '/api/authors', full, { data: { name: 'Finn', email: 'finn@example.com' } }))?.data;
  const live = (await rec('cr.target.published', 'POST', '/api/articles', full, { data: { title: 'CR target live' } }))?.data;
  const draftOnly = (await rec('cr.target.draft', 'POST', `/api/articles${query({ status: 'draft' })}`, full, { data: { title: 'CR target draft' } }))?.data;
  const [green] = (await client.recordUpload('cr.upload.green', full, [{ name: 'green.png', type: 'image/png', data: await png(3, 3, [30, 200, 30]) }])) ?? [];
  const [gray] = (await client.recordUpload('cr.upload.gray', full, [{ name: 'gray.png', type: 'image/png', data: await png(2, 3, [120, 120, 120]) }])) ?? [];

  // Shorthand: documentId strings and arrays, media by file id.
  const a = (
    await rec('cr.create.shorthand', 'POST', '/api/articles', full, {
      data: {
        title: 'CR shorthand',
        seo: { metaTitle: 'seo', image: green?.id, tags: [two, one] },
        links: [
          { label: 'live', url: '/live', article: live?.documentId, icon: gray?.id },
          { label: 'draft', url: '/draft', article: draftOnly?.documentId },
        ],
        blocks: [
          { __component: 'shared.quote', title: 'q', author: eve?.documentId, pictures: [gray?.id, green?.id] },
          { __component: 'shared.rich-text', body: 'text' },
        ],
      },
    })
  )?.data;
  await read('cr.create.shorthand.read', a?.documentId);
  await read('cr.create.shorthand.read.draft', a?.documentId, { status: 'draft' });
  await read('cr.create.shorthand.read.public', a?.documentId, {}, publicAuth);
  await rec('cr.create.shorthand.populateStar', 'GET', `/api/articles/${a?.documentId}${query({ populate: '*' })}`, full);
  await rec('cr.create.shorthand.populateDeepStar', 'GET', `/api/articles/${a?.documentId}${query({ fields: ['title'], populate: { seo: { populate: '*' }, links: { populate: '*' }, blocks: { populate: '*' } } })}`, full);

  // connect with objects and positions, media by documentId.
  const b = (
    await rec('cr.create.connect', 'POST', '/api/articles', full, {
      data: {
        title: 'CR connect',
        seo: { metaTitle: 'seo', image: gray?.documentId, tags: { connect: [{ documentId: one }, { documentId: two, position: { before: one } }, { documentId: three, position: { start: true } }, { documentId: four, position: { after: two } }] } },
        links: [{ label: 'l', url: '/l', article: { connect: [{ documentId: live?.documentId }] }, icon: green?.documentId }],
        blocks: [{ __component: 'shared.quote', title: 'q', author: { connect: [finn?.documentId] }, pictures: [green?.documentId] }],
      },
    })
  )?.data;
  await read('cr.create.connect.read', b?.documentId);

  // Updates of the components: instances named by their (draft) ids keep their relations.
  const draftB = (await read('cr.update.ids', b?.documentId, { status: 'draft' }))?.data;
  await rec('cr.update.disconnect', 'PUT', `/api/articles/${b?.documentId}`, full, {
    data: {
      seo: { id: draftB?.seo?.id, metaTitle: 'seo 2', tags: { disconnect: [{ documentId: two }], connect: [{ documentId: two, position: { end: true } }] } },
      links: [{ id: draftB?.links?.[0]?.id, label: 'l2', url: '/l2', article: { disconnect: [live?.documentId] }, icon: null }],
      blocks: [{ id: draftB?.blocks?.[0]?.id, __component: 'shared.quote', title: 'q2', author: { set: [eve?.documentId] } }],
    },
  });
  await read('cr.update.disconnect.read', b?.documentId);
  const draftB2 = (await read('cr.update.ids.2', b?.documentId, { status: 'draft' }))?.data;
  await rec('cr.update.set', 'PUT', `/api/articles/${b?.documentId}`, full, {
    data: { seo: { id: draftB2?.seo?.id, metaTitle: 'seo 3', tags: { set: [{ documentId: four }, { documentId: one }] } } },
  });
  await read('cr.update.set.read', b?.documentId);
  await rec('cr.update.omitted', 'PUT', `/api/articles/${b?.documentId}`, full, { data: { seo: { metaTitle: 'seo 4' } } });
  await read('cr.update.omitted.read', b?.documentId);

  // Numeric ids (row ids) inside components, and `{documentId, locale}` on a target without locales.
  const c = (
    await rec('cr.create.numeric', 'POST', '/api/articles', full, {
      data: {
        title: 'CR numeric',
        seo: { metaTitle: 'seo', tags: [tagIds[0], tagIds[2]] },
        links: [{ label: 'n', url: '/n', article: { connect: [{ id: live?.id }] } }],
        blocks: [{ __component: 'shared.quote', title: 'q', author: eve?.id }],
      },
    })
  )?.data;
  await read('cr.create.numeric.read', c?.documentId);
  const d = (
    await rec('cr.create.locale', 'POST', '/api/articles', full, {
      data: { title: 'CR locale', seo: { metaTitle: 'seo', tags: { connect: [{ documentId: one, locale: 'fr' }] } } },
    })
  )?.data;
  await read('cr.create.locale.read', d?.documentId);
  const e = (
    await rec('cr.create.stringIds', 'POST', '/api/articles', full, {
      data: { title: 'CR string ids', seo: { metaTitle: 'seo', tags: [String(tagIds[1])], image: String(green?.id) }, links: [{ label: 's', url: '/s', icon: String(gray?.id) }] },
    })
  )?.data;
  await read('cr.create.stringIds.read', e?.documentId);

  // Names of nothing.
  await rec('cr.create.missing.seoTag', 'POST', '/api/articles', full, { data: { title: 'CR missing', seo: { metaTitle: 'seo', tags: [missing] } } });
  await rec('cr.create.missing.linkArticle', 'POST', '/api/articles', full, { data: { title: 'CR missing', links: [{ label: 'x', url: '/x', article: missing }] } });
  await rec('cr.create.missing.quoteAuthor', 'POST', '/api/articles', full, { data: { title: 'CR missing', blocks: [{ __component: 'shared.quote', author: { connect: [{ documentId: missing }] } }] } });
  await rec('cr.create.missing.pivot', 'POST', '/api/articles', full, { data: { title: 'CR missing', seo: { metaTitle: 'seo', tags: { connect: [{ documentId: one, position: { before: missing } }] } } } });
  await rec('cr.create.missing.numeric', 'POST', '/api/articles', full, { data: { title: 'CR missing', seo: { metaTitle: 'seo', tags: [99999] } } });
  await rec('cr.create.missing.media', 'POST', '/api/articles', full, { data: { title: 'CR missing', links: [{ label: 'x', url: '/x', icon: 99999 }] } });
  await rec('cr.create.missing.mediaDocument', 'POST', '/api/articles', full, { data: { title: 'CR missing', links: [{ label: 'x', url: '/x', icon: missing }] } });
  await rec('cr.afterMissing', 'GET', `/api/articles${query({ filters: { title: { $eq: 'CR missing' } }, fields: ['title'], status: 'draft' })}`, full);

  // A draft-only target, then published: what the published and the draft version answer.
  await rec('cr.target.publish', 'PUT', `/api/articles/${draftOnly?.documentId}`, full, { data: { title: 'CR target draft, published' } });
  await read('cr.target.publish.read', a?.documentId);
  await read('cr.target.publish.read.draft', a?.documentId, { status: 'draft' });

  // Filters through a component's relation.
  await rec('cr.filter.seoTags', 'GET', `/api/articles${query({ filters: { seo: { tags: { name: { $eq: 'cr-one' } } } }, fields: ['title'], sort: 'title:asc' })}`, full);
  await rec('cr.filter.linkArticle', 'GET', `/api/articles${query({ filters: { links: { article: { documentId: { $eq: live?.documentId } } } }, fields: ['title'], sort: 'title:asc' })}`, full);

  // The articles go again, so the set's last reads (final.articles.*) stay the database's state.
  for (const [name, article] of Object.entries({ shorthand: a, connect: b, numeric: c, locale: d, stringIds: e, live, draftOnly })) {
    await rec(`cr.cleanup.${name}`, 'DELETE', `/api/articles/${article?.documentId}`, full);
  }
}

const gqlDeep = `documentId title
  seo { metaTitle image { name } tags(sort: "name:asc") { documentId name } }
  links { label article { title } icon { name } }
  blocks { __typename ... on ComponentSharedQuote { title author { name } pictures { name } } ... on ComponentSharedRichText { body } }`;

/** The same through GraphQL mutations (relation and media inputs are IDs there). */
export async function recordComponentRelationsGraphql(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const gql = client.graphql.bind(client);
  const tag = (await rec('cr.graphql.tag', 'POST', '/api/tags', full, { data: { name: 'cr-graphql' } }))?.data;
  const tag2 = (await rec('cr.graphql.tag.2', 'POST', '/api/tags', full, { data: { name: 'cr-graphql-2' } }))?.data;
  const author = (await rec('cr.graphql.author', 'POST', '/api/authors', full, { data: { name: 'Gus', email: 'gus@example.com' } }))?.data;
  const target = (await rec('cr.graphql.target', 'POST', '/api/articles', full, { data: { title: 'CR graphql target' } }))?.data;
  const [file] = (await client.recordUpload('cr.graphql.upload', full, [{ name: 'teal.png', type: 'image/png', data: await png(2, 2, [30, 160, 160]) }])) ?? [];
  const create = `mutation($data: ArticleInput!) { createArticle(data: $data) { ${gqlDeep} } }`;
  const created = await gql('cr.graphql.create', create, full, {
    data: {
      title: 'CR graphql',
      seo: { metaTitle: 'seo', image: file?.documentId, tags: [tag?.documentId, tag2?.documentId] },
      links: [{ label: 'g', url: '/g', article: target?.documentId, icon: file?.documentId }],
      blocks: [{ __typename: 'ComponentSharedQuote', title: 'q', author: author?.documentId, pictures: [file?.documentId] }],
    },
  });
  // A file's row id: GraphQL makes it the string "<id>" (type ID).
  const mediaArticle = await gql('cr.graphql.create.mediaId', create, full, { data: { title: 'CR graphql media id', links: [{ label: 'm', url: '/m', icon: file?.id }] } });
  const doc = created?.data?.createArticle?.documentId;
  const mediaDoc = mediaArticle?.data?.createArticle?.documentId;
  await gql('cr.graphql.read', `query($documentId: ID!) { article(documentId: $documentId) { ${gqlDeep} } }`, full, { documentId: doc });
  await gql('cr.graphql.read.draft', `query($documentId: ID!) { article(documentId: $documentId, status: DRAFT) { ${gqlDeep} } }`, full, { documentId: doc });
  const update = `mutation($documentId: ID!, $data: ArticleInput!) { updateArticle(documentId: $documentId, data: $data) { ${gqlDeep} } }`;
  await gql('cr.graphql.update', update, full, { documentId: doc, data: { seo: { metaTitle: 'seo 2', tags: [tag2?.documentId], image: file?.documentId } } });
  await gql('cr.graphql.update.numeric', update, full, { documentId: doc, data: { seo: { metaTitle: 'seo 3', tags: [String(tag?.id)] }, links: [{ label: 'n', url: '/n', article: String(target?.id) }] } });
  await gql('cr.graphql.update.missing', update, full, { documentId: doc, data: { seo: { metaTitle: 'seo 4', tags: [missing] } } });
  await gql('cr.graphql.update.missingQuote', update, full, { documentId: doc, data: { blocks: [{ __typename: 'ComponentSharedQuote', author: missing }] } });
  await gql('cr.graphql.afterUpdates', `query($documentId: ID!) { article(documentId: $documentId) { ${gqlDeep} } }`, full, { documentId: doc });
  // The articles go again (the set's last reads stay the database's state).
  const remove = `mutation($documentId: ID!) { deleteArticle(documentId: $documentId) { documentId } }`;
  await gql('cr.graphql.cleanup', remove, full, { documentId: doc });
  await gql('cr.graphql.cleanup.mediaId', remove, full, { documentId: mediaDoc });
  await gql('cr.graphql.cleanup.target', remove, full, { documentId: target?.documentId });
}
