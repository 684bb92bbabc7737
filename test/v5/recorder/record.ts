/**
 * Records Strapi 5.54.0's answers on our own models (run by hand, see fixtures/strapi5-data/README.md):
 *
 *   npx tsx test/v5/recorder/record.ts <blog|blog-v4compat|i18n> [out-dir] [--db postgres|mariadb]
 *
 * Writes the Strapi project under $STRAPI5_REC/<set> (default /tmp/strapi5-rec; node_modules is a
 * link to the install at $STRAPI5_INSTALL, default /tmp/strapi5-blog, made by
 * /work/shared/tools/strapi5-install.sh), starts it on a fresh SQLite database, drives it through
 * the set's script (REST, uploads, users, GraphQL), stops it and writes <out-dir> (default
 * fixtures/strapi5-data/<set>): answers.json, schema.graphql (introspected, printed), sqlite.sql
 * (the database Strapi wrote), uploads/ and the project files (package.json, config/, src/, server.js).
 *
 * `--db postgres|mariadb` runs Strapi on a database of its own instead (PostgreSQL on
 * 127.0.0.1:5432 as postgres, MariaDB on 127.0.0.1:3306 as root; created under a unique name and
 * dropped at the end) and writes <out-dir> (default fixtures/strapi5-data/<set>/<db>):
 * answers.json, <db>.sql (test/import/recorder/dump.ts: pg_dump/mariadb-dump, restorable by the
 * test drivers) and uploads/; the project files are the set's.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { StrapiClient, type Auth } from '../../import/recorder/client.js';
import { randomBytes } from 'node:crypto';
import mariadb from 'mariadb';
import pg from 'pg';
import { dumpMariadb, dumpPostgres, dumpSqlite } from '../../import/recorder/dump.js';
import { answersJson, freePort, startStrapi, stopStrapi } from '../../import/recorder/process.js';
import { secrets, strapiVersion, writeStrapi5Project, type V5Set } from './app.js';
import { recordBlog } from './blog.js';
import { recordV4Compat } from './graphql-v4compat.js';
import { recordI18n } from './i18n.js';
import { extraPermissions } from './permissions.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const recDir = process.env.STRAPI5_REC || '/tmp/strapi5-rec';
const install = process.env.STRAPI5_INSTALL || '/tmp/strapi5-blog';

const sets: Record<string, V5Set & { script: (client: StrapiClient, full: Auth) => Promise<void>; env?: Record<string, string> }> = {
  blog: {
    dir: path.join(repo, 'fixtures/blog/models'),
    extraPermissions: extraPermissions.blog,
    script: recordBlog,
  },
  'blog-v4compat': {
    dir: path.join(repo, 'fixtures/blog/models'),
    extraPermissions: extraPermissions['blog-v4compat'],
    env: { STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE: 'true' },
    script: recordV4Compat,
  },
  i18n: {
    dir: path.join(repo, 'fixtures/i18n/models'),
    extraPermissions: extraPermissions.i18n,
    script: recordI18n,
  },
};

async function recordSchema(client: StrapiClient, full: Auth): Promise<string> {
  const { status, json } = await client.request('POST', '/graphql', full, { query: getIntrospectionQuery() });
  if (status !== 200 || !json?.data) throw new Error(`introspection → ${status}: ${JSON.stringify(json).slice(0, 500)}`);
  return `${printSchema(buildClientSchema(json.data))}\n`;
}

type Dialect = 'sqlite' | 'postgres' | 'mariadb';

/** A new database for Strapi on `dialect` (its config/database.js variables) and how to dump and drop it. */
async function ownDatabase(set: string, dialect: Exclude<Dialect, 'sqlite'>): Promise<{ env: Record<string, string>; dump(): string; drop(): Promise<void> }> {
  const name = `strapi5_rec_${set.replace(/-/g, '_')}_${randomBytes(3).toString('hex')}`;
  if (dialect === 'postgres') {
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    await admin(`CREATE DATABASE ${name}`);
    return { env: { DATABASE_CLIENT: 'postgres', DATABASE_NAME: name, DATABASE_USERNAME: 'postgres' }, dump: () => dumpPostgres(name), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
  }
  const admin = async (sql: string) => {
    const conn = await mariadb.createConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
    try {
      await conn.query(sql);
    } finally {
      await conn.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return { env: { DATABASE_CLIENT: 'mysql', DATABASE_NAME: name, DATABASE_USERNAME: 'root' }, dump: () => dumpMariadb(name), drop: () => admin(`DROP DATABASE IF EXISTS ${name}`) };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dbAt = args.indexOf('--db');
  const dialect = (dbAt >= 0 ? args.splice(dbAt, 2)[1] : 'sqlite') as Dialect;
  const [set, out] = args;
  const spec = set ? sets[set] : undefined;
  if (!set || !spec || !['sqlite', 'postgres', 'mariadb'].includes(dialect)) {
    console.error(`usage: record.ts <${Object.keys(sets).join('|')}> [out-dir] [--db postgres|mariadb]`);
    process.exit(2);
  }
  const appDir = path.join(recDir, set);
  rmSync(appDir, { recursive: true, force: true });
  writeStrapi5Project(appDir, `strapi5-data-${set}`, spec, install);
  const tokensFile = path.join(appDir, 'tokens.json');
  const port = await freePort();
  const database = dialect === 'sqlite' ? undefined : await ownDatabase(set, dialect);
  console.log(`recording ${set}: Strapi ${strapiVersion} in ${appDir} on ${dialect}${database ? ` (${database.env.DATABASE_NAME})` : ''}, port ${port}`);
  const client = new StrapiClient(`http://127.0.0.1:${port}`);
  let schema: string;
  let dump: string;
  try {
    const child = await startStrapi(appDir, 'server.js', { ...secrets, ...spec.env, ...database?.env, NODE_ENV: 'production', TZ: 'UTC', RECORD_TOKENS_FILE: tokensFile }, port);
    try {
      // Strapi 5 may answer /_health before bootstrap() has written the token.
      for (let i = 0; i < 120 && !existsSync(tokensFile); i++) await new Promise((r) => setTimeout(r, 500));
      const [token] = JSON.parse(readFileSync(tokensFile, 'utf8')) as { accessKey: string }[];
      const full: Auth = { kind: 'token', name: 'full-access', key: token!.accessKey };
      await spec.script(client, full);
      schema = await recordSchema(client, full);
    } finally {
      await stopStrapi(child);
    }
    dump = database ? database.dump() : dumpSqlite(path.join(appDir, '.tmp', 'data.db'));
  } finally {
    await database?.drop();
  }
  const outDir = out ? path.resolve(out) : path.join(repo, 'fixtures', 'strapi5-data', set, ...(database ? [dialect] : []));
  mkdirSync(outDir, { recursive: true });
  const answers = { strapiVersion, set, ...(database ? { dialect } : {}), recordedAt: new Date().toISOString(), requests: client.answers };
  writeFileSync(path.join(outDir, 'answers.json'), answersJson(answers));
  writeFileSync(path.join(outDir, `${dialect}.sql`), dump);
  if (database) {
    // The schema and the project are the set's (recorded on SQLite); the files are this recording's.
    const uploads = path.join(outDir, 'uploads');
    rmSync(uploads, { recursive: true, force: true });
    cpSync(path.join(appDir, 'public', 'uploads'), uploads, { recursive: true });
    console.log(`wrote ${outDir}: ${client.answers.length} answers`);
    return;
  }
  writeFileSync(path.join(outDir, 'schema.graphql'), schema);
  // The files Strapi wrote (their names carry per-run hashes) and the project itself, so a
  // Strapi 5 project folder and its database can be built and imported together (issue #30 item 5).
  const uploads = path.join(outDir, 'uploads');
  rmSync(uploads, { recursive: true, force: true });
  cpSync(path.join(appDir, 'public', 'uploads'), uploads, { recursive: true });
  writeStrapi5Project(outDir, `strapi5-data-${set}`, spec);
  console.log(`wrote ${outDir}: ${client.answers.length} answers`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
