/**
 * Type-level tests of the typed client emitted from fixtures/import/models, whose components
 * hold relations and media (sections.hero: an author, tags, an image; sections.cta inside it: an
 * article and an icon; shared.seo: a share image). Never run: test/generator/client.test.ts
 * compiles it against that client (it rewrites the import below); the root tsconfig leaves it
 * out, as out/client is the blog's.
 */
import { createClient } from '../../out/client/dist/index.js';

const api = createClient({ url: 'http://localhost:1337' });

/** Filters through relations and components, at any depth, are typed: the attribute's own values and operators, not `never`. */
export async function nestedFilters() {
  // Through a relation to a relation, and a relation's relation back.
  await api.articles.find({ filters: { author: { profile: { author: { name: { $startsWith: 'A' } } } } } });
  await api.tags.find({ filters: { articles: { author: { articles: { kind: 'guide', views: { $gt: 3 } } } } } });
  // $and / $or / $not inside a relation, and a relation inside them.
  await api.articles.find({ filters: { author: { $or: [{ name: 'Ada' }, { profile: { author: { email: { $endsWith: '.org' } } } }], $not: { articles: { kind: 'news' } } } } });
  await api.articles.find({ filters: { tags: { $and: [{ name: { $in: ['a', 'b'] } }, { articles: { $not: { kind: 'guide' } } }] } } });
  // Through a component's media, and a component's relation in a populate's filters.
  await api.articles.find({ filters: { seo: { shareImage: { mime: { $startsWith: 'image/' } } } } });
  await api.homepage.find({ populate: { hero: { filters: { author: { articles: { kind: 'guide' } }, ctas: { target: { author: { $or: [{ name: 'Ada' }] } }, style: { bold: true } } } } } });

  // @ts-expect-error: an enumeration's values only, through two relations
  await api.tags.find({ filters: { articles: { author: { articles: { kind: 'blog' } } } } });
  // @ts-expect-error: a number, not any string, inside $or inside a relation
  await api.articles.find({ filters: { author: { $or: [{ articles: { views: { $gt: 'abc' } } }] } } });
  // @ts-expect-error: inside $not inside a relation
  await api.articles.find({ filters: { tags: { $not: { articles: { kind: 'blog' } } } } });
  // @ts-expect-error: through a component's relation (a repeatable component inside a component)
  await api.homepage.find({ populate: { hero: { filters: { ctas: { target: { kind: 'blog' } } } } } });
  // @ts-expect-error: an attribute the component's relation's target does not have
  await api.homepage.find({ populate: { hero: { filters: { ctas: { target: { nmae: 'x' } } } } } });
  // @ts-expect-error: through a component's media: a file's size is a number
  await api.articles.find({ filters: { seo: { shareImage: { size: { $lt: 'big' } } } } });
}

/** `upload`'s `ref` is a content type's or a component's uid, `field` one of its media fields. */
export async function uploadIntoComponents(file: Blob) {
  await api.upload.upload(file, { ref: 'api::author.author', refId: 1, field: 'avatar' });
  await api.upload.upload(file, { ref: 'sections.hero', refId: 1, field: 'image' });
  await api.upload.upload([file, file], { ref: 'sections.hero', refId: '1', field: 'pictures' });
  await api.upload.upload(file, { ref: 'sections.cta', refId: 2, field: 'icon' });
  await api.upload.upload(file, { ref: 'shared.seo', refId: 1, field: 'shareImage' });
  // @ts-expect-error: not a media field of sections.hero
  await api.upload.upload(file, { ref: 'sections.hero', refId: 1, field: 'heading' });
  // @ts-expect-error: a relation, not a media field
  await api.upload.upload(file, { ref: 'sections.hero', refId: 1, field: 'author' });
  // @ts-expect-error: another component's media field
  await api.upload.upload(file, { ref: 'shared.seo', refId: 1, field: 'icon' });
  // @ts-expect-error: sections.style has no media field
  await api.upload.upload(file, { ref: 'sections.style', refId: 1, field: 'color' });
  // @ts-expect-error: a folder's files are a relation, not a media field
  await api.upload.upload(file, { ref: 'plugin::upload.folder', refId: 1, field: 'files' });
  // @ts-expect-error: no such component
  await api.upload.upload(file, { ref: 'sections.nope', refId: 1, field: 'image' });
}
