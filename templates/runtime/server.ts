/**
 * Starts a generated server: resolve settings and secrets, apply pending migrations,
 * connect, write the policy table into up_roles/up_permissions, listen.
 * Logs one line with the URL. `GET /_health` answers 204 while the database does (503 when
 * it does not, or once shutting down); while the database cannot be reached requests answer
 * 503 with Retry-After, and the outage is logged once (db/unavailable.ts). SIGTERM/SIGINT
 * stop accepting connections, let requests in flight finish (at most SHUTDOWN_TIMEOUT_MS,
 * default 10 s), close the database and exit 0.
 *
 * Nothing a request needs is kept in this process: JWT_SECRET and API_TOKEN_SALT come from
 * the environment, rate-limit counters live in the database (or Redis with REDIS_URL), so
 * any number of processes can serve one database behind a load balancer.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import Koa from 'koa';
import { buildApp } from './app.js';
import { Extensions } from './extend/extensions.js';
import type { UserCode } from './extend/index.js';
import { createUsersPermissions, type MailSender, type PolicyTable } from './auth/index.js';
import { logMailSender } from './auth/mail.js';
import { resolveSecrets } from './auth/secrets.js';
import { uploadPlugin } from './upload/index.js';
import { syncLocales } from './i18n/locales.js';
import { resolveConfig, type ServerConfig, type UserConfig } from './config.js';
import { createDatabase, formatStatementLog, type Database, type PrismaLike, type StatementLog } from './db/database.js';
import { connectDatabase } from './db/connect.js';
import { DatabaseOutage, isDatabaseUnavailable } from './db/unavailable.js';
import { connectRedis, type Redis } from './db/redis.js';
import { DatabaseRateLimitStore, FallbackRateLimitStore, RedisRateLimitStore, type RateLimitStore } from './auth/rate-limit.js';
import { healthCheck, inFlightTracker } from './http/health.js';
import { applyMigrations } from './db/migrate.js';
import { providerFromUrl } from './db/provider.js';
import type { Registry } from './meta.js';
import type { ServerPlugin } from './plugin.js';
import type { Route } from './rest/routes.js';
import { createWebhooks } from './webhooks/index.js';

/** How long a kept-alive connection may stay idle once shutdown began before it is closed. */
const idleGraceMs = 1_000;

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
  /** The plugins the project installs (GraphQL, the documentation): see plugin.ts. */
  readonly plugins?: readonly ServerPlugin[];
  /** The user's src/index.ts, src/api/, src/policies/ and src/middlewares/ (src/generated/user-code.ts). */
  readonly userCode?: UserCode;
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

  // A database that goes away is logged once per outage, not once per request (db/unavailable.ts).
  const outage = new DatabaseOutage({ probe: () => direct.query('SELECT 1 AS ok', []) });
  const log = (err: unknown) => (isDatabaseUnavailable(err) ? outage.report(err) : console.error(err));
  const connection = await connectDatabase(config.databaseUrl, {
    onPoolError: (error) => (isDatabaseUnavailable(error) ? outage.report(error) : console.error(`database: a pooled connection failed: ${error.message}`)),
  });
  const prisma = options.createPrisma(connection.adapterFactory);
  // Reads skip Prisma's raw-query pipeline (db/reader.ts), write transactions its transactions (db/transaction-statements.ts).
  const reader = await connection.openReader();
  const databaseOptions = {
    ...(reader ? { reader } : {}),
    transactionStatements: connection.transactionStatements,
    ...(connection.openTransaction ? { openTransaction: connection.openTransaction } : {}),
    ...(connection.openIndependent ? { openIndependent: connection.openIndependent } : {}),
    ...(config.diagnostics.logQueries ? { log: (entry: StatementLog) => console.error(formatStatementLog(entry)) } : {}),
  };
  // While an outage is known, requests fail at once (503); the probe and the health check ask the database itself.
  const db = createDatabase(prisma, provider, { ...databaseOptions, unreachable: () => outage.down });
  const direct = createDatabase(prisma, provider, databaseOptions);
  const redis = await openRedis(process.env.REDIS_URL);
  let publicUrl = config.url;
  const auth = createUsersPermissions({
    db,
    log,
    ...(redis ? { rateLimitStore: redisRateLimits(redis, db, log) } : {}),
    registry: options.registry,
    policy: options.policy,
    secrets,
    config: config.plugins['users-permissions'],
    sendMail: options.sendMail ?? logMailSender,
    confirmationUrl: () => `${publicUrl}${config.api.rest.prefix}/auth/email-confirmation`,
    ...(config.plugins.populateDeep.enabled
      ? { populateDeep: { defaultDepth: config.plugins.populateDeep.defaultDepth, skipCreatorFields: config.plugins.populateDeep.skipCreatorFields } }
      : {}),
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
  const locales = await syncLocales(db, options.registry);
  if (locales.added.length || locales.removed.length) console.log(`i18n: locales synced (added ${locales.added.join(', ') || 'none'}; removed ${locales.removed.join(', ') || 'none'})`);
  const onEvent = options.userCode?.app?.onEvent;
  const webhooks = createWebhooks({
    db,
    config: config.webhooks,
    log: (message, error) => (error !== undefined && isDatabaseUnavailable(error) ? outage.report(error) : console.error(message)),
    ...(onEvent ? { onEvent: (event) => onEvent.call(options.userCode!.app, event) } : {}),
  });
  const upload = uploadPlugin({ db, root: options.root, registry: options.registry, config: config.plugins.upload, events: webhooks.outbox });
  let shuttingDown = false;
  const inFlight = inFlightTracker(() => shuttingDown);
  const before = [inFlight.middleware, healthCheck({ db: direct, isClosing: () => shuttingDown, outage })];
  const extensions = options.userCode ? new Extensions(options.userCode, options.registry) : undefined;
  const koa = new Koa();
  await options.userCode?.app?.register?.({ config, registry: options.registry, koa });
  const built = buildApp({ routes: options.routes, registry: options.registry, db, config, auth, upload, plugins: options.plugins ?? [], before, koa: koa as never, root: options.root, log, events: webhooks.outbox, ...(extensions ? { extensions } : {}) });
  await options.userCode?.app?.bootstrap?.({ config, registry: options.registry, koa, db, service: (uid) => built.service(uid) });
  const app = built.koa;

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
  webhooks.start();

  const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS || 10_000) >= 0 ? Number(process.env.SHUTDOWN_TIMEOUT_MS || 10_000) : 10_000;
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      shuttingDown = true;
      // No new connections. Open ones are not cut: each next answer says `Connection: close`
      // (http/health.ts), after which the client closes it; a request already on its way over
      // a kept-alive connection is still answered. (http.Server#close would also close idle
      // connections at once, racing a client that is sending on one: net.Server's does not.)
      const closed = new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve()));
      // Connections that stay idle are closed after a grace period, well before keepAliveTimeout.
      setTimeout(() => server.closeIdleConnections(), idleGraceMs).unref();
      if (inFlight.count > 0) console.log(`shutting down: waiting for ${inFlight.count} request(s) in flight`);
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), shutdownTimeoutMs).unref());
      const drained = await Promise.race([Promise.all([closed, inFlight.idle()]), timeout]);
      if (drained === 'timeout') console.error(`shutting down: ${inFlight.count} request(s) still running after ${shutdownTimeoutMs} ms are cut off`);
      server.closeAllConnections();
      outage.stop();
      await webhooks.stop();
      await prisma.$disconnect();
      await connection.close?.();
      await reader?.close();
      await redis?.close();
      console.log('contentgen server stopped');
    })());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      close().then(
        () => process.exit(0),
        (err: unknown) => {
          console.error(err);
          process.exit(1);
        },
      );
    });
  }
  return { url, config, close };
}

/** The Redis client for REDIS_URL (none without it); a StartupError when Redis does not answer. */
async function openRedis(url: string | undefined): Promise<Redis | undefined> {
  if (!url) return undefined;
  const redis = await connectRedis(url);
  console.log(`rate limits: counted in Redis at ${redis.displayUrl}`);
  return redis;
}

/** Counters in Redis; in the database while Redis does not answer (auth/rate-limit.ts). */
function redisRateLimits(redis: Redis, db: Database, log: (err: unknown) => void): RateLimitStore {
  const prefix = process.env.REDIS_KEY_PREFIX || 'contentgen:';
  return new FallbackRateLimitStore(new RedisRateLimitStore(redis, prefix), new DatabaseRateLimitStore(db, log), (message) => console.error(message));
}
