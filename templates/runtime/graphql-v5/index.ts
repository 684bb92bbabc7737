/**
 * Strapi 5's GraphQL Content API beside the v4 one (#30 item 3), a server plugin src/server.ts
 * lists after `graphqlPlugin` when the project installs GraphQL: the schema of schema.v5.graphql
 * (schema.ts) with the read resolvers of resolvers.ts, on `v5.graphql.path` (`/v5/graphql`),
 * through the v4 endpoint's HTTP handling, limits, cost checks and planner (graphql/http.ts)
 * with the list limits of `plugins.graphql`; the mutations of mutations.ts write through the v5
 * REST dialect's input path and the v4 services.
 */
import { addResolversToSchema } from '@graphql-tools/schema';
import type { GraphQLSchema } from 'graphql';
import { Extensions } from '../extend/extensions.js';
import type { EntityService } from '../entity/service.js';
import type { PluginCore, ServerPlugin } from '../plugin.js';
import { graphqlEndpoint } from '../graphql/http.js';
import { endpointLimits } from '../graphql/index.js';
import { RelationLoader } from '../graphql/loader.js';
import { v5Mutations } from './mutations.js';
import { v5Node, v5Resolvers } from './resolvers.js';
import { buildV5Schema } from './schema.js';

export { buildV5Schema, printV5Schema } from './schema.js';

export function graphqlV5Plugin(): ServerPlugin {
  return {
    name: 'graphql (Strapi 5)',
    mount(core) {
      try {
        return { middleware: createGraphqlV5(core).middleware };
      } catch (err) {
        // A model whose names clash with Strapi 5's own (schema.v5.graphql says which): v4 is served alone.
        console.warn(`${core.config.v5.graphql.path} is not served: ${(err as Error).message.split('\n')[0]}`);
        return {};
      }
    },
  };
}

export function createGraphqlV5(core: PluginCore): { schema: GraphQLSchema; middleware: ReturnType<typeof graphqlEndpoint> } {
  const config = core.config.plugins.graphql;
  const { path: endpoint, v4CompatibilityMode } = core.config.v5.graphql;
  const limits = { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit };
  const services = new Map<string, EntityService>();
  const service = (uid: string): EntityService => {
    let found = services.get(uid);
    if (!found) {
      const meta = core.registry.contentTypes.get(uid);
      if (!meta) throw new Error(`GraphQL v5: no content type ${uid}`);
      found = (core.extensions ?? Extensions.none(core.registry)).entityService(meta, {
        db: core.db,
        registry: core.registry,
        limits: { ...limits, withCount: false },
        populate: { maxDepth: 100, maxRelationEntries: Number.MAX_SAFE_INTEGER },
        hashPassword: (plain) => core.auth.passwords.hash(plain),
        ...(core.events ? { events: core.events } : {}),
      });
      services.set(uid, found);
    }
    return found;
  };
  const built = buildV5Schema(core.registry, { v4CompatibilityMode });
  const { db, registry } = core;
  const mutations = v5Mutations({
    registry,
    db,
    service,
    node: (context, meta, entry, draft, documentId) => v5Node(context, db, meta, entry, draft, documentId),
    plugins: { auth: core.auth, ...(core.upload ? { upload: core.upload } : {}) },
  });
  const schema = addResolversToSchema({
    schema: built,
    resolvers: { ...v5Resolvers({ registry, db, service, limits }), ...mutations } as never,
    resolverValidationOptions: { requireResolversToMatchSchema: 'ignore' },
  });
  const middleware = graphqlEndpoint({
    endpoint,
    schema,
    authenticator: core.auth.authenticator,
    ...endpointLimits(config, core.environment, core.upload?.config),
    newLoader: () => new RelationLoader({ db: core.db, registry: core.registry, limits }),
    // Strapi 5 (Apollo Server 4) answers resolver errors without `locations`.
    fieldError: ({ locations: _locations, ...error }) => error,
    plainVariableErrors: true,
    negotiateMediaType: true,
    log: core.log,
  });
  return { schema, middleware };
}
