/**
 * Tries one real Strapi v4 project folder end to end (issue 25): build it with contentgen, install
 * the emitted server outside the repository, start it, and talk to it like a generic client.
 *
 *   npx tsx test/real-projects/try-project.ts <project-root> [--name N] [--work /tmp/cg-try]
 *       [--modules-from DIR] [--build-only] [--keep]
 *       [--skip-plain] [--link-modules] [--v5 [--v5-prefix /v5/api]]
 *
 * Steps, each recorded in the one-line JSON result printed last (also appended to
 * <work>/results.jsonl):
 *   build    `contentgen build <project-root> -o <work>/<name>/plain` (the project as it is).
 *   server   a copy of the project with `src/permissions.json` added (the authenticated role gets
 *            every action of every content type, as contentgen's permissions.json allows), built into
 *            <work>/<name>/server.
 *   install  `npm install` there (only the emitted package.json; with --modules-from DIR, DIR's
 *            node_modules is hard-linked in first when DIR/package.json has the same dependencies, so
 *            npm only checks it and runs the server's postinstall; --link-modules runs only that
 *            postinstall, to save time when many projects are tried).
 *   (--skip-plain leaves out the first build, when a --build-only run already recorded it.)
 *   start    `npm start` with PORT/HOST/JWT_SECRET/API_TOKEN_SALT; waits for `GET /_health` 204.
 *   client   register a user (required custom user attributes filled in), then for each
 *            collection type: create one entry from its schema (required fields plus optional
 *            scalars, enums, unique values, min/max), list and read it with populate=*, filter
 *            `filters[id][$eq]=`; single types: PUT then GET with populate=*; one GraphQL query
 *            when the project installs @strapi/plugin-graphql. A 5xx anywhere is a failure; 4xx
 *            answers are recorded separately (they can be this client's minimal values).
 *   v5       (--v5) the same on the v5 mount (`v5.rest.prefix` of the emitted src/config.ts,
 *            /v5/api by default) with Strapi's own SDK, @strapi/client, and the v4 login's JWT:
 *            per collection type create, list and findOne with populate=*, filter by documentId,
 *            delete by documentId; per single type PUT then GET; one `{ <plural> { documentId } }`
 *            query on the v5 GraphQL path (/v5/graphql) when the project installs the plugin.
 * This is a survey tool, not part of the test suite.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { appendFileSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { strapi as strapiClient } from '@strapi/client';

type Json = Record<string, unknown>;
interface Attr { type?: string; required?: boolean; unique?: boolean; enum?: string[]; min?: number; max?: number; minLength?: number; maxLength?: number; regex?: string; component?: string; repeatable?: boolean; components?: string[]; relation?: string; target?: string; customField?: string; private?: boolean; multiple?: boolean; allowedTypes?: string[]; targetField?: string; default?: unknown }
interface Schema { kind?: string; info?: { singularName?: string; pluralName?: string }; attributes?: Record<string, Attr>; pluginOptions?: Json; options?: Json }
interface ContentType { uid: string; file: string; schema: Schema }

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cli = path.join(repoRoot, 'bin/contentgen.js');

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const flag = (name: string): boolean => args.includes(name);
const projectArg = args.find((a, i) => !a.startsWith('--') && !(i > 0 && ['--name', '--work', '--modules-from'].includes(args[i - 1]!)));
if (!projectArg) {
  console.error('usage: npx tsx test/real-projects/try-project.ts <project-root> [--name N] [--work DIR] [--modules-from DIR] [--build-only] [--keep]');
  process.exit(2);
}
const project = path.resolve(projectArg);
const name = opt('--name') ?? path.basename(project);
const work = path.resolve(opt('--work') ?? '/tmp/cg-try');
const dir = path.join(work, name);
const modulesFrom = opt('--modules-from');

const result: Json = { name, project };
const failures: string[] = [];
const clientErrors: string[] = [];
const clientWarnings: string[] = [];
const firstLines = (s: string, n = 6) => s.split('\n').filter((l) => l.trim() && !/^\s*at /.test(l)).slice(0, n).join(' | ').slice(0, 1500);

// ---------- the project ----------
const readJson = (f: string): Json => JSON.parse(readFileSync(f, 'utf8')) as Json;
const pkg = readJson(path.join(project, 'package.json'));
const deps = { ...(pkg.devDependencies as Json | undefined), ...(pkg.dependencies as Json | undefined) } as Record<string, string>;
result.strapi = deps['@strapi/strapi'];
result.plugins = Object.keys(deps).filter((d) => /strapi/.test(d) && d !== '@strapi/strapi' && !/^@strapi\/(plugin-users-permissions|plugin-cloud)$/.test(d)).sort();
const origin = path.join(project, '.origin');
if (existsSync(origin)) { const [repo, commit, sub] = readFileSync(origin, 'utf8').trim().split(/\s+/); Object.assign(result, { repo, commit: commit?.slice(0, 10), sub: sub || undefined }); }
const hasGraphql = '@strapi/plugin-graphql' in deps;

function listDirs(d: string): string[] { try { return readdirSync(d).filter((e) => statSync(path.join(d, e)).isDirectory()); } catch { return []; } }
const contentTypes: ContentType[] = [];
for (const api of listDirs(path.join(project, 'src/api'))) {
  for (const ct of listDirs(path.join(project, 'src/api', api, 'content-types'))) {
    const file = path.join(project, 'src/api', api, 'content-types', ct, 'schema.json');
    if (!existsSync(file)) continue;
    try { contentTypes.push({ uid: `api::${api}.${ct}`, file, schema: readJson(file) as Schema }); } catch (e) { failures.push(`schema ${file}: ${(e as Error).message}`); }
  }
}
const components = new Map<string, Schema>();
for (const cat of listDirs(path.join(project, 'src/components'))) {
  for (const f of readdirSync(path.join(project, 'src/components', cat))) {
    if (!f.endsWith('.json')) continue;
    try { components.set(`${cat}.${f.slice(0, -5)}`, readJson(path.join(project, 'src/components', cat, f)) as Schema); } catch { /* reported by the build */ }
  }
}
const userSchemaFile = path.join(project, 'src/extensions/users-permissions/content-types/user/schema.json');
const userSchema = existsSync(userSchemaFile) ? (readJson(userSchemaFile) as Schema) : undefined;
result.types = contentTypes.length;
result.components = components.size;

// ---------- helpers ----------
function run(cmd: string, argv: string[], cwd: string, timeoutMs: number, env?: NodeJS.ProcessEnv) {
  const r = spawnSync(cmd, argv, { cwd, env: env ?? process.env, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status ?? (r.signal ? `signal ${r.signal}` : 'error'), out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` };
}
function finish(): never {
  result.failures = failures;
  result.clientErrors = clientErrors.slice(0, 20);
  result.clientWarnings = clientWarnings.slice(0, 20);
  result.first = failures[0] ?? clientErrors[0] ?? clientWarnings[0];
  const line = JSON.stringify(result);
  console.log(line);
  try { mkdirSync(work, { recursive: true }); appendFileSync(path.join(work, 'results.jsonl'), `${line}\n`); } catch { /* printed anyway */ }
  process.exit(0);
}
const freePort = () => new Promise<number>((resolve, reject) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => { const a = s.address(); s.close(() => (typeof a === 'object' && a ? resolve(a.port) : reject(new Error('no port')))); });
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------- 1. build the project as it is ----------
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
if (flag('--skip-plain')) result.built = 'with permissions.json only';
else {
  const t = Date.now();
  const r = run(process.execPath, [cli, 'build', project, '-o', path.join(dir, 'plain')], repoRoot, 300_000);
  writeFileSync(path.join(dir, 'build.log'), r.out);
  result.buildMs = Date.now() - t;
  result.built = r.code === 0;
  result.buildWarnings = (r.out.match(/contentgen: warning:/g) ?? []).length;
  if (r.code !== 0) { failures.push(`build: ${firstLines(r.out, 8)}`); result.started = false; result.client = 'n/a'; finish(); }
}
if (flag('--build-only')) finish();

// ---------- 2. the server build: the project plus permissions.json ----------
const collections = contentTypes.filter((c) => c.schema.kind !== 'singleType');
const singles = contentTypes.filter((c) => c.schema.kind === 'singleType');
{
  const copy = path.join(dir, 'project');
  cpSync(project, copy, { recursive: true, filter: (s) => !s.includes(`${path.sep}node_modules`) });
  const actions: string[] = [];
  for (const c of contentTypes) for (const a of c.schema.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete']) actions.push(`${c.uid}.${a}`);
  actions.push('plugin::upload.content-api.upload', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne');
  writeFileSync(path.join(copy, 'src/permissions.json'), JSON.stringify({ authenticated: actions }, null, 2));
  const r = run(process.execPath, [cli, 'build', copy, '-o', path.join(dir, 'server')], repoRoot, 300_000);
  writeFileSync(path.join(dir, 'server-build.log'), r.out);
  if (r.code !== 0) { failures.push(`build with permissions.json: ${firstLines(r.out, 8)}`); result.started = false; result.client = 'n/a'; finish(); }
}
const server = path.join(dir, 'server');

// ---------- 3. install ----------
{
  const t = Date.now();
  if (modulesFrom && existsSync(path.join(modulesFrom, 'node_modules'))) {
    const a = readJson(path.join(modulesFrom, 'package.json'));
    const b = readJson(path.join(server, 'package.json'));
    if (JSON.stringify([a.dependencies, a.devDependencies]) === JSON.stringify([b.dependencies, b.devDependencies])) {
      run('cp', ['-al', path.join(modulesFrom, 'node_modules'), path.join(server, 'node_modules')], server, 120_000);
      result.modulesReused = true;
    }
  }
  // --link-modules: with the hard-linked node_modules in place, only the server's own postinstall runs.
  const r = result.modulesReused && flag('--link-modules')
    ? run('npm', ['run', 'postinstall'], server, 600_000)
    : run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], server, 1_200_000);
  if (result.modulesReused && flag('--link-modules')) result.modulesReused = 'linked, postinstall only';
  writeFileSync(path.join(dir, 'install.log'), r.out);
  result.installMs = Date.now() - t;
  result.installed = r.code === 0;
  if (r.code !== 0) { failures.push(`npm install: ${firstLines(r.out.split('\n').filter((l) => /ERR|error/i.test(l)).join('\n') || r.out, 8)}`); result.started = false; result.client = 'n/a'; finish(); }
}

// ---------- 4. start ----------
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const logFile = path.join(dir, 'server.log');
const log = openSync(logFile, 'w');
const child = spawn('npm', ['start'], {
  cwd: server,
  detached: true,
  stdio: ['ignore', log, log],
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', JWT_SECRET: 'survey-jwt-secret-0123456789', API_TOKEN_SALT: 'survey-salt-0123456789', NODE_ENV: 'development' },
});
let exited: number | string | null = null;
child.on('exit', (code, signal) => { exited = code ?? signal ?? 'exit'; });
async function stop() {
  if (exited !== null || child.pid === undefined) return;
  try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
  for (let i = 0; i < 50 && exited === null; i++) await sleep(200);
  if (exited === null) try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { void stop().then(() => process.exit(130)); });
{
  const t = Date.now();
  let up = false;
  while (Date.now() - t < 300_000 && exited === null) {
    try { const r = await fetch(`${base}/_health`, { signal: AbortSignal.timeout(3000) }); if (r.status === 204) { up = true; break; } } catch { /* not yet */ }
    await sleep(1000);
  }
  result.startMs = Date.now() - t;
  result.started = up;
  if (!up) {
    failures.push(`start${exited !== null ? ` (exited ${exited})` : ' (no 204 from /_health in 300 s)'}: ${firstLines(readFileSync(logFile, 'utf8').split('\n').filter((l) => !/^> /.test(l)).join('\n'), 10)}`);
    result.client = 'n/a';
    await stop();
    finish();
  }
}

// ---------- 5. the generic client ----------
let counter = 0;
let jwt = '';
let uploadedId: number | undefined;
let uploadedTextId: number | undefined;
const stats = { requests: 0, s5xx: 0, s4xx: 0 };
async function call(method: string, url: string, body?: unknown, what = `${method} ${url}`): Promise<{ status: number; json: any }> {
  stats.requests++;
  let status = 0;
  let text = '';
  try {
    const r = await fetch(`${base}${url}`, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    status = r.status;
    text = await r.text();
  } catch (e) {
    clientErrors.push(`${what}: no answer (${(e as Error).message})${exited !== null ? `; server exited: ${firstLines(readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n'), 4)}` : ''}`);
    return { status: 0, json: undefined };
  }
  let json: any;
  try { json = JSON.parse(text); } catch { json = text; }
  const msg = typeof json === 'object' && json ? JSON.stringify(json.error ?? json.errors ?? json).slice(0, 400) : String(text).slice(0, 300);
  if (status >= 500) { stats.s5xx++; clientErrors.push(`${what}: ${status} ${msg}`); }
  else if (status >= 400) { stats.s4xx++; clientWarnings.push(`${what}: ${status} ${msg}`); }
  return { status, json };
}

function str(a: Attr, unique: boolean): string {
  if (a.regex) {
    const n = ++counter;
    const candidates = [`value${n}`, `${1000000000 + n}`, `+1${2000000000 + n}`, `0${600000000 + n}`, `v${n}@example.com`, `https://example.com/${n}`, `#${(0x100000 + n).toString(16).slice(-6)}`, `V${n}`, `v-${n}`];
    try { const re = new RegExp(a.regex); const hit = candidates.find((c) => re.test(c)); if (hit) return hit; } catch { /* Strapi would refuse it too */ }
  }
  let s = unique ? `v${++counter}x${Date.now() % 100000}` : 'value';
  if (a.minLength && s.length < a.minLength) s = s.padEnd(a.minLength, 'x');
  if (a.maxLength && s.length > a.maxLength) s = s.slice(0, a.maxLength);
  return s;
}
function num(a: Attr, integer: boolean): number {
  let v = a.min ?? (a.max !== undefined ? Math.min(1, a.max) : 1);
  if (integer) v = Math.ceil(v);
  return v;
}
/** A value for one attribute, or undefined to leave it out. */
function valueOf(a: Attr, depth: number, all: boolean): unknown {
  const unique = !!a.unique;
  switch (a.type) {
    case 'string': case 'text': case 'richtext':
      if (a.regex && !a.required) return undefined;
      return str(a, unique || a.type === 'string');
    case 'email': return `u${++counter}x${Date.now() % 100000}@example.com`;
    case 'uid': return `uid-${++counter}-${Date.now() % 100000}`;
    case 'password': return 'Passw0rd!x';
    case 'integer': return num(a, true);
    case 'biginteger': return String(num(a, true));
    case 'float': case 'decimal': return num(a, false);
    case 'boolean': return true;
    case 'date': return '2024-01-02';
    case 'time': return '12:30:00.000';
    case 'datetime': case 'timestamp': return '2024-01-02T12:30:00.000Z';
    case 'json': return { survey: true };
    case 'blocks': return [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }];
    case 'enumeration': return a.enum?.[0];
    case 'media': {
      const file = a.allowedTypes?.length && !a.allowedTypes.includes('images') && a.allowedTypes.includes('files') ? uploadedTextId : uploadedId;
      return a.required && file !== undefined ? (a.multiple ? [file] : file) : undefined;
    }
    case 'relation': return undefined;
    case 'component': {
      if (!a.required && !(a.min && a.min > 0) && !(all && depth === 0)) return undefined;
      if (depth > 4) return undefined;
      const one = entryOf(components.get(a.component ?? ''), depth + 1, false);
      return a.repeatable ? Array.from({ length: Math.max(1, a.min ?? 1) }, () => entryOf(components.get(a.component ?? ''), depth + 1, false)) : one;
    }
    case 'dynamiczone': {
      if (!a.required && !(a.min && a.min > 0) && !(all && depth === 0)) return undefined;
      const c = a.components?.[0];
      if (!c) return undefined;
      return Array.from({ length: Math.max(1, a.min ?? 1) }, () => ({ __component: c, ...entryOf(components.get(c), depth + 1, false) }));
    }
    case 'customField': return a.required ? 'value' : undefined;
    default: return a.required ? 'value' : undefined;
  }
}
function entryOf(s: Schema | undefined, depth: number, all: boolean): Json {
  const out: Json = {};
  for (const [k, a] of Object.entries(s?.attributes ?? {})) {
    const scalar = !['relation', 'media', 'component', 'dynamiczone', 'customField'].includes(a.type ?? '');
    if (!a.required && !(a.type === 'component' || a.type === 'dynamiczone') && !(all && scalar)) continue;
    if (a.type === 'password' && !a.required) continue;
    const v = valueOf(a, depth, all);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
const needsMedia = (s: Schema | undefined, seen = new Set<string>()): boolean => Object.values(s?.attributes ?? {}).some((a) =>
  (a.type === 'media' && a.required) ||
  (a.type === 'component' && a.required && a.component && !seen.has(a.component) && (seen.add(a.component), needsMedia(components.get(a.component), seen))));

try {
  // register
  const userExtra = entryOf(userSchema, 1, false);
  for (const k of ['username', 'email', 'password', 'provider', 'resetPasswordToken', 'confirmationToken', 'confirmed', 'blocked', 'role']) delete userExtra[k];
  const reg = await call('POST', '/api/auth/local/register', { username: `survey${Date.now() % 100000}`, email: `survey${Date.now() % 100000}@example.com`, password: 'Passw0rd!x', ...userExtra }, 'register');
  result.registered = reg.status === 200 && typeof reg.json?.jwt === 'string';
  if (result.registered) jwt = reg.json.jwt as string;

  // a file for required media
  if ([...contentTypes.map((c) => c.schema)].some((s) => needsMedia(s))) {
    try {
    for (const [blob, fileName] of [[new Blob([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')], { type: 'image/png' }), 'survey.png'], [new Blob(['survey'], { type: 'application/pdf' }), 'survey.pdf']] as const) {
      const form = new FormData();
      form.append('files', blob, fileName);
      const r = await fetch(`${base}/api/upload`, { method: 'POST', body: form, headers: jwt ? { authorization: `Bearer ${jwt}` } : {}, signal: AbortSignal.timeout(30_000) });
      const j = (await r.json().catch(() => undefined)) as any;
      if (r.status === 201 || r.status === 200) { if (fileName.endsWith('.png')) uploadedId = j?.[0]?.id; else uploadedTextId = j?.[0]?.id; }
      else clientWarnings.push(`upload ${fileName} for required media: ${r.status} ${JSON.stringify(j?.error ?? j).slice(0, 200)}`);
    }
    } catch (e) { clientWarnings.push(`upload: ${(e as Error).message}`); }
  }

  const perType: Json = {};
  for (const c of collections) {
    const plural = c.schema.info?.pluralName ?? '';
    const p = `/api/${plural}`;
    let created = await call('POST', p, { data: entryOf(c.schema, 0, true) }, `create ${c.uid}`);
    if (created.status === 400) created = await call('POST', p, { data: entryOf(c.schema, 0, false) }, `create ${c.uid} (required only)`);
    const id = (created.json?.data?.id ?? created.json?.id) as number | undefined; // strapi-plugin-transformer answers without data
    const list = await call('GET', `${p}?populate=*`, undefined, `list ${c.uid}`);
    let one = 0, filtered = 0;
    if (id !== undefined) {
      one = (await call('GET', `${p}/${id}?populate=*`, undefined, `findOne ${c.uid}`)).status;
      const f = await call('GET', `${p}?filters[id][$eq]=${id}&populate=*`, undefined, `filter ${c.uid}`);
      filtered = f.status;
      const rows: any[] = Array.isArray(f.json?.data) ? f.json.data : Array.isArray(f.json) ? f.json : [];
      if (f.status === 200 && !rows.some((e: any) => e.id === id)) clientWarnings.push(`filter ${c.uid}: entry ${id} not in the answer`);
    }
    perType[c.uid] = [created.status, list.status, one, filtered].join('/');
    if (result.shape === undefined && created.status === 200) result.shape = created.json?.data?.attributes ? 'data.attributes' : created.json?.data ? 'data (no attributes)' : 'flat';
    if ('strapi-plugin-populate-deep' in deps && result.populateDeep === undefined) result.populateDeep = (await call('GET', `${p}?populate=deep`, undefined, `populate=deep ${c.uid}`)).status;
  }
  for (const c of singles) {
    const p = `/api/${c.schema.info?.singularName ?? ''}`;
    let put = await call('PUT', p, { data: entryOf(c.schema, 0, true) }, `put ${c.uid}`);
    if (put.status === 400) put = await call('PUT', p, { data: entryOf(c.schema, 0, false) }, `put ${c.uid} (required only)`);
    const get = await call('GET', `${p}?populate=*`, undefined, `get ${c.uid}`);
    perType[c.uid] = [put.status, get.status].join('/');
  }
  result.perType = perType;

  // GraphQL
  if (hasGraphql) {
    const q = await call('POST', '/graphql', { query: '{ __schema { queryType { fields { name } } } }' }, 'graphql introspection');
    const fields = new Set<string>((q.json?.data?.__schema?.queryType?.fields ?? []).map((f: any) => f.name as string));
    const camel = (s: string) => s.replace(/[-_]+([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    const target = collections.map((c) => camel(c.schema.info?.pluralName ?? '')).find((f) => fields.has(f)) ?? singles.map((c) => camel(c.schema.info?.singularName ?? '')).find((f) => fields.has(f));
    if (q.status !== 200) result.graphql = `introspection ${q.status}`;
    else if (!target) result.graphql = 'no content-type query field found';
    else {
      const r = await call('POST', '/graphql', { query: `{ ${target} { data { id } } }` }, `graphql ${target}`);
      result.graphql = r.status === 200 && !r.json?.errors ? `ok (${target})` : `${r.status} ${JSON.stringify(r.json?.errors ?? r.json).slice(0, 300)}`;
      if (r.status === 200 && r.json?.errors) clientWarnings.push(`graphql ${target}: ${JSON.stringify(r.json.errors).slice(0, 300)}`);
    }
  } else {
    const r = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' }).catch(() => undefined);
    result.graphql = `not installed; POST /graphql answers ${r?.status}`;
  }
  // what answers for plugins the project does or does not install (Strapi: 404 without the plugin)
  const status = async (u: string) => (await fetch(`${base}${u}`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined))?.status;
  result.i18nLocales = `${'@strapi/plugin-i18n' in deps ? 'installed' : 'not installed'}: GET /api/i18n/locales ${await status('/api/i18n/locales')}`;
  result.documentation = `${'@strapi/plugin-documentation' in deps ? 'installed' : 'not installed'}: GET /documentation ${await status('/documentation')}`;
} catch (e) {
  clientErrors.push(`client crashed: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
}

// ---------- 6. the v5 mount (--v5): Strapi's own v5 SDK, @strapi/client ----------
async function v5Client(): Promise<void> {
  const serverConfig = readFileSync(path.join(server, 'src/config.ts'), 'utf8');
  const prefix = opt('--v5-prefix') ?? /v5\s*:\s*\{[^}]*rest\s*:\s*\{[^}]*prefix\s*:\s*'([^']+)'/.exec(serverConfig)?.[1] ?? '/v5/api';
  const gqlPath = /v5\s*:\s*\{[\s\S]*?graphql\s*:\s*\{[^}]*path\s*:\s*'([^']+)'/.exec(serverConfig)?.[1] ?? '/v5/graphql';
  const client = strapiClient({ baseURL: `${base}${prefix}`, ...(jwt ? { auth: jwt } : {}) });
  const v5stats = { requests: 0, s5xx: 0, s4xx: 0 };
  /** One SDK call: its status (0: no answer) and body; a 5xx is an error, a 4xx a warning. */
  async function sdk<T>(what: string, f: () => Promise<T>): Promise<{ status: number; json: any }> {
    v5stats.requests++;
    try {
      const json = (await f()) as any;
      return { status: 200, json };
    } catch (e) {
      const r = (e as { response?: Response }).response;
      if (!r) { clientErrors.push(`v5 ${what}: no answer (${(e as Error).message})`); return { status: 0, json: undefined }; }
      const text = await r.text().catch(() => '');
      let json: any; try { json = JSON.parse(text); } catch { json = text; }
      const msg = JSON.stringify(json?.error ?? json).slice(0, 400);
      if (r.status >= 500) { v5stats.s5xx++; clientErrors.push(`v5 ${what}: ${r.status} ${msg}`); }
      else { v5stats.s4xx++; clientWarnings.push(`v5 ${what}: ${r.status} ${msg}`); }
      return { status: r.status, json };
    }
  }
  const perType: Json = {};
  for (const c of collections) {
    const plural = c.schema.info?.pluralName ?? '';
    const col = client.collection(plural);
    let created = await sdk(`create ${c.uid}`, () => col.create(entryOf(c.schema, 0, true)));
    if (created.status === 400) created = await sdk(`create ${c.uid} (required only)`, () => col.create(entryOf(c.schema, 0, false)));
    const doc = created.json?.data?.documentId as string | undefined;
    if (created.status === 200 && typeof doc !== 'string') clientWarnings.push(`v5 create ${c.uid}: no documentId in ${JSON.stringify(created.json).slice(0, 200)}`);
    const list = await sdk(`list ${c.uid}`, () => col.find({ populate: '*' }));
    let one = 0, filtered = 0, deleted = 0;
    if (doc) {
      const o = await sdk(`findOne ${c.uid}`, () => col.findOne(doc, { populate: '*' }));
      one = o.status;
      if (o.status === 200 && o.json?.data?.documentId !== doc) clientWarnings.push(`v5 findOne ${c.uid}: answered ${JSON.stringify(o.json).slice(0, 200)}`);
      const f = await sdk(`filter ${c.uid}`, () => col.find({ filters: { documentId: { $eq: doc } }, populate: '*' }));
      filtered = f.status;
      if (f.status === 200 && !(f.json?.data ?? []).some((e: any) => e.documentId === doc)) clientWarnings.push(`v5 filter ${c.uid}: document ${doc} not in the answer`);
      deleted = (await sdk(`delete ${c.uid}`, () => col.delete(doc))).status;
    }
    perType[c.uid] = [created.status, list.status, one, filtered, deleted].join('/');
  }
  for (const c of singles) {
    const single = client.single(c.schema.info?.singularName ?? '');
    let put = await sdk(`put ${c.uid}`, () => single.update(entryOf(c.schema, 0, true)));
    if (put.status === 400) put = await sdk(`put ${c.uid} (required only)`, () => single.update(entryOf(c.schema, 0, false)));
    const get = await sdk(`get ${c.uid}`, () => single.find({ populate: '*' }));
    perType[c.uid] = [put.status, get.status].join('/');
  }
  result.v5PerType = perType;
  if (hasGraphql) {
    const q = await call('POST', gqlPath, { query: '{ __schema { queryType { fields { name } } } }' }, 'v5 graphql introspection');
    const fields = new Set<string>((q.json?.data?.__schema?.queryType?.fields ?? []).map((f: any) => f.name as string));
    const camel = (s: string) => s.replace(/[-_]+([a-z0-9])/g, (_, ch: string) => ch.toUpperCase());
    const target = collections.map((c) => camel(c.schema.info?.pluralName ?? '')).find((f) => fields.has(f)) ?? singles.map((c) => camel(c.schema.info?.singularName ?? '')).find((f) => fields.has(f));
    if (q.status !== 200) result.v5graphql = `introspection ${q.status}`;
    else if (!target) result.v5graphql = 'no content-type query field found';
    else {
      const r = await call('POST', gqlPath, { query: `{ ${target} { documentId } }` }, `v5 graphql ${target}`);
      result.v5graphql = r.status === 200 && !r.json?.errors ? `ok (${target})` : `${r.status} ${JSON.stringify(r.json?.errors ?? r.json).slice(0, 300)}`;
      if (r.status === 200 && r.json?.errors) clientWarnings.push(`v5 graphql ${target}: ${JSON.stringify(r.json.errors).slice(0, 300)}`);
    }
  } else {
    const r = await fetch(`${base}${gqlPath}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{__typename}"}' }).catch(() => undefined);
    result.v5graphql = `not installed; POST ${gqlPath} answers ${r?.status}`;
  }
  result.v5 = { prefix, requests: v5stats.requests, s5xx: v5stats.s5xx, s4xx: v5stats.s4xx };
  result.v5client = v5stats.s5xx > 0 ? '5xx' : v5stats.s4xx > 0 ? 'ok with 4xx' : 'ok';
}
if (flag('--v5')) {
  try { await v5Client(); } catch (e) { clientErrors.push(`v5 client crashed: ${(e as Error).stack?.split('\n').slice(0, 3).join(' | ')}`); result.v5client = 'crashed'; }
}
result.requests = stats.requests;
result.s5xx = stats.s5xx;
result.s4xx = stats.s4xx;
result.client = !result.registered ? 'register failed' : stats.s5xx > 0 || clientErrors.length ? '5xx' : stats.s4xx > 0 ? 'ok with 4xx' : 'ok';
await stop();
if (!flag('--keep')) rmSync(path.join(server, 'data'), { recursive: true, force: true });
finish();
