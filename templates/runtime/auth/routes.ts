/**
 * The users-permissions plugin's content-API routes (reference §6.1), with Strapi's bodies,
 * status codes and messages (§6.2). Each route names the action it requires, like content
 * routes; the auth routes Strapi rate-limits are marked so.
 *
 * Not served: `/connect/*` and `/auth/:provider/callback` (no OAuth providers), and role
 * creation, update and deletion (roles come from permissions.json).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'koa';
import type { UsersPermissionsConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.js';
import { parseQueryString } from '../query/parse.js';
import type { AuthState } from './authenticate.js';
import type { JwtService } from './jwt.js';
import { confirmationMessage, resetPasswordMessage, type MailSender } from './mail.js';
import type { Passwords } from './passwords.js';
import type { Policy } from './policy.js';
import { bodyField, type RateLimitTarget } from './rate-limit.js';
import type { UsersPermissionsStore } from './store.js';
import { parseUserId, type UserService } from './users.js';
import { asObject, notType, validateBody } from './validation.js';


/** Why role writes are refused: the roles and their permissions come from permissions.json. */
export const rolesFromFile = 'Roles are defined in permissions.json: edit it and rebuild the server to change them';

export type AuthContext = Context & { state: AuthState };

export interface PluginRoute {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path under the REST prefix, in @koa/router syntax. */
  readonly path: string;
  /** The permission this route requires. */
  readonly action: string;
  /** Rate-limited like Strapi's auth routes (and send-email-confirmation, which sends mail). */
  readonly rateLimited: boolean;
  /**
   * What the rate limit counts per (with the path and IP): what this route acts on, read as
   * the route reads it, never a body field the route ignores. Absent: the path and IP alone.
   */
  readonly rateLimitTarget?: RateLimitTarget;
  readonly handler: (ctx: AuthContext) => Promise<void>;
}

export interface UsersPermissionsDeps {
  readonly db: Database;
  readonly policy: Policy;
  readonly store: UsersPermissionsStore;
  readonly users: UserService;
  readonly jwt: JwtService;
  readonly passwords: Passwords;
  readonly config: UsersPermissionsConfig;
  readonly sendMail: MailSender;
  /** Absolute URL of the email-confirmation route, for confirmation emails. */
  readonly confirmationUrl: () => string;
  readonly log: (err: unknown) => void;
}

const plugin = 'plugin::users-permissions';

const loginSchema = { fields: { identifier: { required: true }, password: { required: true } } } as const;
const registerSchema = {
  fields: { email: { required: true, email: true }, username: { required: true }, password: { required: true, passwordBytes: true } },
} as const;
const changePasswordSchema = {
  fields: {
    password: { required: true, passwordBytes: true },
    passwordConfirmation: { required: true, sameAs: { field: 'password', message: 'Passwords do not match' } },
    currentPassword: { required: true },
  },
  noUnknown: true,
} as const;
const forgotPasswordSchema = { fields: { email: { required: true, email: true } }, noUnknown: true } as const;
const resetPasswordSchema = {
  fields: { password: { required: true, passwordBytes: true }, passwordConfirmation: { required: true }, code: { required: true } },
  noUnknown: true,
} as const;
const emailSchema = { fields: { email: { required: true, email: true } } } as const;
const confirmationSchema = { fields: { confirmation: { required: true } } } as const;
const createUserSchema = {
  fields: { email: { required: true, email: true }, username: { required: true, min: 1 }, password: { required: true, min: 1, passwordBytes: true } },
} as const;
const updateUserSchema = { fields: { email: { email: true, min: 1 }, username: { min: 1 }, password: { min: 1, passwordBytes: true } } } as const;

/** Reset and confirmation codes are stored hashed: a database leak does not leak them. */
export function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export function usersPermissionsRoutes(deps: UsersPermissionsDeps): PluginRoute[] {
  const { db, policy, store, users, jwt, passwords, config } = deps;
  const advanced = () => config.advanced;
  /** `limit`: rate-limited, per this target (null: per path and IP only). */
  const route = (method: PluginRoute['method'], path: string, action: string, handler: PluginRoute['handler'], limit?: RateLimitTarget | null): PluginRoute => ({
    method,
    path,
    action: `${plugin}.${action}`,
    rateLimited: limit !== undefined,
    ...(limit ? { rateLimitTarget: limit } : {}),
    handler,
  });
  const bodyTarget = (name: string): RateLimitTarget => (ctx) => bodyField(ctx, name);
  const currentUser: RateLimitTarget = (ctx) => (ctx.state.user ? `user:${ctx.state.user.id}` : undefined);
  const can = (ctx: AuthContext) => (action: string) => ctx.state.auth.can(action);
  const sendMail = (message: Parameters<MailSender>[0]) => deps.sendMail(message);

  return [
    route('POST', '/auth/local', 'auth.callback', async (ctx) => {
      const { identifier, password } = validateBody(loginSchema, body(ctx));
      const candidate = await store.loginCandidate(db, identifier!);
      // Without a user the password is still compared (with a dummy hash): same timing.
      const valid = await passwords.verify(password!, candidate?.password);
      if (!candidate || !valid) throw new ValidationError('Invalid identifier or password');
      if (advanced().email_confirmation && !candidate.confirmed) throw new ApplicationError('Your account email is not confirmed');
      if (candidate.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
      ctx.body = { jwt: jwt.issue(candidate.id), user: await users.findOne(candidate.id, {}, can(ctx)) };
    }, bodyTarget('identifier')),

    route('POST', '/auth/local/register', 'auth.register', async (ctx) => {
      const settings = advanced();
      if (!settings.allow_register) throw new ApplicationError('Register action is currently disabled');
      const raw = asObject(body(ctx));
      const allowed = new Set(['username', 'password', 'email', ...users.registerFields(config.register.allowedFields)]);
      const params: Record<string, unknown> = {};
      for (const key of Object.keys(raw)) if (allowed.has(key)) params[key] = raw[key];
      params.provider = 'local';
      const { email, username } = validateBody(registerSchema, params) as { email: string; username: string };

      const role = await store.roleByType(db, settings.default_role);
      if (!role) throw new ApplicationError('Impossible to find the default role');
      const lower = email.toLowerCase();
      const clauses = [['email', lower], ['username', lower], ['username', username], ['email', username]] as const;
      const notTaken = async (tx: Database) => {
        const clashes = await store.userIdsWhere(tx, clauses, settings.unique_email ? undefined : ['provider', 'local']);
        if (clashes.length) throw new ApplicationError('Email or Username are already taken');
      };
      await notTaken(db); // Strapi's order: a taken email is refused before the entity is validated

      const confirmation = settings.email_confirmation ? randomBytes(20).toString('hex') : null;
      const id = await users.create(
        { ...params, email: lower, username, confirmed: !settings.email_confirmation, ...(confirmation ? { confirmationToken: hashCode(confirmation) } : {}) },
        role.id,
        notTaken,
      );
      const user = await users.findOne(id, { populate: 'role' }, can(ctx));
      if (confirmation) {
        await sendMail(confirmationMessage(lower, deps.confirmationUrl(), confirmation, config.email));
        ctx.body = { user };
        return;
      }
      ctx.body = { jwt: jwt.issue(id), user };
    }, bodyTarget('email')),

    route('POST', '/auth/forgot-password', 'auth.forgotPassword', async (ctx) => {
      const { email } = validateBody(forgotPasswordSchema, body(ctx));
      const id = await users.idWhere('email', email!.toLowerCase());
      const user = id === null ? null : await store.authUser(db, id);
      // Same answer for unknown and blocked emails; the mail goes out after the answer.
      if (user && !user.blocked) {
        const token = randomBytes(64).toString('hex');
        await users.setColumns(user.id, { resetPasswordToken: hashCode(token) });
        sendMail(resetPasswordMessage(user.email ?? email!, advanced().email_reset_password, token, config.email)).catch(deps.log);
      }
      ctx.body = { ok: true };
    }, bodyTarget('email')),

    route('POST', '/auth/reset-password', 'auth.resetPassword', async (ctx) => {
      const { password, passwordConfirmation, code } = validateBody(resetPasswordSchema, body(ctx));
      if (password !== passwordConfirmation) throw new ValidationError('Passwords do not match');
      const id = await users.idWhere('resetPasswordToken', hashCode(code!));
      if (id === null) throw new ValidationError('Incorrect code provided');
      await users.update(id, { resetPasswordToken: null, password });
      ctx.body = { jwt: jwt.issue(id), user: await users.findOne(id, {}, can(ctx)) };
    }, null), // the code is what is guessed: counted per path and IP

    route('POST', '/auth/change-password', 'auth.changePassword', async (ctx) => {
      const me = ctx.state.user;
      if (!me) throw new ApplicationError('You must be authenticated to reset your password');
      const { currentPassword, password } = validateBody(changePasswordSchema, body(ctx));
      const stored = await store.credentials(db, me.id);
      if (!(await passwords.verify(currentPassword!, stored?.password))) throw new ValidationError('The provided current password is invalid');
      if (currentPassword === password) throw new ValidationError('Your new password must be different than your current password');
      const before = await users.findOne(me.id, {}, can(ctx));
      await users.update(me.id, { password });
      ctx.body = { jwt: jwt.issue(me.id), user: before };
    }, currentUser),

    route('GET', '/auth/email-confirmation', 'auth.emailConfirmation', async (ctx) => {
      const { confirmation } = validateBody(confirmationSchema, query(ctx));
      const id = await users.idWhere('confirmationToken', hashCode(confirmation!));
      if (id === null) throw new ValidationError('Invalid token');
      await users.setColumns(id, { confirmed: true, confirmationToken: null });
      ctx.redirect(advanced().email_confirmation_redirection || '/');
    }),

    // One answer for unknown, confirmed, blocked and unconfirmed addresses (Strapi answers 400
    // `Already confirmed` / `User blocked` for known ones, which tells who has an account); the
    // mail goes out after the answer, so its delay does not tell either.
    route('POST', '/auth/send-email-confirmation', 'auth.sendEmailConfirmation', async (ctx) => {
      const { email } = validateBody(emailSchema, body(ctx));
      const id = await users.idWhere('email', email!.toLowerCase());
      const user = id === null ? null : await store.authUser(db, id);
      if (user && !user.confirmed && !user.blocked) {
        const token = randomBytes(20).toString('hex');
        await users.setColumns(user.id, { confirmationToken: hashCode(token) });
        sendMail(confirmationMessage(user.email ?? email!, deps.confirmationUrl(), token, config.email)).catch(deps.log);
      }
      ctx.body = { email: email!.toLowerCase(), sent: true };
    }, bodyTarget('email')),

    // Fixed paths before /users/:id.
    route('GET', '/users/count', 'user.count', async (ctx) => {
      ctx.body = await users.count(query(ctx), can(ctx));
    }),

    route('GET', '/users/me', 'user.me', async (ctx) => {
      const me = ctx.state.user;
      if (!me) throw new UnauthorizedError();
      ctx.body = await users.findOne(me.id, query(ctx), can(ctx));
    }),

    route('GET', '/users', 'user.find', async (ctx) => {
      ctx.body = await users.find(query(ctx), can(ctx));
    }),

    route('GET', '/users/:id', 'user.findOne', async (ctx) => {
      // An unknown id sets a null body: Koa answers 204, as Strapi does.
      ctx.body = await users.findOne(ctx.params.id, query(ctx), can(ctx));
    }),

    route('POST', '/users', 'user.create', async (ctx) => {
      const input = asObject(body(ctx));
      validateBody(createUserSchema, input);
      const email = (input.email as string).toLowerCase();
      const username = input.username as string;
      const notTaken = async (tx: Database) => {
        if ((await store.userIdsWhere(tx, [['username', username]])).length) throw new ApplicationError('Username already taken');
        if (advanced().unique_email && (await store.userIdsWhere(tx, [['email', email]])).length) throw new ApplicationError('Email already taken');
      };
      await notTaken(db); // checked again under the lock, inside create
      const data: Record<string, unknown> = { ...input, email, provider: 'local' };
      delete data.role;
      let id: number;
      try {
        id = await users.create(data, await resolveRole(deps, input.role, advanced().default_role), notTaken);
      } catch (err) {
        // Strapi's user controller rethrows entity errors as ApplicationError(message).
        if (err instanceof ApplicationError) throw new ApplicationError(err.message);
        throw err;
      }
      ctx.status = 201;
      ctx.body = await users.findOne(id, { populate: 'role' }, can(ctx));
    }),

    route('PUT', '/users/:id', 'user.update', async (ctx) => {
      const id = parseUserId(ctx.params.id);
      const credentials = id === null ? null : await store.credentials(db, id);
      if (id === null || !credentials) throw new NotFoundError('User not found');
      const input = asObject(body(ctx));
      if (credentials.provider === 'local' && Object.hasOwn(input, 'password') && !input.password) throw new ValidationError('password.notNull');
      validateBody(updateUserSchema, input);
      const data: Record<string, unknown> = { ...input };
      delete data.role;
      const email = typeof input.email === 'string' ? input.email.toLowerCase() : undefined;
      if (email !== undefined) data.email = email;
      const takenByAnother = async (tx: Database, attribute: string, value: unknown) =>
        (await store.userIdsWhere(tx, [[attribute, value]])).some((other) => other !== id);
      const notTaken = async (tx: Database) => {
        if (Object.hasOwn(input, 'username') && (await takenByAnother(tx, 'username', input.username))) throw new ApplicationError('Username already taken');
        if (email !== undefined && advanced().unique_email && (await takenByAnother(tx, 'email', email))) throw new ApplicationError('Email already taken');
      };
      await notTaken(db); // checked again under the lock, inside update
      const roleId = Object.hasOwn(input, 'role') ? await resolveRole(deps, input.role, null) : undefined;
      await users.update(id, data, roleId, notTaken);
      ctx.body = await users.findOne(id, { populate: 'role' }, can(ctx));
    }),

    route('DELETE', '/users/:id', 'user.destroy', async (ctx) => {
      ctx.body = await users.delete(ctx.params.id, {}, can(ctx));
    }),

    route('GET', '/users-permissions/roles', 'role.find', async (ctx) => {
      // In id order: Strapi 4.26.2's role service asks for `sort: ['name']`, which its query API
      // ignores (it reads `orderBy`), so it answers the table's order (recorded on SQLite,
      // PostgreSQL and MariaDB: fixtures/strapi-data/import/answers.*.json).
      const [roles, counts] = await Promise.all([store.roles(db), store.userCounts(db)]);
      ctx.body = { roles: roles.map((role) => ({ ...role, nb_users: counts.get(Number(role.id)) ?? 0 })) };
    }),

    route('GET', '/users-permissions/roles/:id', 'role.findOne', async (ctx) => {
      const id = parseUserId(ctx.params.id);
      const role = id === null ? undefined : (await store.roles(db)).find((r) => r.id === id);
      if (!role) throw new NotFoundError('Role not found');
      const enabled = new Set((await store.permissionsOfRole(db, id!)).map((p) => p.action));
      ctx.body = { role: { ...role, permissions: policy.permissionTree((action) => enabled.has(action)) } };
    }),

    // Strapi's role writes: here roles are permissions.json's (the policy table), refused as in GraphQL.
    route('POST', '/users-permissions/roles', 'role.createRole', async () => {
      throw new ApplicationError(rolesFromFile);
    }),
    route('PUT', '/users-permissions/roles/:id', 'role.updateRole', async () => {
      throw new ApplicationError(rolesFromFile);
    }),
    route('DELETE', '/users-permissions/roles/:id', 'role.deleteRole', async () => {
      throw new ApplicationError(rolesFromFile);
    }),

    route('GET', '/users-permissions/permissions', 'permissions.getPermissions', async (ctx) => {
      ctx.body = { permissions: policy.permissionTree() };
    }),
  ];
}

/**
 * A role given in a user body: an id, or `{ connect: [{ id }] }`. Absent (and `fallback`
 * set): the default role. Unknown ids are Strapi's relation error.
 */
async function resolveRole(deps: UsersPermissionsDeps, value: unknown, fallback: string | null): Promise<number> {
  if (value === undefined && fallback !== null) {
    const role = await deps.store.roleByType(deps.db, fallback);
    if (!role) throw new ApplicationError('Impossible to find the default role');
    return role.id;
  }
  let raw: unknown = value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const connect = (value as Record<string, unknown>).connect;
    if (!Array.isArray(connect) || connect.length === 0) throw new ValidationError('Users must have a role', { errors: [{ path: ['role', 'connect'], message: 'Users must have a role', name: 'ValidationError' }] });
    raw = (connect[0] as { id?: unknown } | null)?.id;
  }
  const id = typeof raw === 'number' || typeof raw === 'string' ? parseUserId(raw) : null;
  if (id === null) throw new ValidationError(notType('role', 'strapiID', raw));
  const role = await deps.store.roleById(deps.db, id);
  if (!role) throw new ValidationError('1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist');
  return role.id;
}

function body(ctx: AuthContext): unknown {
  return (ctx.request as { body?: unknown }).body;
}

function query(ctx: AuthContext): Record<string, unknown> {
  return parseQueryString(ctx.querystring);
}
