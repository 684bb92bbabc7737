/**
 * The compiled SQL run on a real SQLite database, in the storage format Prisma's SQLite
 * adapter uses (booleans as 0/1, DateTimes as `YYYY-MM-DDTHH:mm:ss.SSS+00:00` text).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContentTypeMeta } from '../../../../templates/runtime/meta.js';
import { buildFindOneQuery, buildFindQuery } from '../../../../templates/runtime/query/list.js';
import { parseQueryString } from '../../../../templates/runtime/query/parse.js';
import { article, publishedArticle } from './fixtures.js';

let db: Database.Database;

const schema = `
CREATE TABLE "articles" (
  "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
  "title" TEXT, "slug" TEXT, "body" TEXT,
  "views" INTEGER, "big_views" BIGINT, "rating" REAL, "price" DECIMAL,
  "featured" BOOLEAN,
  "day" DATETIME, "opens_at" DATETIME, "released_at" DATETIME,
  "category" TEXT, "contact" TEXT, "meta" JSONB, "secret" TEXT, "password" TEXT,
  "created_at" DATETIME NOT NULL, "updated_at" DATETIME NOT NULL, "published_at" DATETIME
)`;

const stamp = (iso: string) => `${iso}+00:00`;
const day = (date: string) => stamp(`${date}T00:00:00.000`);
const time = (hhmm: string) => stamp(`1970-01-01T${hhmm}:00.000`);

type Row = {
  title: string | null;
  views?: number | null;
  big?: bigint | null;
  rating?: number | null;
  price?: number | null;
  featured?: 0 | 1 | null;
  day?: string | null;
  opensAt?: string | null;
  releasedAt?: string | null;
  category?: string | null;
  meta?: string | null;
  published?: boolean;
};

// Row n gets id n.
const rows: Row[] = [
  { title: 'Hello World', views: 10, big: 9007199254740993n, rating: 1.5, price: 9.99, featured: 1, day: day('2024-03-05'), opensAt: time('09:00'), releasedAt: stamp('2024-03-05T10:00:00.000'), category: 'news', meta: '{"a":1}', published: true },
  { title: 'hello world', views: 20, big: 5n, rating: 2.5, price: 19.99, featured: 0, day: day('2024-03-06'), opensAt: time('10:30'), releasedAt: stamp('2024-03-06T10:00:00.000'), category: 'blog', published: true },
  { title: '100% sure', views: 30, big: -5n, price: 0.5, featured: 1, opensAt: time('12:00'), releasedAt: stamp('2024-01-01T00:00:00.000'), category: 'news' },
  { title: 'under_score', rating: 3.5, day: day('2023-12-31'), published: true },
  { title: null, views: 5, big: 0n, rating: 0, price: 1, featured: 0 },
  { title: 'Star*Glob?[x]', views: 10, published: true },
  { title: 'Über', published: true },
  { title: 'back\\slash', published: true },
  { title: 'Zebra', published: true },
  { title: 'apple', published: true },
];

beforeAll(() => {
  db = new Database(':memory:');
  db.exec(schema);
  const insert = db.prepare(`INSERT INTO "articles"
    ("title", "views", "big_views", "rating", "price", "featured", "day", "opens_at", "released_at", "category", "meta", "secret", "created_at", "updated_at", "published_at")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'hidden', ?, ?, ?)`);
  const created = stamp('2024-01-01T00:00:00.000');
  for (const row of rows) {
    insert.run(
      row.title, row.views ?? null, row.big ?? null, row.rating ?? null, row.price ?? null, row.featured ?? null,
      row.day ?? null, row.opensAt ?? null, row.releasedAt ?? null, row.category ?? null, row.meta ?? null,
      created, created, row.published ? created : null,
    );
  }
});

afterAll(() => db.close());

const options = { dialect: 'sqlite', defaultLimit: 100, maxLimit: 100, withCount: true } as const;

/** Ids of the rows a request returns, in order. */
function ids(querystring: string, meta: ContentTypeMeta = article): number[] {
  const plan = buildFindQuery(meta, parseQueryString(querystring), options);
  return db.prepare(plan.select.sql).all(...plan.select.params).map((row) => (row as { id: number }).id);
}

function matching(filters: string): number[] {
  return ids(filters).sort((a, b) => a - b);
}

describe('on SQLite: case sensitivity', () => {
  it('$eq and $ne are case-sensitive; $eqi and $nei are not', () => {
    expect(matching('filters[title][$eq]=hello world')).toEqual([2]);
    expect(matching('filters[title][$eqi]=HELLO WORLD')).toEqual([1, 2]);
    expect(matching('filters[title][$nei]=HELLO WORLD')).toEqual([3, 4, 6, 7, 8, 9, 10]);
    expect(matching('filters[title][$ne]=hello world')).toEqual([1, 3, 4, 6, 7, 8, 9, 10]);
  });

  it('$contains, $startsWith and $endsWith are case-sensitive (GLOB, not LIKE)', () => {
    expect(matching('filters[title][$contains]=World')).toEqual([1]);
    expect(matching('filters[title][$startsWith]=hello')).toEqual([2]);
    expect(matching('filters[title][$endsWith]=World')).toEqual([1]);
    expect(matching('filters[title][$notContains]=World')).toEqual([2, 3, 4, 6, 7, 8, 9, 10]);
  });

  it('their …i variants are not', () => {
    expect(matching('filters[title][$containsi]=WORLD')).toEqual([1, 2]);
    expect(matching('filters[title][$startsWithi]=HELLO')).toEqual([1, 2]);
    expect(matching('filters[title][$endsWithi]=world')).toEqual([1, 2]);
    expect(matching('filters[title][$notContainsi]=WORLD')).toEqual([3, 4, 6, 7, 8, 9, 10]);
  });
});

describe('on SQLite: values match literally', () => {
  it('% and _ are not wildcards', () => {
    expect(matching('filters[title][$contains]=%25')).toEqual([3]);
    expect(matching('filters[title][$containsi]=%25')).toEqual([3]);
    expect(matching('filters[title][$contains]=_')).toEqual([4]);
    expect(matching('filters[title][$startsWithi]=_')).toEqual([]);
    expect(matching('filters[title][$eqi]=UNDER_SCORE')).toEqual([4]);
    expect(matching('filters[title][$eqi]=under%25score')).toEqual([]);
  });

  it('GLOB metacharacters and backslashes are not special', () => {
    expect(matching('filters[title][$contains]=*')).toEqual([6]);
    expect(matching('filters[title][$contains]=?')).toEqual([6]);
    expect(matching('filters[title][$endsWith]=[x]')).toEqual([6]);
    expect(matching('filters[title][$contains]=\\')).toEqual([8]);
    expect(matching('filters[title][$containsi]=K\\S')).toEqual([8]);
  });
});

describe('on SQLite: every operator', () => {
  it('$null and $notNull', () => {
    expect(matching('filters[title][$null]=true')).toEqual([5]);
    expect(matching('filters[views][$notNull]=false')).toEqual([4, 7, 8, 9, 10]);
    expect(matching('filters[meta][$notNull]=true')).toEqual([1]);
  });

  it('$in and $notIn (NULL rows match neither)', () => {
    expect(matching('filters[id][$in][0]=2&filters[id][$in][1]=4')).toEqual([2, 4]);
    expect(matching('filters[title][0]=apple&filters[title][1]=Zebra')).toEqual([9, 10]);
    expect(matching('filters[views][$notIn][0]=10&filters[views][$notIn][1]=20')).toEqual([3, 5]);
  });

  it('$lt $lte $gt $gte $between on integers', () => {
    expect(matching('filters[views][$lt]=10')).toEqual([5]);
    expect(matching('filters[views][$lte]=10')).toEqual([1, 5, 6]);
    expect(matching('filters[views][$gt]=10')).toEqual([2, 3]);
    expect(matching('filters[views][$gte]=20')).toEqual([2, 3]);
    expect(matching('filters[views][$between][0]=10&filters[views][$between][1]=20')).toEqual([1, 2, 6]);
  });

  it('big integers compare exactly, beyond 2^53', () => {
    expect(matching('filters[bigViews][$gt]=9007199254740992')).toEqual([1]);
    expect(matching('filters[bigViews]=9007199254740993')).toEqual([1]);
    expect(matching('filters[bigViews][$lt]=0')).toEqual([3]);
  });

  it('floats and decimals', () => {
    expect(matching('filters[rating][$lt]=2')).toEqual([1, 5]);
    expect(matching('filters[price][$gte]=9.99')).toEqual([1, 2]);
    expect(matching('filters[price]=0.5')).toEqual([3]);
  });

  it('booleans stored as 0/1', () => {
    expect(matching('filters[featured]=true')).toEqual([1, 3]);
    expect(matching('filters[featured][$eq]=f')).toEqual([2, 5]);
    expect(matching('filters[featured][$ne]=1')).toEqual([2, 5]);
  });

  it('dates, times and date-times in Prisma’s text form', () => {
    expect(matching('filters[day]=2024-03-05')).toEqual([1]);
    expect(matching('filters[day][$lt]=2024-03-06')).toEqual([1, 4]);
    expect(matching('filters[opensAt][$gte]=10:00')).toEqual([2, 3]);
    expect(matching('filters[opensAt]=09:00:00.000')).toEqual([1]);
    expect(matching('filters[releasedAt][$between][0]=2024-03-01&filters[releasedAt][$between][1]=2024-03-06T10:00:00Z')).toEqual([1, 2]);
    expect(matching('filters[releasedAt][$gt]=2024-03-05T12:00:00%2B02:00')).toEqual([2]);
  });

  it('text operators on id match its decimal form', () => {
    expect(matching('filters[id][$startsWith]=1')).toEqual([1, 10]);
  });

  it('enumerations', () => {
    expect(matching('filters[category]=news')).toEqual([1, 3]);
    expect(matching('filters[category][$in][0]=blog')).toEqual([2]);
  });

  it('$and, $or and $not', () => {
    expect(matching('filters[$or][0][views]=10&filters[$or][1][title][$eqi]=APPLE')).toEqual([1, 6, 10]);
    expect(matching('filters[$and][0][views]=10&filters[$and][1][featured]=true')).toEqual([1]);
    expect(matching('filters[$not][views][$gte]=10')).toEqual([5]);
    expect(matching('filters[title][$not][$containsi]=o')).toEqual([3, 7, 8, 9, 10]);
  });
});

describe('on SQLite: search, order, pages and publication state', () => {
  it('_q searches id and string attributes, case-insensitively, but not private ones', () => {
    expect(matching('_q=WORLD')).toEqual([1, 2]);
    expect(matching('_q=10')).toEqual([3, 10]);
    expect(matching('_q=hidden')).toEqual([]);
    expect(matching('_q=news')).toEqual([1, 3]);
  });

  it('orders strings by code point, NULLs first ascending and last descending, ties by id', () => {
    expect(ids('sort=title')).toEqual([5, 3, 1, 6, 9, 10, 8, 2, 4, 7]);
    expect(ids('sort=title:desc')).toEqual([7, 4, 2, 8, 10, 9, 6, 1, 3, 5]);
    expect(ids('sort=views:desc&fields=views')).toEqual([3, 2, 1, 6, 5, 4, 7, 8, 9, 10]);
    expect(ids('sort[0][featured]=desc&sort[1][id]=desc')).toEqual([3, 1, 5, 2, 10, 9, 8, 7, 6, 4]);
  });

  it('pages and offsets', () => {
    expect(ids('pagination[page]=2&pagination[pageSize]=3')).toEqual([4, 5, 6]);
    expect(ids('pagination[start]=8&pagination[limit]=5')).toEqual([9, 10]);
    const unlimited = buildFindQuery(article, parseQueryString('pagination[start]=7&pagination[limit]=-1'), { ...options, maxLimit: 0 });
    expect(db.prepare(unlimited.select.sql).all(...unlimited.select.params)).toHaveLength(3);
  });

  it('counts the filtered rows, ignoring pages', () => {
    const plan = buildFindQuery(article, parseQueryString('filters[views][$notNull]=true&pagination[pageSize]=2'), options);
    const { count } = db.prepare(plan.count!.sql).get(...plan.count!.params) as { count: number };
    expect(count).toBe(5);
    expect(plan.pagination.meta(count)).toEqual({ page: 1, pageSize: 2, pageCount: 3, total: 5 });
  });

  it('live shows published entries only; preview shows drafts too', () => {
    expect(ids('', publishedArticle)).toEqual([1, 2, 4, 6, 7, 8, 9, 10]);
    expect(ids('publicationState=preview', publishedArticle)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('returns rows keyed by attribute name', () => {
    const plan = buildFindQuery(article, parseQueryString('fields[0]=title&fields[1]=bigViews&fields[2]=releasedAt&filters[id]=1'), options);
    expect(db.prepare(plan.select.sql).all(...plan.select.params)).toEqual([
      { id: 1, title: 'Hello World', bigViews: 9007199254740992, releasedAt: '2024-03-05T10:00:00.000+00:00' },
    ]);
  });

  it('findOne finds drafts by id', () => {
    const plan = buildFindOneQuery(publishedArticle, 3, parseQueryString('fields=title'), options);
    expect(db.prepare(plan.select.sql).all(...plan.select.params)).toEqual([{ id: 3, title: '100% sure' }]);
  });
});

describe('on SQLite: large filters', () => {
  it('an $or of 1,000 conditions runs (SQLite refuses an OR chain 1,000 deep)', () => {
    const filters = { $or: Array.from({ length: 1000 }, (_, i) => ({ id: i + 1 })) };
    const plan = buildFindQuery(article, { filters }, options);
    expect(db.prepare(plan.select.sql).all(...plan.select.params)).toHaveLength(10);
  });
});
