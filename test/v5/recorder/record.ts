/**
 * Records Strapi 5.54.0's answers on our own models (run by hand, see fixtures/strapi5-data/README.md):
 *
 *   npx tsx test/v5/recorder/record.ts <blog|blog-v4compat|i18n> [out-dir]
 *
 * Writes the Strapi project under $STRAPI5_REC/<set> (default /tmp/strapi5-rec; node_modules is a
 * link to the install at $STRAPI5_INSTALL, default /tmp/strapi5-blog, made by
 * /work/shared/tools/strapi5-install.sh), starts it on a fresh SQLite database, drives it through
 * the set's script (REST, uploads, users, GraphQL), stops it and writes <out-dir> (default
 * fixtures/strapi5-data/<set>): answers.json, schema.graphql (introspected, printed), sqlite.sql
 * (the database Strapi wrote), uploads/ and the project files (package.json, config/, src/, server.js).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildClientSchema, getIntrospectionQuery, printSchema } from 'graphql';
import { StrapiClient, type Auth } from '../../import/recorder/client.js';
import { dumpSqlite } from '../../import/recorder/dump.js';
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

async function main(): Promise<void> {
  const [set, out] = process.argv.slice(2);
  const spec = set ? sets[set] : undefined;
  if (!set || !spec) {
    console.error(`usage: record.ts <${Object.keys(sets).join('|')}> [out-dir]`);
    process.exit(2);
  }
  const appDir = path.join(recDir, set);
  rmSync(appDir, { recursive: true, force: true });
  writeStrapi5Project(appDir, `strapi5-data-${set}`, spec, install);
  const tokensFile = path.join(appDir, 'tokens.json');
  const port = await freePort();
  console.log(`recording ${set}: Strapi ${strapiVersion} in ${appDir}, port ${port}`);
  const child = await startStrapi(appDir, 'server.js', { ...secrets, ...spec.env, NODE_ENV: 'production', TZ: 'UTC', RECORD_TOKENS_FILE: tokensFile }, port);
  const client = new StrapiClient(`http://127.0.0.1:${port}`);
  let schema: string;
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
  const outDir = out ? path.resolve(out) : path.join(repo, 'fixtures', 'strapi5-data', set);
  mkdirSync(outDir, { recursive: true });
  const answers = { strapiVersion, set, recordedAt: new Date().toISOString(), requests: client.answers };
  writeFileSync(path.join(outDir, 'answers.json'), answersJson(answers));
  writeFileSync(path.join(outDir, 'schema.graphql'), schema);
  writeFileSync(path.join(outDir, 'sqlite.sql'), dumpSqlite(path.join(appDir, '.tmp', 'data.db')));
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
