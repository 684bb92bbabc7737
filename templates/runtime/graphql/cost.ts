/**
 * The cost of an operation, computed before it runs (with its variables), as
 * graphql-query-complexity's simple estimator with list multipliers (hand-written: that
 * library expands a fragment again at every spread, and needs an estimator of its own for
 * pages anyway):
 *
 *   cost(field) = 1 + items × cost(its selection)
 *
 * where `items` is how many entries a list can hold: the page its `pagination` argument asks
 * for (`limit`, `pageSize`, or `defaultLimit`), clamped to `maxLimit` as the resolvers clamp
 * it. On a collection (`articles(pagination) { data { … } meta { … } }`) the page multiplies
 * the list under it (`data`), not `meta`. A list the request cannot size — no `pagination`
 * argument: a dynamic zone, a list of an extension, introspection — counts once: its length
 * is the stored content's, not the caller's to multiply.
 * `@skip`/`@include` are honoured; the branches of a union or interface are added up.
 *
 * Each fragment is costed once per page size it is spread under, so the pass is linear in
 * the document; a fragment cycle costs nothing here (validation refused it already).
 *
 * Also checked on the way, with the same argument values: the `filters` and the `sort` of
 * one field hold at most `maxFilterValues` (1,000) values — keys, list members,
 * comma-separated sort terms — as REST's filters: past that, a filter is more SQL than a
 * database parses (SQLite stops at 1,000 levels of expression and 32,766 parameters), and
 * the answer is a 400 before anything runs rather than an error of each field.
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  TypeNameMetaFieldDef,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { isPlainObject } from '../query/is-plain-object.js';
import { resolveWindow, type ListLimits } from './args.js';

/** Most values in the `filters`, or in the `sort`, of one field. */
export const maxFilterValues = 1000;

/** Items counted for a list that has no maximum (`maxLimit: -1` and `limit: -1`). */
export const unboundedListItems = 1000;

/**
 * The cost of `operation` with these (coerced) variable values. Throws a GraphQLError for
 * `filters` or `sort` past `maxFilterValues`.
 */
export function operationCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  variables: Record<string, unknown>,
  options: ListLimits,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const fragmentCosts = new Map<string, number>();
  const costing = new Set<string>();

  const skipped = (selection: SelectionNode): boolean => {
    if (!selection.directives?.length) return false;
    if (getDirectiveValues(GraphQLSkipDirective, selection, variables)?.['if'] === true) return true;
    return getDirectiveValues(GraphQLIncludeDirective, selection, variables)?.['if'] === false;
  };

  /** `page` is the page size of the collection this selection set belongs to, if any. */
  const selectionSetCost = (set: SelectionSetNode, parent: GraphQLNamedType, page: number | undefined): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (skipped(selection)) continue;
      switch (selection.kind) {
        case Kind.FIELD:
          total += fieldCost(selection, parent, page);
          break;
        case Kind.INLINE_FRAGMENT: {
          const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
          total += selectionSetCost(selection.selectionSet, type ?? parent, page);
          break;
        }
        case Kind.FRAGMENT_SPREAD:
          total += fragmentCost(selection.name.value, page);
          break;
      }
    }
    return total;
  };

  const fragmentCost = (name: string, page: number | undefined): number => {
    const key = `${name}\0${page ?? ''}`;
    const known = fragmentCosts.get(key);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    const type = fragment && schema.getType(fragment.typeCondition.name.value);
    if (!fragment || !type || costing.has(name)) return 0;
    costing.add(name);
    const cost = selectionSetCost(fragment.selectionSet, type, page);
    costing.delete(name);
    fragmentCosts.set(key, cost);
    return cost;
  };

  const fieldCost = (node: FieldNode, parent: GraphQLNamedType, page: number | undefined): number => {
    const field = fieldOf(schema, parent, node.name.value);
    if (!field) return 1;
    const args = field.args.length > 0 ? argumentValues(field, node, variables) : {};
    if (args) checkFilterValues(node, args);
    if (!node.selectionSet) return 1;
    const type = getNullableType(field.type);
    const own = field.args.some((arg) => arg.name === 'pagination') ? pageSize(args?.['pagination'], options) : undefined;
    let items = 1;
    let childPage: number | undefined;
    if (isListType(type)) items = page ?? own ?? 1;
    else childPage = own;
    return 1 + items * selectionSetCost(node.selectionSet, getNamedType(field.type), childPage);
  };

  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  return root ? selectionSetCost(operation.selectionSet, root, undefined) : 0;
}

/** The field `name` of `parent`, the meta fields included. */
function fieldOf(schema: GraphQLSchema, parent: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (name === TypeNameMetaFieldDef.name) return TypeNameMetaFieldDef;
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** Argument values of a field; undefined when they do not coerce (execution reports it). */
function argumentValues(field: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): Record<string, unknown> | undefined {
  try {
    return getArgumentValues(field, node, variables);
  } catch (error) {
    if (error instanceof GraphQLError) return undefined;
    throw error;
  }
}

/** Items of the page a `pagination` argument asks for, as the resolvers clamp it. */
function pageSize(pagination: unknown, limits: ListLimits): number {
  try {
    const { limit } = resolveWindow(pagination, limits);
    return limit === -1 ? unboundedListItems : limit;
  } catch {
    return limits.defaultLimit; // page and offset mixed: the resolver refuses it
  }
}

function checkFilterValues(node: FieldNode, args: Record<string, unknown>): void {
  for (const name of ['filters', 'sort']) {
    if (args[name] === undefined || args[name] === null) continue;
    if (valueCount(args[name], maxFilterValues, name === 'sort') > maxFilterValues) {
      throw new GraphQLError(`Too many values in the ${name} of ${node.name.value}: at most ${maxFilterValues}.`, { nodes: node });
    }
  }
}

/** Keys and list members in a value (and comma-separated terms: sort); stops counting past `stopAt`. */
function valueCount(value: unknown, stopAt: number, terms: boolean): number {
  let count = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && count <= stopAt) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      count += node.length;
      stack.push(...node.slice(0, stopAt + 1));
    } else if (isPlainObject(node)) {
      const values = Object.values(node);
      count += values.length;
      stack.push(...values.slice(0, stopAt + 1));
    } else if (terms && typeof node === 'string') count += node.split(',').length - 1;
  }
  return count;
}
