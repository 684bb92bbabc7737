/**
 * Emits schema.graphql, the Content API's GraphQL schema as readable SDL, its TypeScript
 * types (src/generated/graphql/types.ts) and the user-owned src/extensions/graphql.ts
 * (created once).
 *
 * The schema is built by the server's own builder (templates/runtime/graphql/schema.ts)
 * from the same metadata the server reads, with the users-permissions and upload plugins
 * and the user's extension registered as on the server: the file shows exactly the schema
 * `/graphql` serves, disabled types, actions and fields included. Types are sorted by name;
 * fields keep the models' order.
 */
import type { ContentTypeMeta, ComponentMeta, Registry } from '../../../templates/runtime/meta.js';
import { GraphqlExtensionService } from '../../../templates/runtime/graphql/extension.js';
import { graphqlRegistry } from '../../../templates/runtime/graphql/exclusions.js';
import * as naming from '../../../templates/runtime/graphql/naming.js';
import { registerPlugins } from '../../../templates/runtime/graphql/plugins.js';
import { buildContentApiSchema, printContentApiSchema } from '../../../templates/runtime/graphql/schema.js';
import type { GraphQLSchema } from 'graphql';
import type { Schema } from '../../ir/types.js';
import { defaultGraphqlInputs, graphqlExtensionPath, type GraphqlInputs } from '../../load/load-graphql.js';
import { FileMap } from '../file-map.js';
import { componentMeta, contentTypeMeta } from '../rest/content-types.js';
import { render } from '../templates.js';
import { schemaTypes } from './types.js';

export const schemaPath = 'schema.graphql';
export const typesPath = 'src/generated/graphql/types.ts';

const schemaNote =
  '# The GraphQL schema served at /graphql: the models, src/extensions/graphql.ts and\n' +
  '# plugins.graphql.shadowCRUD of src/config.ts, printed by `contentgen build`.\n\n';

/** The runtime metadata of every type and component, in the order the server lists them. */
export function registryOf(ir: Schema): Registry {
  return {
    contentTypes: new Map(ir.contentTypes.map((ct) => [ct.uid, contentTypeMeta(ct) as ContentTypeMeta])),
    components: new Map(
      ir.components.map((c): [string, ComponentMeta] => [c.uid, componentMeta(c)]),
    ),
  };
}

/** The schema the server serves for these models and user inputs (without resolvers). */
export function buildGraphqlSchema(ir: Schema, inputs: GraphqlInputs = defaultGraphqlInputs): GraphQLSchema {
  const registry = graphqlRegistry(registryOf(ir));
  const extension = new GraphqlExtensionService();
  if (inputs.shadowCRUD) registerPlugins(extension, registry);
  try {
    inputs.register?.(extension as never);
    return buildContentApiSchema({ registry, extension, shadowCRUD: inputs.shadowCRUD }).schema;
  } catch (err) {
    throw new Error(`${graphqlExtensionPath}: ${(err as Error).message}; nothing was written`);
  }
}

/** The printed schema for these models and user inputs. */
export function printGraphqlSchema(ir: Schema, inputs: GraphqlInputs = defaultGraphqlInputs): string {
  return printContentApiSchema(buildGraphqlSchema(ir, inputs));
}

export function emitGraphql(ir: Schema, inputs: GraphqlInputs = defaultGraphqlInputs): FileMap {
  const files = new FileMap();
  const schema = buildGraphqlSchema(ir, inputs);
  files.add(schemaPath, schemaNote + printContentApiSchema(schema));
  files.add(typesPath, schemaTypes(schema));
  const inSchema = ir.contentTypes.filter((ct) => ct.graphql !== false);
  const example = inSchema.find((ct) => !ct.plugin && ct.kind === 'collectionType') ?? inSchema.find((ct) => !ct.plugin) ?? ir.contentTypes[0]!;
  const meta = contentTypeMeta(example) as ContentTypeMeta;
  const field = example.attributes.find((a) => a.name !== 'id')?.name ?? 'createdAt';
  const query = meta.kind === 'collectionType' ? naming.findQueryName(meta) : naming.findOneQueryName(meta);
  files.add(
    graphqlExtensionPath,
    render('user/graphql.ts.hbs', { exampleUid: example.uid, exampleField: field, exampleQuery: query, examplePascalQuery: query.charAt(0).toUpperCase() + query.slice(1) }),
    'user',
  );
  return files;
}
