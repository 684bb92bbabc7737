/**
 * Starts a generated server: resolve settings, apply pending migrations, connect, listen.
 * Logs one line with the URL. SIGTERM/SIGINT stop accepting connections, let requests in
 * flight finish (bounded wait) and close the database.
 */
import http from 'node:http';
import path from 'node:path';
import bcrypt from 'bcrypt';
import { createApp } from './app.js';
import { resolveConfig, type ServerConfig, type UserConfig } from './config.js';
import { createDatabase, type PrismaLike } from './db/database.js';
import { applyMigrations } from './db/migrate.js';
import { createAdapterFactory, providerFromUrl } from './db/provider.js';
import type { Registry } from './meta.js';
import type { Route } from './rest/routes.js';

export interface StartOptions {
  /** The server's root folder (where prisma/ and data/ live). */
  readonly root: string;
  readonly routes: readonly Route[];
  /** Every content type and component of this server. */
  readonly registry: Registry;
  readonly userConfig: UserConfig;
  /** `new PrismaClient({ adapter })` of this server's generated client. */
  readonly createPrisma: (adapter: unknown) => PrismaLike;
}

export interface RunningServer {
  readonly url: string;
  readonly config: ServerConfig;
  close(): Promise<void>;
}

const passwordRounds = 10;

export async function startServer(options: StartOptions): Promise<RunningServer> {
  // Relative SQLite paths are relative to the server's root, wherever it is started from.
  process.chdir(options.root);
  const config = resolveConfig(options.userConfig);
  const provider = providerFromUrl(config.databaseUrl);

  const applied = await applyMigrations({
    databaseUrl: config.databaseUrl,
    migrationsDir: path.join(options.root, 'prisma/migrations'),
    schemaPath: path.join(options.root, 'prisma/schema.prisma'),
  });
  if (applied.length) console.log(`applied migrations: ${applied.join(', ')}`);

  const prisma = options.createPrisma(await createAdapterFactory(config.databaseUrl));
  const db = createDatabase(prisma, provider);
  const app = createApp({
    routes: options.routes,
    registry: options.registry,
    db,
    config,
    hashPassword: (plain) => bcrypt.hash(plain, passwordRounds),
  });

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
    })());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      void close().then(() => process.exit(0));
    });
  }
  return { url, config, close };
}
