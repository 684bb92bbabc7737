/**
 * The measured requests, and their check before measuring: each must answer 200 with the
 * expected number of entries, and the baseline must answer the same JSON. Besides the five
 * REST scenarios: a GraphQL list and its REST equivalent (issue 5), which must list the same
 * articles, authors and tags; the baseline implements neither.
 */
import { isDeepStrictEqual } from 'node:util';
import { send, type HttpRequest } from './measure.js';
import type { SeedResult } from './seed.js';

export interface Scenario {
  readonly key: string;
  readonly title: string;
  readonly path: string;
  /** Entries in `data`: an array of that length, or one object (findOne). */
  readonly expectedEntries: number;
  readonly single: boolean;
  /** `meta.pagination.total` for lists. */
  readonly expectedTotal?: number;
  /** Sent as a POST with this JSON body (GraphQL) instead of a GET. */
  readonly body?: string;
}

/** The five REST scenarios (also on the baseline), then the GraphQL list and its REST equivalent. */
export const scenarioKeys = ['list', 'populateAll', 'deep', 'one', 'list100', 'graphql', 'graphqlRest'] as const;

export function scenarios(seeded: SeedResult): Scenario[] {
  // The deep scenario filters on the category with the most published articles.
  const [categoryId, inCategory] = [...seeded.publishedPerCategory].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  const categoryName = encodeURIComponent(seeded.categoryNames.get(categoryId)!);
  // findOne of an article in the middle of the data.
  const oneId = seeded.articleIds[Math.floor(seeded.articleIds.length / 2) + 1]!;
  return [
    { key: 'list', title: 'plain list (25)', path: '/api/articles', expectedEntries: Math.min(25, seeded.published), single: false, expectedTotal: seeded.published },
    {
      key: 'populateAll',
      title: 'populate=* list of 25',
      path: '/api/articles?populate=*&pagination[pageSize]=25',
      expectedEntries: Math.min(25, seeded.published),
      single: false,
      expectedTotal: seeded.published,
    },
    {
      key: 'deep',
      title: 'deep populate+filter+sort',
      path:
        `/api/articles?filters[category][name][$eq]=${categoryName}&sort=title:desc` +
        '&populate[author][fields][0]=name&populate[tags][sort][0]=name:asc&populate[seo]=true',
      expectedEntries: Math.min(25, inCategory),
      single: false,
      expectedTotal: inCategory,
    },
    { key: 'one', title: 'one entry, populate=*', path: `/api/articles/${oneId}?populate=*`, expectedEntries: 1, single: true },
    {
      key: 'list100',
      title: 'plain list of 100',
      path: '/api/articles?pagination[pageSize]=100',
      expectedEntries: Math.min(100, seeded.published),
      single: false,
      expectedTotal: seeded.published,
    },
  ];
}

/**
 * 25 articles with their author's and tags' names, as Strapi v4's Shadow CRUD GraphQL
 * schema lists them (out/schema.graphql); sent on one line, as a client would minify it.
 */
const GRAPHQL_LIST = `
  query BenchArticles {
    articles(pagination: { pageSize: 25 }) {
      data {
        id
        attributes {
          title
          author { data { id attributes { name } } }
          tags { data { id attributes { name } } }
        }
      }
      meta { pagination { total } }
    }
  }`
  .replace(/\s+/g, ' ')
  .trim();

export interface GraphqlPair {
  readonly query: string;
  readonly graphql: Scenario;
  /** The same page with the same fields, through REST. */
  readonly rest: Scenario;
}

export function graphqlPair(seeded: SeedResult): GraphqlPair {
  const list = { expectedEntries: Math.min(25, seeded.published), single: false, expectedTotal: seeded.published };
  return {
    query: GRAPHQL_LIST,
    graphql: { key: 'graphql', title: 'GraphQL: 25 + author, tags', path: '/graphql', body: JSON.stringify({ query: GRAPHQL_LIST }), ...list },
    rest: {
      key: 'graphqlRest',
      title: 'REST: 25 + author, tags',
      path: '/api/articles?pagination[pageSize]=25&fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=name',
      ...list,
    },
  };
}

/** What is sent for `scenario` to the server at `baseUrl`. */
export function scenarioRequest(scenario: Scenario, baseUrl: string, headers: Record<string, string>): HttpRequest {
  if (scenario.body === undefined) return { url: baseUrl + scenario.path, headers };
  return { url: baseUrl + scenario.path, method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: scenario.body };
}

export interface Fetched {
  readonly status: number;
  readonly text: string;
}

export async function fetchText(request: HttpRequest, timeoutMs = 10_000): Promise<Fetched> {
  const res = await send(request, timeoutMs);
  return { status: res.status, text: await res.text() };
}

/** Throws unless the generated server's answer has the expected status and shape. */
export function checkAnswer(scenario: Scenario, answer: Fetched): void {
  const where = `scenario "${scenario.title}" (${scenario.path})`;
  if (answer.status !== 200) throw new Error(`${where} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  const body = JSON.parse(answer.text) as { data?: unknown; meta?: { pagination?: { total?: number } } };
  if (scenario.single) {
    if (body.data === null || typeof body.data !== 'object' || Array.isArray(body.data)) throw new Error(`${where}: data is not one entry`);
  } else {
    if (!Array.isArray(body.data)) throw new Error(`${where}: data is not an array`);
    if (body.data.length !== scenario.expectedEntries) throw new Error(`${where}: ${body.data.length} entries, expected ${scenario.expectedEntries}`);
    const total = body.meta?.pagination?.total;
    if (scenario.expectedTotal !== undefined && total !== scenario.expectedTotal) {
      throw new Error(`${where}: pagination total ${String(total)}, expected ${scenario.expectedTotal}`);
    }
  }
}

export type Sameness = 'identical bytes' | 'equal up to key order';

/**
 * Compares the baseline's answer to the generated server's: identical text, or failing that
 * equal parsed values (key order ignored). Throws with the first difference otherwise.
 */
export function compareAnswers(scenario: Scenario, generated: Fetched, baseline: Fetched): Sameness {
  if (baseline.status !== generated.status) {
    throw new Error(`baseline answered ${baseline.status} to ${scenario.path}: ${baseline.text.slice(0, 300)}`);
  }
  if (generated.text === baseline.text) return 'identical bytes';
  const a = JSON.parse(generated.text) as unknown;
  const b = JSON.parse(baseline.text) as unknown;
  if (isDeepStrictEqual(a, b)) return 'equal up to key order';
  throw new Error(`baseline JSON differs from the generated server's for "${scenario.title}" (${scenario.path}): ${firstDifference(a, b, '$')}`);
}

/** An entry of either answer of the GraphQL pair, as far as both select it; ids as strings (GraphQL's ID). */
interface ListedArticle {
  readonly id: string;
  readonly title: unknown;
  readonly author: { id: string; name: unknown } | null;
  readonly tags: readonly { id: string; name: unknown }[];
}

type Entry = { id?: unknown; attributes?: { title?: unknown; name?: unknown; author?: { data?: Entry | null }; tags?: { data?: Entry[] } } };

/** Both answers nest `{ id, attributes }` the same way (Shadow CRUD mirrors REST). */
function listed(entries: readonly Entry[]): ListedArticle[] {
  const named = (e: Entry) => ({ id: String(e.id), name: e.attributes?.name });
  return entries.map((e) => {
    const author = e.attributes?.author?.data;
    return { id: String(e.id), title: e.attributes?.title, author: author ? named(author) : null, tags: (e.attributes?.tags?.data ?? []).map(named) };
  });
}

/**
 * Throws unless the GraphQL answer lists the same page as its REST equivalent (already
 * checked with checkAnswer): same ids, titles, author and tag names, in the same order.
 */
export function checkGraphqlAgainstRest(pair: GraphqlPair, graphql: Fetched, rest: Fetched): void {
  const where = `scenario "${pair.graphql.title}" (POST ${pair.graphql.path})`;
  if (graphql.status !== 200) throw new Error(`${where} answered ${graphql.status}: ${graphql.text.slice(0, 500)}`);
  const body = JSON.parse(graphql.text) as { errors?: unknown[]; data?: { articles?: { data?: Entry[]; meta?: { pagination?: { total?: number } } } } };
  if (body.errors?.length) throw new Error(`${where} answered errors: ${JSON.stringify(body.errors).slice(0, 500)}`);
  const articles = body.data?.articles;
  if (!Array.isArray(articles?.data)) throw new Error(`${where}: data.articles.data is not an array: ${graphql.text.slice(0, 300)}`);
  if (articles.data.length !== pair.graphql.expectedEntries) throw new Error(`${where}: ${articles.data.length} entries, expected ${pair.graphql.expectedEntries}`);
  const total = articles.meta?.pagination?.total;
  if (total !== pair.graphql.expectedTotal) throw new Error(`${where}: pagination total ${String(total)}, expected ${pair.graphql.expectedTotal}`);
  const fromGraphql = listed(articles.data);
  const fromRest = listed((JSON.parse(rest.text) as { data: Entry[] }).data);
  if (!isDeepStrictEqual(fromGraphql, fromRest)) {
    throw new Error(`${where} lists other articles than ${pair.rest.path}: ${firstDifference(fromGraphql, fromRest, '$', ['GraphQL', 'REST'])}`);
  }
}

function firstDifference(a: unknown, b: unknown, at: string, names: readonly [string, string] = ['generated', 'baseline']): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    for (const key of keys) {
      if (!(key in rb)) return `${at}.${key} only in the ${names[0]} answer (${JSON.stringify(ra[key])?.slice(0, 200)})`;
      if (!(key in ra)) return `${at}.${key} only in the ${names[1]} answer (${JSON.stringify(rb[key])?.slice(0, 200)})`;
      const found = firstDifference(ra[key], rb[key], `${at}.${key}`, names);
      if (found) return found;
    }
  }
  return `${at}: ${names[0]} ${JSON.stringify(a)?.slice(0, 200)} vs ${names[1]} ${JSON.stringify(b)?.slice(0, 200)}`;
}
