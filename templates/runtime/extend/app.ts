/**
 * The app's own start-up code, as Strapi v4's src/index.js: `register` runs first, before the
 * routes and the GraphQL schema are built; `bootstrap` runs once the database is connected
 * and migrated, before the server listens (seed data, warm a cache, schedule work). Both
 * run once per process start, in every process.
 */
import type Koa from 'koa';
import type { ServerConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Registry } from '../meta.js';
import type { ContentService } from './content-api.js';
import type { WebhookEvent } from '../webhooks/index.js';

export interface RegisterContext {
  readonly config: ServerConfig;
  readonly registry: Registry;
  /** The Koa application: a `koa.use(...)` in `register` runs before every other middleware. */
  readonly koa: Koa;
}

export interface BootstrapContext extends RegisterContext {
  /** SQL and the Prisma client (`db.prisma.article.findMany(...)`; `db.transaction(fn)` for a transaction, where it works too). */
  readonly db: Database;
  /** The service of a content type, with your overrides and lifecycle hooks: `service('api::article.article')`. */
  service(uid: string): ContentService;
}

export interface AppHooks {
  register?(context: RegisterContext): void | Promise<void>;
  bootstrap?(context: BootstrapContext): void | Promise<void>;
  /**
   * Every webhook event (`entry.create`, `media.delete`, …, with Strapi's payload), in
   * process. Delivered like a webhook: after the write commits, once, by one server process,
   * retried with back-off when it throws (see README, "Webhooks").
   */
  onEvent?(event: WebhookEvent): void | Promise<void>;
}

/** The default export of src/index.ts. */
export function defineApp(hooks: AppHooks): AppHooks {
  return hooks;
}
