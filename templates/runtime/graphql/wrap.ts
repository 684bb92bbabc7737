/**
 * Authorization, middlewares and policies around resolvers (Strapi's wrap-resolvers):
 *
 *   authorize → resolversConfig middlewares → policies → plugin middlewares → resolver
 *
 * Authorization: `auth: false` skips it; `auth: { scope }` requires every listed action;
 * with no `auth`, Query and Mutation fields still require their default scope (the Shadow
 * CRUD action), or — for custom operations — an authenticated user or a full-access
 * token. A refusal is `ForbiddenError("Forbidden access")`. Fields with nothing to run
 * keep their resolver untouched, so plain fields cost nothing.
 */
import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Auth } from '../auth/authenticate.js';
import { ForbiddenError, PolicyError } from '../errors.js';
import type { GraphqlContext } from './context.js';
import { answerFromSource, sourceAnswerOf, type SourceAnswer } from './execute.js';
import type { GraphqlExtensionService, GraphqlMiddleware, GraphqlPlugin, GraphqlPolicy, Reference, ResolverConfig } from './extension.js';

export const forbiddenAccess = 'Forbidden access';


/** Throws ForbiddenError unless `auth` may run a resolver needing `scope`. */
export function verify(auth: Auth | undefined, scope: string | readonly string[] | undefined): void {
  if (!auth) throw new ForbiddenError(forbiddenAccess);
  const scopes = scope === undefined ? [] : typeof scope === 'string' ? [scope] : scope;
  if (scopes.length === 0) {
    // No scope: any authenticated user, or a full-access token.
    const allowed = auth.strategy === 'api-token' ? auth.token?.type === 'full-access' : auth.user !== null;
    if (!allowed) throw new ForbiddenError(forbiddenAccess);
    return;
  }
  if (!scopes.every((action) => auth.can(action))) throw new ForbiddenError(forbiddenAccess);
}

export interface WrapOptions {
  /** The user's and plugins' resolversConfig (earlier registrations already won). */
  readonly resolversConfig: Readonly<Record<string, ResolverConfig>>;
  /** Default auth of generated fields (`Query.articles` → `api::article.article.find`, …). */
  readonly defaults: Readonly<Record<string, ResolverConfig>>;
  readonly plugins: readonly GraphqlPlugin[];
  /** Resolves named policies and middlewares. */
  readonly extension: GraphqlExtensionService;
}

export function wrapResolvers(schema: GraphQLSchema, options: WrapOptions): GraphQLSchema {
  const problems: string[] = [];
  // The schema's own root types: a content type may be named `Subscription` (schema.ts).
  const rootTypes = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) => (type ? [type.name] : [])));
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const [fieldName, field] of Object.entries(type.getFields())) {
      if (fieldName.startsWith('__')) continue;
      const path = `${type.name}.${fieldName}`;
      const config: ResolverConfig | undefined =
        options.resolversConfig[path] || options.defaults[path] ? { ...options.defaults[path], ...options.resolversConfig[path] } : undefined;
      const pluginMiddlewares = options.plugins.flatMap((plugin) => plugin.onCreateFieldResolver?.({ typeName: type.name, fieldName }) ?? []);
      const isRoot = rootTypes.has(type.name);
      if (!isRoot && !config && pluginMiddlewares.length === 0) continue;

      const base = (field.resolve ?? defaultFieldResolver) as GraphQLFieldResolver<unknown, GraphqlContext>;
      const checksAuth = config?.auth !== false && (isRoot || config?.auth !== undefined);
      const scope = config?.auth ? config.auth.scope : undefined;
      const middlewares = (config?.middlewares ?? []).map((ref) => middlewareOf(ref, options.extension, path, problems));
      const policies = (config?.policies ?? []).map((ref) => policyOf(ref, options.extension, path, problems));

      // The chain, innermost first: plugins' middlewares, then policies, then resolversConfig middlewares.
      let next: GraphQLFieldResolver<unknown, GraphqlContext> = base;
      for (const middleware of [...pluginMiddlewares].reverse()) next = bind(middleware, next);
      if (policies.length) next = withPolicies(policies, next);
      for (const middleware of [...middlewares].reverse()) next = bind(middleware, next);
      const chain = next;

      if (!checksAuth) {
        field.resolve = chain;
        continue;
      }
      const checked: GraphQLFieldResolver<unknown, GraphqlContext> & { [answerFromSource]?: SourceAnswer } = (parent, args, context: GraphqlContext, info) => {
        verify(context.state.auth, scope);
        return chain(parent, args, context, info);
      };
      // Nothing but the scope check around the resolver: its cheaper answer keeps the check.
      const fromSource = chain === base ? sourceAnswerOf(base) : undefined;
      if (fromSource) {
        checked[answerFromSource] = (source, context, nodes) => {
          verify((context as GraphqlContext).state.auth, scope);
          return fromSource(source, context, nodes);
        };
      }
      field.resolve = checked;
    }
  }
  if (problems.length) throw new Error(`GraphQL extension:\n  ${problems.join('\n  ')}`);
  return schema;
}

function bind(middleware: GraphqlMiddleware, next: GraphQLFieldResolver<unknown, GraphqlContext>): GraphQLFieldResolver<unknown, GraphqlContext> {
  return (parent, args, context, info) => middleware(next, parent, args, context, info);
}

function withPolicies(policies: readonly ((context: Parameters<GraphqlPolicy>[0]) => unknown)[], next: GraphQLFieldResolver<unknown, GraphqlContext>): GraphQLFieldResolver<unknown, GraphqlContext> {
  return async (parent, args, context, info) => {
    const policyContext = { parent, args, context, info, state: context.state, http: context.http };
    for (const policy of policies) {
      const result = await policy(policyContext);
      if (result !== true && result !== undefined) throw new PolicyError();
    }
    return next(parent, args, context, info);
  };
}

function named(ref: Reference<unknown>): { name: string; options: unknown } | undefined {
  if (typeof ref === 'string') return { name: ref, options: undefined };
  if (ref && typeof ref === 'object' && typeof (ref as { name?: unknown }).name === 'string') {
    return { name: (ref as { name: string }).name, options: (ref as { options?: unknown }).options };
  }
  return undefined;
}

function policyOf(ref: Reference<GraphqlPolicy>, extension: GraphqlExtensionService, path: string, problems: string[]): (context: Parameters<GraphqlPolicy>[0]) => unknown {
  if (typeof ref === 'function') return (context) => ref(context, undefined);
  const reference = named(ref);
  const policy = reference && extension.namedPolicy(reference.name);
  if (!reference || !policy) {
    problems.push(`resolversConfig['${path}'].policies: unknown policy ${JSON.stringify(reference?.name ?? ref)} (register it with extension.policy(name, fn))`);
    return () => true;
  }
  return (context) => policy(context, reference.options);
}

function middlewareOf(ref: Reference<GraphqlMiddleware>, extension: GraphqlExtensionService, path: string, problems: string[]): GraphqlMiddleware {
  if (typeof ref === 'function') return ref;
  const reference = named(ref);
  const factory = reference && extension.namedMiddleware(reference.name);
  if (!reference || !factory) {
    problems.push(`resolversConfig['${path}'].middlewares: unknown middleware ${JSON.stringify(reference?.name ?? ref)} (register it with extension.middleware(name, factory))`);
    return (resolve, ...args) => resolve(...args);
  }
  return factory(reference.options);
}
