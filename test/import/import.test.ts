/**
 * `contentgen import` on databases Strapi 4.26.2 itself wrote (fixtures/strapi-data, recorded
 * with Strapi's REST answers: test/import/recorder). Each recorded Strapi database (SQLite,
 * PostgreSQL, MariaDB) is restored into a Strapi project folder, imported into a server built
 * from the same project on this run's database (CG_TEST_DB), built again (it takes the
 * permissions.json and locales.json the import wrote), and the server, started outside the
 * repository's code paths, must answer every recorded REST and GraphQL request as Strapi did,
 * with Strapi's API tokens and user JWT; the original passwords log in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../generator/import/import.js';
import { bearer, buildModels, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  restoreStrapiProject,
  strapiDataDir,
  strapiDataSets,
  hasStrapiData,
  type RestoredStrapiProject,
  type StrapiDialect,
} from '../helpers/strapi-data.js';
import { answerAsStrapi, comparable, startImportedServer } from './compare.js';
import { expectDocumentIds } from '../helpers/document-ids.js';

const dialects: readonly StrapiDialect[] = (process.env.CG_IMPORT_SOURCES?.split(',') as StrapiDialect[] | undefined) ?? ['sqlite', 'postgres', 'mariadb'];

const sets = strapiDataSets.flatMap((set) => dialects.filter((dialect) => hasStrapiData(set, dialect)).map((dialect) => [set, dialect] as const));

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
    server = await startImportedServer(built, project.dir, secrets);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    await project?.cleanup();
  });

  it('gives every imported entry, user, role and file a documentId, shared by the localizations of an entry', async () => {
    const checked = await expectDocumentIds(built);
    expect(checked.get('up_users')).toBeGreaterThan(0);
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
    const { ours, strapi } = await answerAsStrapi(server, recorded, dialect, token ?? jwt, `${set}.${dialect}`);
    expect(ours).toEqual(strapi);
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
