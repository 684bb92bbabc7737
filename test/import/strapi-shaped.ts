/**
 * A small Strapi 4.26.2-shaped SQLite database built by hand from the storage reference
 * (../shared/reference/strapi-v4-storage.md §2-§8: the DDL Strapi makes on SQLite and the
 * encodings it writes), for the blog models plus media and a relation inside components.
 * Until databases recorded through a real Strapi are at hand, it pins the import's hard
 * cases: float/0/tied order columns, component ids out of list order, media in a component,
 * drafts, epoch-millisecond datetimes, a big integer above 2^53.
 */
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { modelsOf } from '../helpers/paths.js';

/** The blog models with `shared.seo.shareImage` (media) and `shared.link.author` (relation). */
export async function writeModels(dir: string): Promise<string> {
  const models = path.join(dir, 'models');
  await cp(modelsOf('blog'), models, { recursive: true });
  const patch = async (rel: string, attributes: Record<string, unknown>) => {
    const file = path.join(models, rel);
    const json = JSON.parse(await readFile(file, 'utf8'));
    Object.assign(json.attributes, attributes);
    await writeFile(file, JSON.stringify(json, null, 2));
  };
  await patch('components/shared/seo.json', { shareImage: { type: 'media', multiple: false, allowedTypes: ['images'] } });
  await patch('components/shared/link.json', { author: { type: 'relation', relation: 'oneToOne', target: 'api::author.author' } });
  return models;
}

const stamps = 'created_at datetime, updated_at datetime, created_by_id integer, updated_by_id integer';
/** Strapi's DDL on SQLite, with the indexes it makes on join columns (`_fk`, `_inv_fk`, `_entity_fk`, `_id_column_index`). */
export const strapiShapedDdl = `
CREATE TABLE articles (id integer PRIMARY KEY AUTOINCREMENT, title varchar(255), slug varchar(255), description text, content text, status varchar(255),
  views integer, rating float, price float, impressions bigint, featured boolean, publish_date date, reading_time time, last_reviewed_at datetime,
  metadata json, editor_note text, ${stamps}, published_at datetime);
CREATE UNIQUE INDEX articles_slug_unique ON articles (slug);
CREATE TABLE authors (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), email varchar(255), bio text, ${stamps});
CREATE TABLE categories (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), slug varchar(255), ${stamps});
CREATE TABLE tags (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), ${stamps});
CREATE TABLE globals (id integer PRIMARY KEY AUTOINCREMENT, site_name varchar(255), site_description text, ${stamps});
CREATE TABLE articles_author_links (id integer PRIMARY KEY AUTOINCREMENT, article_id integer, author_id integer, article_order float);
CREATE TABLE articles_category_links (id integer PRIMARY KEY AUTOINCREMENT, article_id integer, category_id integer, article_order float);
CREATE TABLE articles_tags_links (id integer PRIMARY KEY AUTOINCREMENT, article_id integer, tag_id integer, tag_order float, article_order float);
CREATE TABLE articles_components (id integer PRIMARY KEY AUTOINCREMENT, entity_id integer, component_id integer, component_type varchar(255), field varchar(255), "order" float);
CREATE TABLE globals_components (id integer PRIMARY KEY AUTOINCREMENT, entity_id integer, component_id integer, component_type varchar(255), field varchar(255), "order" float);
CREATE TABLE components_shared_seos (id integer PRIMARY KEY AUTOINCREMENT, meta_title varchar(255), meta_description text);
CREATE TABLE components_shared_links (id integer PRIMARY KEY AUTOINCREMENT, label varchar(255), url varchar(255));
CREATE TABLE components_shared_links_author_links (id integer PRIMARY KEY AUTOINCREMENT, link_id integer, author_id integer);
CREATE TABLE components_shared_quotes (id integer PRIMARY KEY AUTOINCREMENT, title varchar(255), body text);
CREATE TABLE components_shared_rich_texts (id integer PRIMARY KEY AUTOINCREMENT, body text);
CREATE TABLE files (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), alternative_text varchar(255), caption varchar(255), width integer, height integer,
  formats json, hash varchar(255), ext varchar(255), mime varchar(255), size float, url varchar(255), preview_url varchar(255), provider varchar(255),
  provider_metadata json, folder_path varchar(255), ${stamps});
CREATE TABLE files_related_morphs (id integer PRIMARY KEY AUTOINCREMENT, file_id integer, related_id integer, related_type varchar(255), field varchar(255), "order" float);
CREATE TABLE upload_folders (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), path_id integer, path varchar(255), ${stamps});
CREATE TABLE upload_folders_parent_links (id integer PRIMARY KEY AUTOINCREMENT, folder_id integer, inv_folder_id integer, folder_order float);
CREATE TABLE files_folder_links (id integer PRIMARY KEY AUTOINCREMENT, file_id integer, folder_id integer, file_order float);
CREATE TABLE i18n_locale (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), code varchar(255), ${stamps});
CREATE INDEX articles_components_entity_fk ON articles_components (entity_id);
CREATE INDEX globals_components_entity_fk ON globals_components (entity_id);
CREATE INDEX components_shared_links_author_links_fk ON components_shared_links_author_links (link_id);
CREATE INDEX files_related_morphs_id_column_index ON files_related_morphs (related_id);
CREATE INDEX articles_author_links_fk ON articles_author_links (article_id);
CREATE INDEX articles_author_links_inv_fk ON articles_author_links (author_id);
CREATE INDEX articles_tags_links_fk ON articles_tags_links (article_id);
CREATE INDEX articles_tags_links_inv_fk ON articles_tags_links (tag_id);
CREATE TABLE strapi_core_store_settings (id integer PRIMARY KEY AUTOINCREMENT, key varchar(255), value text, type varchar(255), environment varchar(255), tag varchar(255));
CREATE TABLE strapi_workflows (id integer PRIMARY KEY AUTOINCREMENT, name varchar(255), content_types json, ${stamps});
`;

/** Epoch milliseconds, as Strapi's SQLite dialect stores datetimes. */
const ms = (iso: string) => Date.parse(iso);
const t0 = ms('2026-11-27T05:43:33.420Z');

export interface StrapiShapedOptions {
  /** Rows contentgen must refuse: a duplicate tag name, a link to a tag that is gone, a file without its file. */
  readonly planted?: boolean;
}

export async function writeStrapiDatabase(file: string, uploads: string, options: StrapiShapedOptions = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.exec(strapiShapedDdl);
  const insert = (table: string, rows: Record<string, unknown>[]) => {
    for (const row of rows) {
      const columns = Object.keys(row);
      db.prepare(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(...Object.values(row));
    }
  };
  const stamp = { created_at: t0, updated_at: t0 };
  insert('authors', [
    { id: 1, name: 'Ann', email: 'ann@example.com', bio: 'Writes', ...stamp },
    { id: 2, name: 'Bob', email: 'bob@example.com', bio: null, ...stamp, created_by_id: 1 },
  ]);
  insert('categories', [{ id: 1, name: 'News', slug: 'news', ...stamp }]);
  insert('tags', [
    { id: 1, name: 'a', ...stamp },
    { id: 2, name: 'b', ...stamp },
    { id: 3, name: 'c', ...stamp },
    ...(options.planted ? [{ id: 4, name: 'a', ...stamp }] : []),
  ]);
  insert('articles', [
    {
      id: 1, title: 'Hello World', slug: 'hello-world', description: 'First', content: 'Some **rich** text', status: 'final', views: 10, rating: 4.5, price: 9.99,
      impressions: 9007199254740993n, featured: 1, publish_date: '2024-01-15', reading_time: '10:30:00.000', last_reviewed_at: ms('2024-01-15T10:30:00.000Z'),
      metadata: '{"lang":"en","n":1}', editor_note: 'secret', ...stamp, published_at: t0 + 5,
    },
    { id: 2, title: 'Draft Ideas', slug: 'draft-ideas', views: 7, featured: 0, status: 'draft', ...stamp, published_at: null },
    { id: 4, title: 'Third post', slug: 'third-post', views: 0, featured: 0, status: 'final', ...stamp, published_at: t0 + 9 },
  ]);
  db.prepare(`UPDATE sqlite_sequence SET seq = 6 WHERE name = 'articles'`).run();
  insert('globals', [{ id: 2, site_name: 'My blog', site_description: 'About things', ...stamp }]);
  insert('articles_author_links', [
    { id: 1, article_id: 1, author_id: 1, article_order: 2 },
    { id: 2, article_id: 4, author_id: 1, article_order: 1 },
    { id: 3, article_id: 2, author_id: 2, article_order: 1 },
  ]);
  insert('articles_category_links', [{ id: 1, article_id: 1, category_id: 1, article_order: 1 }]);
  // Article 1's tags: c (0.0), then a and b tied at 1.0 (by link id): [3, 1, 2].
  insert('articles_tags_links', [
    { id: 1, article_id: 1, tag_id: 1, tag_order: 1, article_order: 1 },
    { id: 2, article_id: 1, tag_id: 3, tag_order: 0, article_order: 2 },
    { id: 3, article_id: 1, tag_id: 2, tag_order: 1, article_order: 1 },
    { id: 4, article_id: 4, tag_id: 3, tag_order: 1, article_order: 1 },
    ...(options.planted ? [{ id: 5, article_id: 4, tag_id: 99, tag_order: 2, article_order: 1 }] : []),
  ]);
  insert('components_shared_seos', [
    { id: 1, meta_title: 'Home', meta_description: 'Site' },
    { id: 2, meta_title: 'Hello', meta_description: 'First post' },
  ]);
  insert('components_shared_links', [
    { id: 1, label: 'Docs', url: 'https://example.com/docs' },
    { id: 2, label: 'Home', url: 'https://example.com' },
  ]);
  insert('components_shared_links_author_links', [{ id: 1, link_id: 2, author_id: 2 }]);
  insert('components_shared_quotes', [{ id: 1, title: 'Stay hungry', body: 'SJ' }]);
  insert('components_shared_rich_texts', [{ id: 1, body: 'Some **rich** text' }]);
  insert('articles_components', [
    { id: 1, entity_id: 1, component_id: 2, component_type: 'shared.seo', field: 'seo', order: null },
    // Ids not in list order: [link 2, link 1].
    { id: 2, entity_id: 1, component_id: 2, component_type: 'shared.link', field: 'links', order: 1 },
    { id: 3, entity_id: 1, component_id: 1, component_type: 'shared.link', field: 'links', order: 2 },
    { id: 4, entity_id: 1, component_id: 1, component_type: 'shared.quote', field: 'blocks', order: 1 },
    { id: 5, entity_id: 1, component_id: 1, component_type: 'shared.rich-text', field: 'blocks', order: 2 },
  ]);
  insert('globals_components', [{ id: 1, entity_id: 2, component_id: 1, component_type: 'shared.seo', field: 'defaultSeo', order: null }]);
  const formats = { thumbnail: { name: 'thumbnail_cover.png', hash: 'thumbnail_cover_c84e4a0ccc', ext: '.png', mime: 'image/png', path: null, width: 208, height: 156, size: 0.56, sizeInBytes: 560, url: '/uploads/thumbnail_cover_c84e4a0ccc.png' } };
  insert('files', [
    {
      id: 1, name: 'cover.png', width: 800, height: 600, formats: JSON.stringify(formats), hash: 'cover_c84e4a0ccc', ext: '.png', mime: 'image/png', size: 0.58,
      url: '/uploads/cover_c84e4a0ccc.png', provider: 'local', folder_path: '/1', ...stamp,
    },
    ...(options.planted ? [{ id: 2, name: 'gone.png', hash: 'gone_0000', ext: '.png', mime: 'image/png', size: 1, url: '/uploads/gone_0000.png', provider: 'local', folder_path: '/1', ...stamp }] : []),
  ]);
  insert('files_related_morphs', [
    { id: 1, file_id: 1, related_id: 2, related_type: 'shared.seo', field: 'shareImage', order: 1 },
    { id: 2, file_id: 1, related_id: 1, related_type: 'api::article.article', field: 'cover', order: 1 },
    { id: 3, file_id: 1, related_id: 7, related_type: 'api::gone.gone', field: 'image', order: 1 },
  ]);
  insert('upload_folders', [{ id: 1, name: 'API Uploads', path_id: 1, path: '/1', ...stamp }]);
  insert('files_folder_links', [{ id: 1, file_id: 1, folder_id: 1, file_order: 1 }]);
  insert('i18n_locale', [{ id: 1, name: 'English (en)', code: 'en', ...stamp }]);
  insert('strapi_workflows', [{ id: 1, name: 'Default', content_types: '["api::article.article"]', ...stamp }]);
  insert('strapi_core_store_settings', [{ id: 1, key: 'plugin_i18n_default_locale', value: '"en"', type: 'string', environment: null, tag: null }]);
  db.close();
  await mkdir(uploads, { recursive: true });
  for (const name of ['cover_c84e4a0ccc.png', 'thumbnail_cover_c84e4a0ccc.png']) await writeFile(path.join(uploads, name), `png ${name}`);
}
