/**
 * The blog set (fixtures/blog/models) through Strapi 5: writes first (they are behaviours too:
 * statuses, answers, relation positions, components, zones, media, drafts), then every read form,
 * errors, users, uploads, the `Strapi-Response-Format: v4` header and GraphQL.
 * Every request is recorded, whatever its status; the ids a later request needs are taken from
 * earlier answers, so a recording never depends on ids of an earlier run.
 */
import { png, publicAuth, query, type Auth, type StrapiClient } from '../../import/recorder/client.js';
import { recordBlogGraphql } from './blog-graphql.js';
import { recordBlogDraftLinks } from './blog-draft-links.js';
import { recordComponentRelations } from './component-relations.js';
import { recordPendingDrafts } from './pending-drafts.js';

const v4 = { 'Strapi-Response-Format': 'v4' };

export async function recordBlog(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);

  // Users: register (public), log in, /users/me.
  const alice = await rec('auth.register', 'POST', '/api/auth/local/register', publicAuth, { username: 'alice', email: 'alice@example.com', password: 'Secret123' });
  await rec('auth.register.duplicate', 'POST', '/api/auth/local/register', publicAuth, { username: 'alice', email: 'alice@example.com', password: 'Secret123' });
  await rec('auth.register.extraField', 'POST', '/api/auth/local/register', publicAuth, { username: 'bob', email: 'bob@example.com', password: 'Secret123', confirmed: true });
  await rec('auth.register.shortPassword', 'POST', '/api/auth/local/register', publicAuth, { username: 'carol', email: 'carol@example.com', password: '1' });
  const login = await rec('auth.login', 'POST', '/api/auth/local', publicAuth, { identifier: 'alice@example.com', password: 'Secret123' });
  await rec('auth.login.wrongPassword', 'POST', '/api/auth/local', publicAuth, { identifier: 'alice@example.com', password: 'nope' });
  const user: Auth = { kind: 'user', name: 'alice', jwt: login?.jwt ?? alice?.jwt };
  await rec('users.me', 'GET', '/api/users/me', user);
  await rec('users.me.populateRole', 'GET', `/api/users/me${query({ populate: ['role'] })}`, user);
  await rec('users.me.public', 'GET', '/api/users/me', publicAuth);
  await rec('users.list', 'GET', `/api/users${query({ populate: ['role'], sort: 'id:asc' })}`, user);
  await rec('users.findOne', 'GET', `/api/users/${alice?.user?.id}`, user);
  await rec('users-permissions.roles', 'GET', '/api/users-permissions/roles', user);
  await rec('users.count', 'GET', '/api/users/count', user);
  await rec('users.update', 'PUT', `/api/users/${alice?.user?.id}`, full, { username: 'alice2' });
  await rec('users.update.back', 'PUT', `/api/users/${alice?.user?.id}`, full, { username: 'alice' });
  await rec('auth.changePassword.wrong', 'POST', '/api/auth/change-password', user, { currentPassword: 'nope', password: 'Secret456', passwordConfirmation: 'Secret456' });
  await rec('auth.changePassword.mismatch', 'POST', '/api/auth/change-password', user, { currentPassword: 'Secret123', password: 'Secret456', passwordConfirmation: 'other' });
  await rec('auth.badToken', 'GET', '/api/articles', { kind: 'token', name: 'bad', key: 'not-a-token' });

  // Uploads: plain, several files, a text file, errors; then linked to an entry (ref/refId/field).
  const red = await png(4, 3, [200, 30, 30]);
  const blue = await png(2, 2, [30, 30, 200]);
  const [cover] = (await client.recordUpload('upload.one', user, [{ name: 'cover.png', type: 'image/png', data: red }])) ?? [];
  const pair = await client.recordUpload('upload.two', user, [
    { name: 'blue.png', type: 'image/png', data: blue },
    { name: 'notes.txt', type: 'text/plain', data: Buffer.from('hello strapi 5\n') },
  ], { fileInfo: JSON.stringify([{ name: 'blue renamed', alternativeText: 'a blue square', caption: 'blue' }, { name: 'notes' }]) });
  await client.recordUpload('upload.noFiles', user, [], {});
  await client.recordUpload('upload.public', publicAuth, [{ name: 'x.png', type: 'image/png', data: blue }]);
  await client.recordUpload('upload.updateInfo', user, [], { fileInfo: JSON.stringify({ alternativeText: 'red', caption: 'the cover' }) }, `?id=${cover?.id}`);
  await rec('upload.files', 'GET', '/api/upload/files', publicAuth);
  await rec('upload.files.sorted', 'GET', `/api/upload/files${query({ sort: 'name:asc', filters: { mime: { $contains: 'image' } } })}`, publicAuth);
  await rec('upload.files.findOne', 'GET', `/api/upload/files/${cover?.id}`, publicAuth);
  await rec('upload.files.findOne.missing', 'GET', '/api/upload/files/9999', publicAuth);

  // Authors, categories, tags (no draftAndPublish): create 201, unique, validation.
  const ada = (await rec('authors.create', 'POST', '/api/authors', full, { data: { name: 'Ada', email: 'ada@example.com', bio: 'first' } }))?.data;
  const bob = (await rec('authors.create.2', 'POST', '/api/authors', full, { data: { name: 'Bob', email: 'bob@example.com' } }))?.data;
  await rec('authors.create.duplicateEmail', 'POST', '/api/authors', full, { data: { name: 'Other', email: 'ada@example.com' } });
  await rec('authors.create.missingRequired', 'POST', '/api/authors', full, { data: { email: 'x@example.com' } });
  await rec('authors.create.badEmail', 'POST', '/api/authors', full, { data: { name: 'Bad', email: 'not-an-email' } });
  const news = (await rec('categories.create', 'POST', '/api/categories', full, { data: { name: 'News' } }))?.data;
  const tech = (await rec('categories.create.2', 'POST', '/api/categories', full, { data: { name: 'Tech Talk' } }))?.data;
  const tags: any[] = [];
  for (const name of ['alpha', 'beta', 'gamma', 'delta']) tags.push((await rec(`tags.create.${name}`, 'POST', '/api/tags', full, { data: { name } }))?.data);
  await rec('tags.create.duplicate', 'POST', '/api/tags', full, { data: { name: 'alpha' } });
  await rec('tags.create.user', 'POST', '/api/tags', user, { data: { name: 'epsilon' } });
  const [alpha, beta, gamma, delta] = tags.map((t) => t?.documentId);

  // Articles (draftAndPublish): a full create (relations by documentId, components, zone, media),
  // a draft, `publishedAt: null`, writes refused.
  const fullArticle = {
    title: 'Hello Strapi 5',
    description: 'first article',
    content: '# Hello',
    status: 'final',
    views: 10,
    rating: 4.5,
    price: 9.99,
    impressions: '9007199254740993',
    featured: true,
    publishDate: '2024-01-15',
    readingTime: '00:05:00',
    lastReviewedAt: '2024-01-15T09:00:00.000Z',
    metadata: { tags: ['a', 'b'], nested: { n: 1 } },
    editorNote: 'private note',
    author: ada?.documentId,
    category: { connect: [news?.documentId] },
    tags: [alpha, beta],
    cover: cover?.id,
    seo: { metaTitle: 'Hello', metaDescription: 'seo description' },
    links: [{ label: 'one', url: 'https://one.example' }, { label: 'two', url: 'https://two.example' }],
    blocks: [{ __component: 'shared.quote', title: 'Q', body: 'quoted' }, { __component: 'shared.rich-text', body: '**rich**' }],
  };
  const first = (await rec('articles.create', 'POST', '/api/articles', full, { data: fullArticle }))?.data;
  const draft = (await rec('articles.create.draft', 'POST', `/api/articles${query({ status: 'draft' })}`, full, { data: { title: 'A draft only', views: 1, author: { connect: [{ documentId: bob?.documentId }] } } }))?.data;
  const nulled = (await rec('articles.create.publishedAtNull', 'POST', '/api/articles', full, { data: { title: 'Published at null', publishedAt: null, views: 2 } }))?.data;
  // The authenticated role may create articles but not read categories or tags: Strapi 5 refuses relations to them.
  await rec('articles.create.user.relationNotReadable', 'POST', '/api/articles', user, { data: { title: 'User with relations', category: tech?.documentId, tags: { connect: [gamma] } } });
  await rec('articles.create.user', 'POST', '/api/articles', user, { data: { title: 'By a user', views: 3 } });
  const third = (await rec('articles.create.relations', 'POST', `/api/articles${query({ populate: ['category', 'tags'] })}`, full, { data: { title: 'Third with relations', views: 4, category: tech?.documentId, tags: { connect: [gamma] } } }))?.data;
  await rec('articles.create.populate', 'POST', `/api/articles${query({ populate: ['author', 'tags'] })}`, full, { data: { title: 'Created with populate', author: bob?.documentId, tags: [delta] } });
  await rec('articles.create.public', 'POST', '/api/articles', publicAuth, { data: { title: 'nope' } });
  await rec('articles.create.unknownKey', 'POST', '/api/articles', full, { data: { title: 'Unknown key', foo: 1 } });
  await rec('articles.create.noData', 'POST', '/api/articles', full, { title: 'no data wrapper' });
  await rec('articles.create.tooShort', 'POST', '/api/articles', full, { data: { title: 'ab' } });
  await rec('articles.create.missingTitle', 'POST', '/api/articles', full, { data: { views: 1 } });
  await rec('articles.create.badEnum', 'POST', '/api/articles', full, { data: { title: 'Bad enum', status: 'nope' } });
  await rec('articles.create.negativeViews', 'POST', '/api/articles', full, { data: { title: 'Negative', views: -1 } });
  await rec('articles.create.idKey', 'POST', '/api/articles', full, { data: { title: 'With id', id: 999 } });
  await rec('articles.create.documentIdKey', 'POST', '/api/articles', full, { data: { title: 'With documentId', documentId: 'abcdefghijklmnopqrstuvwx' } });
  await rec('articles.create.missingRelation', 'POST', '/api/articles', full, { data: { title: 'Missing relation', author: 'zzzzzzzzzzzzzzzzzzzzzzzz' } });
  await rec('articles.create.relationByNumericId', 'POST', '/api/articles', full, { data: { title: 'Relation by id', author: ada?.id } });
  await rec('articles.create.componentMissingRequired', 'POST', '/api/articles', full, { data: { title: 'Bad seo', seo: { metaDescription: 'no title' } } });
  await rec('articles.create.zoneUnknownComponent', 'POST', '/api/articles', full, { data: { title: 'Bad zone', blocks: [{ __component: 'shared.nope', body: 'x' }] } });
  await rec('articles.create.tooManyLinks', 'POST', '/api/articles', full, { data: { title: 'Links', links: Array.from({ length: 11 }, (_, i) => ({ label: `l${i}`, url: 'u' })) } });
  const A = first?.documentId;

  // Relation writes by documentId: positions, disconnect, set, longhand and shorthand.
  const readTags = (name: string) => rec(name, 'GET', `/api/articles/${A}${query({ populate: { tags: { fields: ['name'] } }, fields: ['title'] })}`, publicAuth);
  await rec('relations.connect.before', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ documentId: gamma, position: { before: alpha } }] } } });
  await readTags('relations.connect.before.read');
  await rec('relations.connect.after', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ documentId: delta, position: { after: gamma } }] } } });
  await readTags('relations.connect.after.read');
  await rec('relations.connect.start', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ documentId: beta, position: { start: true } }] } } });
  await readTags('relations.connect.start.read');
  await rec('relations.connect.end', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ documentId: gamma, position: { end: true } }] } } });
  await readTags('relations.connect.end.read');
  await rec('relations.disconnect', 'PUT', `/api/articles/${A}`, full, { data: { tags: { disconnect: [delta, { documentId: alpha }] } } });
  await readTags('relations.disconnect.read');
  await rec('relations.set', 'PUT', `/api/articles/${A}`, full, { data: { tags: { set: [delta, alpha, beta] } } });
  await readTags('relations.set.read');
  await rec('relations.shorthandArray', 'PUT', `/api/articles/${A}`, full, { data: { tags: [gamma, alpha] } });
  await readTags('relations.shorthandArray.read');
  await rec('relations.connect.missingPivot', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ documentId: beta, position: { before: 'zzzzzzzzzzzzzzzzzzzzzzzz' } }] } } });
  await rec('relations.connect.numericId', 'PUT', `/api/articles/${A}`, full, { data: { tags: { connect: [{ id: tags[3]?.id }] } } });
  await readTags('relations.connect.numericId.read');
  await rec('relations.toOne.disconnect', 'PUT', `/api/articles/${A}${query({ populate: ['author', 'category'] })}`, full, { data: { category: { disconnect: [news?.documentId] }, author: null } });
  await rec('relations.toOne.set', 'PUT', `/api/articles/${A}${query({ populate: ['author', 'category'] })}`, full, { data: { category: { set: [tech?.documentId] }, author: { connect: [ada?.documentId] } } });
  await rec('relations.inverse.author', 'PUT', `/api/authors/${bob?.documentId}${query({ populate: { articles: { fields: ['title'] } } })}`, full, { data: { articles: { connect: [third?.documentId] } } });

  // Components and the zone: update replaces, ids of kept instances, order, null.
  // Component ids differ between the published and the draft row: an update (which writes the
  // draft, then publishes) refuses the published row's ids.
  const components = { populate: { seo: true, links: true, blocks: true } };
  const published = await rec('components.read', 'GET', `/api/articles/${A}${query(components)}`, publicAuth);
  await rec('components.update.publishedIds', 'PUT', `/api/articles/${A}`, full, { data: { links: (published?.data?.links ?? []).map((l: any) => ({ id: l.id, label: l.label, url: l.url })) } });
  const drafted = await rec('components.read.draft', 'GET', `/api/articles/${A}${query({ ...components, status: 'draft' })}`, full);
  const links = drafted?.data?.links ?? [];
  await rec('components.update', 'PUT', `/api/articles/${A}${query({ populate: { seo: true, links: true, blocks: true } })}`, full, {
    data: {
      seo: { metaTitle: 'Hello again' },
      links: [{ id: links[1]?.id, label: 'two (kept)', url: 'https://two.example' }, { label: 'three', url: 'https://three.example' }],
      blocks: [{ __component: 'shared.rich-text', body: 'moved first' }, { __component: 'shared.quote', title: 'Q2', body: 'second' }],
    },
  });
  await rec('components.update.foreignId', 'PUT', `/api/articles/${A}`, full, { data: { links: [{ id: 99999, label: 'x', url: 'y' }] } });
  await rec('components.null', 'PUT', `/api/articles/${third?.documentId}${query({ populate: '*' })}`, full, { data: { seo: null, links: [], blocks: [] } });

  // Media: link by id, multiple ids, upload linked to an entry (ref/refId/field).
  await rec('media.set', 'PUT', `/api/articles/${third?.documentId}${query({ populate: ['cover'] })}`, full, { data: { cover: pair?.[0]?.id } });
  await rec('media.null', 'PUT', `/api/articles/${third?.documentId}${query({ populate: ['cover'] })}`, full, { data: { cover: null } });
  await rec('media.byDocumentId', 'PUT', `/api/articles/${third?.documentId}${query({ populate: ['cover'] })}`, full, { data: { cover: pair?.[0]?.documentId } });
  // refId is a row id: the one a create answered (the published copy, replaced at every publish
  // since), then the current draft row's and published row's.
  await client.recordUpload('upload.ref.id', user, [{ name: 'linked.png', type: 'image/png', data: blue }], { ref: 'api::article.article', refId: String(third?.id), field: 'cover' });
  const thirdDraft = (await rec('upload.ref.draftRow', 'GET', `/api/articles/${third?.documentId}${query({ fields: ['title'], status: 'draft' })}`, full))?.data;
  await client.recordUpload('upload.ref.draftId', user, [{ name: 'linked4.png', type: 'image/png', data: blue }], { ref: 'api::article.article', refId: String(thirdDraft?.id), field: 'cover' });
  await rec('upload.ref.draftId.readDraft', 'GET', `/api/articles/${third?.documentId}${query({ populate: { cover: { fields: ['name'] } }, fields: ['title'], status: 'draft' })}`, full);
  await rec('upload.ref.draftId.readPublished', 'GET', `/api/articles/${third?.documentId}${query({ populate: { cover: { fields: ['name'] } }, fields: ['title'] })}`, full);
  const thirdPublished = (await rec('upload.ref.publishedRow', 'GET', `/api/articles/${third?.documentId}${query({ fields: ['title'] })}`, full))?.data;
  await client.recordUpload('upload.ref.publishedId', user, [{ name: 'linked5.png', type: 'image/png', data: red }], { ref: 'api::article.article', refId: String(thirdPublished?.id), field: 'cover' });
  await rec('upload.ref.publishedId.readPublished', 'GET', `/api/articles/${third?.documentId}${query({ populate: { cover: { fields: ['name'] } }, fields: ['title'] })}`, full);
  await rec('upload.ref.id.read', 'GET', `/api/articles/${third?.documentId}${query({ populate: ['cover'], status: 'draft' })}`, full);
  await rec('upload.ref.id.readPublished', 'GET', `/api/articles/${third?.documentId}${query({ populate: ['cover'] })}`, full);
  await client.recordUpload('upload.ref.documentId', user, [{ name: 'linked2.png', type: 'image/png', data: red }], { ref: 'api::article.article', refId: String(third?.documentId), field: 'cover' });
  await client.recordUpload('upload.ref.component', user, [{ name: 'linked3.png', type: 'image/png', data: red }], { ref: 'shared.seo', refId: '1', field: 'metaTitle' });

  // Drafts of published documents: a draft edit while the published version is served.
  await rec('drafts.updateDraft', 'PUT', `/api/articles/${A}${query({ status: 'draft' })}`, full, { data: { title: 'Hello (draft edit)', views: 11 } });
  await rec('drafts.published', 'GET', `/api/articles/${A}${query({ fields: ['title', 'views', 'publishedAt', 'updatedAt'] })}`, publicAuth);
  await rec('drafts.draft', 'GET', `/api/articles/${A}${query({ fields: ['title', 'views', 'publishedAt', 'updatedAt'], status: 'draft' })}`, publicAuth);
  await rec('drafts.draft.token', 'GET', `/api/articles/${A}${query({ fields: ['title', 'views', 'publishedAt', 'updatedAt'], status: 'draft' })}`, full);
  await rec('drafts.list.draft', 'GET', `/api/articles${query({ fields: ['title', 'publishedAt'], status: 'draft', sort: 'title:asc' })}`, full);
  await rec('drafts.list.published', 'GET', `/api/articles${query({ fields: ['title', 'publishedAt'], status: 'published', sort: 'title:asc' })}`, full);
  await rec('drafts.list.badStatus', 'GET', `/api/articles${query({ status: 'nope' })}`, full);
  // The modes of @strapi/utils' publication-filter.js, on both sides, and one it refuses.
  const modes = ['never-published', 'has-published-version', 'modified', 'unmodified', 'never-published-document', 'has-published-version-document', 'published-without-draft', 'published-with-draft', 'nope'];
  for (const status of ['draft', 'published']) {
    for (const filter of modes) {
      await rec(`drafts.publicationFilter.${status}.${filter}`, 'GET', `/api/articles${query({ fields: ['title', 'publishedAt'], status, publicationFilter: filter, sort: 'title:asc' })}`, publicAuth);
    }
  }
  await rec('drafts.hasPublishedVersion', 'GET', `/api/articles${query({ fields: ['title'], status: 'draft', hasPublishedVersion: 'false', sort: 'title:asc' })}`, full);
  // Strapi 5's Content API has no publish/unpublish/discard route: a write without status=draft publishes.
  await rec('drafts.publishRoute', 'POST', `/api/articles/${A}/actions/publish`, full);
  await rec('drafts.publish.put', 'PUT', `/api/articles/${A}${query({ fields: ['title', 'views', 'publishedAt'] })}`, full, { data: { views: 12 } });
  await rec('drafts.publish.put.read', 'GET', `/api/articles/${A}${query({ fields: ['title', 'views', 'publishedAt'] })}`, publicAuth);
  await rec('drafts.draftOnly.publish', 'PUT', `/api/articles/${draft?.documentId}${query({ fields: ['title', 'publishedAt'] })}`, full, { data: { title: 'A draft, now published' } });
  await rec('drafts.draftOnly.unpublishViaNull', 'PUT', `/api/articles/${nulled?.documentId}${query({ fields: ['title', 'publishedAt'] })}`, full, { data: { publishedAt: null } });
  await rec('drafts.createDraftThenPublishedRead', 'GET', `/api/articles/${nulled?.documentId}`, publicAuth);

  // Reads: every form.
  const list = (name: string, params: Record<string, unknown>, auth: Auth = publicAuth, headers?: Record<string, string>) => rec(name, 'GET', `/api/articles${query(params)}`, auth, undefined, headers);
  await rec('articles.list', 'GET', '/api/articles', publicAuth);
  await list('articles.list.sorted', { sort: ['views:desc', 'title:asc'] });
  await list('articles.list.page', { pagination: { page: 2, pageSize: 2 }, sort: 'title:asc', fields: ['title'] });
  await list('articles.list.offset', { pagination: { start: 1, limit: 2 }, sort: 'title:asc', fields: ['title'] });
  await list('articles.list.noCount', { pagination: { page: 1, pageSize: 2, withCount: false }, sort: 'title:asc', fields: ['title'] });
  await list('articles.list.pageAndOffset', { pagination: { page: 1, start: 0 } });
  await list('articles.list.limitOver', { pagination: { pageSize: 500 }, fields: ['title'] });
  await list('articles.list.limitMinus1', { pagination: { limit: -1 }, fields: ['title'] });
  await list('articles.list.sortDocumentId', { sort: 'documentId:asc', fields: ['title'] });
  await list('articles.list.sortRelation', { sort: { author: { name: 'asc' } }, fields: ['title'] });
  await list('articles.list.fields', { fields: ['title', 'views'] });
  await list('articles.list.fieldsDocumentId', { fields: ['documentId'] });
  await list('articles.list.filter.eq', { filters: { title: { $eq: 'By a user' } } });
  await list('articles.list.filter.documentId', { filters: { documentId: { $eq: A } }, fields: ['title'] });
  await list('articles.list.filter.documentIdIn', { filters: { documentId: { $in: [A, third?.documentId] } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.filter.id', { filters: { id: { $gt: 0 } }, fields: ['title'], sort: 'id:asc' });
  await list('articles.list.filter.relation', { filters: { tags: { name: { $eq: 'alpha' } } }, fields: ['title'] });
  await list('articles.list.filter.relationDocumentId', { filters: { author: { documentId: { $eq: ada?.documentId } } }, fields: ['title'] });
  await list('articles.list.filter.or', { filters: { $or: [{ views: { $gte: 12 } }, { title: { $containsi: 'USER' } }] }, fields: ['title', 'views'], sort: 'title:asc' });
  await list('articles.list.filter.null', { filters: { category: { id: { $null: true } } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.filter.unknownField', { filters: { nope: { $eq: 1 } } });
  await list('articles.list.filter.privateField', { filters: { editorNote: { $eq: 'private note' } } });
  await list('articles.list.sort.unknown', { sort: 'nope:asc' });
  await list('articles.list.fields.unknown', { fields: ['nope'] });
  await list('articles.list.populate.unknown', { populate: ['nope'] });
  await list('articles.list.populate.star', { populate: '*', sort: 'title:asc' });
  await list('articles.list.populate.nested', { populate: { author: { populate: { articles: { fields: ['title'] } } }, tags: { fields: ['name'], sort: 'name:asc' }, category: { fields: ['name'] } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.zoneOn', { populate: { blocks: { on: { 'shared.quote': { fields: ['title'] }, 'shared.rich-text': true } } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.zoneStar', { populate: { blocks: { populate: '*' } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.media', { populate: { cover: { fields: ['name', 'url'] } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.filtered', { populate: { tags: { filters: { name: { $ne: 'alpha' } } } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.count', { populate: { tags: { count: true } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.filter.component', { filters: { seo: { metaTitle: { $startsWith: 'Hello' } } }, fields: ['title'] });
  await list('articles.list.filter.and', { filters: { $and: [{ views: { $between: [1, 20] } }, { title: { $notContainsi: 'draft' } }] }, fields: ['title', 'views'], sort: 'views:asc' });
  await list('articles.list.filter.not', { filters: { $not: { views: { $lt: 4 } } }, fields: ['title', 'views'], sort: 'views:asc' });
  await list('articles.list.filter.notNull', { filters: { cover: { id: { $notNull: true } } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.filter.badOperator', { filters: { views: { $nope: 1 } } });
  await list('articles.list.pageZero', { pagination: { page: 0, pageSize: 2 }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.populate.componentFields', { populate: { seo: { fields: ['metaTitle'] }, links: { sort: 'label:desc' } }, fields: ['title'], sort: 'title:asc' });
  await list('articles.list.unknownParam', { foo: 'bar', fields: ['title'] });
  await list('articles.list.filter.statusAttribute', { filters: { status: { $eq: 'final' } }, fields: ['title', 'status'] });
  await list('articles.list.populate.deep', { populate: { author: { populate: { articles: { populate: { tags: { fields: ['name'] } }, fields: ['title'] } } } }, fields: ['title'], sort: 'title:asc', filters: { author: { name: 'Ada' } } });
  await list('articles.list.locale', { locale: 'fr', fields: ['title'] });
  await list('articles.list.publicationState', { publicationState: 'preview', fields: ['title'] });
  await rec('articles.findOne', 'GET', `/api/articles/${A}`, publicAuth);
  await rec('articles.findOne.populateAll', 'GET', `/api/articles/${A}${query({ populate: '*' })}`, publicAuth);
  await rec('articles.findOne.numericId', 'GET', `/api/articles/${first?.id}`, publicAuth);
  await rec('articles.findOne.missing', 'GET', '/api/articles/zzzzzzzzzzzzzzzzzzzzzzzz', publicAuth);
  await rec('articles.findOne.draftOnly.public', 'GET', `/api/articles/${nulled?.documentId}`, publicAuth);
  await rec('authors.list', 'GET', `/api/authors${query({ populate: { articles: { fields: ['title'] } }, sort: 'name:asc' })}`, publicAuth);
  await rec('authors.list.status', 'GET', `/api/authors${query({ status: 'draft' })}`, publicAuth);
  await rec('categories.list', 'GET', `/api/categories${query({ populate: '*' })}`, publicAuth);
  await rec('tags.list', 'GET', `/api/tags${query({ sort: 'name:asc' })}`, publicAuth);
  await rec('tags.findOne', 'GET', `/api/tags/${alpha}${query({ populate: { articles: { fields: ['title'] } } })}`, publicAuth);
  await rec('routes.unknown', 'GET', '/api/nope', publicAuth);
  await rec('routes.forbidden.create', 'POST', '/api/tags', publicAuth, { data: { name: 'x' } });
  await rec('routes.forbidden.author', 'DELETE', `/api/authors/${ada?.documentId}`, publicAuth);

  // Single type.
  await rec('global.empty', 'GET', '/api/global', publicAuth);
  await rec('global.put', 'PUT', `/api/global${query({ populate: '*' })}`, full, { data: { siteName: 'My blog', siteDescription: 'about', defaultSeo: { metaTitle: 'Blog' } } });
  await rec('global.put.again', 'PUT', '/api/global', full, { data: { siteName: 'My blog 2' } });
  await rec('global.get', 'GET', `/api/global${query({ populate: '*' })}`, publicAuth);
  await rec('global.put.invalid', 'PUT', '/api/global', full, { data: { siteName: null } });
  await rec('global.put.public', 'PUT', '/api/global', publicAuth, { data: { siteName: 'x' } });

  // Strapi-Response-Format: v4.
  await list('v4format.list', { populate: { author: true, tags: true, cover: true, seo: true }, sort: 'title:asc' }, publicAuth, v4);
  await rec('v4format.findOne', 'GET', `/api/articles/${A}${query({ populate: '*' })}`, publicAuth, undefined, v4);
  await rec('v4format.findOne.numericId', 'GET', `/api/articles/${first?.id}`, publicAuth, undefined, v4);
  const v4Created = (await rec('v4format.create', 'POST', '/api/tags', full, { data: { name: 'v4 tag' } }, v4))?.data;
  await rec('v4format.update', 'PUT', `/api/tags/${v4Created?.documentId ?? v4Created?.attributes?.documentId ?? v4Created?.id}`, full, { data: { name: 'v4 tag 2' } }, v4);
  await rec('v4format.create.withAttributes', 'POST', '/api/tags', full, { data: { attributes: { name: 'wrapped' } } }, v4);
  await rec('v4format.error', 'GET', '/api/articles/zzzzzzzzzzzzzzzzzzzzzzzz', publicAuth, undefined, v4);
  await rec('v4format.global', 'GET', '/api/global', publicAuth, undefined, v4);
  await rec('v4format.users.me', 'GET', '/api/users/me', user, undefined, v4);
  await rec('v4format.upload.files', 'GET', '/api/upload/files', publicAuth, undefined, v4);

  // Deletes: 204 without a body, a missing document, then reads.
  await rec('articles.delete', 'DELETE', `/api/articles/${draft?.documentId}`, full);
  await rec('articles.delete.again', 'DELETE', `/api/articles/${draft?.documentId}`, full);
  await rec('articles.delete.missing', 'DELETE', '/api/articles/zzzzzzzzzzzzzzzzzzzzzzzz', full);
  await rec('articles.delete.read', 'GET', `/api/articles/${draft?.documentId}`, full);
  await rec('articles.delete.v4', 'DELETE', `/api/articles/${nulled?.documentId}`, full, undefined, v4);
  await rec('articles.update.missing', 'PUT', '/api/articles/zzzzzzzzzzzzzzzzzzzzzzzz', full, { data: { title: 'Nobody' } });
  await rec('tags.delete', 'DELETE', `/api/tags/${delta}`, full);
  await rec('tags.delete.readArticle', 'GET', `/api/articles/${A}${query({ populate: { tags: { fields: ['name'] } }, fields: ['title'] })}`, publicAuth);
  await rec('global.delete', 'DELETE', '/api/global', full);
  await rec('global.afterDelete', 'GET', '/api/global', publicAuth);
  await rec('upload.files.delete', 'DELETE', `/api/upload/files/${pair?.[1]?.id}`, user);
  await rec('upload.files.delete.missing', 'DELETE', '/api/upload/files/9999', user);

  // The final state, every article with everything (drafts and published).
  for (const status of ['published', 'draft']) {
    await list(`final.articles.${status}`, { populate: { author: true, category: true, tags: { sort: 'name:asc' }, cover: true, seo: true, links: true, blocks: { populate: '*' } }, status, sort: 'title:asc' }, full);
  }

  await recordBlogGraphql(client, full, user, { article: A, author: ada?.documentId, tag: alpha });
  await recordBlogDraftLinks(client, full, user);
  await recordComponentRelations(client, full);
  await recordPendingDrafts(client, full);
}
