/**
 * The user's code of a running server, checked once at start: each src/api/<name>.ts by
 * content type, the named policies and middlewares. REST (app.ts) and GraphQL
 * (graphql/index.ts) ask it for a type's lifecycles, service overrides and route config.
 */
import type Koa from 'koa';
import type { GraphqlExtensionService, GraphqlMiddleware } from '../graphql/extension.js';
import { EntityService, type EntityServiceOptions } from '../entity/service.js';
import { LocalizedEntityService } from '../i18n/service.js';
import type { ContentTypeMeta, Registry } from '../meta.js';
import { customizeService, type ContentApi } from './content-api.js';
import type { UserCode } from './index.js';
import type { Lifecycles } from './lifecycles.js';
import { middlewareKey, type MiddlewareFactory, type MiddlewareTools } from './middlewares.js';
import { policyKey, type Policy } from './policies.js';

export class Extensions {
  readonly policies: ReadonlyMap<string, Policy>;
  readonly middlewares: ReadonlyMap<string, MiddlewareFactory>;
  readonly #apis = new Map<string, ContentApi<any, any>>();

  constructor(
    readonly code: UserCode,
    registry: Registry,
  ) {
    for (const api of code.apis) {
      if (!registry.contentTypes.has(api.uid)) throw new Error(`src/api: defineContentApi('${api.uid}', …) names no content type of this server`);
      if (this.#apis.has(api.uid)) throw new Error(`src/api: ${api.uid} is customised by two files`);
      this.#apis.set(api.uid, api);
    }
    this.policies = new Map(Object.entries(code.policies).map(([name, policy]) => [policyKey(name), policy]));
    this.middlewares = new Map(Object.entries(code.middlewares).map(([name, factory]) => [middlewareKey(name), factory]));
  }

  static none(registry: Registry): Extensions {
    return new Extensions({ apis: [], policies: {}, middlewares: {} }, registry);
  }

  api(uid: string): ContentApi<any, any> | undefined {
    return this.#apis.get(uid);
  }

  /**
   * The entity service of a type as REST and GraphQL use it (each with its own limits): its
   * lifecycle hooks, then the user's service overrides.
   */
  entityService(meta: ContentTypeMeta, options: Omit<EntityServiceOptions, 'lifecycles'>): EntityService {
    const api = this.#apis.get(meta.uid);
    const lifecycles: Lifecycles<any, any> | undefined = api?.lifecycles;
    return customizeService(createEntityService(meta, { ...options, ...(lifecycles ? { lifecycles } : {}) }), api);
  }

  /**
   * Makes the named policies and middlewares usable from GraphQL `resolversConfig`
   * (`policies: ['global::is-owner']`), before the user's GraphQL extension registers its own.
   */
  registerGraphql(extension: GraphqlExtensionService, tools: MiddlewareTools): void {
    for (const [name, policy] of this.policies) {
      const graphqlPolicy = (context: Parameters<Parameters<GraphqlExtensionService['policy']>[1]>[0], options: unknown) => policy({ ...context, type: 'graphql' }, options);
      extension.policy(name, graphqlPolicy).policy(`global::${name}`, graphqlPolicy);
    }
    for (const [name, factory] of this.middlewares) {
      const adapt = (options: unknown) => resolverMiddleware(factory((options ?? {}) as never, tools));
      extension.middleware(name, adapt).middleware(`global::${name}`, adapt);
    }
  }
}

/** A Koa middleware around a resolver: `next()` runs the resolver; its result is the field's value. */
function resolverMiddleware(middleware: Koa.Middleware<any, any>): GraphqlMiddleware {
  return async (resolve, parent, args, context, info) => {
    let result: unknown;
    await middleware(context.http as never, async () => {
      result = await resolve(parent, args, context, info);
    });
    return result;
  };
}

/** The service of a type: a localized type's reads and writes one locale at a time (i18n/service.ts). */
function createEntityService(meta: ContentTypeMeta, options: EntityServiceOptions): EntityService {
  return meta.localized ? new LocalizedEntityService(meta, options) : new EntityService(meta, options);
}
