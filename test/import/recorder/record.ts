/**
 * Records a data set through a real Strapi 4.26.2 (run by hand, see README.md beside this file):
 *
 *   npx tsx test/import/recorder/record.ts <set> <sqlite|postgres|mariadb>
 *
 * Writes the Strapi project under $STRAPI_REF/rec/<set>-<dialect> (STRAPI_REF defaults to
 * /tmp/strapi-ref, an install made as in the environment notes), empties its database, starts
 * Strapi with TZ=Europe/Paris, fills the set through the REST API, records Strapi's answers,
 * stops it and writes fixtures/strapi-data/<set>/: <dialect> dump, answers.<dialect>.json,
 * uploads/<dialect>/, secrets.json (merged per dialect) and the project files.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mariadb from 'mariadb';
import pg from 'pg';
import { readModels, secrets, strapiVersion, writeStrapiProject, adminUser, type SetModels } from './app.js';
import { answersJson, recordEntries, recordI18n, recordImportGraphql, recordImportLists, recordMediaAndUsers, type Answers } from './answers.js';
import { StrapiClient, type Auth } from './client.js';
import { dumpMariadb, dumpPostgres, dumpSqlite } from './dump.js';
import { fillI18n } from './fill-i18n.js';
import { fillImport, type RecordedUser } from './fill-import.js';
import { freePort, startStrapi, stopStrapi } from './strapi-process.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const strapiRef = process.env.STRAPI_REF || '/tmp/strapi-ref';
export const recordTimeZone = 'Europe/Paris';

type Dialect = 'sqlite' | 'postgres' | 'mariadb';

const sets: Record<string, SetModels & { fill: typeof fillImport; extra: (client: StrapiClient, full: Auth, user: Auth) => Promise<void> }> = {
  import: {
    dir: path.join(repo, 'fixtures/import/models'),
    customTokenPermissions: ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::article.article.find', 'api::tag.tag.create'],
    fill: fillImport,
    async extra(client, full, user) {
      await recordImportLists(client);
      await recordImportGraphql(client, full, user);
    },
  },
  'import-i18n': {
    dir: path.join(repo, 'fixtures/import-i18n/models'),
    customTokenPermissions: ['api::page.page.find', 'api::page.page.findOne'],
    fill: fillI18n,
    extra: (client, full) => recordI18n(client, full),
  },
};

const databaseName = (set: string, dialect: Dialect) => `strapi_rec_${set.replace(/-/g, '_')}_${dialect === 'postgres' ? 'pg' : 'my'}`;

async function freshDatabase(set: string, dialect: Dialect): Promise<Record<string, string>> {
  if (dialect === 'sqlite') return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '.tmp/data.db' };
  const name = databaseName(set, dialect);
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    return { DATABASE_CLIENT: 'postgres', DATABASE_NAME: name, DATABASE_USERNAME: 'postgres' };
  }
  const conn = await mariadb.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  await conn.query(`DROP DATABASE IF EXISTS ${name}`);
  await conn.query(`CREATE DATABASE ${name}`);
  await conn.end();
  return { DATABASE_CLIENT: 'mysql2', DATABASE_NAME: name, DATABASE_USERNAME: 'root' };
}

function writeOutputs(outDir: string, dialect: Dialect, set: string, appDir: string, dump: string, answers: unknown, perDialect: unknown): void {
  mkdirSync(outDir, { recursive: true });
  const dumpFile = { sqlite: 'sqlite.sql', postgres: 'postgres.sql', mariadb: 'mariadb.sql' }[dialect];
  writeFileSync(path.join(outDir, dumpFile), dump);
  writeFileSync(path.join(outDir, `answers.${dialect}.json`), answersJson(answers as Answers));
  // Uploads: the same names on every dialect would need the same random hashes, so each dialect
  // keeps its own folder.
  const uploads = path.join(outDir, 'uploads', dialect);
  rmSync(uploads, { recursive: true, force: true });
  mkdirSync(uploads, { recursive: true });
  for (const file of readdirSync(path.join(appDir, 'public', 'uploads')).sort()) cpSync(path.join(appDir, 'public', 'uploads', file), path.join(uploads, file));
  const secretsFile = path.join(outDir, 'secrets.json');
  const previous = existsSync(secretsFile) ? JSON.parse(readFileSync(secretsFile, 'utf8')) : {};
  const merged = {
    strapiVersion,
    timeZone: recordTimeZone,
    env: secrets,
    admin: adminUser,
    dialects: { ...previous.dialects, [dialect]: perDialect },
  };
  writeFileSync(secretsFile, `${JSON.stringify(merged, null, 2)}\n`);
  writeStrapiProject(outDir, `strapi-data-${set}`, sets[set]!, false);
}

async function main(): Promise<void> {
  const [set, dialect] = process.argv.slice(2) as [string, Dialect];
  if (!sets[set] || !['sqlite', 'postgres', 'mariadb'].includes(dialect)) {
    console.error(`usage: record.ts <${Object.keys(sets).join('|')}> <sqlite|postgres|mariadb>`);
    process.exit(2);
  }
  const spec = sets[set];
  const appDir = path.join(strapiRef, 'rec', `${set}-${dialect}`);
  rmSync(appDir, { recursive: true, force: true });
  writeStrapiProject(appDir, `strapi-data-${set}`, spec, true);
  const env = await freshDatabase(set, dialect);
  const tokensFile = path.join(appDir, 'tokens.json');
  const port = await freePort();
  console.log(`recording ${set} on ${dialect}: Strapi in ${appDir}, port ${port}, TZ=${recordTimeZone}`);
  const child = await startStrapi(appDir, { ...env, RECORD_TOKENS_FILE: tokensFile, TZ: recordTimeZone }, port);
  let dump: string;
  let answers: unknown;
  let perDialect: unknown;
  try {
    const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as { id: number; name: string; type: string; accessKey: string; expiresAt: string | null }[];
    const fullToken = tokens.find((t) => t.type === 'full-access')!;
    const full: Auth = { kind: 'token', name: 'full-access', key: fullToken.accessKey };
    const client = new StrapiClient(`http://127.0.0.1:${port}`);
    const { users } = await spec.fill(client, full);
    const alice = users[0]!;
    const user: Auth = { kind: 'user', name: alice.username, jwt: alice.jwt };
    const models = readModels(spec.dir);
    await recordEntries(client, models, full);
    await recordMediaAndUsers(client, full, user);
    await spec.extra(client, full, user);
    // How the other tokens answer: read-only reads everything, custom only what it was given.
    for (const token of tokens.filter((t) => t.type !== 'full-access' && !t.expiresAt)) {
      const auth: Auth = { kind: 'token', name: token.type, key: token.accessKey };
      for (const type of models.types.filter((t) => t.kind === 'collectionType')) {
        await client.record(`token.${token.type}.${type.pluralName}`, 'GET', `/api/${type.pluralName}?sort=id:asc`, auth);
      }
    }
    answers = { strapiVersion, dialect, timeZone: recordTimeZone, set, recordedAt: new Date().toISOString(), requests: client.answers };
    perDialect = {
      apiTokens: tokens,
      users: users.map(({ username, email, password, id, role, blocked, confirmed }: RecordedUser) => ({ username, email, password, id, role, blocked, confirmed })),
      userJwt: { username: alice.username, id: alice.id, jwt: alice.jwt },
      database: dialect === 'sqlite' ? '.tmp/data.db' : databaseName(set, dialect),
    };
  } finally {
    await stopStrapi(child);
  }
  if (dialect === 'sqlite') dump = dumpSqlite(path.join(appDir, '.tmp', 'data.db'));
  else if (dialect === 'postgres') dump = dumpPostgres(databaseName(set, dialect));
  else dump = dumpMariadb(databaseName(set, dialect));
  const outDir = path.join(repo, 'fixtures', 'strapi-data', set);
  writeOutputs(outDir, dialect, set, appDir, dump, answers, perDialect);
  console.log(`wrote ${outDir} (${dialect}: ${(dump.length / 1024).toFixed(1)} KB dump, ${(answers as { requests: unknown[] }).requests.length} answers)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
