/**
 * The extension service, function by function: shadowCRUD(uid) settings and getters,
 * field(name) settings and getters, use() with objects and factories (merged, earlier
 * registrations winning), named policies and middlewares.
 */
import * as graphql from 'graphql';
import { describe, expect, it } from 'vitest';
import { GraphqlExtensionService, type ExtensionFactoryContext } from '../../../templates/runtime/graphql/extension.js';

const context: ExtensionFactoryContext = {
  graphql,
  typeRegistry: { has: () => false, get: () => undefined, names: () => [] },
  registry: { contentTypes: new Map(), components: new Map() },
};

describe('shadowCRUD(uid)', () => {
  it('is enabled, with queries, mutations and every action, until told otherwise', () => {
    const type = new GraphqlExtensionService().shadowCRUD('api::post.post');
    expect([type.isEnabled(), type.isDisabled()]).toEqual([true, false]);
    expect([type.areQueriesEnabled(), type.areQueriesDisabled()]).toEqual([true, false]);
    expect([type.areMutationsEnabled(), type.areMutationsDisabled()]).toEqual([true, false]);
    for (const action of ['find', 'findOne', 'create', 'update', 'delete'] as const) {
      expect([type.isActionEnabled(action), type.isActionDisabled(action)]).toEqual([true, false]);
    }
  });

  it('disable()', () => {
    const ext = new GraphqlExtensionService();
    expect(ext.shadowCRUD('api::post.post').disable().isDisabled()).toBe(true);
    expect(ext.shadowCRUD('api::post.post').isEnabled()).toBe(false);
    expect(ext.shadowCRUD('api::other.other').isEnabled()).toBe(true);
  });

  it('disableQueries() and disableMutations()', () => {
    const ext = new GraphqlExtensionService();
    ext.shadowCRUD('api::post.post').disableQueries();
    expect(ext.shadowCRUD('api::post.post').areQueriesDisabled()).toBe(true);
    expect(ext.shadowCRUD('api::post.post').areMutationsEnabled()).toBe(true);
    ext.shadowCRUD('api::post.post').disableMutations();
    expect(ext.shadowCRUD('api::post.post').areMutationsDisabled()).toBe(true);
  });

  it('disableAction(name), disableActions(names) and "*"', () => {
    const ext = new GraphqlExtensionService();
    const post = ext.shadowCRUD('api::post.post').disableAction('delete').disableActions(['create', 'update']);
    expect(post.isActionDisabled('delete')).toBe(true);
    expect(post.isActionDisabled('create')).toBe(true);
    expect(post.isActionEnabled('update')).toBe(false);
    expect(post.isActionEnabled('find')).toBe(true);
    const all = ext.shadowCRUD('api::tag.tag').disableAction('*');
    for (const action of ['find', 'findOne', 'create', 'update', 'delete'] as const) expect(all.isActionDisabled(action)).toBe(true);
  });

  it('settings(uid) reads without recording; configuredUids() lists what was configured', () => {
    const ext = new GraphqlExtensionService();
    expect(ext.settings('api::post.post').isEnabled()).toBe(true);
    ext.shadowCRUD('api::tag.tag').field('name').disableInput();
    expect(ext.configuredUids()).toEqual(['api::tag.tag']);
    expect(ext.configuredFields('api::tag.tag')).toEqual(['name']);
    expect(ext.settings('api::tag.tag').field('name').hasInputEnabled()).toBe(false);
  });
});

describe('shadowCRUD(uid).field(name)', () => {
  const field = () => new GraphqlExtensionService().shadowCRUD('api::post.post').field('title');

  it('is enabled with output, input and filters by default', () => {
    const f = field();
    expect([f.isEnabled(), f.isDisabled(), f.hasOutputEnabled(), f.hasInputEnabled(), f.hasFiltersEnabled(), f.hasFiltersEnabeld()]).toEqual([true, false, true, true, true, true]);
  });

  it('disable() turns everything off', () => {
    const f = field().disable();
    expect([f.isEnabled(), f.isDisabled(), f.hasOutputEnabled(), f.hasInputEnabled(), f.hasFiltersEnabled()]).toEqual([false, true, false, false, false]);
  });

  it('disableOutput(), disableInput(), disableFilters() each turn one off', () => {
    expect(field().disableOutput().hasOutputEnabled()).toBe(false);
    expect(field().disableOutput().hasInputEnabled()).toBe(true);
    expect(field().disableInput().hasInputEnabled()).toBe(false);
    expect(field().disableInput().isEnabled()).toBe(true);
    expect(field().disableFilters().hasFiltersEnabeld()).toBe(false);
    expect(field().disableFilters().hasOutputEnabled()).toBe(true);
  });

  it('remembers settings per uid and field', () => {
    const ext = new GraphqlExtensionService();
    ext.shadowCRUD('api::post.post').field('title').disableOutput();
    expect(ext.shadowCRUD('api::post.post').field('title').hasOutputEnabled()).toBe(false);
    expect(ext.shadowCRUD('api::post.post').field('body').hasOutputEnabled()).toBe(true);
  });
});

describe('use()', () => {
  it('collects typeDefs, types and plugins in order; factories get the graphql module, type registry and registry', () => {
    const ext = new GraphqlExtensionService();
    const type = new graphql.GraphQLObjectType({ name: 'A', fields: { a: { type: graphql.GraphQLInt } } });
    let received: ExtensionFactoryContext | undefined;
    ext.use({ typeDefs: 'type X { x: Int }', plugins: [{ name: 'one' }] });
    ext.use((ctx) => {
      received = ctx;
      return { types: [type], typeDefs: 'type Y { y: Int }', plugins: [{ name: 'two' }] };
    });
    const generated = ext.generate(context);
    expect(received).toBe(context);
    expect(generated.typeDefs).toEqual(['type X { x: Int }', 'type Y { y: Int }']);
    expect(generated.types).toEqual([type]);
    expect(generated.plugins.map((p) => p.name)).toEqual(['one', 'two']);
  });

  it('merges resolvers: fields add up, an earlier registration of a field wins', () => {
    const ext = new GraphqlExtensionService();
    const first = () => 'first';
    const second = () => 'second';
    const other = () => 'other';
    ext.use({ resolvers: { Query: { a: first } } });
    ext.use({ resolvers: { Query: { a: second, b: other }, Post: { c: other } } });
    const { resolvers } = ext.generate(context);
    expect(resolvers).toEqual({ Query: { a: first, b: other }, Post: { c: other } });
  });

  it('merges resolversConfig per key and property, earlier registrations winning', () => {
    const ext = new GraphqlExtensionService();
    const policy = () => true;
    ext.use({ resolversConfig: { 'Query.posts': { auth: false } } });
    ext.use({ resolversConfig: { 'Query.posts': { auth: { scope: ['x'] }, policies: [policy] }, 'Query.post': { auth: false } } });
    expect(ext.generate(context).resolversConfig).toEqual({ 'Query.posts': { auth: false, policies: [policy] }, 'Query.post': { auth: false } });
  });

  it('is chainable and re-evaluates factories on every generate()', () => {
    const ext = new GraphqlExtensionService();
    let calls = 0;
    expect(ext.use(() => ({ typeDefs: `type T${++calls} { a: Int }` }))).toBe(ext);
    expect(ext.generate(context).typeDefs).toEqual(['type T1 { a: Int }']);
    expect(ext.generate(context).typeDefs).toEqual(['type T2 { a: Int }']);
  });
});

describe('policy() and middleware()', () => {
  it('register named policies and middleware factories', () => {
    const ext = new GraphqlExtensionService();
    const isOwner = () => true;
    const factory = () => (resolve: (...args: never[]) => unknown) => resolve;
    expect(ext.policy('is-owner', isOwner).middleware('log', factory as never)).toBe(ext);
    expect(ext.namedPolicy('is-owner')).toBe(isOwner);
    expect(ext.namedMiddleware('log')).toBe(factory);
    expect(ext.namedPolicy('nope')).toBeUndefined();
  });
});
