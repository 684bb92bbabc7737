/**
 * The user-owned src/extensions/graphql.ts on a real server, function by function: Shadow
 * CRUD settings (type, queries, mutations, actions, fields), `use()` with typeDefs,
 * resolvers, resolversConfig (auth false, auth scope, policies, middlewares), code-first
 * types and plugins; `contentgen build` printing the result into schema.graphql; and the
 * production rules for the playground and introspection (`playgroundAlways`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../generator/pipeline.js';
import { modelsOf } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let admin: Record<string, string>;
let sdl: string;

const extension = `
import type { GraphqlExtensionService } from '../runtime/graphql/index.js';

export default function register(extension: GraphqlExtensionService): void {
  extension.shadowCRUD('api::category.category').disable();
  extension.shadowCRUD('api::tag.tag').disableMutations();
  extension.shadowCRUD('api::author.author').disableQueries();
  extension.shadowCRUD('api::article.article').disableAction('delete');
  extension.shadowCRUD('api::global.global').disableActions(['update', 'delete']);
  extension.shadowCRUD('api::article.article').field('description').disableOutput();
  extension.shadowCRUD('api::article.article').field('content').disableInput();
  extension.shadowCRUD('api::article.article').field('views').disableFilters();
  extension.shadowCRUD('api::article.article').field('rating').disable();

  extension.policy('has-title-filter', ({ args }) => (args as { filters?: unknown }).filters !== undefined);
  extension.middleware('count-header', (options) => async (resolve, parent, args, context, info) => {
    const result = await resolve(parent, args, context, info);
    context.http.set('X-Articles-Middleware', String(options));
    // Arguments belong to this call: changing them afterwards must not reach the next request.
    const filters = (args as { filters?: { title?: { eq?: unknown } } }).filters;
    if (filters?.title) filters.title.eq = 'changed by a middleware';
    return result;
  });

  extension.use({
    typeDefs: \`
      type Greeting { text: String!, caller: String }
      extend type Article { loudDescription: String }
      extend type Query {
        hello(name: String!): Greeting!
        tagsOnly: String
        whoAmI: String
        guarded: String
      }
    \`,
    resolvers: {
      Article: { loudDescription: (attributes: { description?: string | null }) => attributes.description?.toUpperCase() ?? null },
      Query: {
        hello: (_: unknown, args: { name: string }, context: { state: { user?: { username: string | null } } }) => ({ text: \`Hello \${args.name}\`, caller: context.state.user?.username ?? null }),
        tagsOnly: () => 'tags reader',
        whoAmI: (_: unknown, _args: unknown, context: { state: { user?: { username: string | null } } }) => context.state.user?.username ?? 'nobody',
        guarded: () => 'passed',
      },
    },
    resolversConfig: {
      'Query.hello': { auth: false },
      'Query.tagsOnly': { auth: { scope: ['api::tag.tag.find'] } },
      'Query.articles': { policies: ['has-title-filter'], middlewares: [{ name: 'count-header', options: 'seen' }] },
      'Query.guarded': { auth: false, policies: [({ http }) => http.get('x-let-me-in') === 'yes'] },
    },
  });

  extension.use(({ graphql, typeRegistry }) => {
    const stats = new graphql.GraphQLObjectType({
      name: 'ArticleStats',
      fields: {
        typeCount: { type: new graphql.GraphQLNonNull(graphql.GraphQLInt), resolve: () => typeRegistry.names().length },
        hasArticles: { type: graphql.GraphQLBoolean, resolve: () => typeRegistry.has('ArticleEntity') },
      },
    });
    return {
      types: [stats],
      typeDefs: 'extend type Query { articleStats: ArticleStats }',
      resolvers: { Query: { articleStats: () => ({}) } },
      resolversConfig: { 'Query.articleStats': { auth: false } },
      plugins: [
        {
          name: 'shout-titles',
          onCreateFieldResolver: ({ typeName, fieldName }) =>
            typeName === 'Article' && fieldName === 'title'
              ? async (resolve, parent, args, context, info) => String(await resolve(parent, args, context, info)).toUpperCase()
              : undefined,
        },
      ],
    };
  });
}
`;

async function gql(query: string, headers: Record<string, string> = admin, on: RunningServer = server) {
  const res = await fetch(`${on.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query }) });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

const block = (name: string) => sdl.split('\n\n').find((b) => new RegExp(`^(type|input|enum) ${name} `).test(b)) ?? '';

beforeAll(async () => {
  built = await buildFixture('blog');
  await writeFile(path.join(built.dir, 'src/extensions/graphql.ts'), extension);
  // `contentgen build` again: schema.graphql now shows the extension.
  const rebuilt = await build({ modelsDir: modelsOf('blog'), outDir: built.dir, provider: built.provider, check: false, acceptDataLoss: false });
  if (!rebuilt.ok) throw new Error(JSON.stringify(rebuilt));
  sdl = await readFile(path.join(built.dir, 'schema.graphql'), 'utf8');
  server = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const made = await gql('mutation { a: createArticle(data: { title: "first post", description: "d", views: 3, publishedAt: "2024-01-01T00:00:00.000Z" }) { data { id } } }');
  if (made.body.errors) throw new Error(JSON.stringify(made.body));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('schema.graphql reflects the extension (printed by contentgen build)', () => {
  it('shows exactly what the server serves', () => {
    expect(server.output()).not.toContain('schema.graphql does not match');
    expect(sdl).toContain('type Greeting {\n  text: String!\n  caller: String\n}');
    expect(sdl).toContain('type ArticleStats {\n  typeCount: Int!\n  hasArticles: Boolean\n}');
  });

  it('disabled types, operations and fields are gone from it', () => {
    expect(sdl).not.toMatch(/^type Category /m);
    expect(block('Article')).not.toContain('category');
    expect(block('Article')).not.toMatch(/description|rating/);
    expect(block('ArticleInput')).not.toMatch(/content|rating/);
    expect(block('ArticleInput')).toContain('description');
    expect(block('ArticleFiltersInput')).not.toMatch(/views|rating/);
    expect(block('Query')).not.toMatch(/ authors?\(/);
    expect(block('Query')).toContain(' tags(');
    expect(block('Mutation')).not.toMatch(/(create|update|delete)Tag\(|deleteArticle|updateGlobal|deleteGlobal/);
    expect(block('Mutation')).toContain('createAuthor(');
  });

  it('a build with --check is up to date; editing the extension makes schema.graphql (and the change report) stale', async () => {
    const check = await build({ modelsDir: modelsOf('blog'), outDir: built.dir, provider: built.provider, check: true, acceptDataLoss: false });
    expect(check.ok && check.stale).toEqual([]);
    const file = path.join(built.dir, 'src/extensions/graphql.ts');
    await writeFile(file, extension.replace("extension.shadowCRUD('api::tag.tag').disableMutations();", ''));
    try {
      const stale = await build({ modelsDir: modelsOf('blog'), outDir: built.dir, provider: built.provider, check: true, acceptDataLoss: false });
      // The schema changed, so the API change report would be rewritten too.
      expect(stale.ok && stale.stale!.map((s) => s.path)).toEqual(['.contentgen/changes.md', 'schema.graphql', 'src/generated/graphql/types.ts']);
    } finally {
      await writeFile(file, extension);
    }
  });
});

describe('the server runs the extension', () => {
  it('shadowCRUD: disabled operations and fields cannot be asked for', async () => {
    for (const query of ['{ categories { data { id } } }', '{ authors { data { id } } }', 'mutation { createTag(data: { name: "x" }) { data { id } } }', '{ articles(filters: { title: { eq: "x" } }) { data { attributes { description } } } }', '{ articles(filters: { views: { eq: 1 } }) { data { id } } }']) {
      const res = await gql(query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0].extensions.code, query).toBe('GRAPHQL_VALIDATION_FAILED');
    }
    const input = await gql('mutation { createArticle(data: { title: "x", content: "no" }) { data { id } } }');
    expect(input.body.errors[0].message).toContain('Field "content" is not defined by type "ArticleInput"');
  });

  it('typeDefs with resolvers; auth: false opens a field to the public', async () => {
    const res = await gql('{ hello(name: "you") { text caller } }', {});
    expect(res.body).toEqual({ data: { hello: { text: 'Hello you', caller: null } } });
  });

  it('auth: { scope } requires those actions; no config requires an authenticated caller', async () => {
    expect((await gql('{ tagsOnly }', {})).body).toEqual({ data: { tagsOnly: 'tags reader' } }); // the public role may find tags
    const editorless = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['api::article.article.find'] }));
    expect((await gql('{ tagsOnly }', editorless)).body.errors[0].extensions.code).toBe('FORBIDDEN');
    expect((await gql('{ whoAmI }', {})).body.errors[0]).toMatchObject({ message: 'Forbidden access', extensions: { code: 'FORBIDDEN' } });
    const register = await gql('mutation { register(input: { username: "ext-user", email: "ext@example.com", password: "secret123" }) { jwt } }', {});
    expect((await gql('{ whoAmI }', bearer(register.body.data.register.jwt))).body).toEqual({ data: { whoAmI: 'ext-user' } });
  });

  it('policies: named and inline; a refusal is "Policy Failed" (FORBIDDEN)', async () => {
    const refused = await gql('{ articles { data { id } } }');
    expect(refused.body.errors[0]).toMatchObject({ message: 'Policy Failed', extensions: { code: 'FORBIDDEN', error: { name: 'PolicyError' } } });
    const passed = await gql('{ articles(filters: { title: { eq: "first post" } }) { data { id } } }');
    expect(passed.body.data.articles.data).toHaveLength(1);
    expect((await gql('{ guarded }', {})).body.errors[0].message).toBe('Policy Failed');
    expect((await gql('{ guarded }', { 'x-let-me-in': 'yes' })).body).toEqual({ data: { guarded: 'passed' } });
  });

  it('middlewares: named with options, around the resolver', async () => {
    const res = await gql('{ articles(filters: { title: { eq: "first post" } }) { data { id } } }');
    expect(res.headers.get('x-articles-middleware')).toBe('seen');
  });

  it('arguments are each call\'s own: a middleware changing them does not change the next request\'s', async () => {
    const query = '{ articles(filters: { title: { eq: "first post" } }) { data { id } } }';
    for (let i = 0; i < 3; i++) expect((await gql(query)).body.data.articles.data).toHaveLength(1);
  });

  it('a field added to a generated type can read any attribute of its entry (even one not asked for)', async () => {
    const res = await gql('{ articles(filters: { title: { eq: "first post" } }) { data { attributes { loudDescription } } } }');
    expect(res.body).toEqual({ data: { articles: { data: [{ attributes: { loudDescription: 'D' } }] } } });
  });

  it('code-first types from a factory (with the type registry) and plugins wrapping resolvers', async () => {
    const stats = await gql('{ articleStats { typeCount hasArticles } }', {});
    expect(stats.body.data.articleStats).toEqual({ typeCount: expect.any(Number), hasArticles: true });
    expect(stats.body.data.articleStats.typeCount).toBeGreaterThan(50);
    const titles = await gql('{ articles(filters: { title: { eq: "first post" } }) { data { attributes { title } } } }');
    expect(titles.body.data.articles.data[0].attributes.title).toBe('FIRST POST');
  });
});

describe('production: playground and introspection', () => {
  const production = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(40), API_TOKEN_SALT: 'y'.repeat(40) };

  async function withConfig(graphql: Record<string, unknown>, run: (on: RunningServer) => Promise<void>) {
    const configFile = path.join(built.dir, 'src/config.ts');
    const original = await readFile(configFile, 'utf8');
    await writeFile(configFile, `import type { UserConfig } from './runtime/config.js';\n\nexport default ${JSON.stringify({ plugins: { graphql } })} satisfies UserConfig;\n`);
    const on = await startServer(built.dir, production);
    try {
      await run(on);
    } finally {
      await on.stop();
      await writeFile(configFile, original);
    }
  }

  it('off in production: no page, introspection refused', async () => {
    await withConfig({}, async (on) => {
      const page = await fetch(`${on.url}/graphql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(400);
      expect((await fetch(`${on.url}/graphql/playground/graphiql.min.js`)).status).toBe(404);
      const res = await gql('{ __schema { types { name } } }', {}, on);
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ message: expect.stringContaining('introspection has been disabled'), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
      expect((await gql('{ hello(name: "prod") { text } }', {}, on)).body).toEqual({ data: { hello: { text: 'Hello prod' } } });
    });
  });

  it('playgroundAlways: true turns both on; a custom endpoint and limits apply', async () => {
    await withConfig({ playgroundAlways: true, endpoint: '/api/gql', depthLimit: 2, amountLimit: 2 }, async (on) => {
      const page = await fetch(`${on.url}/api/gql`, { headers: { accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<script src="/api/gql/playground/graphiql.min.js">');
      expect((await fetch(`${on.url}/api/gql/playground/graphiql.min.js`)).status).toBe(200);
      const res = await fetch(`${on.url}/api/gql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }) });
      expect((await res.json()).data).toEqual({ __schema: { queryType: { name: 'Query' } } });
      const deep = await fetch(`${on.url}/api/gql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ tags { data { attributes { name } } } }' }) });
      expect((await deep.json()).errors[0].message).toBe("'' exceeds maximum operation depth of 2");
      expect((await fetch(`${on.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' })).status).toBe(404);
    });
  });
});
