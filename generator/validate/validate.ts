/**
 * Stage 2: check the loaded models. Every rule runs and every problem is collected, so a
 * user fixes them all in one pass; nothing is emitted while any remain.
 */
import type { LoadedModels } from '../load/load-models.js';
import { createContext, type ValidationRule } from './context.js';
import type { ModelError } from './model-error.js';
import { attributesRule } from './rules/attributes.js';
import { contentTypeShapeRule } from './rules/content-type-shape.js';
import { permissionsRule } from './rules/permissions.js';
import { referencesRule } from './rules/references.js';
import { uniqueNamesRule } from './rules/unique-names.js';

/** Ordered: shape first, so later rules can assume the basics are readable. */
export const modelRules: readonly ValidationRule[] = [
  // kind, info names, collectionName, attributes object
  contentTypeShapeRule,
  // attribute names, types and per-type options
  attributesRule,
  // relation targets, inverse sides, components
  referencesRule,
  // plural/singular names and tables unique across the models
  uniqueNamesRule,
  // permissions.json names real types and actions
  permissionsRule,
];

export function validateModels(models: LoadedModels, rules: readonly ValidationRule[] = modelRules): ModelError[] {
  const { context, errors } = createContext(models);
  for (const rule of rules) rule(context);
  return [...models.errors, ...errors];
}
