/**
 * The users-permissions plugin, assembled: authentication and authorization of every route
 * (`Authenticator.guard`), its own routes, the database-backed rate limiter, and the sync of
 * the policy table into up_roles/up_permissions at start.
 *
 * Other modules ask `ctx.state.auth.can(action)` (see authenticate.ts).
 */
import type { UsersPermissionsConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { Registry } from '../meta.js';
import { ApiTokens } from './api-tokens.js';
import { Authenticator } from './authenticate.js';
import { JwtService } from './jwt.js';
import type { MailSender } from './mail.js';
import { Passwords } from './passwords.js';
import { Policy, type PolicyTable } from './policy.js';
import { RateLimiter, type RateLimitStore } from './rate-limit.js';
import { usersPermissionsRoutes, type PluginRoute } from './routes.js';
import type { Secrets } from './secrets.js';
import { UsersPermissionsStore } from './store.js';
import { syncRoles, type SyncReport } from './sync.js';
import { UserService } from './users.js';

export type { Auth, AuthState } from './authenticate.js';
import type { PopulateDeepOptions } from '../populate/deep.js';
export type { AuthUser } from './store.js';
export type { ApiToken } from './api-tokens.js';
export type { PolicyTable } from './policy.js';
export type { MailMessage, MailSender } from './mail.js';

export interface UsersPermissionsOptions {
  readonly db: Database;
  readonly registry: Registry;
  readonly policy: PolicyTable;
  readonly secrets: Secrets;
  readonly config: UsersPermissionsConfig;
  readonly sendMail: MailSender;
  /** Absolute URL of `GET <prefix>/auth/email-confirmation`, for confirmation emails. */
  readonly confirmationUrl: () => string;
  /** Where rate-limit counters live; default the database (auth/rate-limit.ts). */
  readonly rateLimitStore?: RateLimitStore;
  readonly log?: (err: unknown) => void;
  /** strapi-plugin-populate-deep is installed: `GET /api/users?populate=deep[,N]`. */
  readonly populateDeep?: PopulateDeepOptions;
}

export interface UsersPermissions {
  readonly policy: Policy;
  readonly passwords: Passwords;
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  readonly routes: readonly PluginRoute[];
  /** Users and their JWTs, for the plugin's GraphQL operations. */
  readonly users: UserService;
  readonly jwt: JwtService;
  /** Writes the policy table into up_roles/up_permissions (run once at start). */
  sync(): Promise<SyncReport>;
}

export function createUsersPermissions(options: UsersPermissionsOptions): UsersPermissions {
  const { db, config } = options;
  const log = options.log ?? ((err: unknown) => console.error(err));
  const policy = new Policy(options.policy);
  if (!policy.role(config.advanced.default_role)) {
    throw new Error(
      `config plugins['users-permissions'].advanced.default_role is "${config.advanced.default_role}", which is not a role of permissions.json (${policy.roles.map((r) => r.type).join(', ')})`,
    );
  }
  const store = new UsersPermissionsStore(options.registry);
  const passwords = new Passwords();
  const jwt = new JwtService(options.secrets.jwtSecret, config.jwt.expiresIn);
  const apiTokens = new ApiTokens(db, options.secrets.apiTokenSalt, policy);
  const users = new UserService(db, store, options.registry, (plain) => passwords.hash(plain), options.populateDeep);
  const authenticator = new Authenticator({ db, policy, store, jwt, apiTokens, requireConfirmed: () => config.advanced.email_confirmation });
  const rateLimiter = new RateLimiter(options.rateLimitStore ?? db, config.ratelimit, Date.now, log);
  const routes = usersPermissionsRoutes({
    db,
    policy,
    store,
    users,
    jwt,
    passwords,
    config,
    sendMail: options.sendMail,
    confirmationUrl: options.confirmationUrl,
    log,
  });
  return {
    policy,
    passwords,
    authenticator,
    rateLimiter,
    routes,
    users,
    jwt,
    sync: () => syncRoles(db, store, policy, config.advanced.default_role),
  };
}
