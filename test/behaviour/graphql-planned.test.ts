/**
 * The planned executor (runtime/graphql/execute.ts) answers every query with the bytes
 * graphql-js answers: two servers on the same database, one with
 * `plugins.graphql.plannedExecution: false`, asked the same queries — relations with their
 * arguments, components, dynamic zones (unions, fragments on their members), aliases, named and
 * inline fragments, `__typename`, variables, several root fields, merged selections — as a
 * full-access token and as the public role, whose nested relations it may not read (errors
 * with paths, null in place). Queries with directives run on graphql-js on both servers and
 * must agree too.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const models: Record<string, unknown> = {
  'article.json': {
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      views: { type: 'integer' },
      big: { type: 'biginteger' },
      price: { type: 'decimal' },
      published: { type: 'date' },
      seen: { type: 'datetime' },
      status: { type: 'enumeration', enum: ['draft', 'final-cut'] },
      extra: { type: 'json' },
      author: { type: 'relation', relation: 'manyToOne', target: 'api::person.person', inversedBy: 'articles' },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' },
      hero: { type: 'component', component: 'parts.card' },
      cards: { type: 'component', component: 'parts.card', repeatable: true },
      body: { type: 'dynamiczone', components: ['parts.card', 'parts.quote'] },
    },
  },
  'person.json': {
    info: { singularName: 'person', pluralName: 'people', displayName: 'Person' },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } },
  },
  'tag.json': {
    info: { singularName: 'tag', pluralName: 'tags', displayName: 'Tag' },
    attributes: { name: { type: 'string' }, articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } },
  },
  'permissions.json': { public: ['api::article.article.find', 'api::article.article.findOne', 'api::tag.tag.find'] },
  'components/parts/card.json': {
    collectionName: 'components_parts_cards',
    info: { displayName: 'Card' },
    attributes: { label: { type: 'string' }, person: { type: 'relation', relation: 'oneToOne', target: 'api::person.person' } },
  },
  'components/parts/quote.json': { collectionName: 'components_parts_quotes', info: { displayName: 'Quote' }, attributes: { text: { type: 'text' }, card: { type: 'component', component: 'parts.card' } } },
};

let dir: string;
let built: BuiltServer;
let planned: RunningServer;
let graphqlJs: RunningServer;
let admin: Record<string, string>;

async function post(server: RunningServer, query: string, variables: Record<string, unknown> | undefined, headers: Record<string, string>) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, text: await res.text() };
}

beforeAll(async () => {
  dir = await tempDir('graphql-planned-models');
  for (const [file, json] of Object.entries(models)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), JSON.stringify(json));
  }
  built = await buildModels(dir, 'graphql-planned');
  planned = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const run = async (query: string) => {
    const answer = JSON.parse((await post(planned, query, undefined, admin)).text);
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data;
  };
  const people = await run('mutation { a: createPerson(data: { name: "Ann" }) { data { id } } b: createPerson(data: { name: "Bob" }) { data { id } } }');
  const [ann, bob] = [people.a.data.id, people.b.data.id];
  const tags = await run('mutation { a: createTag(data: { name: "alpha" }) { data { id } } b: createTag(data: { name: "beta" }) { data { id } } c: createTag(data: { name: "gamma" }) { data { id } } }');
  const tagIds = [tags.a.data.id, tags.b.data.id, tags.c.data.id];
  for (let i = 0; i < 6; i++) {
    await run(`mutation { createArticle(data: {
      title: "Article ${i}", views: ${i * 7}, big: "${9007199254740993n + BigInt(i)}", price: ${i}.25, published: "2024-0${(i % 9) + 1}-15",
      seen: "2024-03-0${i + 1}T10:30:00.120Z", status: ${i % 2 ? 'final_cut' : 'draft'}, extra: { n: ${i}, list: [1, "two", null] },
      author: ${i % 3 === 2 ? 'null' : i % 2 ? bob : ann}, tags: [${tagIds.slice(0, i % 4).join(', ')}],
      hero: { label: "hero ${i}", person: ${ann} }, cards: [{ label: "c1" }, { label: "c2", person: ${bob} }],
      body: [{ __typename: "ComponentPartsQuote", text: "q${i}", card: { label: "in quote", person: ${bob} } }, { __typename: "ComponentPartsCard", label: "dz${i}" }]
      ${i === 5 ? ', publishedAt: null' : ', publishedAt: "2024-01-01T00:00:00.000Z"'}
    }) { data { id } } }`);
  }
  // The same build and database, on graphql-js alone.
  const configFile = path.join(built.dir, 'src/config.ts');
  const original = await readFile(configFile, 'utf8');
  await writeFile(configFile, `import type { UserConfig } from './runtime/config.js';\n\nexport default ${JSON.stringify({ plugins: { graphql: { plannedExecution: false } } })} satisfies UserConfig;\n`);
  try {
    graphqlJs = await startServer(built.dir);
  } finally {
    await writeFile(configFile, original);
  }
});

afterAll(async () => {
  await planned?.stop();
  await graphqlJs?.stop();
  await built?.cleanup();
  await rm(dir, { recursive: true, force: true });
});

const entity = 'data { id attributes { title } }';
const queries: Record<string, { query: string; variables?: Record<string, unknown> }> = {
  'a list with relations, components and meta': {
    query: `{ articles(sort: "title") { data { id attributes {
      title views big price published seen status extra createdAt publishedAt
      author { data { id attributes { name } } }
      tags { data { id attributes { name } } }
      hero { id label person { data { attributes { name } } } }
      cards { label person { ${entity.replace('title', 'name')} } }
    } } meta { pagination { page pageSize pageCount total } } } }`,
  },
  'relation arguments, nested lists and the way back': {
    query: `{ articles(filters: { views: { gte: 7 } }, pagination: { page: 1, pageSize: 3 }, sort: ["views:desc"]) { data { id attributes {
      tags(sort: "name:desc", pagination: { limit: 2 }, filters: { name: { ne: "beta" } }) { data { id attributes { name articles(sort: "title") { ${entity} } } } }
      author { data { attributes { name articles(pagination: { limit: 1 }) { data { id } } } } }
    } } } }`,
  },
  'dynamic zones: unions, fragments, __typename': {
    query: `query Zones { articles { data { __typename id attributes { __typename body {
      __typename
      ... on ComponentPartsCard { id label }
      ... on ComponentPartsQuote { text card { __typename label person { data { id attributes { name } } } } }
      ...QuoteAgain
    } } } } }
    fragment QuoteAgain on ComponentPartsQuote { id text }`,
  },
  'aliases, merged selections and several root fields': {
    query: `{
      first: articles(pagination: { limit: 1 }) { data { id attributes { heading: title author { data { id } } author { data { attributes { name } } } } } }
      rest: articles(pagination: { start: 1, limit: 2 }) { ...List meta { pagination { total } } }
      tags(sort: "name") { data { attributes { name } } }
      one: article(id: 2) { data { id attributes { title tags { data { attributes { name } } } } } }
      none: article(id: 999) { data { id } }
      __typename
    }
    fragment List on ArticleEntityResponseCollection { data { id ... on ArticleEntity { attributes { title } } } }`,
  },
  'variables and a draft': {
    query: `query Page($size: Int, $state: PublicationState, $name: String) { articles(pagination: { pageSize: $size }, publicationState: $state, sort: "id") {
      data { id attributes { title publishedAt tags(filters: { name: { eq: $name } }) { data { id } } } } } }`,
    variables: { size: 4, state: 'PREVIEW', name: 'alpha' },
  },
  'an error inside a relation': {
    query: `{ articles(sort: "id") { data { id attributes { title tags(sort: "nope:asc") { data { id } } } } } }`,
  },
  'directives (graphql-js on both)': {
    query: `query D($with: Boolean!) { articles { data { id attributes { title author @include(if: $with) { data { id } } } } } }`,
    variables: { with: true },
  },
};

describe('planned execution answers as graphql-js does', () => {
  for (const [as, headers] of [
    ['a full-access token', () => admin],
    ['the public role (no person.find)', () => ({})],
  ] as const) {
    for (const [name, { query, variables }] of Object.entries(queries)) {
      it(`${name}, as ${as}`, async () => {
        const expected = await post(graphqlJs, query, variables, headers());
        const actual = await post(planned, query, variables, headers());
        expect(actual.status).toBe(expected.status);
        expect(actual.text).toBe(expected.text);
        // Not vacuous: the answer has data, and the public role meets the relations it may not read.
        const body = JSON.parse(actual.text);
        expect(body.data).toBeTruthy();
        if (as.startsWith('the public') && /author|person/.test(query)) expect(body.errors?.[0]?.message).toBe('Forbidden access');
      });
    }
  }

  it('the same query again answers the same (the plan is reused)', async () => {
    const { query } = queries['a list with relations, components and meta']!;
    const first = await post(planned, query, undefined, admin);
    const second = await post(planned, query, undefined, admin);
    expect(second.text).toBe(first.text);
    expect(JSON.parse(first.text).data.articles.data).toHaveLength(5);
  });
});
