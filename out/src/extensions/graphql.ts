// Created once by contentgen; this file is yours to edit and is never overwritten.
/**
 * GraphQL extension: customise the schema served at /graphql (Strapi v4's extension
 * service, `strapi.plugin('graphql').service('extension')`). The server calls `register`
 * once at start; `contentgen build` calls it too, so schema.graphql shows what you change
 * here — rebuild after editing. Keep this module free of side effects: only `register` runs.
 *
 * Shadow CRUD (the generated types, queries and mutations):
 *   extension.shadowCRUD('api::article.article').disable();                    // the whole type
 *   extension.shadowCRUD('api::article.article').disableQueries();             // or disableMutations()
 *   extension.shadowCRUD('api::article.article').disableActions(['delete']);   // find findOne create update delete, '*'
 *   extension.shadowCRUD('api::article.article').field('title').disableOutput(); // disable() disableInput() disableFilters()
 *
 * Your own types and resolvers (typeDefs in SDL, or graphql-js `types` from a factory):
 *   extension.use({
 *     typeDefs: `extend type Query { hello(name: String!): String! }`,
 *     resolvers: { Query: { hello: (_parent: unknown, args: { name: string }) => `Hello ${args.name}` } },
 *     resolversConfig: {
 *       'Query.hello': { auth: false },                                  // or { auth: { scope: ['api::article.article.find'] } }
 *       'Query.articles': { policies: ['is-authenticated'] },
 *     },
 *   });
 *   extension.policy('is-authenticated', ({ state }) => state.user !== undefined);
 *   extension.use(({ graphql, typeRegistry }) => ({ types: [new graphql.GraphQLObjectType({ … })] }));
 *
 * Without a resolversConfig entry, a custom Query or Mutation field needs an authenticated
 * user (or a full-access API token); generated ones need their permission (`find`, …).
 * Types of every input, argument and object of the schema: src/generated/graphql/types.ts
 * (e.g. `import type { QueryArticlesArgs } from '../generated/graphql/types.js'`).
 */
import type { GraphqlExtensionService } from '../runtime/graphql/index.js';

export default function register(extension: GraphqlExtensionService): void {
  void extension;
}
