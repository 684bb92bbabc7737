/**
 * The hand-written ceiling: node:http + better-sqlite3 prepared statements over the same
 * SQLite file (opened read-only), answering the benchmark's requests with the same JSON as
 * the generated server. It knows only the article queries the scenarios send and answers
 * 400 to anything else, so a scenario it does not really implement cannot pass the check.
 *
 * Runs as its own process: `node baseline.js <database file>`; env PORT (0), HOST
 * (127.0.0.1). Logs `baseline listening on <url>`. Exits when its stdin closes (the
 * benchmark that started it is gone) or on SIGTERM/SIGINT.
 *
 * Self-contained on purpose (node builtins and better-sqlite3 only): the benchmark
 * transpiles this one file and runs it with plain node.
 */
import http from 'node:http';
import Database from 'better-sqlite3';

type Row = Record<string, unknown>;
type Json = Record<string, unknown>;

const file = process.argv[2];
if (!file) {
  console.error('usage: node baseline.js <sqlite file>');
  process.exit(2);
}
const db = new Database(file, { readonly: true, fileMustExist: true });

const statements = new Map<string, Database.Statement>();
/** Statements run for the current request (answered as `x-sql-statements`). */
let statementsRun = 0;

/** Prepared once per distinct SQL text (the IN lists differ only by length). */
function stmt(sql: string): Database.Statement {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    statements.set(sql, prepared);
  }
  statementsRun++;
  return prepared;
}

// ---- values as the generated server renders them -------------------------------------

/** Stored `2024-03-05T10:00:00.000+00:00` → `2024-03-05T10:00:00.000Z`. */
function dateTime(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (text.length === 29 && text.endsWith('+00:00')) return `${text.slice(0, 23)}Z`;
  return new Date(text).toISOString();
}

/** Stored midnight UTC → `YYYY-MM-DD`. */
function date(value: unknown): string | null {
  const text = dateTime(value);
  return text === null ? null : text.slice(0, 10);
}

/** Stored 1970-01-01 time → `HH:mm:ss.SSS`. */
function time(value: unknown): string | null {
  const text = dateTime(value);
  return text === null ? null : text.slice(11, 23);
}

function bool(value: unknown): boolean | null {
  return value === null || value === undefined ? null : value !== 0;
}

function json(value: unknown): unknown {
  return value === null || value === undefined ? null : JSON.parse(String(value));
}

function orNull(value: unknown): unknown {
  return value === undefined ? null : value;
}

// ---- articles -------------------------------------------------------------------------

const ARTICLE_COLUMNS =
  'a.id, a.title, a.slug, a.description, a.content, a.status, a.views, a.rating, a.price, ' +
  'CAST(a.impressions AS TEXT) AS impressions, a.featured, a.publish_date, a.reading_time, ' +
  'a.last_reviewed_at, a.metadata, a.created_at, a.updated_at, a.published_at';

function articleAttributes(r: Row): Json {
  return {
    title: r.title,
    slug: r.slug,
    description: r.description,
    content: r.content,
    status: r.status,
    views: r.views,
    rating: r.rating,
    price: r.price,
    impressions: r.impressions,
    featured: bool(r.featured),
    publishDate: date(r.publish_date),
    readingTime: time(r.reading_time),
    lastReviewedAt: dateTime(r.last_reviewed_at),
    metadata: json(r.metadata),
    createdAt: dateTime(r.created_at),
    updatedAt: dateTime(r.updated_at),
    publishedAt: dateTime(r.published_at),
  };
}

// ---- relations: one statement per field over all entries of the page ------------------

interface Target {
  readonly table: string;
  readonly link: string;
  readonly column: string;
  readonly order: string;
  readonly columns: string;
  readonly attributes: (r: Row) => Json;
}

const author: Target = {
  table: 'authors',
  link: 'articles_author_links',
  column: 'author_id',
  order: 'author_order',
  columns: 't.id, t.name, t.email, t.bio, t.created_at, t.updated_at',
  attributes: (r) => ({ name: r.name, email: r.email, bio: r.bio, createdAt: dateTime(r.created_at), updatedAt: dateTime(r.updated_at) }),
};
const authorName: Target = { ...author, columns: 't.id, t.name', attributes: (r) => ({ name: r.name }) };
const category: Target = {
  table: 'categories',
  link: 'articles_category_links',
  column: 'category_id',
  order: 'category_order',
  columns: 't.id, t.name, t.slug, t.created_at, t.updated_at',
  attributes: (r) => ({ name: r.name, slug: r.slug, createdAt: dateTime(r.created_at), updatedAt: dateTime(r.updated_at) }),
};
const tag: Target = {
  table: 'tags',
  link: 'articles_tags_links',
  column: 'tag_id',
  order: 'tag_order',
  columns: 't.id, t.name, t.created_at, t.updated_at',
  attributes: (r) => ({ name: r.name, createdAt: dateTime(r.created_at), updatedAt: dateTime(r.updated_at) }),
};
const cover: Target = {
  table: 'files',
  link: 'articles_cover_links',
  column: 'file_id',
  order: 'file_order',
  columns:
    't.id, t.name, t.alternative_text, t.caption, t.width, t.height, t.formats, t.hash, t.ext, t.mime, t.size, t.url, ' +
    't.preview_url, t.provider, t.provider_metadata, t.created_at, t.updated_at',
  attributes: (r) => ({
    name: r.name,
    alternativeText: r.alternative_text,
    caption: r.caption,
    width: r.width,
    height: r.height,
    formats: json(r.formats),
    hash: r.hash,
    ext: r.ext,
    mime: r.mime,
    size: r.size,
    url: r.url,
    previewUrl: r.preview_url,
    provider: r.provider,
    provider_metadata: json(r.provider_metadata),
    createdAt: dateTime(r.created_at),
    updatedAt: dateTime(r.updated_at),
  }),
};

/** `{id, attributes}` entries of `target` per owner id, in link order (or `orderBy`). */
function linked(target: Target, ownerIds: readonly number[], orderBy?: string): Map<number, Json[]> {
  const placeholders = ownerIds.map(() => '?').join(', ');
  const sql =
    `SELECT l.article_id AS __owner, ${target.columns} FROM ${target.link} l JOIN ${target.table} t ON t.id = l.${target.column} ` +
    `WHERE l.article_id IN (${placeholders}) ORDER BY l.article_id ASC, ${orderBy ?? `l.${target.order} ASC, l.id ASC`}`;
  const byOwner = new Map<number, Json[]>();
  for (const row of stmt(sql).all(...ownerIds) as Row[]) {
    const owner = row.__owner as number;
    let list = byOwner.get(owner);
    if (!list) byOwner.set(owner, (list = []));
    list.push({ id: row.id, attributes: target.attributes(row) });
  }
  return byOwner;
}

// ---- components and dynamic zones (JSON columns of the article row) --------------------

function seo(value: unknown): Json | null {
  const s = json(value) as Row | null;
  return s === null ? null : { id: orNull(s.id), metaTitle: orNull(s.metaTitle), metaDescription: orNull(s.metaDescription) };
}

function links(value: unknown): Json[] {
  const list = (json(value) as Row[] | null) ?? [];
  return list.map((l) => ({ id: orNull(l.id), label: orNull(l.label), url: orNull(l.url) }));
}

function blocks(value: unknown): Json[] {
  const list = (json(value) as Row[] | null) ?? [];
  return list.map((b) =>
    b.__component === 'shared.quote'
      ? { id: orNull(b.id), __component: b.__component, title: orNull(b.title), body: orNull(b.body) }
      : { id: orNull(b.id), __component: b.__component, body: orNull(b.body) },
  );
}

// ---- the requests the benchmark sends --------------------------------------------------

interface Plan {
  readonly pageSize: number;
  readonly page: number;
  readonly populate: 'none' | 'all' | 'deep';
  readonly categoryName: string | null;
  readonly sortTitle: 'ASC' | 'DESC' | null;
}

class Unsupported extends Error {}

/** The few query parameters the scenarios use; anything else is refused. */
function plan(params: URLSearchParams): Plan {
  let pageSize = 25;
  let page = 1;
  let populate: Plan['populate'] = 'none';
  let categoryName: string | null = null;
  let sortTitle: Plan['sortTitle'] = null;
  const deep = new Set<string>();
  for (const [key, value] of params) {
    if (key === 'pagination[pageSize]') pageSize = Math.min(100, Math.max(1, Number.parseInt(value, 10)));
    else if (key === 'pagination[page]') page = Math.max(1, Number.parseInt(value, 10));
    else if (key === 'populate' && value === '*') populate = 'all';
    else if (key === 'filters[category][name][$eq]') categoryName = value;
    else if (key === 'sort' && /^title:(asc|desc)$/i.test(value)) sortTitle = value.toLowerCase().endsWith('desc') ? 'DESC' : 'ASC';
    else if (key === 'populate[author][fields][0]' && value === 'name') deep.add('author');
    else if (key === 'populate[tags][sort][0]' && value === 'name:asc') deep.add('tags');
    else if (key === 'populate[seo]' && value === 'true') deep.add('seo');
    else throw new Unsupported(`${key}=${value}`);
  }
  if (deep.size > 0) {
    if (deep.size !== 3 || populate !== 'none') throw new Unsupported('populate');
    populate = 'deep';
  }
  return { pageSize, page, populate, categoryName, sortTitle };
}

/** Fills the populated fields of the entries, in the order the scenario asks for them. */
function populate(rows: readonly Row[], entries: readonly Json[], mode: Plan['populate']): void {
  if (mode === 'none' || rows.length === 0) return;
  const ids = rows.map((r) => r.id as number);
  const attrs = (i: number) => entries[i]!.attributes as Json;
  if (mode === 'all') {
    const authors = linked(author, ids);
    const categories = linked(category, ids);
    const tags = linked(tag, ids);
    const covers = linked(cover, ids);
    rows.forEach((row, i) => {
      const a = attrs(i);
      const id = row.id as number;
      a.author = { data: authors.get(id)?.[0] ?? null };
      a.category = { data: categories.get(id)?.[0] ?? null };
      a.tags = { data: tags.get(id) ?? [] };
      a.cover = { data: covers.get(id)?.[0] ?? null };
      a.seo = seo(row.seo);
      a.links = links(row.links);
      a.blocks = blocks(row.blocks);
    });
  } else {
    const authors = linked(authorName, ids);
    const tags = linked(tag, ids, 't.name ASC, t.id ASC');
    rows.forEach((row, i) => {
      const a = attrs(i);
      const id = row.id as number;
      a.author = { data: authors.get(id)?.[0] ?? null };
      a.tags = { data: tags.get(id) ?? [] };
      a.seo = seo(row.seo);
    });
  }
}

function jsonColumns(mode: Plan['populate']): string {
  return mode === 'all' ? ', a.seo, a.links, a.blocks' : mode === 'deep' ? ', a.seo' : '';
}

function find(p: Plan): Json {
  const where =
    'WHERE a.published_at IS NOT NULL' +
    (p.categoryName === null
      ? ''
      : ' AND a.id IN (SELECT l.article_id FROM articles_category_links l JOIN categories c ON c.id = l.category_id WHERE c.name = ?)');
  const params = p.categoryName === null ? [] : [p.categoryName];
  const order = p.sortTitle === null ? 'ORDER BY a.id ASC' : `ORDER BY a.title ${p.sortTitle}, a.id ASC`;
  const rows = stmt(`SELECT ${ARTICLE_COLUMNS}${jsonColumns(p.populate)} FROM articles a ${where} ${order} LIMIT ? OFFSET ?`).all(
    ...params,
    p.pageSize,
    (p.page - 1) * p.pageSize,
  ) as Row[];
  const total = (stmt(`SELECT COUNT(*) AS count FROM articles a ${where}`).get(...params) as { count: number }).count;
  const data = rows.map((r) => ({ id: r.id, attributes: articleAttributes(r) }));
  populate(rows, data, p.populate);
  return { data, meta: { pagination: { page: p.page, pageSize: p.pageSize, pageCount: Math.ceil(total / p.pageSize), total } } };
}

function findOne(id: number, p: Plan): Json | null {
  const row = stmt(`SELECT ${ARTICLE_COLUMNS}${jsonColumns(p.populate)} FROM articles a WHERE a.id = ?`).get(id) as Row | undefined;
  if (!row) return null;
  const data = { id: row.id, attributes: articleAttributes(row) };
  populate([row], [data], p.populate);
  return { data, meta: {} };
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-sql-statements': statementsRun,
  });
  res.end(text);
}

const server = http.createServer((req, res) => {
  statementsRun = 0; // requests are answered synchronously, one at a time
  try {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const pathname = q < 0 ? url : url.slice(0, q);
    const params = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    if (req.method !== 'GET') return send(res, 405, { error: 'GET only' });
    if (pathname === '/api/articles') return send(res, 200, find(plan(params)));
    const match = /^\/api\/articles\/(\d+)$/.exec(pathname);
    if (match) {
      const body = findOne(Number(match[1]), plan(params));
      return body ? send(res, 200, body) : send(res, 404, { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found' } });
    }
    send(res, 404, { error: 'not found' });
  } catch (err) {
    if (err instanceof Unsupported) return send(res, 400, { error: `baseline does not implement ${err.message}` });
    console.error(err);
    send(res, 500, { error: String(err) });
  }
});
server.keepAliveTimeout = 5_000;

const shutdown = () => {
  server.close();
  server.closeAllConnections();
  db.close();
  process.exit(0);
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
process.stdin.on('end', shutdown);
process.stdin.on('error', shutdown);
process.stdin.resume();

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  console.log(`baseline listening on http://${process.env.HOST ?? '127.0.0.1'}:${port}`);
});
