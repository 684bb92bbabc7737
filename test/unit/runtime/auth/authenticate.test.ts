/**
 * Authentication decisions that no fixture reaches over HTTP (a public role with no
 * permission at all), the Authorization header parsing, the policy table's questions and
 * the yup-compatible body validation.
 */
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { ApiTokens } from '../../../../templates/runtime/auth/api-tokens.js';
import { Authenticator, bearerToken } from '../../../../templates/runtime/auth/authenticate.js';
import { JwtService } from '../../../../templates/runtime/auth/jwt.js';
import { isReadAction, Policy, type PolicyTable } from '../../../../templates/runtime/auth/policy.js';
import type { UsersPermissionsStore } from '../../../../templates/runtime/auth/store.js';
import { validateBody } from '../../../../templates/runtime/auth/validation.js';
import type { Database } from '../../../../templates/runtime/db/database.js';
import { UnauthorizedError, ValidationError } from '../../../../templates/runtime/errors.js';

const table = (publicActions: string[]): PolicyTable => ({
  roles: [
    { type: 'authenticated', name: 'Authenticated', description: '', actions: ['api::tag.tag.find'] },
    { type: 'public', name: 'Public', description: '', actions: publicActions },
  ],
  actions: { 'api::tag': { tag: ['find', 'findOne', 'create', 'update', 'delete'] } },
});

function authenticator(policy: Policy) {
  const db = {} as Database;
  return new Authenticator({
    db,
    policy,
    store: { authUser: async () => null } as unknown as UsersPermissionsStore,
    jwt: new JwtService('secret', '30d'),
    apiTokens: new ApiTokens(db, 'salt', policy),
    requireConfirmed: () => false,
  });
}

const ctx = (authorization = '') => ({ get: (name: string) => (name.toLowerCase() === 'authorization' ? authorization : '') }) as unknown as Context;

describe('Authenticator', () => {
  it('no header: the public role, with can() from the policy table', async () => {
    const auth = await authenticator(new Policy(table(['api::tag.tag.find']))).authenticate(ctx());
    expect(auth).toMatchObject({ strategy: 'users-permissions', credentials: null, user: null, token: null, role: 'public' });
    expect(auth.can('api::tag.tag.find')).toBe(true);
    expect(auth.can('api::tag.tag.create')).toBe(false);
  });

  it('a public role with no permission at all: 401 "Missing or invalid credentials" (Strapi)', async () => {
    const error = await authenticator(new Policy(table([]))).authenticate(ctx()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toBe('Missing or invalid credentials');
  });

  it('a JWT of another secret or for no user', async () => {
    const a = authenticator(new Policy(table(['api::tag.tag.find'])));
    await expect(a.authenticate(ctx(`Bearer ${new JwtService('other', '1h').issue(1)}`))).rejects.toThrow('Missing or invalid credentials');
    await expect(a.authenticate(ctx(`Bearer ${new JwtService('secret', '1h').issue(1)}`))).rejects.toThrow('Invalid credentials');
  });
});

describe('bearerToken', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER abc', 'abc'],
    ['Bearer  abc', 'abc'],
    ['Bearer', null],
    ['Bearer a b', null],
    ['Basic abc', null],
    ['', null],
  ])('%j → %j', (header, token) => expect(bearerToken(header)).toBe(token));
});

describe('Policy', () => {
  it('knows the catalog, role grants and read actions', () => {
    const policy = new Policy(table(['api::tag.tag.find']));
    expect(policy.allActions()).toEqual(['api::tag.tag.find', 'api::tag.tag.findOne', 'api::tag.tag.create', 'api::tag.tag.update', 'api::tag.tag.delete']);
    expect(policy.unknownActions(['api::tag.tag.find', 'api::tag.tag.fly'])).toEqual(['api::tag.tag.fly']);
    expect(policy.roleCan('authenticated', 'api::tag.tag.find')).toBe(true);
    expect(policy.roleCan('nobody', 'api::tag.tag.find')).toBe(false);
    expect(['find', 'findOne', 'count', 'me', 'create'].map((a) => isReadAction(`x.y.${a}`))).toEqual([true, true, false, false, false]);
    expect(() => new Policy({ roles: [], actions: {} })).toThrow('no "public" role');
  });
});

describe('validateBody', () => {
  const schema = {
    fields: {
      password: { required: true, passwordBytes: true },
      passwordConfirmation: { required: true, sameAs: { field: 'password', message: 'Passwords do not match' } },
    },
    noUnknown: true,
  } as const;

  it('reports every error in yup\'s shape, unknown keys first', () => {
    const error = (() => {
      try {
        validateBody(schema, { password: 5, extra: true });
      } catch (e) {
        return e as ValidationError;
      }
    })()!;
    expect(error.message).toBe('3 errors occurred');
    expect(error.details.errors).toEqual([
      { path: [], message: 'this field has unspecified keys: extra', name: 'ValidationError' },
      { path: ['password'], message: 'password must be a `string` type, but the final value was: `5`.', name: 'ValidationError' },
      { path: ['passwordConfirmation'], message: 'passwordConfirmation is a required field', name: 'ValidationError' },
    ]);
  });

  it('checks the 72-byte bcrypt limit and references', () => {
    expect(() => validateBody(schema, { password: 'a'.repeat(73), passwordConfirmation: 'a'.repeat(73) })).toThrow('Password must be less than 73 bytes');
    expect(() => validateBody(schema, { password: 'abcdef', passwordConfirmation: 'abcdeg' })).toThrow('Passwords do not match');
    expect(validateBody(schema, { password: 'abcdef', passwordConfirmation: 'abcdef' })).toEqual({ password: 'abcdef', passwordConfirmation: 'abcdef' });
    expect(() => validateBody(schema, [1])).toThrow('this must be a `object` type');
  });
});
