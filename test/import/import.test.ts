/**
 * `contentgen import` on databases Strapi 4.26.2 itself wrote (fixtures/strapi-data, recorded
 * with Strapi's REST answers: test/import/recorder). Each recorded Strapi database (SQLite,
 * PostgreSQL, MariaDB) is restored into a Strapi project folder, imported into a server built
 * from the same project on this run's database (CG_TEST_DB), and the server, started outside
 * the repository's code paths, must answer every recorded REST request as Strapi did.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../generator/import/import.js';
import { client } from '../helpers/http.js';
import { bearer, buildModels, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  restoreStrapiProject,
  strapiDataDir,
  strapiDataSets,
  hasStrapiData,
  type RecordedRequest,
  type RestoredStrapiProject,
  type StrapiDialect,
} from '../helpers/strapi-data.js';
import { comparableBody, isLiveRead, wholeGroupsAsStrapiSaw, withoutLeakedDrafts } from '../helpers/strapi-compare.js';

/** Recorded requests the comparison covers: every REST read (public, with an original API token or user JWT). */
function comparable(r: RecordedRequest): boolean {
  return r.method === 'GET' && r.path.startsWith('/api/');
}

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
    // Strapi answered populates nested deeper than contentgen's default limit (5).
    const config = path.join(built.dir, 'src', 'config.ts');
    await writeFile(config, (await readFile(config, 'utf8')).replace('withCount: true,', 'withCount: true,\n      populate: { maxDepth: 12 },'));
    const env = { JWT_SECRET: secrets.env.JWT_SECRET, API_TOKEN_SALT: secrets.env.API_TOKEN_SALT };
    server = await startServer(built.dir, env);
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
    const api = client(server.url, token ? bearer(token) : jwt ? bearer(jwt) : {});
    const ours = await api.get(recorded.path);
    const byId = (body: unknown) => (Array.isArray(body) && !recorded.path.includes('sort') ? [...body].sort((a, b) => a.id - b.id) : body);
    if (process.env.CG_IMPORT_DUMP) {
      const { mkdirSync, writeFileSync } = await import('node:fs');
      mkdirSync(process.env.CG_IMPORT_DUMP, { recursive: true });
      writeFileSync(`${process.env.CG_IMPORT_DUMP}/${set}.${dialect}.${recorded.name}.json`, JSON.stringify({ ours: ours.body, strapi: recorded.answer }, null, 1));
    }
    const strapi = comparableBody(byId(isLiveRead(recorded) ? withoutLeakedDrafts(recorded.answer) : recorded.answer), dialect);
    const mine = wholeGroupsAsStrapiSaw(comparableBody(byId(ours.body), dialect), strapi);
    expect({ status: ours.status, body: mine }).toEqual({ status: recorded.status, body: strapi });
  });
});
