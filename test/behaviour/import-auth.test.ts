/**
 * After `contentgen import`'s users-permissions part (generator/import/auth/), the people and
 * programs that used a Strapi project still get in: a database Strapi 4.26.2 wrote (recorded
 * by the import-fixtures set `import`, fixtures/strapi-data/import), read, planned by
 * importAuth, its rows written into the built server's database (the run's provider) and its
 * permissions.json built in. Then, on the real server over HTTP:
 *
 * - the original passwords log in (Strapi's bcryptjs `$2a$` hashes), a blocked user is refused;
 * - the JWT Strapi issued is accepted (same JWT_SECRET) and /api/users/me answers as Strapi did;
 * - the original API tokens work with their type's rights (same API_TOKEN_SALT), a custom
 *   token with exactly its actions;
 * - a custom role keeps its users and its permissions;
 * - the server starts on src/config.imported.ts (settings, webhooks) adopted as its header says.
 *
 * The Strapi database is read from its SQLite recording (the PostgreSQL and MariaDB ones need
 * import-core's readers). Skipped where the recorded data set is absent; CG_STRAPI_DATA points
 * at another copy of fixtures/strapi-data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAuth, type AuthImport, type StrapiAuthTables } from '../../generator/import/auth/index.js';
import type { NormalizedRow } from '../../generator/import/source/types.js';
import { buildIr } from '../../generator/ir/build-ir.js';
import { loadModels } from '../../generator/load/load-models.js';
import { resolveInput } from '../../generator/load/load-project.js';
import type { TestDatabase } from '../helpers/databases.js';
import { client } from '../helpers/http.js';
import { fixturesDir, tempDir } from '../helpers/paths.js';
import { bearer, buildModels, startServer, tokenCli, type BuiltServer, type RunningServer } from '../helpers/server.js';

const dataDir = path.join(process.env.CG_STRAPI_DATA ?? path.join(fixturesDir, 'strapi-data'), 'import');
const recorded = existsSync(path.join(dataDir, 'sqlite.sql'));

interface Secrets {
  env: { JWT_SECRET: string; API_TOKEN_SALT: string };
  dialects: { sqlite: { apiTokens: { name: string; type: string; accessKey: string; expiresAt: string | null }[]; users: { username: string; password: string; id: number; role: string; blocked: boolean }[]; userJwt: { id: number; jwt: string } } };
}

/** Every row of the tables importAuth reads, from the SQLite database Strapi wrote. */
function readStrapiTables(db: BetterSqlite3.Database): StrapiAuthTables {
  const tables = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
  const all = (table: string) => (tables.has(table) ? (db.prepare(`SELECT * FROM "${table}" ORDER BY id`).all() as NormalizedRow[]) : []);
  const count = (table: string) => (tables.has(table) ? Number((db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n) : 0);
  // As import-core's reader normalizes them: SQLite keeps datetimes as epoch milliseconds.
  const dates = (rows: NormalizedRow[]) =>
    rows.map((row): NormalizedRow => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, /_at$/.test(k) && typeof v === 'number' ? new Date(v) : v])));
  return {
    users: dates(all('up_users')),
    roles: dates(all('up_roles')),
    permissions: dates(all('up_permissions')),
    permissionRoleLinks: all('up_permissions_role_links'),
    userRoleLinks: all('up_users_role_links'),
    apiTokens: dates(all('strapi_api_tokens')),
    apiTokenPermissions: dates(all('strapi_api_token_permissions')),
    apiTokenPermissionLinks: all('strapi_api_token_permissions_token_links'),
    webhooks: all('strapi_webhooks'),
    coreStore: all('strapi_core_store_settings'),
    adminUserCount: count('admin_users'),
    transferTokenCount: count('strapi_transfer_tokens'),
    releases: dates(all('strapi_releases')),
  };
}

/** Writes planned rows with plain INSERTs (what import-core's writer does in its transaction). */
async function insertRows(db: TestDatabase, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  const encode = (value: unknown) => {
    if (value instanceof Date) return db.datetime(value);
    if (typeof value === 'boolean' && db.provider === 'sqlite') return value ? 1 : 0;
    if (typeof value === 'bigint') return Number(value);
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    return value;
  };
  for (const row of rows) {
    const columns = Object.keys(row);
    await db.query(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, columns.map((c) => encode(row[c])));
  }
}

describe.skipIf(!recorded)('a Strapi 4.26.2 database imported: logins, JWTs and API tokens keep working', () => {
  let secrets: Secrets;
  let plan: AuthImport;
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  /** What the server runs with: Strapi's secrets and the imported webhook headers. */
  let env: Record<string, string>;
  const token = (type: string) => secrets.dialects.sqlite.apiTokens.find((t) => t.type === type)!.accessKey;

  beforeAll(async () => {
    secrets = JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Secrets;
    const strapi = new BetterSqlite3(':memory:');
    strapi.exec(readFileSync(path.join(dataDir, 'sqlite.sql'), 'utf8'));
    const tables = readStrapiTables(strapi);
    strapi.close();

    // The Strapi project, as `contentgen build` reads it, with the permissions.json the import wrote.
    const project = path.join(await tempDir('import-auth-project'), 'project');
    await mkdir(project);
    for (const entry of ['package.json', 'config', 'src']) await cp(path.join(dataDir, entry), path.join(project, entry), { recursive: true });
    const input = await resolveInput(project);
    const loaded = await loadModels(input.modelsDir, input.plugins);
    plan = importAuth(tables, { ir: buildIr({ ...loaded, ...(input.project ? { project: input.project } : {}) }, 'sqlite') });
    for (const file of plan.files.filter((f) => f.root === 'models')) await writeFile(path.join(input.modelsDir, file.path), file.content);

    built = await buildModels(project, 'import-auth');
    // The server's tables, made by its migrations (the token CLI applies them, writes nothing else).
    await tokenCli(built.dir, ['list']);
    for (const { table, rows } of plan.tables) await insertRows(built.database, table, rows);
    // The settings and webhooks module, adopted in src/config.ts as its header says; the webhook
    // header values it reads from the environment, from the secrets file.
    env = { JWT_SECRET: secrets.env.JWT_SECRET, API_TOKEN_SALT: secrets.env.API_TOKEN_SALT };
    for (const file of plan.files.filter((f) => f.root === 'server')) {
      await mkdir(path.dirname(path.join(built.dir, file.path)), { recursive: true });
      await writeFile(path.join(built.dir, file.path), file.content);
      if (file.kind === 'secrets') for (const [, name, value] of file.content.matchAll(/^(\w+)=(".*")$/gm)) env[name!] = JSON.parse(value!) as string;
    }
    await writeFile(
      path.join(built.dir, 'src/config.ts'),
      [
        "import type { UserConfig } from './runtime/config.js';",
        "import { advanced, email, webhooks } from './config.imported.js';",
        '',
        "export default { plugins: { 'users-permissions': { advanced, email } }, webhooks: webhooks() } satisfies UserConfig;",
        '',
      ].join('\n'),
    );
    server = await startServer(built.dir, env);
    api = client(server.url);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('plans without problems and says what has no home', () => {
    expect(plan.problems).toEqual([]);
    expect(plan.notes.some((n) => n.startsWith('admin_users: 1 admin panel user'))).toBe(true);
    expect(plan.notes.some((n) => n.includes('"content hook" posts to 127.0.0.1'))).toBe(true);
  });

  it('logs in with the original passwords; a blocked user stays blocked', async () => {
    for (const user of secrets.dialects.sqlite.users) {
      const res = await api.post('/api/auth/local', { identifier: user.username, password: user.password });
      if (user.blocked) {
        expect(res.status).toBe(400);
        expect(res.body.error.message).toBe('Your account has been blocked by an administrator');
      } else {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.user).toMatchObject({ id: user.id, username: user.username });
        expect((await api.get('/api/users/me', bearer(res.body.jwt))).body.id).toBe(user.id);
      }
    }
    expect((await api.post('/api/auth/local', { identifier: 'alice', password: 'wrong-password' })).status).toBe(400);
  });

  it("accepts the JWT Strapi issued, and /api/users/me answers as Strapi's did", async () => {
    const answers = JSON.parse(readFileSync(path.join(dataDir, 'answers.sqlite.json'), 'utf8')) as { requests: { name: string; answer: unknown }[] };
    const strapiAnswer = (name: string) => answers.requests.find((r) => r.name === name)!.answer;
    const { jwt } = secrets.dialects.sqlite.userJwt;
    const me = await api.get('/api/users/me', bearer(jwt));
    expect(me.status).toBe(200);
    expect(me.body).toEqual(strapiAnswer('users.me'));
    const withRole = await api.get('/api/users/me?populate[0]=role', bearer(jwt));
    expect(withRole.body).toEqual(strapiAnswer('users.me.role'));
  });

  it('accepts the original API tokens with the rights of their type', async () => {
    expect((await api.get('/api/articles', bearer(token('read-only')))).status).toBe(200);
    expect((await api.post('/api/tags', { data: { name: 'ro-refused' } }, bearer(token('read-only')))).status).toBe(403);
    const created = await api.post('/api/tags', { data: { name: 'made-with-full-access' } }, bearer(token('full-access')));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // custom: tag find/findOne/create and article find, nothing else.
    expect((await api.get('/api/tags', bearer(token('custom')))).status).toBe(200);
    expect((await api.post('/api/tags', { data: { name: 'made-with-custom' } }, bearer(token('custom')))).status).toBe(200);
    expect((await api.get('/api/authors', bearer(token('custom')))).status).toBe(403);
    expect((await api.get('/api/articles', bearer('0'.repeat(256)))).status).toBe(401);
  });

  it("sends Strapi's webhooks: the writes above are recorded for the enabled one that wants their event", async () => {
    const deliveries = await built.database.query<{ webhook: string; event: string }>('SELECT "webhook", "event" FROM "contentgen_webhook_deliveries"');
    expect(deliveries.filter((d) => d.event === 'entry.create').map((d) => d.webhook)).toContain('content hook');
    expect(deliveries.some((d) => d.webhook === 'disabled hook')).toBe(false);
  });

  it('lists the imported tokens with their type, permissions and expiry', async () => {
    const { stdout } = await tokenCli(built.dir, ['list', '--json'], env);
    const listed = JSON.parse(stdout) as { name: string; type: string; permissions: string[]; expiresAt: string | null }[];
    expect(listed.map((t) => [t.name, t.type, t.expiresAt])).toEqual(secrets.dialects.sqlite.apiTokens.map((t) => [t.name, t.type, t.expiresAt]));
    expect(listed.find((t) => t.type === 'custom')!.permissions).toEqual(['api::tag.tag.find', 'api::tag.tag.findOne', 'api::article.article.find', 'api::tag.tag.create']);
  });

  it("gives a custom role's users its permissions", async () => {
    const bob = secrets.dialects.sqlite.users.find((u) => u.role === 'editor')!;
    const { body } = await api.post('/api/auth/local', { identifier: bob.username, password: bob.password });
    const editor = client(server.url, bearer(body.jwt));
    expect((await editor.post('/api/tags', { data: { name: 'made-by-an-editor' } })).status).toBe(200);
    expect((await editor.post('/api/articles', { data: { title: 'not allowed' } })).status).toBe(403);
  });
});
