/**
 * Relations inside components over GraphQL (their ids live in the component JSON): a
 * relation in a component, in a repeatable component, in a component nested in a
 * component and in a dynamic zone, each batched into one lookup per field and level.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { statementsOf } from '../helpers/http.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const models: Record<string, unknown> = {
  'page.json': {
    info: { singularName: 'page', pluralName: 'pages', displayName: 'Page' },
    attributes: {
      title: { type: 'string' },
      hero: { type: 'component', component: 'parts.card' },
      cards: { type: 'component', component: 'parts.card', repeatable: true },
      body: { type: 'dynamiczone', components: ['parts.card', 'parts.group'] },
    },
  },
  'person.json': { info: { singularName: 'person', pluralName: 'people', displayName: 'Person' }, attributes: { name: { type: 'string' } } },
  'permissions.json': { public: ['api::page.page.find', 'api::person.person.find'] },
  'components/parts/card.json': {
    collectionName: 'components_parts_cards',
    info: { displayName: 'Card' },
    attributes: { label: { type: 'string' }, person: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' }, people: { type: 'relation', relation: 'oneToMany', target: 'api::person.person' } },
  },
  'components/parts/group.json': { collectionName: 'components_parts_groups', info: { displayName: 'Group' }, attributes: { card: { type: 'component', component: 'parts.card' } } },
};

let dir: string;
let built: BuiltServer;
let server: RunningServer;
let admin: Record<string, string>;

async function gql(query: string, headers = admin) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { body: (await res.json()) as any, statements: statementsOf(res.headers) };
}

beforeAll(async () => {
  dir = await tempDir('graphql-components-models');
  for (const [file, json] of Object.entries(models)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), JSON.stringify(json));
  }
  built = await buildModels(dir, 'graphql-components');
  server = await startServer(built.dir, { SERVER_TIMING: '1' });
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const people = await gql('mutation { a: createPerson(data: { name: "Ann" }) { data { id } } b: createPerson(data: { name: "Bob" }) { data { id } } }');
  const [a, b] = [people.body.data.a.data.id, people.body.data.b.data.id];
  const card = (label: string) => `{ label: "${label}", person: ${a}, people: [${b}, ${a}] }`;
  for (let i = 0; i < 3; i++) {
    const made = await gql(`mutation { createPage(data: {
      title: "P${i}", hero: ${card('hero')}, cards: [${card('c1')}, ${card('c2')}],
      body: [{ __typename: "ComponentPartsCard", label: "dz", person: ${b} }, { __typename: "ComponentPartsGroup", card: ${card('nested')} }]
    }) { data { id } } }`);
    if (made.body.errors) throw new Error(JSON.stringify(made.body));
  }
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

describe('relations inside components', () => {
  it('resolve from the ids in the JSON, in order, one lookup per field and level', async () => {
    const { body, statements } = await gql(`{
      pages(sort: "title") { data { attributes {
        title
        hero { label person { data { attributes { name } } } people { data { attributes { name } } } }
        cards(pagination: { limit: 1 }) { label person { data { attributes { name } } } }
        body {
          __typename
          ... on ComponentPartsCard { label person { data { attributes { name } } } }
          ... on ComponentPartsGroup { card { label people(sort: "name") { data { attributes { name } } } } }
        }
      } } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.pages.data).toHaveLength(3);
    const page = body.data.pages.data[0].attributes;
    expect(page.hero).toEqual({ label: 'hero', person: { data: { attributes: { name: 'Ann' } } }, people: { data: [{ attributes: { name: 'Bob' } }, { attributes: { name: 'Ann' } }] } });
    expect(page.cards).toEqual([{ label: 'c1', person: { data: { attributes: { name: 'Ann' } } } }]);
    expect(page.body).toEqual([
      { __typename: 'ComponentPartsCard', label: 'dz', person: { data: { attributes: { name: 'Bob' } } } },
      { __typename: 'ComponentPartsGroup', card: { label: 'nested', people: { data: [{ attributes: { name: 'Ann' } }, { attributes: { name: 'Bob' } }] } } },
    ]);
    // list + token + ComponentPartsCard.person + ComponentPartsCard.people (hero) + people(sort) (group): not one per page
    expect(statements).toBeLessThanOrEqual(6);
  });

  it('a relation inside a component needs its target’s find permission', async () => {
    const query = '{ pages(pagination: { limit: 1 }) { data { attributes { hero { label person { data { id } } } } } } }';
    const pagesOnly = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['api::page.page.find'] }));
    const denied = await gql(query, pagesOnly);
    expect(denied.body.data.pages.data[0].attributes.hero).toEqual({ label: 'hero', person: null });
    expect(denied.body.errors.map((e: any) => [e.path.join('.'), e.extensions.code])).toEqual([['pages.data.0.attributes.hero.person', 'FORBIDDEN']]);
    const publicRole = await gql(query, {});
    expect(publicRole.body.errors).toBeUndefined();
  });
});
