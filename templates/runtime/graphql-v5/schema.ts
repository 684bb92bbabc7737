/**
 * The Strapi 5 schema, built by the one function both the server (`/v5/graphql`) and the
 * generator (schema.v5.graphql) run: the document of sdl.ts → graphql-js schema → unreachable
 * types pruned, as Strapi prunes its own. Printed in Strapi's order (graphql-js `printSchema`).
 */
import { buildASTSchema, printSchema, type GraphQLSchema } from 'graphql';
import type { Registry } from '../meta.js';
import { graphqlRegistry } from '../graphql/exclusions.js';
import { pruneSchema } from '../graphql/schema.js';
import { buildV5Document, type V5SchemaOptions } from './sdl.js';

export function buildV5Schema(registry: Registry, options: V5SchemaOptions = {}): GraphQLSchema {
  return pruneSchema(buildASTSchema(buildV5Document(graphqlRegistry(registry), options)));
}

export function printV5Schema(schema: GraphQLSchema): string {
  return `${printSchema(schema)}\n`;
}
