/**
 * A plugin of the server: what the project installs beyond the core (REST, users-permissions,
 * upload). The server entry (src/server.ts, emitted for the plugins the Strapi project
 * installs) lists them; the core mounts what each answers, after the global middleware stack
 * and before the REST routes, without naming any of them. A plugin left out answers nothing:
 * its paths are unknown routes (404).
 */
import type Koa from 'koa';
import type { UsersPermissions } from './auth/index.js';
import type { ServerConfig } from './config.js';
import type { Database } from './db/database.js';
import type { Extensions } from './extend/extensions.js';
import type { MiddlewareTools } from './extend/middlewares.js';
import type { Registry } from './meta.js';
import type { UploadPlugin } from './upload/index.js';
import type { Outbox } from './webhooks/index.js';

/** What the core hands a plugin when it is mounted. */
export interface PluginCore {
  readonly registry: Registry;
  readonly db: Database;
  readonly config: ServerConfig;
  readonly auth: UsersPermissions;
  /** The user's src/api, src/policies and src/middlewares. */
  readonly extensions: Extensions;
  readonly tools: MiddlewareTools;
  readonly upload?: UploadPlugin;
  /** Where content writes record their webhook events. */
  readonly events?: Outbox;
  /** The server's folder (schema.graphql, openapi.json); absent in tests that build an app alone. */
  readonly root?: string;
  /** NODE_ENV (default `development`). */
  readonly environment: string;
  readonly log: (err: unknown) => void;
}

export interface MountedPlugin {
  /** Answers the plugin's requests, passes the others on. */
  readonly middleware?: Koa.Middleware<any, any>;
}

export interface ServerPlugin {
  /** Strapi's plugin name (`graphql`, `documentation`), for messages. */
  readonly name: string;
  mount(core: PluginCore): MountedPlugin;
}
