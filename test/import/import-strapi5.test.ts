/**
 * `contentgen import` of the databases Strapi 5.54.0 wrote on our own models (fixtures/strapi5-data,
 * recorded by test/v5/recorder). Each set's Strapi 5 project folder, its SQLite database restored
 * at the path its config/database.js names, is imported into a server built from that folder on this
 * run's database (CG_TEST_DB: SQLite, PostgreSQL, MariaDB), built again (it takes the
 * permissions.json and locales.json the import wrote) and started; its v5 mount must answer the
 * recording's reads of the database's end state as Strapi 5 did: the same documentIds, row ids (a
 * published document is its published row), times, relations, components, zones and files.
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport, type ImportResult } from '../../generator/import/import.js';
import { detectLayout } from '../../generator/import/source/layout.js';
import { openSqliteSource } from '../../generator/import/source/sqlite.js';
import { runCli } from '../helpers/cli.js';
import { client } from '../helpers/http.js';
import { fixturesDir, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, type BuiltServer, type RunningServer } from '../helpers/server.js';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { expectDocumentIds } from '../helpers/document-ids.js';
import { secrets } from '../v5/recorder/app.js';
import { startImportedServer } from './compare.js';

interface Strapi5Set {
  /** Recorded reads no later request changed the answer of: compared whole. */
  readonly endReads: readonly string[];
  /** Fields of the answers that hold entries of types without draft & publish (see `asStored`). */
  readonly undraftedFields: readonly string[];
  /**
   * Why row ids are not compared, when they are not: a document published again after the last
   * reads has another published row (another id) in the database than those reads answered.
   */
  readonly idsChanged?: string;
  /** src/config.ts entries the server needs to answer these reads (a GraphQL mode). */
  readonly config?: string;
  /** API tokens Strapi 5 held (its two own and the recorder's). */
  readonly tokens: readonly string[];
  /** documentIds whose draft row holds edits the published row has not (reported, live version imported). */
  readonly pendingDrafts: readonly string[];
  /** Rows per contentgen table after the import. */
  readonly rows: Readonly<Record<string, number>>;
}

const sets: Readonly<Record<string, Strapi5Set>> = {
  // final.articles.published: the articles created by the GraphQL script (and component-relations.ts) after it were deleted
  // again or are drafts; graphql.me: alice is not written after it.
  blog: {
    endReads: ['final.articles.published', 'graphql.me'],
    undraftedFields: ['author', 'category', 'tags', 'cover'],
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: [],
    rows: { articles: 6, authors: 5, categories: 2, tags: 11, files: 9, upload_folders: 1, up_users: 2, up_roles: 3, globals: 0 },
  },
  i18n: {
    endReads: ['graphql.pages.afterDelete', 'graphql.i18NLocales', 'graphql.global.fr'],
    undraftedFields: [],
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: ['te4on90q4ma1h645a5ex1fu7'],
    rows: { pages: 5, globals: 1, categories: 1, i18n_locale: 3 },
  },
  // Recorded with STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE; its last request (compat.updateArticle)
  // changes only `views` of a document the two reads compared do not ask for.
  'blog-v4compat': {
    endReads: ['compat.articles.list', 'compat.article'],
    undraftedFields: [],
    idsChanged: 'compat.updateArticle published "Hello v4 clients" again after these reads: its published row is 6 in the database, 2 in the answers',
    config: '  v5: { graphql: { v4CompatibilityMode: true } },\n',
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: [],
    rows: { articles: 3, authors: 1, tags: 1, up_roles: 3 },
  },
};

const strapi5Dir = (set: string) => path.join(fixturesDir, 'strapi5-data', set);

/** Every `id` replaced, for a set whose ids changed after its last reads (`idsChanged`). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === 'id' ? '<id>' : withoutIds(v)]));
}

/**
 * A type without draft & publish has no `published_at` column here and answers its `createdAt`
 * as `publishedAt` (docs/strapi5.md, REST); Strapi 5 stores the time it last wrote the row. Strapi's
 * answer is compared with that: `publishedAt` of the entries under `fields` set to their `createdAt`.
 */
function asStored(value: unknown, fields: ReadonlySet<string>, inside = false): unknown {
  if (Array.isArray(value)) return value.map((v) => asStored(v, fields, inside));
  if (!value || typeof value !== 'object') return value;
  const entry = value as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, asStored(v, fields, fields.has(k))]));
  if (inside && typeof entry.publishedAt === 'string' && typeof entry.createdAt === 'string') out.publishedAt = entry.createdAt;
  return out;
}

/** A copy of the set's Strapi 5 project with its database at `.tmp/data.db` and its uploads in public/uploads. */
async function restoreStrapi5Project(set: string): Promise<string> {
  const dir = await tempDir(`strapi5-project-${set}`);
  for (const entry of ['package.json', 'config', 'src']) cpSync(path.join(strapi5Dir(set), entry), path.join(dir, entry), { recursive: true });
  mkdirSync(path.join(dir, 'public', 'uploads'), { recursive: true });
  if (existsSync(path.join(strapi5Dir(set), 'uploads'))) cpSync(path.join(strapi5Dir(set), 'uploads'), path.join(dir, 'public', 'uploads'), { recursive: true });
  mkdirSync(path.join(dir, '.tmp'));
  const db = new BetterSqlite3(path.join(dir, '.tmp', 'data.db'));
  db.exec(readFileSync(path.join(strapi5Dir(set), 'sqlite.sql'), 'utf8'));
  db.close();
  return dir;
}

describe.each(Object.keys(sets))('import of the Strapi 5.54.0 "%s" database', (set) => {
  const expected = sets[set]!;
  const requests = (JSON.parse(readFileSync(path.join(strapi5Dir(set), 'answers.json'), 'utf8')) as { requests: RecordedRequest[] }).requests;
  const recorded = (name: string) => requests.find((r) => r.name === name)!;
  let project: string;
  let built: BuiltServer;
  let server: RunningServer;
  let result: ImportResult;
  let token: string;
  let importedTokens: string[];

  beforeAll(async () => {
    project = await restoreStrapi5Project(set);
    built = await buildModels(strapi5Dir(set), `strapi5-${set}`);
    result = await runImport({ project, serverDir: built.dir, dryRun: false, replace: false, skipInvalid: false, env: { ...process.env, DATABASE_URL: built.database.url } });
    if (!result.ok) throw new Error(`${result.error}\n${result.problems.map((p) => `${p.table}: ${p.message}`).join('\n')}`);
    server = await startImportedServer(built, project, { env: secrets }, expected.config);
    importedTokens = (await built.database.query<{ name: string }>('SELECT name FROM strapi_api_tokens ORDER BY name')).map((r) => r.name);
    // Strapi's API token keys are not in the recording (only their hashes are in the database): one of ours.
    token = await createApiToken(built.dir, { type: 'full-access' }, { API_TOKEN_SALT: secrets.API_TOKEN_SALT });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it('imports one entry per document and locale, keeping documentIds, and reports pending drafts', async () => {
    for (const [table, n] of Object.entries(expected.rows)) expect([table, Number((await built.database.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n)]).toEqual([table, n]);
    expect(importedTokens).toEqual(expected.tokens);
    await expectDocumentIds(built);
    const pending = result.problems.filter((p) => p.kind === 'pending draft');
    expect(pending.map((p) => /document (\w+)/.exec(p.message)![1])).toEqual(expected.pendingDrafts);
    expect(result.problems.filter((p) => p.level === 'error')).toEqual([]);
  });

  it.each(expected.endReads.map((name) => [name] as const))('answers %s on the v5 mount as Strapi 5 did', async (name) => {
    const request = recorded(name);
    const credential = request.auth.startsWith('token:') ? token : request.auth.startsWith('user:') ? (recorded('auth.login').answer as { jwt: string }).jwt : undefined;
    const api = client(server.url, credential ? bearer(credential) : {});
    const v5Path = request.path === '/graphql' ? '/v5/graphql' : request.path.replace(/^\/api\//, '/v5/api/');
    const answer = request.method === 'GET' ? await api.get(v5Path) : await api.post(v5Path, request.body);
    const comparable = (body: unknown) => (expected.idsChanged ? withoutIds(body) : body);
    expect({ status: answer.status, body: comparable(answer.body) }).toEqual({ status: request.status, body: comparable(asStored(request.answer, new Set(expected.undraftedFields))) });
  });

  it.runIf(set === 'blog')('imports never-published documents as unpublished entries, with their own relations', async () => {
    const published = new Set((recorded('final.articles.published').answer as { data: { documentId: string }[] }).data.map((e) => e.documentId));
    const strapiDrafts = (recorded('final.articles.draft').answer as { data: { documentId: string }[] }).data.filter((e) => !published.has(e.documentId));
    const ours = (await client(server.url, bearer(token)).get(recorded('final.articles.draft').path.replace(/^\/api\//, '/v5/api/'))).body as { data: { documentId: string; title: string }[] };
    const draftOnly = ours.data.filter((e) => !published.has(e.documentId));
    expect(draftOnly.filter((e) => strapiDrafts.some((d) => d.documentId === e.documentId))).toEqual(strapiDrafts);
    // Written after that read: a draft made by the GraphQL script.
    expect(draftOnly.filter((e) => !strapiDrafts.some((d) => d.documentId === e.documentId)).map((e) => e.title)).toEqual(['GraphQL draft']);
  });

  it.runIf(set === 'i18n')('contentgen import --dry-run says it reads a Strapi 5 database and names the pending draft', async () => {
    const { code, stdout, stderr } = await runCli('import', project, '-o', built.dir, '--dry-run');
    expect(code).toBe(0);
    expect(stderr).toContain('a Strapi 5 database');
    expect(stdout).toMatch(/note: pages: api::page\.page document te4on90q4ma1h645a5ex1fu7 \(fr\) has unpublished edits \(draft row 16, published row 17\)/);
    expect(stdout).toMatch(/pages: 5 draft row\(s\) of published documents left out/);
  });

  it.runIf(set === 'blog')('logs in with the passwords users gave Strapi 5, under their documentIds', async () => {
    const login = await client(server.url).post('/v5/api/auth/local', { identifier: 'alice', password: 'Secret123' });
    const strapiUser = (recorded('graphql.login').answer as { data: { login: { user: { documentId: string } } } }).data.login.user;
    expect([login.status, login.body.user?.documentId]).toEqual([200, strapiUser.documentId]);
  });
});

it('tells a Strapi 5 database by its tables, and an empty one by the project\'s @strapi/strapi version', async () => {
  const project = await restoreStrapi5Project('blog');
  try {
    const layoutOf = async (file: string, dir: string) => {
      const source = openSqliteSource(file, 'UTC');
      try {
        return (await detectLayout(source, await source.tables(), dir)).layout.strapi;
      } finally {
        await source.close();
      }
    };
    expect(await layoutOf(path.join(project, '.tmp', 'data.db'), project)).toBe(5);
    const empty = path.join(project, '.tmp', 'empty.db');
    new BetterSqlite3(empty).close();
    expect(await layoutOf(empty, project)).toBe(5);
    expect(await layoutOf(empty, path.join(fixturesDir, 'strapi-data', 'import'))).toBe(4);
  } finally {
    await rm(project, { recursive: true, force: true });
  }
});
