/**
 * Starts a generated server: resolve settings and secrets, apply pending migrations,
 * connect, write the policy table into up_roles/up_permissions, listen.
 * Logs one line with the URL. SIGTERM/SIGINT stop accepting connections, let requests in
 * flight finish (bounded wait) and close the database.
 */
import http from 'node:http';
import path from 'node:path';
import { createApp } from './app.js';
import { createUsersPermissions, type MailSender, type PolicyTable } from './auth/index.js';
import { logMailSender } from './auth/mail.js';
import { resolveSecrets } from './auth/secrets.js';
import { uploadPlugin } from './upload/index.js';
import { resolveConfig, type ServerConfig, type UserConfig } from './config.js';
import { createDatabase, type PrismaLike } from './db/database.js';
import { openSqliteReader } from './db/sqlite-reader.js';
import { applyMigrations } from './db/migrate.js';
import { createAdapterFactory, providerFromUrl, sqliteFilePath } from './db/provider.js';
import type { Registry } from './meta.js';
import type { Route } from './rest/routes.js';

export interface StartOptions {
  /** The server's root folder (where prisma/ and data/ live). */
  readonly root: string;
  readonly routes: readonly Route[];
  /** Every content type and component of this server. */
  readonly registry: Registry;
  readonly userConfig: UserConfig;
  /** The emitted policy table (src/generated/permissions.ts). */
  readonly policy: PolicyTable;
  /** Delivers reset-password and confirmation emails; default: the server log. */
  readonly sendMail?: MailSender;
  /** `new PrismaClient({ adapter })` of this server's generated client. */
  readonly createPrisma: (adapter: unknown) => PrismaLike;
}

export interface RunningServer {
  readonly url: string;
  readonly config: ServerConfig;
  close(): Promise<void>;
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  // Relative SQLite paths are relative to the server's root, wherever it is started from.
  process.chdir(options.root);
  const config = resolveConfig(options.userConfig);
  const provider = providerFromUrl(config.databaseUrl);
  // Before anything else: in production a missing secret stops the start (StartupError).
  const secrets = resolveSecrets(options.root);

  const applied = await applyMigrations({
    databaseUrl: config.databaseUrl,
    migrationsDir: path.join(options.root, 'prisma/migrations'),
    schemaPath: path.join(options.root, 'prisma/schema.prisma'),
  });
  if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);

  const prisma = options.createPrisma(await createAdapterFactory(config.databaseUrl));
  // SQLite reads skip Prisma's raw-query pipeline (db/sqlite-reader.ts); writes stay on Prisma.
  const sqliteFile = provider === 'sqlite' ? sqliteFilePath(config.databaseUrl) : undefined;
  const reader = sqliteFile && sqliteFile !== ':memory:' ? openSqliteReader(sqliteFile) : undefined;
  const db = createDatabase(prisma, provider, reader ? { reader } : {});
  let publicUrl = config.url;
  const auth = createUsersPermissions({
    db,
    registry: options.registry,
    policy: options.policy,
    secrets,
    config: config.plugins['users-permissions'],
    sendMail: options.sendMail ?? logMailSender,
    confirmationUrl: () => `${publicUrl}${config.api.rest.prefix}/auth/email-confirmation`,
  });
  const synced = await auth.sync();
  if (synced.createdRoles.length || synced.deletedRoles.length || synced.added || synced.removed) {
    const parts = [
      ...(synced.createdRoles.length ? [`created roles ${synced.createdRoles.join(', ')}`] : []),
      ...(synced.deletedRoles.length ? [`deleted roles ${synced.deletedRoles.join(', ')}`] : []),
      `${synced.added} permission(s) added, ${synced.removed} removed`,
    ];
    console.log(`users-permissions: policy table synced (${parts.join('; ')})`);
  }
  const upload = uploadPlugin({ db, root: options.root, registry: options.registry, config: config.plugins.upload });
  const app = createApp({ routes: options.routes, registry: options.registry, db, config, auth, upload });

  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${shownHost}:${port}`;
  publicUrl ||= url;
  console.log(`contentgen server listening on ${url}`);

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 10_000).unref());
      await Promise.race([drained, timeout]);
      server.closeAllConnections();
      await prisma.$disconnect();
      reader?.close();
    })());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0));
    });
  }
  return { url, config, close };
}
