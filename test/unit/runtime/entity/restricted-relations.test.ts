/**
 * Strapi's removeRestrictedRelations on write input, at every depth: relations to a type the
 * caller may not read go, inside components and dynamic zones too; media and readable
 * relations stay; input nothing was removed from is returned as it was given.
 */
import { describe, expect, it } from 'vitest';
import type { ComponentMeta, FieldMeta, Registry } from '../../../../templates/runtime/meta.js';
import { removeRestrictedRelations } from '../../../../templates/runtime/entity/restricted-relations.js';
import { contentType, scalar } from './fixtures.js';

const relation = (name: string, target: string): FieldMeta => ({ kind: 'relation', name, relation: 'manyToOne', target } as FieldMeta);
const component = (uid: string, fields: FieldMeta[]): ComponentMeta => ({ uid, fields: Object.fromEntries(fields.map((f) => [f.name, f])) } as ComponentMeta);

const credit = component('shared.credit', [scalar('role', 'string'), relation('person', 'api::person.person'), relation('tag', 'api::tag.tag')]);
const article = contentType([
  scalar('title', 'string'),
  relation('author', 'api::person.person'),
  relation('tag', 'api::tag.tag'),
  { kind: 'media', name: 'cover', multiple: false } as FieldMeta,
  { kind: 'component', name: 'credits', component: 'shared.credit', repeatable: true } as FieldMeta,
  { kind: 'component', name: 'lead', component: 'shared.credit', repeatable: false } as FieldMeta,
  { kind: 'dynamiczone', name: 'blocks', components: ['shared.credit'], column: 'blocks' } as FieldMeta,
  { kind: 'morph', name: 'items', relation: 'morphToMany', toMany: true } as FieldMeta,
]);
const registry = {
  contentTypes: new Map<string, unknown>([['api::person.person', {}], ['api::tag.tag', {}], ['api::article.article', article]]),
  components: new Map([['shared.credit', credit]]),
} as unknown as Registry;
const canFind = (uid: string) => uid !== 'api::person.person';

describe('removeRestrictedRelations', () => {
  it('drops relations to unreadable types at every depth, keeps the rest', () => {
    const input = {
      title: 'T',
      author: 1,
      tag: 2,
      cover: 3,
      credits: [{ role: 'writer', person: 1, tag: 2 }, { role: 'editor' }],
      lead: { role: 'lead', person: { connect: [1] } },
      blocks: [{ __component: 'shared.credit', person: 4, tag: 5 }],
      items: [{ __type: 'api::person.person', id: 1 }, { __type: 'api::tag.tag', id: 2 }, { __type: 'api::gone.gone', id: 3 }],
    };
    expect(removeRestrictedRelations(article.fields, input, registry, canFind)).toEqual({
      title: 'T',
      tag: 2,
      cover: 3,
      credits: [{ role: 'writer', tag: 2 }, { role: 'editor' }],
      lead: { role: 'lead' },
      blocks: [{ __component: 'shared.credit', tag: 5 }],
      items: [{ __type: 'api::tag.tag', id: 2 }, { __type: 'api::gone.gone', id: 3 }],
    });
    expect(input.credits[0]).toHaveProperty('person', 1);
  });

  it('a morph field loses itself with its last readable link; untouched input is the same object', () => {
    expect(removeRestrictedRelations(article.fields, { items: [{ __type: 'api::person.person', id: 1 }] }, registry, canFind)).toEqual({});
    const untouched = { title: 'T', tag: 2, credits: [{ role: 'x' }] };
    expect(removeRestrictedRelations(article.fields, untouched, registry, canFind)).toBe(untouched);
  });
});
