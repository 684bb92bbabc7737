/**
 * Emits schema.v5.graphql: the Strapi 5 GraphQL schema the server serves beside the v4 one
 * (`v5.graphql.path` of src/config.ts, `/v5/graphql` by default), printed by the server's own
 * builder (templates/runtime/graphql-v5/schema.ts) from the same metadata, in Strapi 5's
 * order, so the file reads like the schema a Strapi 5.54.0 prints for the same models.
 */
import { buildV5Schema, printV5Schema } from '../../../templates/runtime/graphql-v5/schema.js';
import type { Schema } from '../../ir/types.js';
import { FileMap } from '../file-map.js';
import { registryOf } from '../graphql/graphql.js';

export const v5SchemaPath = 'schema.v5.graphql';

const schemaNote =
  '# The Strapi 5 GraphQL schema served at /v5/graphql (v5.graphql.path of src/config.ts),\n' +
  '# printed by `contentgen build`.\n\n';

/** The printed v5 schema for these models. */
export function printGraphqlV5Schema(ir: Schema): string {
  return printV5Schema(buildV5Schema(registryOf(ir)));
}

export function emitGraphqlV5(ir: Schema): FileMap {
  const files = new FileMap();
  // The GraphQL plugin's files exist when the project installs it.
  if (!ir.plugins.graphql) return files;
  let sdl: string;
  try {
    sdl = schemaNote + printGraphqlV5Schema(ir);
  } catch (err) {
    // Names only Strapi 5's schema has (`PublicationStatus`, `…_connection`) may clash with a
    // model's: the v4 side is built all the same, and the server leaves /v5/graphql out.
    sdl = `# No Strapi 5 GraphQL schema for these models: ${(err as Error).message.split('\n')[0]}\n`;
  }
  files.add(v5SchemaPath, sdl);
  return files;
}
