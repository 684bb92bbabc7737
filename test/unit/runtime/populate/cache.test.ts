import { describe, expect, it } from 'vitest';
import type { ContentTypeMeta, Registry } from '../../../../templates/runtime/meta.js';
import { parsePopulateCached } from '../../../../templates/runtime/populate/cache.js';
import { article } from '../query/fixtures.js';

const author: ContentTypeMeta = { ...article, uid: 'api::author.author', singularName: 'author', pluralName: 'authors', table: 'authors', fields: { id: article.fields['id']! } };
const registry = { contentTypes: new Map([[article.uid, article], [author.uid, author]]), components: new Map() } as unknown as Registry;

describe('parsePopulateCached', () => {
  it('reuses a tree only for a caller who may find the same types', () => {
    const allowed = parsePopulateCached(article, 'author', { registry, maxDepth: 5, canFind: () => true });
    expect([...allowed.keys()]).toEqual(['author']);
    expect(parsePopulateCached(article, 'author', { registry, maxDepth: 5, canFind: () => true })).toBe(allowed);
    expect([...parsePopulateCached(article, 'author', { registry, maxDepth: 5, canFind: () => false }).keys()]).toEqual([]);
    expect(parsePopulateCached(article, 'author', { registry, maxDepth: 5, canFind: () => true })).toBe(allowed);
    expect([...parsePopulateCached(article, 'author', { registry, maxDepth: 5 }).keys()]).toEqual(['author']);
  });

  it('does not keep a populate that is refused', () => {
    expect(() => parsePopulateCached(article, 'author', { registry, maxDepth: 0 })).toThrow('populate is nested deeper than 0 levels');
    expect(() => parsePopulateCached(article, 'author', { registry, maxDepth: 0 })).toThrow('populate is nested deeper than 0 levels');
  });
});
