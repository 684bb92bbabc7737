/**
 * GraphQL arguments to the REST query layer: filters, pagination windows (Strapi's
 * withDefaultPagination), collection meta, sort, mutation data; and the in-memory filters
 * and sort of repeatable components.
 */
import { describe, expect, it } from 'vitest';
import { PaginationError, ValidationError } from '../../../templates/runtime/errors.js';
import {
  applyWindow,
  componentPopulate,
  matchesFilters,
  paginationMeta,
  resolveWindow,
  sortItems,
  toRestData,
  toRestFilters,
  toRestSort,
} from '../../../templates/runtime/graphql/args.js';
import type { ComponentMeta, ContentTypeMeta, Registry } from '../../../templates/runtime/meta.js';

const link: ComponentMeta = {
  uid: 'shared.link',
  fields: {
    id: { kind: 'scalar', name: 'id', type: 'integer', column: 'id', prismaField: 'id' },
    label: { kind: 'scalar', name: 'label', type: 'string', column: 'label', prismaField: 'label' },
    rank: { kind: 'scalar', name: 'rank', type: 'integer', column: 'rank', prismaField: 'rank' },
    child: { kind: 'component', name: 'child', component: 'shared.tag', repeatable: false, column: 'child' },
  },
};
const tag: ComponentMeta = { uid: 'shared.tag', fields: { name: { kind: 'scalar', name: 'name', type: 'string', column: 'name', prismaField: 'name' } } };
const author: ContentTypeMeta = {
  uid: 'api::author.author',
  kind: 'collectionType',
  singularName: 'author',
  pluralName: 'authors',
  table: 'authors',
  delegate: 'author',
  draftAndPublish: false,
  populateCreatorFields: false,
  fields: { id: { kind: 'scalar', name: 'id', type: 'integer', column: 'id', prismaField: 'id' }, name: { kind: 'scalar', name: 'name', type: 'string', column: 'name', prismaField: 'name' } },
};
const post: ContentTypeMeta = {
  ...author,
  uid: 'api::post.post',
  singularName: 'post',
  pluralName: 'posts',
  fields: {
    id: author.fields.id!,
    title: { kind: 'scalar', name: 'title', type: 'string', column: 'title', prismaField: 'title' },
    author: { kind: 'relation', name: 'author', relation: 'manyToOne', target: 'api::author.author', toMany: false },
    links: { kind: 'component', name: 'links', component: 'shared.link', repeatable: true, column: 'links' },
    blocks: { kind: 'dynamiczone', name: 'blocks', components: ['shared.tag', 'shared.link'], column: 'blocks' },
  },
};
const registry: Registry = {
  contentTypes: new Map([
    [post.uid, post],
    [author.uid, author],
  ]),
  components: new Map([
    [link.uid, link],
    [tag.uid, tag],
  ]),
};

describe('toRestFilters', () => {
  it('prefixes operators, maps and/or/not at every level, recurses into relations and components', () => {
    expect(
      toRestFilters(
        {
          id: { in: ['1', '2'] },
          title: { containsi: 'a', not: { eq: 'b' }, or: ['x', 'y'] },
          author: { name: { eq: 'Ann' }, or: [{ name: { null: true } }] },
          links: { label: { startsWith: 'L' } },
          and: [{ title: { ne: 'z' } }],
          not: { title: { eq: 'q' } },
        },
        post,
        registry,
      ),
    ).toEqual({
      id: { $in: ['1', '2'] },
      title: { $containsi: 'a', $not: { $eq: 'b' }, $or: ['x', 'y'] },
      author: { name: { $eq: 'Ann' }, $or: [{ name: { $null: true } }] },
      links: { label: { $startsWith: 'L' } },
      $and: [{ title: { $ne: 'z' } }],
      $not: { title: { $eq: 'q' } },
    });
  });

  it('drops absent members and passes no filters through', () => {
    expect(toRestFilters({ title: { eq: undefined, ne: 'x' }, author: undefined }, post, registry)).toEqual({ title: { $ne: 'x' } });
    expect(toRestFilters(undefined, post, registry)).toBeUndefined();
    expect(toRestFilters(null, post, registry)).toBeUndefined();
  });
});

describe('resolveWindow (withDefaultPagination)', () => {
  const limits = { defaultLimit: 10, maxLimit: 100 };
  it('defaults to the first defaultLimit items', () => {
    expect(resolveWindow(undefined, limits)).toEqual({ start: 0, limit: 10 });
    expect(resolveWindow({}, limits)).toEqual({ start: 0, limit: 10 });
  });
  it('page mode and offset mode, clamped to maxLimit; limit -1 asks for maxLimit', () => {
    expect(resolveWindow({ page: 3, pageSize: 20 }, limits)).toEqual({ start: 40, limit: 20 });
    expect(resolveWindow({ page: 2 }, limits)).toEqual({ start: 10, limit: 10 });
    expect(resolveWindow({ pageSize: 500 }, limits)).toEqual({ start: 0, limit: 100 });
    expect(resolveWindow({ start: 5, limit: 7 }, limits)).toEqual({ start: 5, limit: 7 });
    expect(resolveWindow({ limit: 1000 }, limits)).toEqual({ start: 0, limit: 100 });
    expect(resolveWindow({ limit: -1 }, limits)).toEqual({ start: 0, limit: 100 });
    expect(resolveWindow({ start: -3, limit: 0 }, limits)).toEqual({ start: 0, limit: 1 });
    expect(resolveWindow({ page: 0, pageSize: 0 }, limits)).toEqual({ start: 0, limit: 1 });
  });
  it('no maximum: -1 means everything', () => {
    expect(resolveWindow({ limit: -1 }, { defaultLimit: 10, maxLimit: -1 })).toEqual({ start: 0, limit: -1 });
    expect(resolveWindow({ limit: 5000 }, { defaultLimit: 10, maxLimit: -1 })).toEqual({ start: 0, limit: 5000 });
  });
  it('refuses page and offset together (PaginationError)', () => {
    expect(() => resolveWindow({ page: 1, limit: 2 }, limits)).toThrow(PaginationError);
    expect(() => resolveWindow({ pageSize: 1, start: 2 }, limits)).toThrow('Cannot use both page & offset pagination in the same query');
  });
});

describe('paginationMeta and windows', () => {
  it('page = floor(start / limit) + 1, pageCount = ceil(total / limit)', () => {
    expect(paginationMeta({ start: 0, limit: 10 }, 25)).toEqual({ total: 25, page: 1, pageSize: 10, pageCount: 3 });
    expect(paginationMeta({ start: 20, limit: 10 }, 25)).toEqual({ total: 25, page: 3, pageSize: 10, pageCount: 3 });
    expect(paginationMeta({ start: 5, limit: 10 }, 0)).toEqual({ total: 0, page: 1, pageSize: 10, pageCount: 0 });
    expect(paginationMeta({ start: 2, limit: -1 }, 12)).toEqual({ total: 12, page: 1, pageSize: 10, pageCount: 1 });
  });
  it('applyWindow slices', () => {
    expect(applyWindow([1, 2, 3, 4, 5], { start: 1, limit: 2 })).toEqual([2, 3]);
    expect(applyWindow([1, 2, 3], { start: 1, limit: -1 })).toEqual([2, 3]);
  });
});

describe('toRestSort', () => {
  it('a string, a list, or nothing', () => {
    expect(toRestSort('title:desc')).toBe('title:desc');
    expect(toRestSort(['title:asc', null, 'id:desc'])).toEqual(['title:asc', 'id:desc']);
    expect(toRestSort([])).toBeUndefined();
    expect(toRestSort(null)).toBeUndefined();
  });
});

describe('toRestData', () => {
  it('component ids become numbers; dynamic-zone items keep __component; other values pass', () => {
    expect(
      toRestData(
        {
          title: 'T',
          author: '3',
          links: [{ id: '4', label: 'a', child: { name: 'n' } }, { label: 'b' }],
          blocks: [{ __component: 'shared.link', id: '2', label: 'c' }, { __component: 'shared.tag', name: 't' }],
        },
        post,
        registry,
      ),
    ).toEqual({
      title: 'T',
      author: '3',
      links: [{ id: 4, label: 'a', child: { name: 'n' } }, { label: 'b' }],
      blocks: [{ __component: 'shared.link', id: 2, label: 'c' }, { __component: 'shared.tag', name: 't' }],
    });
  });
});

describe('componentPopulate', () => {
  it('every component and dynamic zone, nested', () => {
    expect(componentPopulate(post, registry)).toEqual({
      links: { populate: { child: { populate: undefined } } },
      blocks: { on: { 'shared.tag': { populate: undefined }, 'shared.link': { populate: { child: { populate: undefined } } } } },
    });
    expect(componentPopulate(author, registry)).toBeUndefined();
  });
});

describe('repeatable components in memory', () => {
  const items = [
    { id: 1, label: 'beta', rank: 2, child: { name: 'x' } },
    { id: 2, label: 'Alpha', rank: null, child: null },
    { id: 3, label: 'gamma', rank: 1, child: { name: 'y' } },
  ];
  const labels = (list: readonly Record<string, unknown>[]) => list.map((i) => i.label);

  it('matchesFilters: operators, and/or/not, nested components', () => {
    const where = (filters: unknown) => labels(items.filter((i) => matchesFilters(i, filters, link, registry)));
    expect(where({ label: { eq: 'beta' } })).toEqual(['beta']);
    expect(where({ label: { eqi: 'ALPHA' } })).toEqual(['Alpha']);
    expect(where({ label: { containsi: 'A' } })).toEqual(['beta', 'Alpha', 'gamma']);
    expect(where({ label: { startsWith: 'g' } })).toEqual(['gamma']);
    expect(where({ rank: { gte: 2 } })).toEqual(['beta']);
    expect(where({ rank: { null: true } })).toEqual(['Alpha']);
    expect(where({ rank: { in: [1, 2] } })).toEqual(['beta', 'gamma']);
    expect(where({ rank: { between: [1, 1] } })).toEqual(['gamma']);
    expect(where({ or: [{ label: { eq: 'beta' } }, { rank: { eq: 1 } }] })).toEqual(['beta', 'gamma']);
    expect(where({ not: { label: { eq: 'beta' } } })).toEqual(['Alpha', 'gamma']);
    expect(where({ child: { name: { eq: 'y' } } })).toEqual(['gamma']);
    expect(() => where({ nope: { eq: 1 } })).toThrow(ValidationError);
  });

  it('sortItems: terms in order, null first ascending', () => {
    expect(labels(sortItems(items, 'rank:asc', link))).toEqual(['Alpha', 'gamma', 'beta']);
    expect(labels(sortItems(items, ['rank:desc'], link))).toEqual(['beta', 'gamma', 'Alpha']);
    expect(labels(sortItems(items, 'label', link))).toEqual(['Alpha', 'beta', 'gamma']);
    expect(labels(sortItems(items, undefined, link))).toEqual(['beta', 'Alpha', 'gamma']);
    expect(() => sortItems(items, 'child:asc', link)).toThrow(ValidationError);
    expect(() => sortItems(items, 'label:up', link)).toThrow(ValidationError);
  });
});

describe('look-ahead (selection.ts)', () => {
  it('collects the attributes asked under data.attributes, through fragments and aliases', async () => {
    const { buildSchema, execute, parse } = await import('graphql');
    const { selectedAttributes, readShape } = await import('../../../templates/runtime/graphql/selection.js');
    const schema = buildSchema('type Query { posts: R } type R { data: [E] } type E { id: ID, attributes: P } type P { title: String, author: String, links: [String], blocks: [String] }');
    let seen: Set<string> | undefined;
    const rootValue = {
      posts: (_args: unknown, _ctx: unknown, info: Parameters<typeof selectedAttributes>[0]) => {
        seen = selectedAttributes(info, ['data', 'attributes']);
        return null;
      },
    };
    await execute({ schema, rootValue, document: parse('{ posts { data { id attributes { title ...F } } other: data { attributes { ... on P { links } } } } } fragment F on P { author }') });
    expect([...seen!].sort()).toEqual(['author', 'links', 'title']);
    // Scalars become `fields` (id is always read); components/zones asked are populated.
    expect(readShape(post, new Set(['title', 'links']), registry)).toEqual({ fields: ['title'], populate: { links: { populate: { child: { populate: undefined } } } } });
    expect(readShape(post, new Set(['author']), registry)).toEqual({ fields: [] });
    // A name the model does not have (an extension's field): everything is read.
    expect(readShape(post, new Set(['title', 'wordCount']), registry)).toEqual({ populate: componentPopulate(post, registry) });
    expect(readShape(post, undefined, registry, ['title'])).toEqual({ populate: componentPopulate(post, registry) });
  });
});
