/**
 * Type-level tests of the typed client (out/client, the blog fixture's): calls a frontend
 * writes, with the answer types they must get, and `@ts-expect-error` on what must not
 * compile (tsc reports an unused one, so each marks a real error). Never run: the root
 * `tsc --noEmit` checks it against out/client, and test/generator/client.test.ts against a
 * client freshly emitted from the blog models (it rewrites the import below).
 */
import { createClient, isStrapiError, type Entry, type StrapiError } from '../../out/client/dist/index.js';

/** `true` only when A and B are the same type (not merely assignable). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(): T | undefined {
  return undefined;
}

const api = createClient({ url: 'http://localhost:1337', token: 'an API token' });

export async function answersFollowTheQuery() {
  const { data, meta } = await api.articles.find({
    fields: ['title', 'slug'],
    populate: { author: { fields: ['name'] }, tags: true, blocks: { on: { 'shared.quote': true } } },
    filters: { title: { $containsi: 'typed' }, author: { name: { $eq: 'Ada' } } },
    sort: ['title:asc', { views: 'desc' }],
    pagination: { page: 1, pageSize: 10 },
  });
  const article = data[0]!;
  expectType<Equal<typeof article.id, number>>();
  expectType<Equal<typeof article.attributes.title, string | null>>();
  expectType<Equal<typeof article.attributes.author.data, { id: number; attributes: { name: string | null } } | null>>();
  expectType<Equal<keyof (typeof article.attributes.tags.data)[number]['attributes'], 'name' | 'createdAt' | 'updatedAt'>>();
  expectType<Equal<typeof meta.pagination, { page: number; pageSize: number; pageCount: number; total: number }>>();
  // @ts-expect-error: not in `fields`
  void article.attributes.description;
  // @ts-expect-error: the author's email is not in its `fields`
  void article.attributes.author.data?.attributes.email;
  // @ts-expect-error: category is not populated
  void article.attributes.category;
  // @ts-expect-error: the tags' articles are not populated
  void article.attributes.tags.data[0]?.attributes.articles;
  // With `on`, a dynamic zone answers the components it names only.
  expectType<Equal<(typeof article.attributes.blocks)[number], { __component: 'shared.quote'; id: number; title: string | null; body: string | null }>>();
}

export async function dynamicZones() {
  const { data } = await api.articles.find({ populate: ['blocks'] });
  for (const block of data[0]!.attributes.blocks) {
    // A dynamic zone is a union discriminated on `__component`.
    if (block.__component === 'shared.quote') expectType<Equal<keyof typeof block, '__component' | 'id' | 'title' | 'body'>>();
    else expectType<Equal<typeof block.__component, 'shared.rich-text'>>();
  }
  // `fields` narrows a component's scalars, in a zone fragment too.
  const narrowed = await api.articles.find({
    populate: { seo: { fields: ['metaTitle'] }, links: { fields: ['url'], sort: 'label:desc', filters: { label: { $eq: 'a' } } }, blocks: { on: { 'shared.quote': { fields: ['body'] } } } },
  });
  const first = narrowed.data[0]!.attributes;
  expectType<Equal<typeof first.seo, { id: number; metaTitle: string | null } | null>>();
  expectType<Equal<keyof (typeof first.links)[number], 'id' | 'url'>>();
  expectType<Equal<(typeof first.blocks)[number], { __component: 'shared.quote'; id: number; body: string | null }>>();
  // @ts-expect-error: not an attribute of shared.quote
  await api.articles.find({ populate: { blocks: { on: { 'shared.quote': { fields: ['label'] } } } } });
}

export async function defaultsAndStars() {
  const plain = await api.articles.findOne(1);
  expectType<Equal<typeof plain.data.attributes.description, string | null>>();
  // biginteger as a string, enumerations as unions of their values, JSON as unknown.
  expectType<Equal<typeof plain.data.attributes.impressions, string | null>>();
  expectType<Equal<typeof plain.data.attributes.status, 'draft' | 'in review' | 'final' | null>>();
  expectType<Equal<typeof plain.data.attributes.metadata, unknown>>();
  // @ts-expect-error: relations are absent unless populated
  void plain.data.attributes.author;
  // @ts-expect-error: so are components
  void plain.data.attributes.seo;

  const star = await api.articles.find({ populate: '*' });
  const entry = star.data[0]!;
  expectType<Equal<typeof entry.attributes.cover.data, Entry<'plugin::upload.file'> | null>>();
  expectType<Equal<typeof entry.attributes.seo, { id: number; metaTitle: string | null; metaDescription: string | null } | null>>();
  // @ts-expect-error: `*` populates one level
  void entry.attributes.author.data?.attributes.articles;

  const paths = await api.articles.find({ populate: ['author.articles', 'seo'] });
  const deep = paths.data[0]!.attributes.author.data?.attributes.articles.data[0]?.attributes.title;
  expectType<Equal<typeof deep, string | null | undefined>>();

  const byStart = await api.articles.find({ pagination: { start: 0, limit: 5, withCount: false } });
  expectType<Equal<typeof byStart.meta.pagination, { start: number; limit: number }>>();
}

export async function queriesAreChecked() {
  // @ts-expect-error: no such attribute
  await api.articles.find({ filters: { nope: 'x' } });
  // @ts-expect-error: a text operator on a number
  await api.articles.find({ filters: { views: { $containsi: '1' } } });
  // @ts-expect-error: no such operator
  await api.articles.find({ filters: { title: { $like: 'x' } } });
  // @ts-expect-error: no such attribute on the relation's target
  await api.articles.find({ filters: { author: { nope: 'x' } } });
  // @ts-expect-error: nor inside a nested `$or`
  await api.articles.find({ filters: { $or: [{ title: 'a' }, { nope: 1 }] } });
  // @ts-expect-error: sort by an attribute that does not exist
  await api.articles.find({ sort: 'nope:asc' });
  // @ts-expect-error: sort by a relation
  await api.articles.find({ sort: ['author'] });
  // @ts-expect-error: fields names scalars only
  await api.articles.find({ fields: ['author'] });
  // @ts-expect-error: populate names relations, media, components and zones only
  await api.articles.find({ populate: { title: true } });
  // @ts-expect-error: nor a relation the type lacks
  await api.articles.find({ populate: ['nope'] });
  // @ts-expect-error: filters inside a populate are checked against the target
  await api.articles.find({ populate: { author: { filters: { nope: 'x' } } } });
  // @ts-expect-error: `on` names only the zone's components
  await api.articles.find({ populate: { blocks: { on: { 'shared.seo': true } } } });
  // Valid combinations compile.
  await api.articles.find({
    filters: { $or: [{ title: 'a' }, { views: { $gt: 3 } }], seo: { metaTitle: { $null: true } }, tags: { name: { $in: ['x', 'y'] } } },
    sort: { author: { name: 'asc' } },
    publicationState: 'preview',
  });
}

/** Issue 27 item 6: claims that did not hold. */
export async function claimsThatHold() {
  // @ts-expect-error: an enumeration filters by its values only
  await api.articles.find({ filters: { status: 'blog' } });
  // @ts-expect-error: …in operators too
  await api.articles.find({ filters: { status: { $in: ['final', 'blog'] } } });
  await api.articles.find({ filters: { status: { $in: ['final', 'in review'] }, title: { $containsi: 'x' } } });
  // @ts-expect-error: a number filter refuses a non-numeric string
  await api.articles.find({ filters: { views: { $gt: 'abc' } } });
  await api.articles.find({ filters: { views: { $gt: '3' }, impressions: 12, id: { $in: [1, '2'] } } });
  // @ts-expect-error: every segment of a dotted populate is checked
  await api.articles.find({ populate: 'author.mentr' });
  // @ts-expect-error: in a list too
  await api.articles.find({ populate: ['author.articles', 'tags.nope'] });
  await api.articles.find({ populate: ['author.articles.cover', 'seo', 'blocks', 'author.articles.author.articles'] });
  // @ts-expect-error: a type without draft-and-publish is created with its required attributes (authors' name)
  await api.authors.create({ email: 'ada@example.com' });
  await api.authors.create({ name: 'Ada' });
  // Updates stay partial.
  await api.authors.update(1, { email: 'ada@example.com' });
  // A draft-and-publish type's create publishes unless `publishedAt: null`: its required attributes are
  // checked then (the server: 400 "title must be defined."); a draft's at its publication.
  await api.articles.create({ title: 'Published', slug: 'published' });
  await api.articles.create({ slug: 'draft', publishedAt: null });
  // @ts-expect-error: a published create needs its title
  await api.articles.create({ slug: 'no-title' });
  // @ts-expect-error: so does one that sets publishedAt
  await api.articles.create({ slug: 'no-title', publishedAt: '2026-01-01' });
  // @ts-expect-error: `locale` on a type that is not localized
  await api.articles.find({ locale: 'fr' });
  // Dates filter as strings or Date values (serialised as ISO).
  await api.articles.find({ filters: { publishDate: { $gte: new Date('2026-01-01') }, updatedAt: { $between: [new Date(0), '2026-12-31'] } } });
  // @ts-expect-error: not a Date on a string attribute
  await api.articles.find({ filters: { title: new Date() } });
}

/** Issue 27 item 5: the types say what the server answers. */
export async function typesTellTheAnswer() {
  // An empty `fields` answers every scalar, as the server does.
  const all = await api.articles.find({ fields: [] });
  expectType<Equal<keyof (typeof all.data)[number]['attributes'], keyof Entry<'api::article.article'>['attributes']>>();
  // A missing user is answered 204, no body.
  const user = await api.users.findOne(999);
  const missing: typeof user = undefined;
  void missing;
  // @ts-expect-error: possibly undefined
  void user.username;
  // @ts-expect-error: the server refuses to sort by a JSON attribute
  await api.articles.find({ sort: 'metadata' });
  // @ts-expect-error: …as an object too
  await api.articles.find({ sort: { metadata: 'asc' } });
  await api.articles.find({ sort: ['publishDate:desc', { views: 'asc' }] });
}

export async function uploadTargets(file: Blob) {
  await api.upload.upload(file, { ref: 'api::article.article', refId: 1, field: 'cover' });
  await api.upload.upload(file, { fileInfo: { alternativeText: 'alone' } });
  // @ts-expect-error: `ref` is a content type's uid
  await api.upload.upload(file, { ref: 'api::nope.nope', refId: 1, field: 'cover' });
  // @ts-expect-error: `field` is one of that type's media fields
  await api.upload.upload(file, { ref: 'api::article.article', refId: 1, field: 'title' });
  // @ts-expect-error: a folder's files are a relation, not a media field (the server refuses it, 400)
  await api.upload.upload(file, { ref: 'plugin::upload.folder', refId: 1, field: 'files' });
  // @ts-expect-error: shared.seo has no media field
  await api.upload.upload(file, { ref: 'shared.seo', refId: 1, field: 'metaTitle' });
}

export async function writes() {
  const created = await api.articles.create({ title: 'Typed', tags: [1, 2], seo: { metaTitle: 'Typed' } }, { populate: ['tags'] });
  expectType<Equal<typeof created.data.attributes.tags.data, Entry<'api::tag.tag'>[]>>();
  // @ts-expect-error: no such attribute in a write
  await api.articles.create({ title: 'x', nope: 1 });
  // @ts-expect-error: an enumeration takes its values only
  await api.articles.update(1, { status: 'published' });
  await api.articles.update(1, { tags: { connect: [3], disconnect: [1] } });
  await api.articles.delete(1);

  const global = await api.global.find({ populate: { defaultSeo: true } });
  expectType<Equal<typeof global.data.attributes.defaultSeo, { id: number; metaTitle: string | null; metaDescription: string | null } | null>>();
  await api.global.update({ siteName: 'Typed' });
  // An update writes the attributes given; the PUT that creates the single type is a create (its required attributes, or 400).
  await api.global.update({ siteDescription: 'Typed' });
  await api.global.create({ siteName: 'Typed', siteDescription: 'Typed' });
  // @ts-expect-error: creating the single type needs siteName (the server: 400 "siteName must be defined.")
  await api.global.create({ siteDescription: 'Typed' });
  // @ts-expect-error: single types have no findOne
  void api.global.findOne;
}

export async function auth() {
  const { jwt, user } = await api.auth.login({ identifier: 'ada', password: 'Secret123!' });
  api.setToken(jwt);
  expectType<Equal<typeof user.username, string | null>>();
  // @ts-expect-error: the password is private
  void user.password;
  const me = await api.auth.me({ populate: ['role'] });
  expectType<Equal<typeof me.role, { id: number; name: string | null; description: string | null; type: string | null; createdAt: string; updatedAt: string } | null>>();
}

export async function users() {
  const list = await api.users.find({ fields: ['username'], filters: { blocked: false } });
  expectType<Equal<typeof list, { id: number; username: string | null }[]>>();
  // @ts-expect-error: the password is private: not a field to select
  await api.users.find({ fields: ['password'] });
  // @ts-expect-error: a user is created with a username, an email and a password
  await api.users.create({ username: 'ada' });
  const count: number = await api.users.count({ filters: { confirmed: true } });
  return count;
}

export function errors(thrown: unknown): string | undefined {
  if (!isStrapiError(thrown)) return undefined;
  const error: StrapiError['error'] = thrown.error;
  if (error.name === 'ValidationError') return error.details.errors?.map((issue) => issue.path.join('.')).join(', ');
  return `${thrown.status} ${error.name}: ${error.message}`;
}
