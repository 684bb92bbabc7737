/**
 * Who is calling, and may they do this: Strapi's content-API authentication and
 * authorization, run on every route before its handler.
 *
 * Authentication (strategies in Strapi's order):
 *  1. API token: a bearer that is a stored access key. Expired → 401 `Token expired`.
 *  2. users-permissions: a bearer JWT → its user and the user's role. A token that does not
 *     verify (tampered, expired, foreign, wrong algorithm) → 401 `Missing or invalid
 *     credentials`, with no fallback to the public role; a deleted or blocked user (or an
 *     unconfirmed one when confirmation is on) → 401 `Invalid credentials`.
 *     No bearer → the public role (401 `Missing or invalid credentials` if it has no
 *     permission at all).
 * Authorization: the route's action must be granted (role permissions, or the token type:
 * read-only = find/findOne, full-access = all, custom = its list) → else 403 `Forbidden`.
 *
 * The result is `ctx.state.auth` (see `Auth`); a JWT user is also `ctx.state.user`.
 */
import type { Context, Next } from 'koa';
import type { Database } from '../db/database.js';
import { ForbiddenError, UnauthorizedError } from '../errors.js';
import { ApiTokens, isExpired, type ApiToken } from './api-tokens.js';
import type { JwtService } from './jwt.js';
import { isReadAction, type Policy } from './policy.js';
import type { AuthUser, UsersPermissionsStore } from './store.js';

export const missingOrInvalid = 'Missing or invalid credentials';

export interface Auth {
  readonly strategy: 'api-token' | 'users-permissions';
  /** The user (JWT), the token (API token), or null for the public role. */
  readonly credentials: AuthUser | ApiToken | null;
  readonly user: AuthUser | null;
  readonly token: ApiToken | null;
  /** Role type whose permissions apply: the user's role, `public`, or null for API tokens. */
  readonly role: string | null;
  /**
   * Whether this caller may perform `action` (`api::tag.tag.find`, `plugin::users-permissions.user.me`).
   * Populate and deep filters ask `can('<targetUid>.find')` to drop or refuse types.
   */
  can(action: string): boolean;
}

export interface AuthState {
  auth: Auth;
  /** The authenticated user (JWT strategy only), like Strapi's `ctx.state.user`. */
  user?: AuthUser;
}

export interface AuthenticatorOptions {
  readonly db: Database;
  readonly policy: Policy;
  readonly store: UsersPermissionsStore;
  readonly jwt: JwtService;
  readonly apiTokens: ApiTokens;
  /** `advanced.email_confirmation`: unconfirmed users' JWTs are refused. */
  readonly requireConfirmed: () => boolean;
}

export class Authenticator {
  constructor(private readonly options: AuthenticatorOptions) {}

  /** Authenticates the request; throws UnauthorizedError. Sets nothing on ctx. */
  async authenticate(ctx: Context): Promise<Auth> {
    const bearer = bearerToken(ctx.get('authorization'));
    if (bearer !== null && ApiTokens.looksLikeAccessKey(bearer)) {
      const token = await this.options.apiTokens.findByAccessKey(bearer);
      if (token) {
        if (isExpired(token)) throw new UnauthorizedError('Token expired');
        await this.options.apiTokens.touch(token);
        return tokenAuth(token);
      }
    }
    if (bearer === null) return this.roleAuth('public', null);

    let userId: number | undefined;
    try {
      userId = this.options.jwt.verify(bearer);
    } catch {
      throw new UnauthorizedError(missingOrInvalid);
    }
    if (userId === undefined) throw new UnauthorizedError(missingOrInvalid);
    const user = userId > 0 ? await this.options.store.authUser(this.options.db, userId) : null;
    if (!user || user.blocked || (this.options.requireConfirmed() && !user.confirmed)) throw new UnauthorizedError('Invalid credentials');
    // Strapi fails on `user.role.id` and answers as for a bad token.
    if (!user.role) throw new UnauthorizedError(missingOrInvalid);
    return this.roleAuth(user.role.type, user);
  }

  private roleAuth(role: string, user: AuthUser | null): Auth {
    const { policy } = this.options;
    if (user === null && policy.grantedCount(role) === 0) throw new UnauthorizedError(missingOrInvalid);
    return {
      strategy: 'users-permissions',
      credentials: user,
      user,
      token: null,
      role,
      can: (action) => policy.roleCan(role, action),
    };
  }

  /** Koa middleware guarding one route: authenticate, then require `action`. */
  guard(action: string) {
    return async (ctx: Context, next: Next): Promise<void> => {
      const auth = await this.authenticate(ctx);
      const state = ctx.state as AuthState;
      state.auth = auth;
      if (auth.user) state.user = auth.user;
      if (!auth.can(action)) throw new ForbiddenError();
      await next();
    };
  }
}

function tokenAuth(token: ApiToken): Auth {
  const granted = new Set(token.permissions);
  const can = (action: string): boolean => {
    switch (token.type) {
      case 'full-access':
        return true;
      case 'read-only':
        return isReadAction(action);
      case 'custom':
        return granted.has(action);
      default:
        return false;
    }
  };
  return { strategy: 'api-token', credentials: token, user: null, token, role: null, can };
}

/**
 * The token of `Authorization: Bearer <token>`: the scheme is case-insensitive and the
 * header must have exactly two parts; anything else is no token (Strapi ignores it).
 */
export function bearerToken(header: string): string | null {
  if (!header) return null;
  const parts = header.split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer' || parts[1] === '') return null;
  return parts[1]!;
}
