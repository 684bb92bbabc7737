/**
 * Import round trip on one real Strapi v4 project's models (issue 26), run by hand:
 *
 *   npx tsx test/real-projects/import-roundtrip.ts <project-root> [--name N] [--strapi /tmp/strapi-rt]
 *       [--work /tmp/rt-work] [--keep] [--save <set>]
 *
 * 1. Strapi 4.26.2, installed once in --strapi (see the environment notes: @strapi/strapi,
 *    users-permissions, i18n, graphql, better-sqlite3), gets the project's models in its src/:
 *    every src/api/<api>/content-types/<type>/schema.json, src/components and the
 *    users-permissions user extension, each type with a core router/controller/service; custom
 *    fields stored as the type their plugin registers (contentgen's table, else json: the plugins
 *    are not installed); relations to types that are not there (admin::user, plugins' types) and
 *    components that are missing are left out. The recorder's bootstrap (test/import/recorder/app.ts)
 *    writes permissions (public: find/findOne of every type and the media library), locales (en,
 *    fr and de when a type is localized), API tokens, webhooks, upload folders and an admin user.
 *    SQLite, a new database each run; the project's own code (controllers, lifecycles, plugins) is
 *    not run.
 * 2. The generic seeder (generic-seed.ts) writes data through Strapi's REST API.
 * 3. Strapi's answers are recorded (answers.ts of the recorder: every list with deep populate,
 *    public and preview, every findOne, single types, /api/upload/files, users/me and users;
 *    and GraphQL, recordGenericGraphql: each collection's list and each single type with every
 *    scalar, relations one level deep, media, components and dynamic zones, built from the
 *    models). The GraphQL plugin is on for every project; where Strapi refuses to start with it
 *    (its schema build refuses some models), it starts again without it and `graphql` says why.
 * 4. That same project folder is built with `contentgen build`, `contentgen import` reads Strapi's
 *    SQLite database and uploads, the server starts outside the repository (its node_modules a
 *    link to the repository's) with Strapi's JWT_SECRET and API_TOKEN_SALT, and every recorded
 *    request is asked again with the same credentials (Strapi's own API token and user JWT;
 *    GraphQL with no cost limit, as Strapi has none).
 *    Answers are compared after test/import/compare.ts's normalisations only (documented
 *    there); the differences are written to <work>/<name>/diff.json.
 *
 * --save <set> also writes what Strapi wrote as a data set of fixtures/strapi-data/<set>/ in the
 * recorder's format (SQLite only: sqlite.sql, answers.sqlite.json, uploads/sqlite, secrets.json,
 * the project's package.json, config/ and src/), which test/import/import.test.ts imports and
 * compares like the recorded sets: for the small own-made shapes of fixtures/import-shapes/.
 *
 * The one-line JSON result printed last is also appended to <work>/results.jsonl.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { builtInCustomFields } from '../../generator/ir/custom-fields.js';
import { comparable, comparableBody, isLiveRead, wholeGroupsAsStrapiSaw, withoutLeakedDrafts, withStrapiFailures } from '../import/compare.js';
import { recordEntries, recordGenericGraphql, recordMediaAndUsers } from '../import/recorder/answers.js';
import { adminUser, bootstrapJs, configFiles, coreFile, modelSchema, packageJson, secrets, strapiVersion } from '../import/recorder/app.js';
import { dumpSqlite } from '../import/recorder/dump.js';
import { StrapiClient, type Auth } from '../import/recorder/client.js';
import { answersJson, freePort, startStrapi, stopStrapi } from '../import/recorder/process.js';
import { GenericSeeder, type Models, type SeedResult } from './generic-seed.js';

type Json = Record<string, any>;
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'bin/contentgen.js');

const args = process.argv.slice(2);
const opt = (name: string) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const projectArg = args.find((a, i) => !a.startsWith('--') && !(i > 0 && ['--name', '--work', '--strapi', '--save'].includes(args[i - 1]!)));
if (!projectArg) {
  console.error('usage: npx tsx test/real-projects/import-roundtrip.ts <project-root> [--name N] [--strapi DIR] [--work DIR] [--keep]');
  process.exit(2);
}
const project = path.resolve(projectArg);
const name = opt('--name') ?? path.basename(project);
const strapiDir = path.resolve(opt('--strapi') ?? '/tmp/strapi-rt');
const work = path.resolve(opt('--work') ?? '/tmp/rt-work');
const dir = path.join(work, name);
const locales = ['en', 'fr', 'de'];

const result: Json = { name };
const origin = path.join(project, '.origin');
if (existsSync(origin)) {
  const [repo, commit, folder] = readFileSync(origin, 'utf8').trim().split(/\s+/);
  Object.assign(result, { repo, commit: commit?.slice(0, 10), folder });
}
function finish(): never {
  const line = JSON.stringify(result);
  console.log(line);
  mkdirSync(work, { recursive: true });
  appendFileSync(path.join(work, 'results.jsonl'), `${line}\n`);
  process.exit(0);
}
const firstLines = (s: string, n = 6) => s.split('\n').filter((l) => l.trim() && !/^\s*at /.test(l)).slice(-n).join(' | ').slice(0, 1200);
const readJson = (f: string): Json => JSON.parse(readFileSync(f, 'utf8'));
const dirs = (d: string) => { try { return readdirSync(d).filter((e) => statSync(path.join(d, e)).isDirectory()).sort(); } catch { return []; } };

// ---------- the project's models, adapted for a Strapi without its plugins ----------
interface TypeFile { api: string; ct: string; schema: Json }
const typeFiles: TypeFile[] = [];
for (const api of dirs(path.join(project, 'src/api'))) {
  for (const ct of dirs(path.join(project, 'src/api', api, 'content-types'))) {
    const file = path.join(project, 'src/api', api, 'content-types', ct, 'schema.json');
    if (existsSync(file)) typeFiles.push({ api, ct, schema: readJson(file) });
  }
}
const componentFiles = new Map<string, Json>();
for (const category of dirs(path.join(project, 'src/components'))) {
  for (const file of readdirSync(path.join(project, 'src/components', category)).filter((f) => f.endsWith('.json')).sort()) {
    componentFiles.set(`${category}.${file.slice(0, -5)}`, readJson(path.join(project, 'src/components', category, file)));
  }
}
const userFile = path.join(project, 'src/extensions/users-permissions/content-types/user/schema.json');
const userSchema = existsSync(userFile) ? readJson(userFile) : undefined;
const knownTargets = new Set([...typeFiles.map((t) => `api::${t.api}.${t.ct}`), 'plugin::users-permissions.user', 'plugin::users-permissions.role', 'plugin::upload.file', 'plugin::upload.folder', 'plugin::i18n.locale']);
const adaptations: string[] = [];

function adaptAttributes(owner: string, attributes: Json): Json {
  const out: Json = {};
  for (const [key, a] of Object.entries(attributes ?? {}) as [string, Json][]) {
    if (a.type === 'customField') {
      const stored = builtInCustomFields[a.customField] ?? 'json';
      const { customField: _field, options: _options, ...rest } = a;
      out[key] = { ...rest, type: stored };
      adaptations.push(`${owner}.${key}: custom field ${a.customField} as ${stored}`);
    } else if ((a.type === 'relation' && a.target && !knownTargets.has(a.target)) || (a.type === 'component' && !componentFiles.has(a.component))) {
      adaptations.push(`${owner}.${key}: left out (${a.target ?? a.component} is not there)`);
    } else if (a.type === 'relation' && a.target === 'plugin::users-permissions.user' && a.inversedBy && !(a.inversedBy in (userSchema?.attributes ?? {}))) {
      // The user extension that declares the inverse is not in the project's files (Strapi refuses to start).
      const { inversedBy: _inverse, ...rest } = a;
      out[key] = rest;
      adaptations.push(`${owner}.${key}: inversedBy ${a.inversedBy} left out (no such user attribute)`);
    } else if (a.type === 'dynamiczone') {
      out[key] = { ...a, components: (a.components ?? []).filter((c: string) => componentFiles.has(c)) };
    } else out[key] = a;
  }
  return out;
}
const adaptedTypes = typeFiles.map((t) => ({ ...t, schema: { ...t.schema, attributes: adaptAttributes(`api::${t.api}.${t.ct}`, t.schema.attributes) } as Json }));
const adaptedComponents = new Map([...componentFiles].map(([uid, c]) => [uid, { ...c, attributes: adaptAttributes(uid, c.attributes) }]));
const adaptedUser = userSchema && { ...userSchema, attributes: adaptAttributes('plugin::users-permissions.user', userSchema.attributes) };

const models: Models = {
  types: adaptedTypes.map(({ api, ct, schema }) => modelSchema(`api::${api}.${ct}`, schema)),
  components: new Map([...adaptedComponents].map(([uid, c]) => [uid, c.attributes])),
  user: adaptedUser?.attributes,
};
const i18n = models.types.some((t) => t.localized);
Object.assign(result, {
  types: models.types.length,
  components: models.components.size,
  i18n,
  adaptations: adaptations.length,
});

/** The Strapi app's src/: models, core files, permissions, locales, the recorder's bootstrap. */
function writeSrc(src: string): void {
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'index.js'), bootstrapJs(['plugin::upload.content-api.find']));
  const publicActions = ['plugin::upload.content-api.find', 'plugin::upload.content-api.findOne'];
  for (const t of models.types) publicActions.push(...(t.kind === 'singleType' ? ['find'] : ['find', 'findOne']).map((a) => `${t.uid}.${a}`));
  writeFileSync(path.join(src, 'permissions.json'), JSON.stringify({ public: publicActions, authenticated: publicActions }, null, 2));
  if (i18n) writeFileSync(path.join(src, 'locales.json'), JSON.stringify({ locales: locales.map((code) => ({ code, name: code })), defaultLocale: 'en' }));
  for (const { api, ct, schema } of adaptedTypes) {
    const base = path.join(src, 'api', api);
    mkdirSync(path.join(base, 'content-types', ct), { recursive: true });
    writeFileSync(path.join(base, 'content-types', ct, 'schema.json'), JSON.stringify(schema, null, 2));
    for (const [folder, kind] of [['routes', 'Router'], ['controllers', 'Controller'], ['services', 'Service']] as const) {
      mkdirSync(path.join(base, folder), { recursive: true });
      writeFileSync(path.join(base, folder, `${ct}.js`), coreFile(kind, `api::${api}.${ct}`));
    }
  }
  for (const [uid, c] of adaptedComponents) {
    const [category, file] = uid.split('.') as [string, string];
    mkdirSync(path.join(src, 'components', category), { recursive: true });
    writeFileSync(path.join(src, 'components', category, `${file}.json`), JSON.stringify(c, null, 2));
  }
  if (adaptedUser) {
    const to = path.join(src, 'extensions/users-permissions/content-types/user');
    mkdirSync(to, { recursive: true });
    writeFileSync(path.join(to, 'schema.json'), JSON.stringify(adaptedUser, null, 2));
  }
}

function run(cmd: string, argv: string[], cwd: string, env: NodeJS.ProcessEnv = process.env, timeout = 600_000) {
  const r = spawnSync(cmd, argv, { cwd, env, encoding: 'utf8', timeout, maxBuffer: 256 * 1024 * 1024 });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}

rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

// ---------- 1–3. Strapi: start, seed, record ----------
for (const [file, text] of Object.entries(configFiles)) {
  mkdirSync(path.dirname(path.join(strapiDir, file)), { recursive: true });
  writeFileSync(path.join(strapiDir, file), text);
}
// GraphQL on for every project (its answers are compared too); Strapi's schema build refuses some
// models (enum values that are no GraphQL names) that a project without the plugin never hands to
// it: then Strapi is started again without the plugin and GraphQL is not compared.
const withoutGraphql = () => writeFileSync(path.join(strapiDir, 'config/plugins.js'), configFiles['config/plugins.js']!.replace("graphql: { config:", 'graphql: { enabled: false, config:'));
writeFileSync(path.join(strapiDir, 'start.js'), `require('@strapi/strapi')({ appDir: __dirname, distDir: __dirname }).start();\n`);
writeSrc(path.join(strapiDir, 'src'));
for (const d of ['.tmp', 'public/uploads', 'dist', '.cache', 'build']) rmSync(path.join(strapiDir, d), { recursive: true, force: true });
mkdirSync(path.join(strapiDir, 'public/uploads'), { recursive: true });
mkdirSync(path.join(strapiDir, '.tmp'), { recursive: true });
const tokensFile = path.join(dir, 'tokens.json');
const strapiPort = await freePort();
let tokens: { type: string; accessKey: string; expiresAt: string | null }[] = [];
let recorded: StrapiClient;
let userAuth: { username: string; jwt: string } | undefined;
let seededUsers: SeedResult['users'] = [];
const strapiTimeZone = 'Europe/Paris';
// A loaded machine starts a big project's Strapi in minutes.
const strapiStartLimit = 600_000;
{
  const t = Date.now();
  let child;
  const strapiEnv = { ...secrets, NODE_ENV: 'production', DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '.tmp/data.db', RECORD_TOKENS_FILE: tokensFile, TZ: strapiTimeZone };
  try {
    child = await startStrapi(strapiDir, 'start.js', strapiEnv, strapiPort, strapiStartLimit);
    result.graphql = true;
  } catch (e) {
    if (!/^Strapi exited/.test((e as Error).message)) {
      result.strapi = `did not start: ${firstLines((e as Error).message, 8)}`;
      finish();
    }
    result.graphql = `Strapi refused it: ${firstLines((e as Error).message, 4)}`;
    withoutGraphql();
    rmSync(path.join(strapiDir, '.tmp'), { recursive: true, force: true });
    mkdirSync(path.join(strapiDir, '.tmp'), { recursive: true });
    try {
      child = await startStrapi(strapiDir, 'start.js', strapiEnv, strapiPort, strapiStartLimit);
    } catch (e2) {
      result.strapi = `did not start: ${firstLines((e2 as Error).message, 8)}`;
      finish();
    }
  }
  result.strapiStartMs = Date.now() - t;
  try {
    tokens = JSON.parse(readFileSync(tokensFile, 'utf8'));
    const full: Auth = { kind: 'token', name: 'full-access', key: tokens.find((k) => k.type === 'full-access')!.accessKey };
    const seeder = new GenericSeeder(new StrapiClient(`http://127.0.0.1:${strapiPort}`), models, full, i18n ? locales : []);
    const seeded = await seeder.seed();
    seededUsers = seeded.users;
    result.seeded = seeded.written;
    result.users = seeded.users.length;
    result.seedNotes = seeded.notes;
    recorded = new StrapiClient(`http://127.0.0.1:${strapiPort}`);
    await recordEntries(recorded, models, full);
    if (result.graphql === true) await recordGenericGraphql(recorded, models, full);
    const alice = seeded.users[0];
    if (alice?.jwt) {
      userAuth = alice;
      await recordMediaAndUsers(recorded, full, { kind: 'user', name: alice.username, jwt: alice.jwt });
    } else await recorded.record('upload.files', 'GET', '/api/upload/files', { kind: 'public' });
    if (i18n) await recorded.record('i18n.locales', 'GET', '/api/i18n/locales', { kind: 'public' });
    writeFileSync(path.join(dir, 'strapi-answers.json'), JSON.stringify(recorded.answers, null, 1));
  } catch (e) {
    result.strapi = `seeding/recording failed: ${firstLines((e as Error).stack ?? String(e), 6)}`;
    await stopStrapi(child);
    finish();
  }
  await stopStrapi(child);
  result.strapi = 'ok';
  const save = opt('--save');
  if (save) saveDataSet(path.join(repoRoot, 'fixtures', 'strapi-data', save), save, seededUsers);
}

/** The data set of --save, as test/helpers/strapi-data.ts restores it. */
function saveDataSet(out: string, set: string, users: SeedResult['users']): void {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(path.join(out, 'uploads', 'sqlite'), { recursive: true });
  writeFileSync(path.join(out, 'sqlite.sql'), dumpSqlite(path.join(strapiDir, '.tmp', 'data.db')));
  writeFileSync(path.join(out, 'answers.sqlite.json'), answersJson({ strapiVersion, dialect: 'sqlite', timeZone: strapiTimeZone, set, recordedAt: new Date().toISOString(), requests: recorded.answers }));
  cpSync(path.join(strapiDir, 'public', 'uploads'), path.join(out, 'uploads', 'sqlite'), { recursive: true });
  const [alice] = users;
  const sqlite = {
    apiTokens: tokens,
    users: users.map(({ username, email, password, id }) => ({ username, email, password, id, role: 'authenticated', blocked: false, confirmed: true })),
    userJwt: alice && { username: alice.username, id: alice.id, jwt: alice.jwt },
    database: '.tmp/data.db',
  };
  writeFileSync(path.join(out, 'secrets.json'), `${JSON.stringify({ strapiVersion, timeZone: strapiTimeZone, env: secrets, admin: adminUser, dialects: { sqlite } }, null, 2)}\n`);
  writeFileSync(path.join(out, 'package.json'), `${JSON.stringify(packageJson(`strapi-data-${set}`), null, 2)}\n`);
  for (const entry of ['config', 'src', '.env.example']) cpSync(path.join(strapiDir, entry), path.join(out, entry), { recursive: true });
}

// ---------- 4. contentgen: build the same project folder, import, serve, compare ----------
const projectCopy = path.join(dir, 'project');
mkdirSync(projectCopy, { recursive: true });
for (const entry of ['package.json', 'config', 'src']) cpSync(path.join(strapiDir, entry), path.join(projectCopy, entry), { recursive: true });
const server = path.join(dir, 'server');
{
  const t = Date.now();
  const r = run(process.execPath, [cli, 'build', projectCopy, '-o', server], repoRoot);
  writeFileSync(path.join(dir, 'build.log'), r.out);
  result.buildMs = Date.now() - t;
  if (r.code !== 0) {
    result.built = `no: ${firstLines(r.out, 6)}`;
    finish();
  }
  result.built = true;
}
symlinkSync(path.join(repoRoot, 'node_modules'), path.join(server, 'node_modules'));
{
  const r = run(process.execPath, ['scripts/prisma-generate.mjs'], server);
  if (r.code !== 0) {
    result.built = `prisma generate failed: ${firstLines(r.out)}`;
    finish();
  }
}
// Strapi answered populates nested deeper than contentgen's default limit (5), as in test/import,
const configTs = path.join(server, 'src', 'config.ts');
// and no GraphQL cost limit (Strapi has none), as compare.ts's startImportedServer.
writeFileSync(configTs, readFileSync(configTs, 'utf8').replace('withCount: true,', 'withCount: true,\n      populate: { maxDepth: 12 },').replace('} satisfies UserConfig;', '  plugins: { graphql: { maxComplexity: 0 } },\n} satisfies UserConfig;'));
const serverEnv = { ...process.env, DATABASE_URL: `file:${path.join(server, 'data', 'app.db')}`, JWT_SECRET: secrets.JWT_SECRET, API_TOKEN_SALT: secrets.API_TOKEN_SALT, NODE_ENV: 'production' };
{
  const t = Date.now();
  const importArgs = [cli, 'import', projectCopy, '-o', server, '--from', path.join(strapiDir, '.tmp', 'data.db'), '--uploads', path.join(strapiDir, 'public', 'uploads')];
  let r = run(process.execPath, importArgs, repoRoot, serverEnv);
  writeFileSync(path.join(dir, 'import.log'), r.out);
  // Rows contentgen's constraints refuse (the import lists them and stops): imported again
  // without them, as the import tells; the answers then differ where those rows were.
  const refused = r.code === 1 ? r.out.split('\n').filter((l) => /^problem:|problem: /.test(l)) : [];
  if (refused.length) {
    result.refused = refused.slice(0, 5).map((l) => l.replace(/^.*?problem: /, '').slice(0, 300));
    r = run(process.execPath, [...importArgs, '--skip-invalid'], repoRoot, serverEnv);
    writeFileSync(path.join(dir, 'import-skip-invalid.log'), r.out);
  }
  result.importMs = Date.now() - t;
  if (r.code !== 0) {
    result.imported = `no: ${firstLines(r.out, 8)}`;
    finish();
  }
  result.imported = refused.length ? 'with --skip-invalid' : true;
}

const { spawn } = await import('node:child_process');
const port = await freePort();
const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { cwd: server, env: { ...serverEnv, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
let log = '';
child.stdout.on('data', (d) => { log += String(d); });
child.stderr.on('data', (d) => { log += String(d); });
const stop = async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
};
{
  let up = false;
  for (let i = 0; i < 120 && child.exitCode === null; i++) {
    try { if ((await fetch(`http://127.0.0.1:${port}/_health`)).status === 204) { up = true; break; } } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (!up) {
    result.started = `no: ${firstLines(log, 8)}`;
    await stop();
    finish();
  }
  result.started = true;
}

const credentials = (auth: string): Record<string, string> => {
  if (auth.startsWith('token:')) return { authorization: `Bearer ${tokens.find((t) => `token:${t.type}` === auth && t.expiresAt === null)!.accessKey}` };
  if (auth.startsWith('user:') && userAuth) return { authorization: `Bearer ${userAuth.jwt}` };
  return {};
};
const differences: Json[] = [];
let compared = 0;
for (const request of recorded!.answers) {
  if (request.method !== 'GET' && !comparable(request)) continue;
  compared++;
  const graphql = request.method === 'POST';
  const response = await fetch(`http://127.0.0.1:${port}${request.path}`, graphql
    ? { method: 'POST', headers: { ...credentials(request.auth), 'content-type': 'application/json' }, body: JSON.stringify(request.body) }
    : { headers: credentials(request.auth) });
  const text = await response.text();
  let body: unknown = text;
  try { body = JSON.parse(text); } catch { /* text */ }
  const byId = (b: unknown) => (Array.isArray(b) && !request.path.includes('sort') ? [...b].sort((x, y) => x.id - y.id) : b);
  const theirs = comparableBody(byId(isLiveRead(request) ? withoutLeakedDrafts(request.answer) : request.answer), 'sqlite');
  const ours = wholeGroupsAsStrapiSaw(comparableBody(byId(graphql ? withStrapiFailures(body, request.answer) : body), 'sqlite'), theirs);
  if (response.status !== request.status || !isDeepStrictEqual(ours, theirs)) differences.push({ name: request.name, path: request.path, status: [request.status, response.status], strapi: theirs, contentgen: ours });
}
await stop();
writeFileSync(path.join(dir, 'diff.json'), JSON.stringify(differences, null, 1));
const graphqlCompared = recorded!.answers.filter((r) => r.method === 'POST' && comparable(r)).length;
const graphqlDifferent = differences.filter((d) => d.name.startsWith('graphql.')).length;
Object.assign(result, { compared, equal: compared - differences.length, graphqlCompared, graphqlEqual: graphqlCompared - graphqlDifferent, different: differences.map((d) => d.name).slice(0, 30) });
if (!args.includes('--keep')) rmSync(path.join(server, 'data'), { recursive: true, force: true });
finish();
