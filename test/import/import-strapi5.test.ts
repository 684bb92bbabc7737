/**
 * `contentgen import` of the databases Strapi 5.54.0 wrote on our own models (fixtures/strapi5-data,
 * recorded by test/v5/recorder): each set on SQLite (`<set>/sqlite.sql`), the blog and i18n sets
 * on PostgreSQL and MariaDB too (`<set>/<postgres|mariadb>/`, each its own recording: answers,
 * dump, uploads). Each set's Strapi 5 project folder, its database restored where its
 * config/database.js looks (the SQLite file, or a new database named in `.env`), is imported into a
 * server built from that folder on this run's database (CG_TEST_DB: SQLite, PostgreSQL, MariaDB),
 * built again (it takes the permissions.json and locales.json the import wrote) and started; its v5
 * mount must answer the recording's reads of the database's end state as Strapi 5 did: the same
 * documentIds, row ids (a published document is its published row), times, relations, components,
 * zones and files, and in the draft view the pending drafts of published documents.
 * `CG_IMPORT_SOURCES=sqlite,postgres,mariadb` (the default) chooses the sources.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { restoreDump, type RecordedRequest, type RestoredStrapiDatabase, type StrapiDialect } from '../helpers/strapi-data.js';
import { expectDocumentIds } from '../helpers/document-ids.js';
import { secrets } from '../v5/recorder/app.js';
import { startImportedServer } from './compare.js';

interface Strapi5Set {
  /** Recorded reads no later request changed the answer of: compared whole. */
  readonly endReads: readonly string[];
  /** End reads of the draft view: compared without ids (Strapi's draft rows have ids of their own, ours answer the live row's). */
  readonly draftReads?: readonly string[];
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
  /** The documentIds whose draft row holds edits the published row has not (kept in the draft table), from the recording. */
  readonly pendingDrafts: (recorded: (name: string) => RecordedRequest) => readonly string[];
  /** Rows per contentgen table after the import. */
  readonly rows: Readonly<Record<string, number>>;
  /** The source databases it was recorded on. */
  readonly dialects: readonly StrapiDialect[];
}

const sets: Readonly<Record<string, Strapi5Set>> = {
  // pending.*: test/v5/recorder/pending-drafts.ts, the last module of the blog script (the articles
  // of the GraphQL script and component-relations.ts before it were deleted again or are drafts);
  // graphql.me: alice is not written after it.
  blog: {
    endReads: ['pending.articles.published', 'graphql.me'],
    draftReads: ['pending.articles.draft', 'pending.articles.modified'],
    undraftedFields: ['author', 'category', 'tags', 'cover'],
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: (recorded) => (recorded('pending.articles.modified').answer as { data: { documentId: string }[] }).data.map((e) => e.documentId),
    rows: { articles: 8, articles_drafts: 2, articles_drafts_lnk: 8, authors: 5, categories: 2, tags: 11, files: 9, upload_folders: 1, up_users: 2, up_roles: 3, globals: 0 },
    dialects: ['sqlite', 'postgres', 'mariadb'],
  },
  // graphql.page.draft.fr: the fr page's draft, saved by GraphQL with `status: DRAFT` (the
  // deletePage after it deleted nothing of it: the fr page is still listed after it).
  i18n: {
    endReads: ['graphql.pages.afterDelete', 'graphql.i18NLocales', 'graphql.global.fr', 'graphql.page.draft.fr'],
    undraftedFields: [],
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: (recorded) => [(recorded('graphql.page.draft.fr').body as { variables: { documentId: string } }).variables.documentId],
    rows: { pages: 5, pages_drafts: 1, globals: 1, categories: 1, i18n_locale: 3 },
    dialects: ['sqlite', 'postgres', 'mariadb'],
  },
  // Recorded with STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE; its last request (compat.updateArticle)
  // changes only `views` of a document the two reads compared do not ask for.
  'blog-v4compat': {
    endReads: ['compat.articles.list', 'compat.article'],
    undraftedFields: [],
    idsChanged: 'compat.updateArticle published "Hello v4 clients" again after these reads: its published row is 6 in the database, 2 in the answers',
    config: '  v5: { graphql: { v4CompatibilityMode: true } },\n',
    tokens: ['Full Access', 'Read Only', 'recorder'],
    pendingDrafts: () => [],
    rows: { articles: 3, authors: 1, tags: 1, up_roles: 3 },
    dialects: ['sqlite'],
  },
};

const sources = (process.env.CG_IMPORT_SOURCES?.split(',') as StrapiDialect[] | undefined) ?? ['sqlite', 'postgres', 'mariadb'];
const cases = Object.entries(sets).flatMap(([set, spec]) => spec.dialects.filter((d) => sources.includes(d)).map((dialect) => [set, dialect] as const));

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
  // Strapi 5 on PostgreSQL answers a time as the database's text (`00:05:00`), on SQLite and MariaDB (and here) `00:05:00.000`.
  if (typeof value === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}.000`;
  if (Array.isArray(value)) return value.map((v) => asStored(v, fields, inside));
  if (!value || typeof value !== 'object') return value;
  const entry = value as Record<string, unknown>;
  const out = Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, asStored(v, fields, fields.has(k))]));
  if (inside && typeof entry.publishedAt === 'string' && typeof entry.createdAt === 'string') out.publishedAt = entry.createdAt;
  return out;
}

/** Where a set's recording on `dialect` is: the set's folder (SQLite), or its `<dialect>/` folder. */
const recordingDir = (set: string, dialect: StrapiDialect) => (dialect === 'sqlite' ? strapi5Dir(set) : path.join(strapi5Dir(set), dialect));

interface RestoredProject {
  readonly dir: string;
  readonly database: RestoredStrapiDatabase;
}

/**
 * A copy of the set's Strapi 5 project with its uploads in public/uploads and its database restored
 * where config/database.js reads it: `.tmp/data.db`, or a new PostgreSQL/MariaDB database that
 * `.env` names (DATABASE_CLIENT postgres or mysql, DATABASE_NAME/HOST/PORT/USERNAME/PASSWORD).
 */
async function restoreStrapi5Project(set: string, dialect: StrapiDialect = 'sqlite'): Promise<RestoredProject> {
  const dir = await tempDir(`strapi5-project-${set}-${dialect}`);
  for (const entry of ['package.json', 'config', 'src']) cpSync(path.join(strapi5Dir(set), entry), path.join(dir, entry), { recursive: true });
  mkdirSync(path.join(dir, 'public', 'uploads'), { recursive: true });
  const uploads = path.join(recordingDir(set, dialect), 'uploads');
  if (existsSync(uploads)) cpSync(uploads, path.join(dir, 'public', 'uploads'), { recursive: true });
  mkdirSync(path.join(dir, '.tmp'));
  const dump = readFileSync(path.join(recordingDir(set, dialect), `${dialect}.sql`), 'utf8');
  const database = await restoreDump(dump, dialect, dialect === 'sqlite' ? path.join(dir, '.tmp', 'data.db') : undefined);
  if (dialect !== 'sqlite') {
    const url = new URL(database.url);
    const env = {
      DATABASE_CLIENT: dialect === 'postgres' ? 'postgres' : 'mysql',
      DATABASE_HOST: url.hostname,
      DATABASE_PORT: url.port || (dialect === 'postgres' ? '5432' : '3306'),
      DATABASE_NAME: database.name!,
      DATABASE_USERNAME: decodeURIComponent(url.username),
      DATABASE_PASSWORD: decodeURIComponent(url.password),
    };
    writeFileSync(path.join(dir, '.env'), Object.entries(env).map(([k, v]) => `${k}=${v}\n`).join(''));
  }
  return { dir, database };
}

describe.each(cases)('import of the Strapi 5.54.0 "%s" database on %s', (set, dialect) => {
  const expected = sets[set]!;
  const requests = (JSON.parse(readFileSync(path.join(recordingDir(set, dialect), 'answers.json'), 'utf8')) as { requests: RecordedRequest[] }).requests;
  const recorded = (name: string) => requests.find((r) => r.name === name)!;
  let project: RestoredProject;
  let built: BuiltServer;
  let server: RunningServer;
  let result: ImportResult;
  let token: string;
  let importedTokens: string[];

  beforeAll(async () => {
    project = await restoreStrapi5Project(set, dialect);
    built = await buildModels(strapi5Dir(set), `strapi5-${set}-${dialect}`);
    // The recorder runs Strapi with TZ=UTC: PostgreSQL/MariaDB timestamps are UTC wall time.
    result = await runImport({ project: project.dir, serverDir: built.dir, dryRun: false, replace: false, skipInvalid: false, timeZone: 'UTC', env: { ...process.env, DATABASE_URL: built.database.url } });
    if (!result.ok) throw new Error(`${result.error}\n${result.problems.map((p) => `${p.table}: ${p.message}`).join('\n')}`);
    server = await startImportedServer(built, project.dir, { env: secrets }, expected.config);
    importedTokens = (await built.database.query<{ name: string }>('SELECT name FROM strapi_api_tokens ORDER BY name')).map((r) => r.name);
    // Strapi's API token keys are not in the recording (only their hashes are in the database): one of ours.
    token = await createApiToken(built.dir, { type: 'full-access' }, { API_TOKEN_SALT: secrets.API_TOKEN_SALT });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    await project?.database.cleanup();
    if (project) await rm(project.dir, { recursive: true, force: true });
  });

  const ask = async (request: RecordedRequest) => {
    const credential = request.auth.startsWith('token:') ? token : request.auth.startsWith('user:') ? (recorded('auth.login').answer as { jwt: string }).jwt : undefined;
    const api = client(server.url, credential ? bearer(credential) : {});
    const v5Path = request.path === '/graphql' ? '/v5/graphql' : request.path.replace(/^\/api\//, '/v5/api/');
    return request.method === 'GET' ? api.get(v5Path) : api.post(v5Path, request.body);
  };

  it('imports one entry per document and locale, keeping documentIds, and the pending drafts of published documents', async () => {
    for (const [table, n] of Object.entries(expected.rows)) expect([table, Number((await built.database.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]!.n)]).toEqual([table, n]);
    expect(importedTokens).toEqual(expected.tokens);
    await expectDocumentIds(built);
    const documentTables = Object.keys(expected.rows).filter((t) => `${t}_drafts` in expected.rows);
    const kept: string[] = [];
    for (const table of documentTables) {
      kept.push(...(await built.database.query<{ d: string }>(`SELECT l.document_id AS d FROM ${table}_drafts x JOIN ${table} l ON l.id = x.live_id ORDER BY l.id`)).map((r) => r.d));
    }
    expect(kept.sort()).toEqual([...expected.pendingDrafts(recorded)].sort());
    // Their relations and media are kept (<table>_drafts_lnk): nothing of them is reported.
    expect(result.problems.filter((p) => p.kind === 'pending draft links')).toEqual([]);
    expect(result.problems.filter((p) => p.level === 'error')).toEqual([]);
  });

  it.each(expected.endReads.map((name) => [name] as const))('answers %s on the v5 mount as Strapi 5 did', async (name) => {
    const request = recorded(name);
    const answer = await ask(request);
    const comparable = (body: unknown) => (expected.idsChanged ? withoutIds(body) : body);
    expect({ status: answer.status, body: comparable(answer.body) }).toEqual({ status: request.status, body: comparable(asStored(request.answer, new Set(expected.undraftedFields))) });
  });

  it.each((expected.draftReads ?? []).map((name) => [name] as const))('answers %s (the draft view, pending drafts kept) as Strapi 5 did, ids aside', async (name) => {
    const request = recorded(name);
    const answer = await ask(request);
    expect({ status: answer.status, body: withoutIds(answer.body) }).toEqual({ status: request.status, body: withoutIds(asStored(request.answer, new Set(expected.undraftedFields))) });
  });

  it.runIf(set === 'blog')('answers a pending draft with its own attributes, components, zone, relations and media as Strapi 5 did', async () => {
    const request = recorded('pending.articles.draft.links');
    const answer = await ask(request);
    // "Pending links (draft)": its category, tags and cover are not its published version's.
    const published = (recorded('pending.articles.published').answer as { data: { documentId: string; category: unknown }[] }).data;
    const draft = (request.answer as { data: { documentId: string; title: string; category: unknown }[] }).data.find((e) => e.title === 'Pending links (draft)')!;
    expect(draft.category).not.toEqual(published.find((p) => p.documentId === draft.documentId)!.category);
    expect({ status: answer.status, body: withoutIds(answer.body.data) }).toEqual({ status: request.status, body: withoutIds(asStored((request.answer as { data: unknown }).data, new Set(expected.undraftedFields))) });
    // populate=*: the same targets, tags in the draft's own order (Strapi's answer sorted them by name).
    const star = await client(server.url, bearer(token)).get('/v5/api/articles?status=draft&populate=*&filters[title][$startsWith]=Pending&sort=title:asc');
    const targets = (entries: { title: string; author?: { documentId: string } | null; category?: { documentId: string } | null; tags?: { documentId: string; name: string }[]; cover?: { id: number } | null }[]) =>
      entries.map((e) => ({ title: e.title, author: e.author?.documentId ?? null, category: e.category?.documentId ?? null, tags: (e.tags ?? []).map((t) => t.documentId).sort(), cover: e.cover?.id ?? null }));
    expect([star.status, targets(star.body.data)]).toEqual([200, targets((request.answer as { data: never[] }).data)]);
  });

  it.runIf(set === 'blog')('imports never-published documents as unpublished entries, with their own relations', async () => {
    const published = new Set((recorded('pending.articles.published').answer as { data: { documentId: string }[] }).data.map((e) => e.documentId));
    const strapiDrafts = (recorded('final.articles.draft').answer as { data: { documentId: string }[] }).data.filter((e) => !published.has(e.documentId));
    const ours = (await client(server.url, bearer(token)).get(recorded('final.articles.draft').path.replace(/^\/api\//, '/v5/api/'))).body as { data: { documentId: string; title: string }[] };
    const draftOnly = ours.data.filter((e) => !published.has(e.documentId));
    expect(draftOnly.filter((e) => strapiDrafts.some((d) => d.documentId === e.documentId))).toEqual(strapiDrafts);
    // Written after that read: a draft made by the GraphQL script.
    expect(draftOnly.filter((e) => !strapiDrafts.some((d) => d.documentId === e.documentId)).map((e) => e.title)).toEqual(['GraphQL draft']);
  });

  it.runIf(set === 'i18n')('contentgen import --dry-run says it reads a Strapi 5 database and keeps the pending draft', async () => {
    const { code, stdout, stderr } = await runCli('import', project.dir, '-o', built.dir, '--dry-run');
    expect(code).toBe(0);
    expect(stderr).toContain('a Strapi 5 database');
    expect(stdout).toMatch(/pages: 1 pending draft\(s\) of published documents kept in pages_drafts/);
    expect(stdout).toMatch(/pages: 4 draft row\(s\) of published documents without edits of their own left out/);
  });

  it.runIf(set === 'blog')('logs in with the passwords users gave Strapi 5, under their documentIds', async () => {
    const login = await client(server.url).post('/v5/api/auth/local', { identifier: 'alice', password: 'Secret123' });
    const strapiUser = (recorded('graphql.login').answer as { data: { login: { user: { documentId: string } } } }).data.login.user;
    expect([login.status, login.body.user?.documentId]).toEqual([200, strapiUser.documentId]);
  });

  // Last: it writes. The ids, sequences and draft rows the import left must take new writes.
  it.runIf(set === 'blog')('takes new entries and drafts after the import, and publishes imported pending drafts onto their live rows, relations and media included', async () => {
    const api = client(server.url, bearer(token));
    const published = (recorded('pending.articles.published').answer as { data: { id: number; documentId: string; title: string }[] }).data;
    const highest = Math.max(...(await built.database.query<{ id: number }>('SELECT id FROM articles')).map((r) => Number(r.id)));
    const created = await api.post('/v5/api/articles', { data: { title: 'After the import' } });
    expect([created.status, created.body.data.id > highest]).toEqual([201, true]);
    const byUser = published.find((e) => e.title === 'By a user')!;
    const saved = await api.put(`/v5/api/articles/${byUser.documentId}?status=draft`, { data: { title: 'By a user (draft)' } });
    expect([saved.status, saved.body.data.title]).toEqual([200, 'By a user (draft)']);
    const draftIds = (await built.database.query<{ id: number }>('SELECT id FROM articles_drafts ORDER BY id')).map((r) => Number(r.id));
    expect(new Set(draftIds).size).toBe(3);
    const edits = published.find((e) => e.title === 'Pending edits')!;
    const publish = await api.put(`/v5/api/articles/${edits.documentId}?populate[seo]=true`, { data: { views: 102 } });
    expect([publish.status, publish.body.data.id, publish.body.data.title, publish.body.data.views, publish.body.data.seo?.metaTitle]).toEqual([200, edits.id, 'Pending edits (draft)', 102, 'Draft seo']);
    expect(Number((await built.database.query<{ n: number }>('SELECT COUNT(*) AS n FROM articles_drafts'))[0]!.n)).toBe(2);
    // Published drafts leave their own relations and media on the live row: "Pending edits" (its
    // draft's are its published row's) keeps them, "Pending links" gets its draft's.
    const populate = 'populate[author]=true&populate[category]=true&populate[tags][sort]=name%3Aasc&populate[cover]=true';
    type Linked = { author?: { documentId: string } | null; category?: { documentId: string } | null; tags?: { documentId: string }[]; cover?: { id: number } | null };
    const links = (value: unknown, entry = value as Linked) =>
      ({ author: entry.author?.documentId ?? null, category: entry.category?.documentId ?? null, tags: (entry.tags ?? []).map((t) => t.documentId), cover: entry.cover?.id ?? null });
    const strapiDrafts = (recorded('pending.articles.draft.links').answer as { data: { documentId: string; title: string }[] }).data;
    expect(links((await api.get(`/v5/api/articles/${edits.documentId}?${populate}`)).body.data)).toEqual(links(published.find((e) => e.title === 'Pending edits')!));
    const pendingLinks = published.find((e) => e.title === 'Pending links')!;
    const draftLinks = links(strapiDrafts.find((e) => e.documentId === pendingLinks.documentId)!);
    expect(draftLinks).not.toEqual(links(pendingLinks));
    const published2 = await api.put(`/v5/api/articles/${pendingLinks.documentId}?${populate}`, { data: {} });
    expect([published2.status, published2.body.data.title, links(published2.body.data)]).toEqual([200, 'Pending links (draft)', draftLinks]);
    expect(links((await api.get(`/v5/api/articles/${pendingLinks.documentId}?${populate}`)).body.data)).toEqual(draftLinks);
  });
});

it('tells a Strapi 5 database by its tables, and an empty one by the project\'s @strapi/strapi version', async () => {
  const { dir: project } = await restoreStrapi5Project('blog');
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
