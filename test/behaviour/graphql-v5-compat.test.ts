/**
 * `v5.graphql.v4CompatibilityMode: true` answers as Strapi 5.54.0 with
 * `STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE=true` did (fixtures/strapi5-data/blog-v4compat): the
 * deprecated `id`, `attributes`, `data` and `meta` fields on the v5 schema, and the same
 * validation errors for queries written for v4. The server holds what that Strapi held (its `fill.*`
 * writes and the article its v4 `createArticle` published), written through the v4 REST API.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { compareV5 } from '../v5/graphql-compare.js';

const recording = JSON.parse(await readFile(path.join(fixturesDir, 'strapi5-data', 'blog-v4compat', 'answers.json'), 'utf8')) as { requests: RecordedRequest[] };
const recorded = new Map(recording.requests.map((r) => [r.name, r]));

/** Reads and refused v4 queries; `v4.createArticle` and `compat.updateArticle` are mutations (not served on /v5/graphql yet). */
const compared = ['v4.articles', 'v4.articles.publicationState', 'v4.article.byId', 'v4.deleteArticle.byId', 'compat.articles.list', 'compat.articles_connection', 'compat.article'];

let built: BuiltServer;
let server: RunningServer;
let full: Record<string, string>;
const ours = new Map<string, string>();
const target = { url: () => server.url, ours, headers: (auth: string) => (auth === 'public' ? {} : full) };

/** Creates an entry through v4 REST; its row id, and its documentId in `ours` under Strapi's. */
async function create(plural: string, data: Record<string, unknown>, strapiDoc: string): Promise<number> {
  const res = await fetch(`${server.url}/api/${plural}`, { method: 'POST', headers: { 'content-type': 'application/json', ...full }, body: JSON.stringify({ data }) });
  const body = (await res.json()) as { data: { id: number } };
  if (res.status !== 200) throw new Error(`${plural}: ${res.status} ${JSON.stringify(body)}`);
  const [row] = await built.database.query<{ document_id: string }>(`SELECT document_id FROM "${plural}" WHERE id = ?`, [body.data.id]);
  ours.set(strapiDoc, row!.document_id);
  return body.data.id;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  await writeFile(
    path.join(built.dir, 'src/config.ts'),
    "import type { UserConfig } from './runtime/config.js';\n\nexport default { v5: { graphql: { v4CompatibilityMode: true } } } satisfies UserConfig;\n",
  );
  server = await startServer(built.dir);
  full = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const answer = (name: string) => recorded.get(name)!.answer.data as Record<string, any>;
  const body = (name: string) => (recorded.get(name)!.body as { data: Record<string, any> }).data;
  const author = await create('authors', body('fill.author'), answer('fill.author').documentId);
  const tag = await create('tags', body('fill.tag'), answer('fill.tag').documentId);
  const article = body('fill.article');
  await create('articles', { ...article, author, tags: [tag], publishedAt: answer('fill.article').publishedAt }, answer('fill.article').documentId);
  await create('articles', { ...body('fill.article.draft'), publishedAt: null }, answer('fill.article.draft').documentId);
  // Strapi published it whatever `publishedAt: null` said; its documentId is first seen in the list.
  const fromV4 = recorded.get('compat.articles.list')!.answer.data.articles.find((a: { data: { title: string } }) => a.data.title === 'From a v4 client');
  await create('articles', { title: 'From a v4 client', publishedAt: new Date().toISOString() }, fromV4.documentId);
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

it.each(compared)('%s', async (name) => {
  const { ours: actual, strapi } = await compareV5(target, recorded.get(name)!);
  expect(actual).toEqual(strapi);
});
