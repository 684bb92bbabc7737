/**
 * `contentgen import` on databases Strapi 4.26.2 itself wrote (fixtures/strapi-data, recorded
 * with Strapi's REST answers: test/import/recorder). Each recorded Strapi database (SQLite,
 * PostgreSQL, MariaDB) is restored into a Strapi project folder, imported into a server built
 * from the same project on this run's database (CG_TEST_DB), and the server, started outside
 * the repository's code paths, must answer every recorded REST request as Strapi did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../generator/import/import.js';
import { buildModels, type BuiltServer, type RunningServer } from '../helpers/server.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  restoreStrapiProject,
  strapiDataDir,
  strapiDataSets,
  type RestoredStrapiProject,
  type StrapiDialect,
} from '../helpers/strapi-data.js';
import { answerAsStrapi, comparable, startImportedServer } from './compare.js';

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
    server = await startImportedServer(built.dir, secrets);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    await project?.cleanup();
  });

  it.each(answers.requests.filter(comparable).map((r) => [r.name, r] as const))('answers %s as Strapi did', async (_name, recorded) => {
    // Strapi's own credentials: the import keeps token hashes and user ids (same API_TOKEN_SALT, JWT_SECRET).
    const credentials = secrets.dialects[dialect]!;
    const token = recorded.auth.startsWith('token:') ? credentials.apiTokens.find((t) => `token:${t.type}` === recorded.auth && t.expiresAt === null)!.accessKey : undefined;
    const jwt = recorded.auth === `user:${credentials.userJwt.username}` ? credentials.userJwt.jwt : undefined;
    const { ours, strapi } = await answerAsStrapi(server, recorded, dialect, token ?? jwt, `${set}.${dialect}`);
    expect(ours).toEqual(strapi);
  });
});
