/**
 * After `contentgen import`'s users-permissions part (generator/import/auth/), the people and
 * programs that used a Strapi project still get in: a database Strapi 4.26.2 wrote (the
 * recorded set `import`, fixtures/strapi-data/import, on each database it was recorded on), read
 * by the import's own reader (`readAuthTables`), planned by importAuth, its rows written into
 * the built server's database (the run's provider) by the import's writer and its
 * permissions.json built in. Then, on the real server over HTTP:
 *
 * - the original passwords log in (Strapi's bcryptjs `$2a$` hashes), a blocked user is refused;
 * - the JWT Strapi issued is accepted (same JWT_SECRET) and /api/users/me answers as Strapi did;
 * - the original API tokens work with their type's rights (same API_TOKEN_SALT), a custom
 *   token with exactly its actions;
 * - a custom role keeps its users and its permissions;
 * - attributes the project added to the user model (extensions/users-permissions) arrive typed as
 *   the server's user type says: a date, a big integer above 2^53, a boolean, a datetime (local
 *   wall time on PostgreSQL/MariaDB), JSON and a decimal. Strapi's recording has none: they are
 *   added to the restored database as Strapi's DDL makes them (storage reference §3.1);
 * - the server starts on src/config.imported.ts (settings, webhooks) adopted as its header says.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAuth, userColumnTypes, type AuthImport } from '../../generator/import/auth/index.js';
import { readAuthTables } from '../../generator/import/source/auth-tables.js';
import { locateSource, openSource } from '../../generator/import/source/locate.js';
import { encodeRows } from '../../generator/import/write/encode.js';
import { migrateServerDatabase, serverDatabase } from '../../generator/import/write/server-target.js';
import { openTarget } from '../../generator/import/write/target.js';
import { buildIr } from '../../generator/ir/build-ir.js';
import { loadModels } from '../../generator/load/load-models.js';
import { resolveInput } from '../../generator/load/load-project.js';
import { probe, testProvider } from '../helpers/databases.js';
import { client } from '../helpers/http.js';
import { bearer, buildModels, startServer, tokenCli, type BuiltServer, type RunningServer } from '../helpers/server.js';
import {
  loadStrapiAnswers,
  loadStrapiSecrets,
  providerOfDialect,
  queryStrapiDatabase,
  restoreStrapiProject,
  strapiAnswer,
  strapiDialects,
  type RestoredStrapiProject,
  type StrapiDialect,
} from '../helpers/strapi-data.js';

/** The project's own user attributes: a type each that is not a string. */
const userExtension = {
  kind: 'collectionType',
  collectionName: 'up_users',
  info: { name: 'user', description: '', singularName: 'user', pluralName: 'users', displayName: 'User' },
  attributes: {
    birthday: { type: 'date' },
    karma: { type: 'biginteger' },
    newsletter: { type: 'boolean', default: false },
    lastSeenAt: { type: 'datetime' },
    prefs: { type: 'json' },
    score: { type: 'decimal' },
  },
};

/** Their columns as Strapi 4.26.2 makes them on each database (storage reference §3.1). */
const userExtensionDdl: Record<StrapiDialect, string[]> = {
  sqlite: ['birthday date', 'karma bigint', 'newsletter boolean', 'last_seen_at datetime', 'prefs json', 'score float'].map((c) => `ALTER TABLE up_users ADD COLUMN ${c}`),
  postgres: ['ALTER TABLE up_users ADD COLUMN birthday date, ADD COLUMN karma bigint, ADD COLUMN newsletter boolean, ADD COLUMN last_seen_at timestamp(6) without time zone, ADD COLUMN prefs jsonb, ADD COLUMN score numeric(10,2)'],
  mariadb: ['ALTER TABLE up_users ADD COLUMN birthday date, ADD COLUMN karma bigint(20), ADD COLUMN newsletter tinyint(1), ADD COLUMN last_seen_at datetime(6), ADD COLUMN prefs json, ADD COLUMN score decimal(10,2)'],
};

/**
 * Alice's values, as Strapi writes them: SQLite datetimes in epoch milliseconds, PostgreSQL and
 * MariaDB ones in the Strapi process's wall time (Europe/Paris: 09:30Z is 10:30).
 */
const aliceValues: Record<StrapiDialect, string> = {
  sqlite: `birthday = '1990-05-17', karma = 9007199254740993, newsletter = 1, last_seen_at = ${Date.parse('2024-01-15T09:30:00.000Z')}, prefs = '{"theme":"dark","n":2}', score = 12.5`,
  postgres: `birthday = '1990-05-17', karma = 9007199254740993, newsletter = true, last_seen_at = '2024-01-15 10:30:00', prefs = '{"theme":"dark","n":2}', score = 12.5`,
  mariadb: `birthday = '1990-05-17', karma = 9007199254740993, newsletter = 1, last_seen_at = '2024-01-15 10:30:00', prefs = '{"theme":"dark","n":2}', score = 12.5`,
};

/** What the server answers for them (Strapi's REST forms: a big integer as its digits, a decimal as a number). */
const aliceAnswered = { birthday: '1990-05-17', karma: '9007199254740993', newsletter: true, lastSeenAt: '2024-01-15T09:30:00.000Z', prefs: { theme: 'dark', n: 2 }, score: 12.5 };
const nobodyAnswered = { birthday: null, karma: null, newsletter: null, lastSeenAt: null, prefs: null, score: null };

const available = Object.fromEntries(await Promise.all(strapiDialects.map(async (d) => [d, (await probe(providerOfDialect[d])).ok] as const))) as Record<StrapiDialect, boolean>;
const dialects = ((process.env.CG_IMPORT_SOURCES?.split(',') as StrapiDialect[] | undefined) ?? strapiDialects).filter((d) => available[d]);

describe.each(dialects)('a Strapi 4.26.2 database (%s) imported: logins, JWTs, API tokens and user attributes keep working', (dialect) => {
  const secrets = loadStrapiSecrets('import');
  const own = secrets.dialects[dialect]!;
  let project: RestoredStrapiProject;
  let plan: AuthImport;
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  /** What the server runs with: Strapi's secrets and the imported webhook headers. */
  let env: Record<string, string>;
  const token = (type: string) => own.apiTokens.find((t) => t.type === type)!.accessKey;

  beforeAll(async () => {
    // The Strapi project with the user model extended, and its database with those columns.
    project = await restoreStrapiProject('import', dialect);
    const extension = path.join(project.dir, 'src/extensions/users-permissions/content-types/user/schema.json');
    await mkdir(path.dirname(extension), { recursive: true });
    await writeFile(extension, JSON.stringify(userExtension, null, 2));
    for (const statement of [...userExtensionDdl[dialect], `UPDATE up_users SET ${aliceValues[dialect]} WHERE id = 1`]) await queryStrapiDatabase(project, statement);

    // Read as the import reads it, the user table by the server's user type.
    const input = await resolveInput(project.dir);
    const loaded = await loadModels(input.modelsDir, input.plugins);
    const ir = buildIr({ ...loaded, ...(input.project ? { project: input.project } : {}) }, testProvider());
    const location = locateSource(project.dir, undefined, {});
    if (typeof location === 'string' || location.dialect === 'archive') throw new Error(`not a database: ${JSON.stringify(location)}`);
    const source = openSource(location, secrets.timeZone);
    try {
      plan = importAuth(await readAuthTables(source, userColumnTypes(ir)), { ir });
    } finally {
      await source.close();
    }
    // permissions.json beside the models the build reads.
    for (const file of plan.files.filter((f) => f.root === 'models')) await writeFile(path.join(input.modelsDir, file.path), file.content);

    built = await buildModels(project.dir, `import-auth-${dialect}`);
    // The server's tables, made by its migrations, then the planned rows by the import's writer.
    const database = await serverDatabase(built.dir, { DATABASE_URL: built.database.url });
    await migrateServerDatabase(built.dir, database);
    const target = await openTarget(database.url, built.dir);
    try {
      for (const table of plan.tables) {
        const { columns, values } = encodeRows(table.rows, table.types, database.provider);
        if (values.length) await target.insert(table.table, columns, values);
      }
    } finally {
      await target.close();
    }
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
    await project?.cleanup();
  });

  it('plans without problems and says what has no home', () => {
    expect(plan.problems).toEqual([]);
    expect(plan.notes.some((n) => n.startsWith('admin_users: 1 admin panel user'))).toBe(true);
    expect(plan.notes.some((n) => n.includes('"content hook" posts to 127.0.0.1'))).toBe(true);
  });

  it('logs in with the original passwords; a blocked user stays blocked', async () => {
    for (const user of own.users) {
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

  it("accepts the JWT Strapi issued, and /api/users/me answers as Strapi's did, with the project's own attributes typed", async () => {
    const answers = loadStrapiAnswers('import', dialect);
    const me = await api.get('/api/users/me', bearer(own.userJwt.jwt));
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ ...strapiAnswer(answers, 'users.me').answer, ...aliceAnswered });
    const withRole = await api.get('/api/users/me?populate[0]=role', bearer(own.userJwt.jwt));
    expect(withRole.body).toEqual({ ...strapiAnswer(answers, 'users.me.role').answer, ...aliceAnswered });
    const bob = await api.get('/api/users/2', bearer(token('full-access')));
    expect(bob.body).toMatchObject({ username: 'bob', ...nobodyAnswered });
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
    expect(listed.map((t) => [t.name, t.type, t.expiresAt])).toEqual(own.apiTokens.map((t) => [t.name, t.type, t.expiresAt]));
    // Strapi creates a token's permissions at once: their order differs between recordings.
    expect([...listed.find((t) => t.type === 'custom')!.permissions].sort()).toEqual(['api::article.article.find', 'api::tag.tag.create', 'api::tag.tag.find', 'api::tag.tag.findOne']);
  });

  it("gives a custom role's users its permissions", async () => {
    const bob = own.users.find((u) => u.role === 'editor')!;
    const { body } = await api.post('/api/auth/local', { identifier: bob.username, password: bob.password });
    const editor = client(server.url, bearer(body.jwt));
    expect((await editor.post('/api/tags', { data: { name: 'made-by-an-editor' } })).status).toBe(200);
    expect((await editor.post('/api/articles', { data: { title: 'not allowed' } })).status).toBe(403);
  });
});
