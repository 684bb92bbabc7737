/**
 * The per-type row converter emitted into out/ (issue 29) answers what the attribute-by-
 * attribute conversion answers, for the value forms each database's reader gives: SQLite's
 * text datetimes, 0/1 booleans and JSON text; PostgreSQL's Date objects, numeric strings and
 * parsed JSON; bigints; nulls and missing keys. Other selections fall back to it.
 */
import { describe, expect, it } from 'vitest';
import { article } from '../../../../out/src/generated/content-types/article.js';
import { allSelectableFields } from '../../../../templates/runtime/query/fields.js';
import { toEntry } from '../../../../templates/runtime/rest/transform.js';
import type { ContentTypeMeta } from '../../../../templates/runtime/meta.js';

const converted: ContentTypeMeta = article;
const generic: ContentTypeMeta = { ...article, rows: undefined };

const rows: Record<string, unknown>[] = [
  {
    // SQLite (better-sqlite3, safe integers converted where small)
    id: 7,
    title: 'Hello',
    slug: 'hello',
    description: null,
    content: 'Body',
    status: 'draft',
    views: 12,
    rating: 4.5,
    price: 19.99,
    impressions: 9007199254740993n,
    featured: 1,
    publishDate: '2024-03-05T00:00:00.000+00:00',
    readingTime: '1970-01-01T00:12:30.000+00:00',
    lastReviewedAt: '2024-03-05T10:30:00.000+00:00',
    metadata: '{"a":[1,2]}',
    createdAt: '2024-03-05T10:30:00.000+00:00',
    updatedAt: '2024-03-06T10:30:00.000+00:00',
    publishedAt: null,
  },
  {
    // PostgreSQL (pg): Dates, numeric as text, booleans, parsed JSON
    id: 8,
    title: 'Über',
    slug: null,
    description: 'd',
    content: null,
    status: 'final',
    views: '3',
    rating: 2,
    price: '10.50',
    impressions: '42',
    featured: false,
    publishDate: new Date('2024-03-05T00:00:00.000Z'),
    readingTime: '12:30:00',
    lastReviewedAt: new Date('2024-03-05T10:30:00.123Z'),
    metadata: { b: true },
    createdAt: new Date('2024-03-05T10:30:00.000Z'),
    updatedAt: new Date('2024-03-06T10:30:00.000Z'),
    publishedAt: new Date('2024-03-07T10:30:00.000Z'),
  },
  // keys missing altogether
  { id: 9n },
];

describe('the emitted row converter', () => {
  it('is the type default selection', () => {
    expect(article.rows.fields).toEqual(allSelectableFields(article));
  });

  for (const [i, row] of rows.entries()) {
    it(`converts row ${i + 1} as the generic conversion does`, () => {
      const fields = allSelectableFields(article);
      const fast = toEntry(converted, { ...row }, fields);
      const slow = toEntry(generic, { ...row }, fields);
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
      expect(Object.keys(fast.attributes)).toEqual(fields.slice(1));
    });
  }

  it('leaves other selections to the attribute-by-attribute conversion', () => {
    const fields = ['id', 'title', 'publishDate'];
    expect(toEntry(converted, rows[0]!, fields)).toEqual({ id: 7, attributes: { title: 'Hello', publishDate: '2024-03-05' } });
    // A view with fewer fields (GraphQL's) keeps the converter but not its selection.
    const fewer: ContentTypeMeta = { ...article, fields: { id: article.fields.id, title: article.fields.title } };
    expect(toEntry(fewer, rows[0]!, allSelectableFields(fewer))).toEqual({ id: 7, attributes: { title: 'Hello' } });
  });
});
