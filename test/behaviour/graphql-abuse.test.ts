/**
 * GraphQL under attack, over real HTTP, anonymously: every shape of document or variables
 * that once blocked the event loop for seconds, overflowed the stack or filled the heap
 * (fragment fan-out, fragment cycles, aliases × lists, 30,001 repeated fields, deep nesting,
 * huge lists and `or`s, lists nested 5,000 deep, the same through variables) is refused
 * with a 4xx within 2 s — fired all at once while `GET /_health` keeps answering 204 within
 * a second (both plus the slowest /_health of the machine measured just before: a busy CI
 * machine adds it to any answer; before these limits the server stalled 8 to 60+ s) — and
 * nothing of it ever answers 5xx. Then the limits one by one (tokens, fields,
 * aliases, repeats, depth, cost, filter values, response size), and production: no "Did you
 * mean" suggestions, no private attribute in filter types.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let fullAccess: Record<string, string>;

interface Answer {
  status: number;
  body: any;
  ms: number;
}

/** A raw POST to /graphql (the body as given: some are built as text), timed. */
async function post(body: string, headers: Record<string, string> = {}, on: RunningServer = server): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${on.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, ms: performance.now() - started };
}

const gql = (query: string, variables?: Record<string, unknown>, headers?: Record<string, string>, on?: RunningServer) =>
  post(JSON.stringify({ query, ...(variables ? { variables } : {}) }), headers, on);

async function data(query: string, headers: Record<string, string> = fullAccess): Promise<any> {
  const res = await gql(query, undefined, headers);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

const times = (n: number, make: (i: number) => string, separator = ' ') => Array.from({ length: n }, (_, i) => make(i)).join(separator);
const filtered = 'query($f: ArticleFiltersInput) { articles(filters: $f) { data { id } } }';

/** Every attack: a request body (JSON text) and what the refusal says. */
const attacks: Record<string, { body: string; message: RegExp }> = {
  'fragment fan-out (F26 = 2 × F25 …, 1.6 KB)': {
    body: JSON.stringify({ query: `{ tags { data { ...F26 } } } fragment F0 on TagEntity { id } ${times(26, (i) => `fragment F${i + 1} on TagEntity { ...F${i} ...F${i} }`)}` }),
    message: /The operation costs \d+, more than the limit of 20000/,
  },
  'fragment cycle': {
    body: JSON.stringify({ query: '{ articles { data { ...A } } } fragment A on ArticleEntity { id ...A }' }),
    message: /Cannot spread fragment "A" within itself/,
  },
  '500 aliases of a list of 100 articles with nested lists (87 KB)': {
    body: JSON.stringify({ query: `{ ${times(500, (i) => `a${i}: articles(pagination: { limit: 100 }) { data { id attributes { tags { data { id } } } } }`)} }` }),
    message: /more than 2000 tokens/,
  },
  '30,001 repeated fields (90 KB)': {
    body: JSON.stringify({ query: `{ articles { data { ${'id '.repeat(30_001)}} } }` }),
    message: /more than 2000 tokens/,
  },
  'fields nested 320 deep': {
    body: JSON.stringify({ query: `{ articles { data { attributes { ${'author { data { attributes { articles { data { attributes { '.repeat(40)} title ${'} } } } } } '.repeat(40)} } } } }` }),
    message: /nests braces, brackets or parentheses more than 100 levels deep/,
  },
  'inline fragments nested 5,000 deep': {
    body: JSON.stringify({ query: `{ ${'... on Query { '.repeat(5000)} __typename ${'} '.repeat(5000)} }` }),
    message: /more than 100 levels deep/,
  },
  'a list literal of 40,000 ids': {
    body: JSON.stringify({ query: `{ articles(filters: { id: { in: [${times(40_000, () => '1', ',')}] } }) { data { id } } }` }),
    message: /more than 2000 tokens/,
  },
  'an or of 20,000 branches': {
    body: JSON.stringify({ query: `{ articles(filters: { or: [${times(20_000, () => '{}', ',')}] }) { data { id } } }` }),
    message: /more than 2000 tokens/,
  },
  'a list literal nested 5,000 deep': {
    body: JSON.stringify({ query: `{ articles(filters: { id: { in: ${'['.repeat(5000)}1${']'.repeat(5000)} } }) { data { id } } }` }),
    message: /more than 100 levels deep/,
  },
  // Through variables: far past the budget, but small bodies (parsing 1 MB of JSON is the
  // body parser's cost, bounded by its size limit, and would only slow this test on a busy machine).
  'an or of 5,000 branches in variables': {
    body: JSON.stringify({ query: filtered, variables: { f: { or: Array.from({ length: 5000 }, (_, i) => ({ id: { eq: String(i) } })) } } }),
    message: /The variables hold more than 2000 values/,
  },
  'a list of 20,000 ids in variables': {
    body: JSON.stringify({ query: filtered, variables: { f: { id: { in: Array.from({ length: 20_000 }, (_, i) => String(i)) } } } }),
    message: /The variables hold more than 2000 values/,
  },
  'filters nested 5,000 deep in variables': {
    body: `{"query":${JSON.stringify(filtered)},"variables":{"f":${'{"not":'.repeat(5000)}{}${'}'.repeat(5000)}}}`,
    // The body parser's depth limit, or the endpoint's count of what the variables hold.
    message: /nested too deeply|hold more than 2000 values/,
  },
};

/** The message of an answer, whatever its envelope (GraphQL's errors, or REST's error). */
const messageOf = (body: any): string => body?.errors?.[0]?.message ?? body?.error?.message ?? JSON.stringify(body);

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  fullAccess = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const tags = await data(`mutation { ${times(5, (i) => `t${i}: createTag(data: { name: "abuse-${i}" }) { data { id } }`)} }`);
  const tagIds = Object.values(tags).map((t: any) => t.data.id);
  await data(`mutation { ${times(30, (i) => `a${i}: createArticle(data: { title: "Abuse ${String(i).padStart(2, '0')}", tags: ${JSON.stringify(tagIds)}, publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id } }`)} }`);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('attacks', () => {
  it('each is refused with a 4xx within 2 s, all at once, while /_health answers 204 within 1 s', async () => {
    // The machine's own latency first (a busy CI machine adds it to every answer, attack or not).
    let slack = 0;
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await fetch(`${server.url}/_health`)).status).toBe(204);
      slack = Math.max(slack, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    let attacking = true;
    const health: Array<{ status: number; ms: number }> = [];
    const polling = (async () => {
      while (attacking) {
        const started = performance.now();
        const res = await fetch(`${server.url}/_health`, { signal: AbortSignal.timeout(30_000) });
        health.push({ status: res.status, ms: performance.now() - started });
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    const answers = await Promise.all(Object.entries(attacks).map(async ([name, attack]) => ({ name, attack, answer: await post(attack.body) })));
    attacking = false;
    await polling;

    for (const { name, attack, answer } of answers) {
      expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, name).toBeLessThan(500);
      expect(answer.ms, `${name}: answered in ${Math.round(answer.ms)} ms (machine: ${Math.round(slack)} ms)`).toBeLessThan(2000 + slack);
      expect(messageOf(answer.body), name).toMatch(attack.message);
    }
    expect(health.length).toBeGreaterThan(0);
    for (const check of health) {
      expect(check.status).toBe(204);
      expect(check.ms, `/_health answered in ${Math.round(check.ms)} ms (machine: ${Math.round(slack)} ms)`).toBeLessThan(1000 + slack);
    }
    // The server is whole: an ordinary query answers.
    expect((await data('{ articles(pagination: { limit: 3 }) { data { attributes { title } } } }', {})).articles.data).toHaveLength(3);
    expect(server.output()).not.toMatch(/RangeError|Maximum call stack|heap out of memory/);
  });

  it('refusals are GraphQL errors (GRAPHQL_VALIDATION_FAILED or BAD_USER_INPUT), answered before anything runs', async () => {
    const cycle = await post(attacks['fragment cycle']!.body);
    expect(cycle).toMatchObject({ status: 400, body: { errors: [{ message: 'Cannot spread fragment "A" within itself.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    const tokens = await post(attacks['30,001 repeated fields (90 KB)']!.body);
    expect(tokens.body).toEqual({ errors: [{ message: 'The GraphQL document has more than 2000 tokens (plugins.graphql.maxTokens).', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
    const variables = await post(attacks['a list of 20,000 ids in variables']!.body);
    expect(variables).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'BAD_USER_INPUT' } }] } });
    // GET: the variables there are not read by the body parser, but by the endpoint.
    const deep = `${'{"not":'.repeat(150)}{}${'}'.repeat(150)}`;
    const get = await fetch(`${server.url}/graphql?query=${encodeURIComponent(filtered)}&variables=${encodeURIComponent(`{"f":${deep}}`)}`);
    expect(get.status).toBe(400);
    expect((await get.json()).errors[0]).toEqual({ message: 'The variables nest objects and lists more than 100 levels deep.', extensions: { code: 'BAD_USER_INPUT' } });
    // A mutation past the cost is refused before it runs: nothing is created.
    const mutation = await gql(`mutation { createTag(data: { name: "never" }) { data { attributes { articles(pagination: { limit: 100 }) { data { attributes { tags(pagination: { limit: 100 }) { data { id attributes { name } } } } } } } } } }`, undefined, fullAccess);
    expect(mutation.status).toBe(400);
    expect(messageOf(mutation.body)).toMatch(/^The operation costs \d+, more than the limit of 20000 \(plugins\.graphql\.maxComplexity\)/);
    expect((await data('{ tags(filters: { name: { eq: "never" } }) { data { id } } }')).tags.data).toEqual([]);
  });
});

describe('limits, one by one', () => {
  it('fields (maxFields: 1000) and aliases (maxAliases: 200)', async () => {
    const article = 'articles { data { id attributes { title slug description content status views rating price impressions featured publishDate readingTime lastReviewedAt metadata createdAt updatedAt publishedAt } } }';
    const fields = await gql(`{ ${times(48, () => article)} }`);
    expect(fields).toMatchObject({ status: 400, body: { errors: [{ message: 'The GraphQL document has 1008 fields, more than the limit of 1000 (plugins.graphql.maxFields).', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    const aliases = await gql(`{ ${times(201, (i) => `a${i}: __typename`)} }`);
    expect(aliases).toMatchObject({ status: 400, body: { errors: [{ message: 'The GraphQL document has 201 aliases, more than the limit of 200 (plugins.graphql.maxAliases).', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    expect((await gql(`{ ${times(200, (i) => `a${i}: __typename`)} }`)).status).toBe(200);
  });

  it('one field asked for more than 50 times in a selection set, fragments included', async () => {
    const repeated = await gql(`{ articles { data { ${'id '.repeat(51)} } } }`);
    expect(messageOf(repeated.body)).toBe('The field "id" is asked for 51 times in one selection set (fragments spread there included), more than 50.');
    const viaFragments = await gql(`{ articles { data { ${times(30, (i) => `...F${i}`)} } } } ${times(30, (i) => `fragment F${i} on ArticleEntity { id id }`)}`);
    expect(viaFragments.status).toBe(400);
    expect(messageOf(viaFragments.body)).toMatch(/"id" is asked for 60 times/);
    expect((await gql(`{ articles { data { ${'id '.repeat(50)} } } }`)).status).toBe(200);
  });

  it('depth: the first field past depthLimit (10), fragments measured once', async () => {
    const deep = '{ articles { data { attributes { author { data { attributes { articles { data { attributes { author { data { id } } } } } } } } } } } }';
    const res = await gql(deep);
    // The 11th field with a selection set: the `data` under the second `author`.
    const column = deep.lastIndexOf('data { id') + 1;
    expect(res.body).toEqual({ errors: [{ message: "'' exceeds maximum operation depth of 10", locations: [{ line: 1, column }], extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] });
    const viaFragments = await gql('query Q { articles { data { ...A } } } fragment A on ArticleEntity { attributes { author { data { ...B } } } } fragment B on AuthorEntity { attributes { articles { data { ...A } } } }');
    expect(viaFragments.status).toBe(400);
    expect(viaFragments.body.errors.map((e: any) => e.message)).toContain('Cannot spread fragment "A" within itself via "B".');
  });

  it('cost (maxComplexity: 20000): each field 1, times the items of its lists', async () => {
    // articles 1 + data (1 + 100 × (id 1 + attributes (1 + tags (1 + data (1 + 10 × id 1))))) = 1,402: accepted.
    const fine = await gql('{ articles(pagination: { limit: 100 }) { data { id attributes { tags { data { id } } } } } }');
    expect(fine.status).toBe(200);
    expect(fine.body.data.articles.data).toHaveLength(30);
    // 1 + (1 + 100 × (1 + (1 + (1 + (1 + 100 × (1 + (1 + 1))))))) = 30,402: refused, whatever the data.
    const lists = await gql('{ articles(pagination: { limit: 100 }) { data { id attributes { tags(pagination: { limit: 100 }) { data { id attributes { name } } } } } } }');
    expect(lists).toMatchObject({ status: 400, body: { errors: [{ message: expect.stringMatching(/^The operation costs 30402, more than the limit of 20000/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    // Pages in variables count the same.
    const query = 'query($n: Int) { articles(pagination: { pageSize: $n }) { data { id attributes { tags(pagination: { limit: $n }) { data { id attributes { name } } } } } } }';
    expect((await gql(query, { n: 100 })).status).toBe(400);
    expect((await gql(query, { n: 20 })).status).toBe(200);
    // Eight aliases of a heavy list: refused, not run eight times.
    const aliases = await gql(`{ ${times(8, (i) => `a${i}: articles(pagination: { limit: 100 }) { data { id attributes { title tags(pagination: { limit: 25 }) { data { id } } } } }`)} }`);
    expect(aliases.status).toBe(400);
  });

  it('the filters or sort of one field hold at most 1,000 values', async () => {
    // `id`, `in` and the members: 998 ids are 1,000 values.
    const ids = (n: number) => ({ f: { id: { in: Array.from({ length: n }, (_, i) => String(i + 1)) } } });
    expect((await gql(filtered, ids(998))).status).toBe(200);
    const tooMany = await gql(filtered, ids(999));
    expect(tooMany).toMatchObject({ status: 400, body: { errors: [{ message: 'Too many values in the filters of articles: at most 1000.', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    const sort = await gql('query($s: [String]) { articles(sort: $s) { data { id } } }', { s: [Array(1001).fill('title').join(',')] });
    expect(messageOf(sort.body)).toBe('Too many values in the sort of articles: at most 1000.');
  });
});

describe('production', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), API_TOKEN_SALT: 'y'.repeat(40) };
  let prod: RunningServer;
  let configFile: string;
  let original: string;
  let token: Record<string, string>;

  beforeAll(async () => {
    configFile = path.join(built.dir, 'src/config.ts');
    original = await readFile(configFile, 'utf8');
    await writeFile(configFile, `import type { UserConfig } from './runtime/config.js';\n\nexport default ${JSON.stringify({ plugins: { graphql: { responseSizeLimit: 2000 } } })} satisfies UserConfig;\n`);
    prod = await startServer(built.dir, production);
    token = bearer(await createApiToken(built.dir, { type: 'full-access' }, production));
  });

  afterAll(async () => {
    await prod?.stop();
    await writeFile(configFile, original);
  });

  it('no "Did you mean" suggestions without introspection: fields, arguments, enum values, variables', async () => {
    const cases: Array<[string, Record<string, unknown> | undefined, string]> = [
      ['{ articlez { data { id } } }', undefined, 'Cannot query field "articlez" on type "Query".'],
      ['{ articles(filter: {}) { data { id } } }', undefined, 'Unknown argument "filter" on field "Query.articles".'],
      ['{ articles(publicationState: LIV) { data { id } } }', undefined, 'Value "LIV" does not exist in "PublicationState" enum.'],
      ['{ articles(filters: { titel: { eq: "x" } }) { data { id } } }', undefined, 'Field "titel" is not defined by type "ArticleFiltersInput".'],
      [filtered, { f: { titel: { eq: 'x' } } }, 'Variable "$f" got invalid value { titel: { eq: "x" } }; Field "titel" is not defined by type "ArticleFiltersInput".'],
    ];
    for (const [query, variables, message] of cases) {
      const res = await gql(query, variables, {}, prod);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].message, query).toBe(message);
      expect(JSON.stringify(res.body)).not.toContain('Did you mean');
    }
    // Outside production (introspection on), they stay, as in graphql-js.
    expect(messageOf((await gql('{ articlez { data { id } } }')).body)).toContain('Did you mean "article" or "articles"?');
  });

  it('a response past responseSizeLimit is not sent: 400 for a query, 200 for a mutation (applied)', async () => {
    const small = await gql('{ articles(pagination: { limit: 2 }) { data { id } } }', undefined, {}, prod);
    expect(small.status).toBe(200);
    const large = await gql('{ articles(pagination: { limit: 100 }) { data { id attributes { title createdAt updatedAt } } } }', undefined, {}, prod);
    expect(large.status).toBe(400);
    expect(large.body).toEqual({ errors: [{ message: expect.stringMatching(/^The response is \d+ bytes, more than the limit of 2000 \(plugins\.graphql\.responseSizeLimit\): ask for fewer items or fields\.$/), extensions: { code: 'RESPONSE_TOO_LARGE' } }] });
    const created = await gql(`mutation { createArticle(data: { title: "Too large", content: "${'z'.repeat(2100)}" }) { data { id attributes { content } } } }`, undefined, token, prod);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ data: null, errors: [{ message: expect.stringContaining('The mutation was applied.'), extensions: { code: 'RESPONSE_TOO_LARGE' } }] });
    expect((await data('{ articles(publicationState: PREVIEW, filters: { title: { eq: "Too large" } }) { data { id } } }')).articles.data).toHaveLength(1);
  });

  it('private attributes are in no filter type, served or printed; they stay writable, as in REST', async () => {
    const sdl = await readFile(path.join(built.dir, 'schema.graphql'), 'utf8');
    const block = (name: string) => new RegExp(`^input ${name} \\{\\n([^}]*)\\}`, 'm').exec(sdl)?.[1] ?? '';
    expect(block('ArticleFiltersInput')).toContain('title: StringFilterInput');
    expect(block('ArticleFiltersInput')).not.toContain('editorNote');
    for (const name of ['password', 'resetPasswordToken', 'confirmationToken']) expect(block('UsersPermissionsUserFiltersInput')).not.toContain(`${name}:`);
    expect(block('ArticleInput')).toContain('editorNote: String');
    const res = await gql('{ articles(filters: { editorNote: { startsWith: "s" } }) { data { id } } }', undefined, {}, prod);
    expect(res).toMatchObject({ status: 400, body: { errors: [{ message: 'Field "editorNote" is not defined by type "ArticleFiltersInput".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] } });
    const users = await gql('{ usersPermissionsUsers(filters: { password: { startsWith: "$2" } }) { data { id } } }', undefined, token, prod);
    expect(users.status).toBe(400);
  });
});
