/**
 * Stage 2: check the loaded models. Every rule runs and every problem is collected, so a
 * user fixes them all in one pass; nothing is emitted while any remain.
 */
import type { LoadedModels } from '../load/load-models.js';
import { createContext, type ValidationRule } from './context.js';
import type { ModelError } from './model-error.js';
import { attributesRule, customFieldsRule } from './rules/attributes.js';
import { contentTypeShapeRule } from './rules/content-type-shape.js';
import { graphqlNamesRule } from './rules/graphql-names.js';
import { localesRule } from './rules/locales.js';
import { permissionsRule } from './rules/permissions.js';
import { referencesRule } from './rules/references.js';
import { uniqueNamesRule } from './rules/unique-names.js';

/** Ordered: shape first, so later rules can assume the basics are readable. */
export const modelRules: readonly ValidationRule[] = [
  // kind, info names, collectionName, attributes object
  contentTypeShapeRule,
  // customFields.json maps custom fields to types
  customFieldsRule,
  // attribute names, types and per-type options
  attributesRule,
  // relation targets, inverse sides, components
  referencesRule,
  // plural/singular names and tables unique across the models
  uniqueNamesRule,
  // Strapi's GraphQL names unique across the models
  graphqlNamesRule,
  // permissions.json names real types and actions
  permissionsRule,
  // locales.json and the localized types (i18n)
  localesRule,
];

export function validateModels(models: LoadedModels, rules: readonly ValidationRule[] = modelRules): ModelError[] {
  return checkModels(models, rules).errors;
}

/** Errors (nothing may be built) and warnings (built as Strapi would, worth knowing). */
export function checkModels(models: LoadedModels, rules: readonly ValidationRule[] = modelRules): { errors: ModelError[]; warnings: ModelError[] } {
  const { context, errors, warnings } = createContext(models);
  for (const rule of rules) rule(context);
  return { errors: [...models.errors, ...errors], warnings };
}
