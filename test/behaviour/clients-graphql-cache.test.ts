/**
 * Real GraphQL clients with normalised caches, as Strapi users run them against the server:
 * Apollo Client's InMemoryCache and urql's graphcache key objects by `__typename` and `id`.
 * A list read back from the cache must equal the server's own answer — it does not when
 * component ids repeat across entries (every article would show one article's `seo`).
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client/core';
import { Client as UrqlClient, fetchExchange, gql as urqlGql } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let token: string;

const listQuery = `
  query Articles {
    articles(sort: "id") {
      data {
        id
        attributes {
          title
          seo { id metaTitle }
          links { id label }
          blocks { __typename ... on ComponentSharedQuote { id body } ... on ComponentSharedRichText { id body } }
        }
      }
    }
  }`;

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  const api = client(server.url, bearer(token));
  for (const title of ['One', 'Two', 'Three']) {
    const res = await api.post('/api/articles', {
      data: {
        title,
        seo: { metaTitle: `${title} seo` },
        links: [{ label: `${title} a`, url: 'https://a.example' }, { label: `${title} b`, url: 'https://b.example' }],
        blocks: [{ __component: 'shared.quote', body: `${title} quote` }, { __component: 'shared.rich-text', body: `${title} text` }],
      },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

/** The server's own answer, with the __typename fields the clients add. */
async function serverAnswer(): Promise<unknown> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...bearer(token) },
    body: JSON.stringify({ query: listQuery.replace(/\{ id/g, '{ __typename id').replace('data {', 'data { __typename').replace('attributes {', 'attributes { __typename') }),
  });
  return ((await res.json()) as { data: unknown }).data;
}

function titlesAndSeo(data: any): unknown {
  return data.articles.data.map((a: any) => ({ title: a.attributes.title, seo: a.attributes.seo.metaTitle, links: a.attributes.links.map((l: any) => l.label), blocks: a.attributes.blocks.map((b: any) => b.body) }));
}

describe('normalised GraphQL caches', () => {
  it('Apollo InMemoryCache: the list read from the cache equals the server’s answer', async () => {
    const apollo = new ApolloClient({
      link: new HttpLink({ uri: `${server.url}/graphql`, headers: bearer(token), fetch }),
      cache: new InMemoryCache({ possibleTypes: { ArticleBlocksDynamicZone: ['ComponentSharedQuote', 'ComponentSharedRichText'] } }),
    });
    const query = gql(listQuery);
    const network = await apollo.query({ query, fetchPolicy: 'network-only' });
    const cached = apollo.readQuery({ query });
    expect(titlesAndSeo(cached)).toEqual(titlesAndSeo(network.data));
    expect(titlesAndSeo(cached)).toEqual([
      { title: 'One', seo: 'One seo', links: ['One a', 'One b'], blocks: ['One quote', 'One text'] },
      { title: 'Two', seo: 'Two seo', links: ['Two a', 'Two b'], blocks: ['Two quote', 'Two text'] },
      { title: 'Three', seo: 'Three seo', links: ['Three a', 'Three b'], blocks: ['Three quote', 'Three text'] },
    ]);
    expect(titlesAndSeo(cached)).toEqual(titlesAndSeo(await serverAnswer()));
  });

  it('urql graphcache: a cache-only read after the network read equals the server’s answer', async () => {
    const urql = new UrqlClient({
      url: `${server.url}/graphql`,
      fetch,
      fetchOptions: { headers: bearer(token) },
      exchanges: [cacheExchange({}), fetchExchange],
    });
    const query = urqlGql(listQuery);
    const network = await urql.query(query, {}, { requestPolicy: 'network-only' }).toPromise();
    expect(network.error).toBeUndefined();
    const cached = await urql.query(query, {}, { requestPolicy: 'cache-only' }).toPromise();
    expect(titlesAndSeo(cached.data)).toEqual(titlesAndSeo(await serverAnswer()));
  });
});
