/**
 * Authorization and resolversConfig around resolvers: verify() for users, the public role
 * and API tokens; `auth: false`; scopes; policies (functions, named, with options) and
 * middlewares in Strapi's order; plugins' onCreateFieldResolver.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { Auth } from '../../../templates/runtime/auth/authenticate.js';
import { ForbiddenError } from '../../../templates/runtime/errors.js';
import { GraphqlExtensionService, type ResolverConfig } from '../../../templates/runtime/graphql/extension.js';
import { verify, wrapResolvers } from '../../../templates/runtime/graphql/wrap.js';

function userAuth(actions: string[], user = true): Auth {
  return {
    strategy: 'users-permissions',
    credentials: null,
    user: user ? ({ id: 1 } as never) : null,
    token: null,
    role: user ? 'authenticated' : 'public',
    can: (action) => actions.includes(action),
  };
}

function tokenAuth(type: 'read-only' | 'full-access' | 'custom', actions: string[] = []): Auth {
  const can = (action: string) => (type === 'full-access' ? true : type === 'read-only' ? /find(One)?$/.test(action) : actions.includes(action));
  return { strategy: 'api-token', credentials: null, user: null, token: { type } as never, role: null, can };
}

describe('verify(auth, scope)', () => {
  it('with a scope: every listed action must be granted', () => {
    expect(() => verify(userAuth(['a.find']), ['a.find'])).not.toThrow();
    expect(() => verify(userAuth(['a.find']), 'a.find')).not.toThrow();
    expect(() => verify(userAuth(['a.find']), ['a.find', 'b.find'])).toThrow(ForbiddenError);
    expect(() => verify(tokenAuth('read-only'), ['a.findOne'])).not.toThrow();
    expect(() => verify(tokenAuth('read-only'), ['a.create'])).toThrow('Forbidden access');
    expect(() => verify(tokenAuth('custom', ['a.create']), ['a.create'])).not.toThrow();
  });

  it('without a scope: an authenticated user or a full-access token; never the public role', () => {
    expect(() => verify(userAuth([]), undefined)).not.toThrow();
    expect(() => verify(userAuth(['a.find'], false), undefined)).toThrow('Forbidden access');
    expect(() => verify(tokenAuth('full-access'), [])).not.toThrow();
    expect(() => verify(tokenAuth('read-only'), undefined)).toThrow(ForbiddenError);
    expect(() => verify(tokenAuth('custom', ['x']), undefined)).toThrow(ForbiddenError);
    expect(() => verify(undefined, ['a.find'])).toThrow(ForbiddenError);
  });
});

const typeDefs = 'type Query { secret: String, open: String, custom: String, post: Post } type Post { title: String, body: String }';

async function run(options: {
  auth: Auth;
  resolversConfig?: Record<string, ResolverConfig>;
  defaults?: Record<string, ResolverConfig>;
  extension?: GraphqlExtensionService;
  plugins?: Parameters<typeof wrapResolvers>[1]['plugins'];
  query: string;
}) {
  const calls: string[] = [];
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: {
      Query: { secret: () => 'secret', open: () => 'open', custom: () => 'custom', post: () => ({ title: 'T', body: 'B' }) },
    },
  });
  wrapResolvers(schema, {
    resolversConfig: options.resolversConfig ?? {},
    defaults: options.defaults ?? { 'Query.secret': { auth: { scope: ['secret.find'] } } },
    plugins: options.plugins ?? [],
    extension: options.extension ?? new GraphqlExtensionService(),
  });
  const result = await execute({ schema, document: parse(options.query), contextValue: { state: { auth: options.auth }, http: {} as never, calls } });
  return { result: JSON.parse(JSON.stringify(result)), calls };
}

describe('wrapResolvers', () => {
  it('Query fields check their default scope; without one, an authenticated caller; others are not checked', async () => {
    const anonymous = userAuth([], false);
    const { result } = await run({ auth: anonymous, query: '{ secret custom post { title } }' });
    expect(result.data).toEqual({ secret: null, custom: null, post: null });
    expect(result.errors.map((e: { message: string }) => e.message)).toEqual(['Forbidden access', 'Forbidden access', 'Forbidden access']);
    const granted = await run({ auth: userAuth(['secret.find']), query: '{ secret custom post { title } }' });
    expect(granted.result).toEqual({ data: { secret: 'secret', custom: 'custom', post: { title: 'T' } } });
  });

  it('auth: false opens a field; auth: { scope } replaces the default', async () => {
    const anonymous = userAuth([], false);
    const open = await run({ auth: anonymous, resolversConfig: { 'Query.secret': { auth: false } }, query: '{ secret }' });
    expect(open.result).toEqual({ data: { secret: 'secret' } });
    const scoped = await run({ auth: userAuth(['other.find']), resolversConfig: { 'Query.secret': { auth: { scope: 'other.find' } } }, query: '{ secret }' });
    expect(scoped.result).toEqual({ data: { secret: 'secret' } });
    // A scope on a non-root field is checked too.
    const nested = await run({ auth: userAuth([]), resolversConfig: { 'Query.post': { auth: false }, 'Post.body': { auth: { scope: ['body.read'] } } }, query: '{ post { title body } }' });
    expect(nested.result.data).toEqual({ post: { title: 'T', body: null } });
    expect(nested.result.errors[0].path).toEqual(['post', 'body']);
  });

  it('policies: true/undefined go on, anything else is PolicyError; named ones with options', async () => {
    const ext = new GraphqlExtensionService().policy('max-title', (ctx, options) => ((ctx.args as { limit?: number }).limit ?? 0) <= (options as { max: number }).max);
    const seen: unknown[] = [];
    const pass = await run({
      auth: userAuth(['secret.find']),
      extension: ext,
      resolversConfig: {
        'Query.secret': {
          policies: [
            (ctx) => {
              seen.push(Object.keys(ctx).sort());
              return undefined;
            },
            { name: 'max-title', options: { max: 5 } },
          ],
        },
      },
      query: '{ secret }',
    });
    expect(pass.result).toEqual({ data: { secret: 'secret' } });
    expect(seen).toEqual([['args', 'context', 'http', 'info', 'parent', 'state']]);
    const refused = await run({ auth: userAuth(['secret.find']), resolversConfig: { 'Query.secret': { policies: [() => false] } }, query: '{ secret }' });
    expect(refused.result.errors[0].message).toBe('Policy Failed');
    expect(refused.result.errors[0].extensions).toBeUndefined();
  });

  it('an unknown named policy or middleware is an error at start', async () => {
    await expect(run({ auth: userAuth([]), resolversConfig: { 'Query.open': { policies: ['nope'] } }, query: '{ open }' })).rejects.toThrow(/unknown policy "nope"/);
    await expect(run({ auth: userAuth([]), resolversConfig: { 'Query.open': { middlewares: ['nope'] } }, query: '{ open }' })).rejects.toThrow(/unknown middleware "nope"/);
  });

  it('runs authorize → middlewares → policies → plugins’ middlewares → resolver', async () => {
    const trace: string[] = [];
    const ext = new GraphqlExtensionService().middleware('named', (options) => async (resolve, ...args) => {
      trace.push(`named(${String(options)})`);
      return resolve(...args);
    });
    const { result } = await run({
      auth: userAuth(['secret.find']),
      extension: ext,
      resolversConfig: {
        'Query.secret': {
          middlewares: [
            async (resolve, ...args) => {
              trace.push('middleware');
              return `${String(await resolve(...args))}!`;
            },
            { name: 'named', options: 'x' },
          ],
          policies: [
            () => {
              trace.push('policy');
              return true;
            },
          ],
        },
      },
      plugins: [
        {
          name: 'upper',
          onCreateFieldResolver: ({ typeName, fieldName }) =>
            typeName === 'Query' && fieldName === 'secret'
              ? async (resolve, ...args) => {
                  trace.push('plugin');
                  return String(await resolve(...args)).toUpperCase();
                }
              : undefined,
        },
      ],
      query: '{ secret open }',
    });
    expect(result).toEqual({ data: { secret: 'SECRET!', open: 'open' } });
    expect(trace).toEqual(['middleware', 'named(x)', 'policy', 'plugin']);
  });
});
