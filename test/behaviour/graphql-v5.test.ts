/**
 * The Strapi 5 GraphQL endpoint (`/v5/graphql`) answers the read queries Strapi 5.54.0 answered
 * (fixtures/strapi5-data/blog, `graphql.*` reads), over real HTTP on a real emitted blog server.
 *
 * The server holds what that Strapi held when it ran those queries: the authors, categories,
 * tags and files of its database dump (sqlite.sql) and the articles its last REST reads answered
 * (`final.articles.published` / `.draft`, read just before the GraphQL script), written through
 * the v4 REST API in the order Strapi wrote their rows (so lists without a sort come out in the
 * same order). Our documentIds differ from Strapi's by design: test/v5/graphql-compare.ts maps
 * them, and normalises times, upload hashes and ids as between two Strapi recordings.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { fixturesDir, modelsOf, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { compareV5 } from '../v5/graphql-compare.js';

const setDir = path.join(fixturesDir, 'strapi5-data', 'blog');
const recording = JSON.parse(await readFile(path.join(setDir, 'answers.json'), 'utf8')) as { requests: RecordedRequest[] };
const recorded = new Map(recording.requests.map((r) => [r.name, r]));

/**
 * The reads compared, in recording order. Left out: `graphql.usersPermissionsUsers` (the recording's
 * other users are not seeded here), `graphql.uploadFiles.related` (Strapi fails on it).
 */
const reads = [
  'graphql.articles',
  'graphql.articles.draft',
  'graphql.articles.draft.public',
  'graphql.articles.page',
  'graphql.articles.overMax',
  'graphql.articles.pageAndOffset',
  'graphql.articles.filters.component',
  'graphql.articles.offset',
  'graphql.articles.filters',
  'graphql.articles.filters.relation',
  'graphql.articles_connection',
  'graphql.articles_connection.draft',
  'graphql.articles.publicationFilter',
  'graphql.articles.hasPublishedVersion',
  'graphql.article',
  'graphql.article.draft',
  'graphql.article.missing',
  'graphql.authors',
  'graphql.author',
  'graphql.tags_connection',
  'graphql.global',
  'graphql.uploadFiles',
  'graphql.uploadFiles_connection',
  'graphql.me',
  'graphql.me.public',
  'graphql.error.unknownField',
  'graphql.error.idField',
  'graphql.error.badArg',
  'graphql.error.syntax',
  'graphql.v4.attributes',
];

let built: BuiltServer;
let server: RunningServer;
let full: Record<string, string>;
/** JWTs of the seeded users, by username (`auth: user:<name>` of a recorded request). */
const users = new Map<string, Record<string, string>>();
/** Strapi's documentId → ours. */
const ours = new Map<string, string>();
const target = {
  url: () => server.url,
  ours,
  headers: (auth: string) => (auth === 'public' ? {} : auth.startsWith('user:') ? users.get(auth.slice(5))! : full),
};

type Json = Record<string, any>;

async function rest(method: string, url: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${server.url}${url}`, { method, headers: { 'content-type': 'application/json', ...full }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * When the compared reads had run: the first time a later request of the script created
 * something (its answer's `createdAt`). Rows the dump holds from after it are not seeded.
 */
const readsDone = (() => {
  const last = Math.max(...reads.map((name) => recording.requests.findIndex((r) => r.name === name)));
  const times = recording.requests.slice(last + 1).flatMap((r) => {
    const answer = r.answer as Json | Json[] | null;
    const data = (Array.isArray(answer) ? answer[0] : (answer?.data as Json | undefined) ?? answer) as Json | undefined;
    return typeof data?.createdAt === 'string' ? [Date.parse(data.createdAt)] : [];
  });
  return times.length ? Math.min(...times) : Infinity;
})();

/** The dump's rows of a table that Strapi held when it ran the compared reads, in row order. */
function rows(db: BetterSqlite3.Database, table: string): Json[] {
  return (db.prepare(`SELECT * FROM "${table}" ORDER BY id`).all() as Json[]).filter((row) => !(Number(row.created_at) >= readsDone));
}

async function seed(): Promise<void> {
  const db = new BetterSqlite3(':memory:');
  db.exec(await readFile(path.join(setDir, 'sqlite.sql'), 'utf8'));
  const rowIds: [string, string, number][] = [];
  const created = (table: string) => (doc: string, answer: Json) => rowIds.push([doc, table, Number(answer.data?.id ?? answer.id ?? answer[0]?.id)]);
  for (const file of rows(db, 'files')) {
    const form = new FormData();
    const bytes = await readFile(path.join(setDir, 'uploads', `${file.hash}${file.ext}`));
    form.append('files', new Blob([Uint8Array.from(bytes)], { type: file.mime }), file.name);
    form.append('fileInfo', JSON.stringify({ name: file.name, alternativeText: file.alternative_text, caption: file.caption }));
    const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: full });
    if (res.status >= 300) throw new Error(`upload ${file.name}: ${res.status} ${await res.text()}`);
    created('files')(file.document_id, await res.json());
  }
  for (const row of rows(db, 'authors')) created('authors')(row.document_id, await rest('POST', '/api/authors', { data: { name: row.name, email: row.email, bio: row.bio } }));
  for (const row of rows(db, 'categories')) created('categories')(row.document_id, await rest('POST', '/api/categories', { data: { name: row.name, slug: row.slug } }));
  for (const row of rows(db, 'tags')) created('tags')(row.document_id, await rest('POST', '/api/tags', { data: { name: row.name } }));
  // alice, the user whose `me` Strapi answered (registered as the recording did: confirmed, authenticated role).
  for (const row of (db.prepare('SELECT * FROM up_users WHERE username = ?').all('alice') as Json[])) {
    const registered = await rest('POST', '/api/auth/local/register', { username: row.username, email: row.email, password: 'Secret123' });
    rowIds.push([row.document_id, 'up_users', Number(registered.user.id)]);
    users.set(row.username, bearer(registered.jwt));
  }
  const rowId = (doc: string | undefined) => rowIds.find(([d]) => d === doc)![2];
  const tagDocs = new Map(rows(db, 'tags').map((t) => [t.id, t.document_id]));
  const published = recorded.get('final.articles.published')!.answer.data as Json[];
  const drafts = (recorded.get('final.articles.draft')!.answer.data as Json[]).filter((d) => !published.some((p) => p.documentId === d.documentId));
  // Strapi's row order: the order its lists without a sort follow.
  for (const article of [...published, ...drafts].sort((a, b) => a.id - b.id)) {
    const tagOrder = db.prepare('SELECT tag_id FROM articles_tags_lnk WHERE article_id = ? ORDER BY tag_ord').all(article.id) as { tag_id: number }[];
    const { id: _id, documentId, createdAt: _c, updatedAt: _u, author, category, tags: _t, cover, seo, links, blocks, ...scalars } = article;
    const strip = ({ id: _ignored, ...rest }: Json) => rest;
    const data = {
      ...scalars,
      author: author ? rowId(author.documentId) : null,
      category: category ? rowId(category.documentId) : null,
      tags: tagOrder.map((t) => rowId(tagDocs.get(t.tag_id))),
      cover: cover ? rowId(cover.documentId) : null,
      seo: seo ? strip(seo) : null,
      links: (links as Json[]).map(strip),
      blocks: (blocks as Json[]).map(strip),
    };
    created('articles')(documentId, await rest('POST', '/api/articles', { data }));
  }
  // Strapi's documentId → the documentId our server gave the same entry.
  for (const [doc, table, id] of rowIds) {
    const [row] = await built.database.query<{ document_id: string }>(`SELECT document_id FROM "${table}" WHERE id = ?`, [id]);
    ours.set(doc, row!.document_id);
  }
}

beforeAll(async () => {
  // The recording's permissions: the fixture's, and public reads of files (test/v5/recorder/record.ts).
  const models = path.join(await tempDir('v5-graphql-models'), 'models');
  await cp(modelsOf('blog'), models, { recursive: true });
  const permissions = JSON.parse(await readFile(path.join(models, 'permissions.json'), 'utf8')) as Record<string, string[]>;
  permissions.public!.push('plugin::upload.content-api.find', 'plugin::upload.content-api.findOne');
  await writeFile(path.join(models, 'permissions.json'), JSON.stringify(permissions, null, 2));
  built = await buildModels(models, 'v5-graphql');
  server = await startServer(built.dir);
  full = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  await seed();
}, 600_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('Strapi 5 GraphQL reads on /v5/graphql, as Strapi 5.54.0 answered them', () => {
  it.each(reads)('%s', async (name) => {
    const { ours: actual, strapi } = await compareV5(target, recorded.get(name)!);
    expect(actual).toEqual(strapi);
  });

  it('leaves the v4 endpoint as it was', async () => {
    const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ articles(sort: "title:asc") { data { id attributes { title } } meta { pagination { total } } } }' }) });
    const body = (await res.json()) as Json;
    expect(body.data.articles.meta.pagination.total).toBe(5);
    expect(body.data.articles.data[0]).toEqual({ id: expect.any(String), attributes: { title: 'By a user' } });
  });
});

/** Writes the recordings do not make (test/v5/graphql-recorded.test.ts compares those that they do). */
describe('Strapi 5 GraphQL writes on /v5/graphql', () => {
  const gql = async (query: string, variables: Json = {}, headers: Record<string, string> = full): Promise<Json> => {
    const res = await fetch(`${server.url}/v5/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as Json;
  };
  const rowIdOf = async (table: string, documentId: string) => String((await built.database.query<{ id: unknown }>(`SELECT id FROM "${table}" WHERE document_id = ?`, [documentId]))[0]!.id);
  const documentIdPattern = /^[a-z][a-z0-9]{23}$/;

  it('writes media by documentId or by row id; a documentId of nothing is refused as Strapi 5 refuses it', async () => {
    const files = (await gql('{ uploadFiles(sort: "name:asc") { documentId name } }')).data.uploadFiles as Json[];
    const [first, second] = files;
    const created = await gql('mutation($cover: ID) { createArticle(data: { title: "With a cover", cover: $cover }) { documentId cover { documentId } } }', { cover: first!.documentId });
    expect(created.data.createArticle.cover).toEqual({ documentId: first!.documentId });
    const doc = created.data.createArticle.documentId as string;
    const byId = await gql('mutation($doc: ID!, $cover: ID) { updateArticle(documentId: $doc, data: { cover: $cover }) { cover { documentId } } }', { doc, cover: await rowIdOf('files', second!.documentId) });
    expect(byId.data.updateArticle.cover).toEqual({ documentId: second!.documentId });
    const missing = await gql('mutation($doc: ID!) { updateArticle(documentId: $doc, data: { cover: "zzzzzzzzzzzzzzzzzzzzzzzz" }) { title } }', { doc });
    expect(missing).toEqual({
      errors: [
        {
          message: 'Document with id "zzzzzzzzzzzzzzzzzzzzzzzz", locale "null" not found',
          path: ['updateArticle'],
          extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Document with id "zzzzzzzzzzzzzzzzzzzzzzzz", locale "null" not found', details: {} } },
        },
      ],
      data: { updateArticle: null },
    });
    expect(await gql('mutation($doc: ID!) { deleteArticle(documentId: $doc) { documentId } }', { doc })).toEqual({ data: { deleteArticle: { documentId: doc } } });
    expect((await gql('query($doc: ID!) { article(documentId: $doc) { title } }', { doc })).data.article).toBeNull();
  });

  it("updates and deletes a file by its row id, answering it with its documentId", async () => {
    const [file] = (await gql('{ uploadFiles(sort: "name:desc", pagination: { limit: 1 }) { documentId name } }')).data.uploadFiles as Json[];
    const id = await rowIdOf('files', file!.documentId);
    const updated = await gql('mutation($id: ID!) { updateUploadFile(id: $id, info: { alternativeText: "described" }) { documentId alternativeText } }', { id });
    expect(updated).toEqual({ data: { updateUploadFile: { documentId: file!.documentId, alternativeText: 'described' } } });
    expect((await gql('mutation($id: ID!) { deleteUploadFile(id: $id) { documentId } }', { id }, {})).errors[0].extensions.code).toBe('FORBIDDEN');
    expect(await gql('mutation($id: ID!) { deleteUploadFile(id: $id) { documentId name } }', { id })).toEqual({ data: { deleteUploadFile: { documentId: file!.documentId, name: file!.name } } });
    const names = ((await gql('{ uploadFiles { name } }')).data.uploadFiles as Json[]).map((f) => f.name);
    expect(names).not.toContain(file!.name);
  });

  it('creates and deletes users through the users-permissions plugin, answering their documentId', async () => {
    const created = await gql('mutation { createUsersPermissionsUser(data: { username: "erin", email: "erin@example.com", password: "Secret123", confirmed: true }) { data { documentId username email } } }');
    const user = created.data.createUsersPermissionsUser.data as Json;
    expect(user).toEqual({ documentId: expect.stringMatching(documentIdPattern), username: 'erin', email: 'erin@example.com' });
    const login = await gql('mutation { login(input: { identifier: "erin", password: "Secret123" }) { jwt user { documentId username } } }', {}, {});
    expect(login.data.login.user).toEqual({ documentId: user.documentId, username: 'erin' });
    const me = await gql('{ me { documentId username } }', {}, bearer(login.data.login.jwt));
    expect(me).toEqual({ data: { me: { documentId: user.documentId, username: 'erin' } } });
    const id = await rowIdOf('up_users', user.documentId as string);
    expect(await gql('mutation($id: ID!) { deleteUsersPermissionsUser(id: $id) { data { documentId } } }', { id })).toEqual({ data: { deleteUsersPermissionsUser: { data: { documentId: user.documentId } } } });
  });
});
