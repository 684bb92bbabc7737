import { graphqlExclusions } from '../../ir/graphql-exclusions.js';
import type { ValidationRule } from '../context.js';

/**
 * Strapi's GraphQL names (ir/graphql-exclusions.ts): with the GraphQL plugin, what cannot be
 * named, or is named like something else, is left out of the GraphQL schema and served over
 * REST only; a warning names each. Strapi's GraphQL plugin refuses to start on them, Strapi
 * without it starts: no error. Without the plugin no GraphQL naming rule applies.
 */
export const graphqlNamesRule: ValidationRule = ({ models, warn }) => {
  if (!models.plugins.graphql) return;
  for (const note of graphqlExclusions(models).notes) warn(note.file, note.pointer, note.message);
};
