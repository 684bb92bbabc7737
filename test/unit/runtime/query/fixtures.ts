/** Small content-type metadata shared by the query-layer tests. */
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta, ScalarType } from '../../../../templates/runtime/meta.js';

function scalar(name: string, type: ScalarType, column = name, extra: Partial<ScalarFieldMeta> = {}): ScalarFieldMeta {
  return { kind: 'scalar', name, type, column, prismaField: name, ...extra };
}

const articleFields: Record<string, FieldMeta> = {
  id: scalar('id', 'integer', 'id', { writable: false }),
  title: scalar('title', 'string'),
  slug: scalar('slug', 'uid'),
  body: scalar('body', 'richtext'),
  views: scalar('views', 'integer'),
  bigViews: scalar('bigViews', 'biginteger', 'big_views'),
  rating: scalar('rating', 'float'),
  price: scalar('price', 'decimal'),
  featured: scalar('featured', 'boolean'),
  day: scalar('day', 'date'),
  opensAt: scalar('opensAt', 'time', 'opens_at'),
  releasedAt: scalar('releasedAt', 'datetime', 'released_at'),
  category: scalar('category', 'enumeration', 'category', { enum: ['news', 'blog'] }),
  contact: scalar('contact', 'email'),
  meta: scalar('meta', 'json'),
  secret: scalar('secret', 'string', 'secret', { private: true }),
  password: scalar('password', 'password'),
  author: { kind: 'relation', name: 'author', relation: 'manyToOne', target: 'api::author.author', toMany: false },
  cover: { kind: 'media', name: 'cover', multiple: false },
  seo: { kind: 'component', name: 'seo', component: 'shared.seo', repeatable: false, column: 'seo' },
  blocks: { kind: 'dynamiczone', name: 'blocks', components: ['shared.quote'], column: 'blocks' },
  createdBy: { kind: 'relation', name: 'createdBy', relation: 'oneToOne', target: 'admin::user', toMany: false, private: true },
  createdAt: scalar('createdAt', 'datetime', 'created_at', { writable: false }),
  updatedAt: scalar('updatedAt', 'datetime', 'updated_at', { writable: false }),
};

/** A collection type without draft & publish. */
export const article: ContentTypeMeta = {
  uid: 'api::article.article',
  kind: 'collectionType',
  singularName: 'article',
  pluralName: 'articles',
  table: 'articles',
  delegate: 'article',
  draftAndPublish: false,
  populateCreatorFields: false,
  fields: articleFields,
};

/** The same type with draft & publish. */
export const publishedArticle: ContentTypeMeta = {
  ...article,
  draftAndPublish: true,
  fields: { ...articleFields, publishedAt: scalar('publishedAt', 'datetime', 'published_at') },
};

/** A minimal type for SQL-shape tests. */
export const tag: ContentTypeMeta = {
  uid: 'api::tag.tag',
  kind: 'collectionType',
  singularName: 'tag',
  pluralName: 'tags',
  table: 'tags',
  delegate: 'tag',
  draftAndPublish: false,
  populateCreatorFields: false,
  fields: {
    id: scalar('id', 'integer'),
    name: scalar('name', 'string'),
    secret: scalar('secret', 'text', 'secret', { private: true }),
  },
};

export function field(meta: ContentTypeMeta, name: string): ScalarFieldMeta {
  return meta.fields[name] as ScalarFieldMeta;
}
