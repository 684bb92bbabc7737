/**
 * `contentgen import` on databases Strapi 4.26.2 itself wrote (fixtures/strapi-data, recorded
 * with Strapi's REST answers: test/import/recorder). Each recorded Strapi database (SQLite,
 * PostgreSQL, MariaDB) is restored into a Strapi project folder, imported into a server built
 * from the same project on this run's database (CG_TEST_DB), built again (it takes the
 * permissions.json and locales.json the import wrote), and the server, started outside the
 * repository's code paths, must answer every recorded REST and GraphQL request as Strapi did,
 * with Strapi's API tokens and user JWT; the original passwords log in.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../generator/import/import.js';
import { runCli } from '../helpers/cli.js';
import { client } from '../helpers/http.js';
import { bearer, buildModels, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  restoreStrapiProject,
  strapiDataDir,
  strapiDataSets,
  type RecordedRequest,
  type RestoredStrapiProject,
  type StrapiDialect,
} from '../helpers/strapi-data.js';

/**
 * Recorded requests the comparison covers: every REST read and every GraphQL query (public,
 * with an original API token or the original user JWT).
 */
function comparable(r: RecordedRequest): boolean {
  return (r.method === 'GET' && r.path.startsWith('/api/')) || (r.method === 'POST' && r.path === '/graphql');
}

/**
 * What contentgen's server answers differently from Strapi for reasons that are not the
 * import's (each a runtime difference, reported as such), applied to both answers before they
 * are compared, so that every other difference fails the test:
 *  - Strapi on SQLite reads bigintegers as JS numbers (9007199254740993 → "9007199254740992");
 *    the import keeps them exact: compared as numbers.
 *  - a morph relation's target: Strapi shows its private attributes, contentgen does not.
 *  - a time: Strapi on PostgreSQL answers the database's text (`10:30:00`), contentgen `10:30:00.000`.
 *  - `/api/upload/files` without a sort: Strapi answers in the database's physical order (an
 *    updated row last on PostgreSQL), contentgen by id: compared by id; roles listed by id.
 */
function comparableBody(value: unknown, dialect: StrapiDialect, key = '', depth = 0): unknown {
  if (typeof value === 'string' && dialect === 'sqlite' && /^-?\d{16,}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}.000`;
  if (Array.isArray(value)) {
    return value.map((v) => comparableBody(v, dialect, '', depth + 1));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((key === 'subject' || key === 'items') && k === 'secret') continue;
      if (k === 'roles' && Array.isArray(v)) {
        out[k] = comparableBody([...v].sort((a, b) => a.id - b.id), dialect, k, depth + 1);
        continue;
      }
      out[k] = comparableBody(v, dialect, k, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * The import makes localization groups whole (issue 26): where Strapi linked an entry one way
 * only (de → fr, not fr → de), the server lists every member of the group. Where our list holds
 * every entry Strapi's holds, ours is cut to those, in our order, so the rest is compared as is.
 */
function wholeGroupsAsStrapiSaw(ours: unknown, strapi: unknown, key = ''): unknown {
  if (Array.isArray(ours) && Array.isArray(strapi)) {
    if (key === 'localizations-data') {
      const wanted = new Set(strapi.map((e) => (e as { id?: unknown })?.id));
      const kept = ours.filter((e) => wanted.has((e as { id?: unknown })?.id));
      if (kept.length === wanted.size) return kept.map((e) => wholeGroupsAsStrapiSaw(e, strapi.find((x) => (x as { id?: unknown }).id === (e as { id?: unknown }).id)));
    }
    return ours.map((e, i) => wholeGroupsAsStrapiSaw(e, strapi[i]));
  }
  if (ours && typeof ours === 'object' && strapi && typeof strapi === 'object' && !Array.isArray(strapi)) {
    const other = strapi as Record<string, unknown>;
    return Object.fromEntries(Object.entries(ours).map(([k, v]) => [k, wholeGroupsAsStrapiSaw(v, other[k], key === 'localizations' && k === 'data' ? 'localizations-data' : k)]));
  }
  return ours;
}

/**
 * Where Strapi's GraphQL answer carries INTERNAL_SERVER_ERROR errors (its morph fields: "Missing
 * schema in validateQuery"), contentgen answers the field (docs/models.md, polymorphic
 * relations): ours must carry no error, and is compared with those paths set to null, as
 * Strapi's data holds them.
 */
function withStrapiFailures(ours: any, strapi: any): any {
  const failed = (strapi?.errors ?? []).filter((e: any) => e.extensions?.code === 'INTERNAL_SERVER_ERROR');
  if (!failed.length || !ours?.data || ours.errors) return ours;
  const data = structuredClone(ours.data);
  for (const { path } of failed) {
    const parent = path.slice(0, -1).reduce((at: any, key: string | number) => at?.[key], data);
    if (parent && typeof parent === 'object') parent[path.at(-1)] = null;
  }
  return { errors: strapi.errors, data };
}

const dialects: readonly StrapiDialect[] = (process.env.CG_IMPORT_SOURCES?.split(',') as StrapiDialect[] | undefined) ?? ['sqlite', 'postgres', 'mariadb'];

const sets = strapiDataSets.flatMap((set) => dialects.map((dialect) => [set, dialect] as const));

describe.each(sets)('import of the "%s" set recorded on Strapi %s', (set, dialect) => {
  const answers = loadStrapiAnswers(set, dialect);
  const secrets = loadStrapiSecrets(set);
  let project: RestoredStrapiProject;
  let built: BuiltServer;
  let server: RunningServer;

  beforeAll(async () => {
    project = await restoreStrapiProject(set, dialect);
    built = await buildModels(strapiDataDir(set), `${set}-${dialect}`);
    const result = await runImport({
      project: project.dir,
      serverDir: built.dir,
      dryRun: false,
      replace: false,
      skipInvalid: false,
      timeZone: answers.timeZone,
      env: { ...process.env, DATABASE_URL: built.database.url },
    });
    if (!result.ok) throw new Error(`${result.error}\n${result.problems.map((p) => `${p.table}: ${p.message}`).join('\n')}`);
    // As docs/moving-from-strapi.md says: build again, so the server takes the permissions.json
    // (roles with Strapi's names) and locales.json the import wrote into the project.
    const rebuilt = await runCli('build', project.dir, '-o', built.dir, '--db', built.provider);
    if (rebuilt.code !== 0) throw new Error(rebuilt.stderr);
    // Strapi answered populates nested deeper than contentgen's default limit (5).
    const config = path.join(built.dir, 'src', 'config.ts');
    // Strapi has no cost limit on GraphQL operations: the recorded list of 100 articles with every field costs more than contentgen's default.
    const settings = (await readFile(config, 'utf8')).replace('withCount: true,', 'withCount: true,\n      populate: { maxDepth: 12 },');
    await writeFile(config, settings.replace('} satisfies UserConfig;', '  plugins: { graphql: { maxComplexity: 0 } },\n} satisfies UserConfig;'));
    const env = { JWT_SECRET: secrets.env.JWT_SECRET, API_TOKEN_SALT: secrets.env.API_TOKEN_SALT };
    server = await startServer(built.dir, env);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    await project?.cleanup();
  });

  it('logs in with the original passwords: /api/users/me answers each user as Strapi listed them', async () => {
    const listed = answers.requests.find((r) => r.name === 'users.list')!.answer as { id: number; role: unknown }[];
    for (const user of secrets.dialects[dialect]!.users) {
      const login = await client(server.url).post('/api/auth/local', { identifier: user.email, password: user.password });
      if (user.blocked) {
        expect([user.username, login.status, login.body.error?.message]).toEqual([user.username, 400, 'Your account has been blocked by an administrator']);
        continue;
      }
      const { role: _role, ...strapiUser } = listed.find((u) => u.id === user.id)!;
      expect([user.username, login.status, login.body.user]).toEqual([user.username, 200, strapiUser]);
      const me = await client(server.url, bearer(login.body.jwt)).get('/api/users/me');
      expect([user.username, me.status, me.body]).toEqual([user.username, 200, strapiUser]);
    }
  });

  it("accepts the original token with a lifespan until its expiry, as Strapi's", async () => {
    const expiring = secrets.dialects[dialect]!.apiTokens.find((t) => t.expiresAt !== null)!;
    const list = answers.requests.find((r) => r.name.endsWith('.list.public'))!;
    const res = await client(server.url, bearer(expiring.accessKey)).get(list.path);
    expect(res.status).toBe(Date.parse(expiring.expiresAt!) > Date.now() ? 200 : 401);
  });

  it.each(answers.requests.filter(comparable).map((r) => [r.name, r] as const))('answers %s as Strapi did', async (_name, recorded) => {
    // Strapi's own credentials: the import keeps token hashes and user ids (same API_TOKEN_SALT, JWT_SECRET).
    const credentials = secrets.dialects[dialect]!;
    const token = recorded.auth.startsWith('token:') ? credentials.apiTokens.find((t) => `token:${t.type}` === recorded.auth && t.expiresAt === null)!.accessKey : undefined;
    const jwt = recorded.auth === `user:${credentials.userJwt.username}` ? credentials.userJwt.jwt : undefined;
    const api = client(server.url, token ? bearer(token) : jwt ? bearer(jwt) : {});
    const ours = recorded.method === 'GET' ? await api.get(recorded.path) : await api.post(recorded.path, recorded.body);
    const byId = (body: unknown) => (Array.isArray(body) && !recorded.path.includes('sort') ? [...body].sort((a, b) => a.id - b.id) : body);
    if (process.env.CG_IMPORT_DUMP) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(process.env.CG_IMPORT_DUMP, { recursive: true });
      writeFileSync(`${process.env.CG_IMPORT_DUMP}/${set}.${dialect}.${recorded.name}.json`, JSON.stringify({ ours: ours.body, strapi: recorded.answer }, null, 1));
    }
    const mine = wholeGroupsAsStrapiSaw(comparableBody(byId(withStrapiFailures(ours.body, recorded.answer)), dialect), comparableBody(byId(recorded.answer), dialect));
    expect({ status: ours.status, body: mine }).toEqual({ status: recorded.status, body: comparableBody(byId(recorded.answer), dialect) });
  });

  it.runIf(set === 'import')('gives a custom role\'s user what the role may do in Strapi, under its name (last: it writes)', async () => {
    const bob = secrets.dialects[dialect]!.users.find((u) => u.role === 'editor')!;
    const login = await client(server.url).post('/api/auth/local', { identifier: bob.username, password: bob.password });
    expect(login.status).toBe(200);
    const editor = client(server.url, bearer(login.body.jwt));
    const full = client(server.url, bearer(secrets.dialects[dialect]!.apiTokens.find((t) => t.type === 'full-access')!.accessKey));
    expect((await full.get(`/api/users/${bob.id}?populate=role`)).body.role).toMatchObject({ name: 'Editor', description: 'Role editor', type: 'editor' });
    // editor: article find/findOne/update, tag find/create (fixtures/strapi-data/import/src/permissions.json).
    expect((await editor.get('/api/articles/1')).status).toBe(200);
    expect((await editor.put('/api/articles/1', { data: { summary: 'edited by an editor' } })).status).toBe(200);
    expect((await editor.post('/api/tags', { data: { name: 'made-by-an-editor' } })).status).toBe(200);
    expect((await editor.post('/api/articles', { data: { title: 'not allowed' } })).status).toBe(403);
    expect((await editor.del('/api/articles/1')).status).toBe(403);
    expect((await editor.get('/api/authors')).status).toBe(403);
  });
});
