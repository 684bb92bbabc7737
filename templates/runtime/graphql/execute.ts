/**
 * Query execution planned once per document: graphql-js's algorithm (the spec's
 * ExecuteSelectionSet and CompleteValue, errors and null propagation included) over a plan
 * of each selection set that the document cache keeps, instead of working the same plan out
 * again for every entry of every list.
 *
 * graphql-js, for each field of each item, looks the field definition up, collects the
 * sub-selections (a memo keyed per request), builds a resolve-info object and calls the
 * default resolver. Most fields of a Shadow CRUD answer (`data`, `attributes`, `id`, every
 * scalar, `meta`) are plain properties: here they are read directly, and the resolve info
 * is built only for a field that has a resolver (relations, media, repeatable components,
 * pagination — and every resolver an extension adds), which then runs exactly as it would
 * under graphql-js: same arguments, same context, an info with the same fields and path.
 *
 * What the plan does not cover runs on graphql-js instead, decided per document: mutations
 * and subscriptions, directives (`@skip`/`@include` make the selection depend on variables),
 * introspection (`__schema`, `__type`) and object types with `isTypeOf`. A value the plan
 * cannot complete the way graphql-js would (a non-array iterable, a scalar serializing to
 * null, an abstract type resolving to something unusable) throws `Unplanned`, and the
 * caller runs the whole operation again on graphql-js. Reads only: a query has no effect
 * that running it twice would repeat.
 */
import {
  defaultFieldResolver,
  getArgumentValues,
  GraphQLError,
  GraphQLString,
  isAbstractType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  locatedError,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLAbstractType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { collectFields, collectSubfields } from 'graphql/execution/collectFields.js';
import { addPath, pathToArray, type Path } from 'graphql/jsutils/Path.js';

/** A value or selection the plan does not complete as graphql-js would: run graphql-js. */
export class Unplanned extends Error {}

/**
 * A resolver may carry, under this key, a cheaper way to answer for a planned query: called
 * with the source, the context and the field's nodes before anything of a full call is made
 * (arguments copied, a resolve info, the scope check of each entry's copy of them); it
 * answers undefined when the full call must be made. Relation fields read with their list
 * (prefetch.ts) answer this way.
 */
export const answerFromSource = Symbol('answer from source');
export type SourceAnswer = (source: unknown, context: unknown, nodes: readonly FieldNode[]) => unknown;

/** The resolver's SourceAnswer, if it carries one. */
export function sourceAnswerOf(resolve: unknown): SourceAnswer | undefined {
  return typeof resolve === 'function' ? (resolve as { [answerFromSource]?: SourceAnswer })[answerFromSource] : undefined;
}

/** The plan of one operation of a document, or undefined where graphql-js must run it. */
export interface OperationPlan {
  readonly operation: OperationDefinitionNode;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  readonly root: ObjectPlan;
}

interface ObjectPlan {
  readonly type: GraphQLObjectType;
  readonly fields: readonly FieldPlan[];
}

interface FieldPlan {
  /** The response key (alias or name). */
  readonly key: string;
  readonly name: string;
  readonly nodes: readonly FieldNode[];
  readonly definition: GraphQLField<unknown, unknown>;
  readonly parentType: GraphQLObjectType;
  /** undefined: a plain property (graphql-js's default resolver). */
  readonly resolve: GraphQLField<unknown, unknown>['resolve'];
  /** The resolver's cheaper answer (answerFromSource), tried first. */
  readonly fromSource?: SourceAnswer;
  /** The answer whatever the source (`__typename`). */
  readonly constant?: string;
  /** A scalar or enum (maybe non-null): completing it needs no path. */
  readonly leaf: boolean;
  /**
   * A nullable scalar or enum read as a property (most fields of an answer): its
   * serializer, for the common case executeField completes inline.
   */
  readonly serialize?: (value: unknown) => unknown;
  readonly complete: Completer;
}

/** Completes a field's value (CompleteValue), synchronously when nothing is pending. */
type Completer = (run: Run, value: unknown, path: Path | undefined, field: FieldPlan) => unknown;

/** One execution: what graphql-js keeps in its execution context. */
interface Run {
  readonly schema: GraphQLSchema;
  readonly plan: OperationPlan;
  readonly contextValue: unknown;
  readonly rootValue: unknown;
  readonly variableValues: Record<string, unknown>;
  readonly errors: GraphQLError[];
  /** Coerced arguments by field (argumentsOf). */
  readonly args: Map<FieldPlan, Record<string, unknown>>;
}

/**
 * The plan of `operation`; undefined, or Unplanned thrown, when graphql-js must run it (see
 * the module's comment). Object selections are planned as execution first reaches them, once.
 */
export function planOperation(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode): OperationPlan | undefined {
  if (operation.operation !== 'query') return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = Object.create(null);
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  if (hasDirectives(operation, fragments)) return undefined;
  const rootType = schema.getQueryType();
  if (!rootType) return undefined;
  const rootFields = collectFields(schema, fragments, {}, rootType, operation.selectionSet);
  // Introspection (`__schema`, `__type`) throws Unplanned in objectPlan.
  const plan = { operation, fragments } as { operation: OperationDefinitionNode; fragments: Record<string, FragmentDefinitionNode>; root: ObjectPlan };
  plan.root = objectPlan(schema, rootType, rootFields);
  return plan;
}

/** Whether any selection or fragment of the operation carries a directive. */
function hasDirectives(operation: OperationDefinitionNode, fragments: Record<string, FragmentDefinitionNode>): boolean {
  if (operation.directives?.length) return true;
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((selection) => {
      if (selection.directives?.length) return true;
      if (selection.kind === Kind.FIELD) return visit(selection.selectionSet);
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment = fragments[selection.name.value];
      return !!fragment && (!!fragment.directives?.length || visit(fragment.selectionSet));
    });
  return visit(operation.selectionSet);
}

function objectPlan(schema: GraphQLSchema, type: GraphQLObjectType, collected: Map<string, readonly FieldNode[]>): ObjectPlan {
  if (type.isTypeOf) throw new Unplanned(`${type.name} has isTypeOf`);
  const definitions = type.getFields();
  const fields: FieldPlan[] = [];
  for (const [key, nodes] of collected) {
    // Assigned to a plain object, this key would set its prototype.
    if (key === '__proto__') throw new Unplanned('the response key __proto__');
    const name = nodes[0]!.name.value;
    if (name === '__typename') {
      fields.push(typenameField(key, nodes, type));
      continue;
    }
    if (name.startsWith('__')) throw new Unplanned(`introspection field ${name}`);
    const definition = definitions[name];
    // graphql-js leaves out a field the type does not have (validation refuses it first).
    if (!definition) continue;
    const resolve = definition.resolve === defaultFieldResolver ? undefined : (definition.resolve as FieldPlan['resolve']);
    const nullableLeaf = isLeafType(definition.type) ? definition.type : undefined;
    const fromSource = sourceAnswerOf(resolve);
    fields.push({
      key,
      name,
      nodes,
      definition: definition as GraphQLField<unknown, unknown>,
      parentType: type,
      resolve,
      ...(fromSource ? { fromSource } : {}),
      leaf: isLeafType(isNonNullType(definition.type) ? definition.type.ofType : definition.type),
      ...(nullableLeaf && !resolve ? { serialize: (value: unknown) => nullableLeaf.serialize(value) } : {}),
      complete: completer(schema, definition.type, nodes),
    });
  }
  return { type, fields };
}

/** `__typename`: the object's type name, known when the plan is made. */
function typenameField(key: string, nodes: readonly FieldNode[], type: GraphQLObjectType): FieldPlan {
  return {
    key,
    name: '__typename',
    nodes,
    definition: { name: '__typename', type: GraphQLString, args: [] } as unknown as GraphQLField<unknown, unknown>,
    parentType: type,
    resolve: undefined,
    constant: type.name,
    leaf: true,
    complete: (_run, value) => value,
  };
}

/** CompleteValue for one return type, planned: the sub-selection's plan is made once, on first use. */
function completer(schema: GraphQLSchema, type: GraphQLOutputType, nodes: readonly FieldNode[]): Completer {
  if (isNonNullType(type)) {
    const inner = completer(schema, type.ofType, nodes);
    const check = (completed: unknown, field: FieldPlan) => {
      if (completed === null) throw new Error(`Cannot return null for non-nullable field ${field.parentType.name}.${field.name}.`);
      return completed;
    };
    return (run, value, path, field) => {
      if (value instanceof Error) throw value;
      const completed = inner(run, value, path, field);
      return isPromise(completed) ? completed.then((done) => check(done, field)) : check(completed, field);
    };
  }
  if (isListType(type)) {
    const itemType = type.ofType;
    const item = completer(schema, itemType, nodes);
    return (run, value, path, field) => {
      if (value instanceof Error) throw value;
      if (value == null) return null;
      if (!Array.isArray(value)) throw new Unplanned('a list value that is not an array');
      let containsPromise = false;
      const completed = value.map((entry, index) => {
        const itemPath = addPath(path, index, undefined);
        try {
          const done = isPromise(entry) ? entry.then((resolved) => item(run, resolved, itemPath, field)) : item(run, entry, itemPath, field);
          if (!isPromise(done)) return done;
          containsPromise = true;
          return done.then(undefined, (raw: unknown) => fieldError(run, raw, nodes, itemPath, itemType));
        } catch (raw) {
          return fieldError(run, raw, nodes, itemPath, itemType);
        }
      });
      return containsPromise ? Promise.all(completed) : completed;
    };
  }
  if (isLeafType(type)) {
    return (_run, value) => {
      if (value instanceof Error) throw value;
      if (value == null) return null;
      const serialized = type.serialize(value);
      if (serialized == null) throw new Unplanned('a scalar serialized to null');
      return serialized;
    };
  }
  if (isAbstractType(type)) return abstractCompleter(schema, type, nodes);
  if (!isObjectType(type)) throw new Unplanned(`output type ${String(type)}`);
  let plan: ObjectPlan | undefined;
  return (run, value, path) => {
    if (value instanceof Error) throw value;
    if (value == null) return null;
    plan ??= objectPlan(schema, type, collectSubfields(schema, run.plan.fragments, {}, type, nodes));
    return executeFields(run, plan, value, path);
  };
}

function abstractCompleter(schema: GraphQLSchema, type: GraphQLAbstractType, nodes: readonly FieldNode[]): Completer {
  const plans = new Map<string, ObjectPlan>();
  const complete = (run: Run, runtimeName: unknown, value: unknown, path: Path | undefined): unknown => {
    if (typeof runtimeName !== 'string') throw new Unplanned('an abstract type resolved to no type name');
    let plan = plans.get(runtimeName);
    if (!plan) {
      const runtimeType = schema.getType(runtimeName);
      if (!isObjectType(runtimeType) || !schema.isSubType(type, runtimeType)) throw new Unplanned(`${type.name} resolved to ${runtimeName}`);
      plan = objectPlan(schema, runtimeType, collectSubfields(schema, run.plan.fragments, {}, runtimeType, nodes));
      plans.set(runtimeName, plan);
    }
    return executeFields(run, plan, value, path);
  };
  return (run, value, path, field) => {
    if (value instanceof Error) throw value;
    if (value == null) return null;
    if (!type.resolveType) throw new Unplanned(`${type.name} has no resolveType`);
    const runtimeName = type.resolveType(value, run.contextValue, resolveInfo(run, field, path), type);
    return isPromise(runtimeName) ? runtimeName.then((name) => complete(run, name, value, path)) : complete(run, runtimeName, value, path);
  };
}

/** ExecuteSelectionSet over a planned object: fields in order, their promises awaited together. */
function executeFields(run: Run, plan: ObjectPlan, source: unknown, path: Path | undefined): unknown {
  // A plain object (keys in plan order share one hidden class), not graphql-js's
  // Object.create(null), a dictionary V8 builds and JSON.stringify reads slowly; no key is
  // `__proto__` (objectPlan).
  const results: Record<string, unknown> = {};
  let containsPromise = false;
  try {
    for (const field of plan.fields) {
      const result = executeField(run, field, source, path);
      if (result !== undefined) {
        results[field.key] = result;
        if (isPromise(result)) containsPromise = true;
      }
    }
  } catch (error) {
    if (containsPromise) {
      return promiseForObject(results).finally(() => {
        throw error;
      });
    }
    throw error;
  }
  return containsPromise ? promiseForObject(results) : results;
}

function executeField(run: Run, field: FieldPlan, source: unknown, parentPath: Path | undefined): unknown {
  if (field.constant !== undefined) return field.constant;
  if (field.serialize !== undefined && typeof source === 'object' && source !== null) {
    // A nullable scalar property holding null or a primitive: what the general path below
    // would do, in fewer steps (objects, functions and promises take that path).
    const value = (source as Record<string, unknown>)[field.name];
    if (value == null) return null;
    if (typeof value !== 'object' && typeof value !== 'function') {
      try {
        const serialized = field.serialize(value);
        if (serialized != null) return serialized;
      } catch (raw) {
        return fieldError(run, raw, field.nodes, fieldPath(parentPath, field), field.definition.type);
      }
    }
  }
  // Leaves need their path only for an error: it is made then.
  let path = field.leaf ? undefined : fieldPath(parentPath, field);
  try {
    let result = field.fromSource?.(source, run.contextValue, field.nodes);
    if (result !== undefined) {
      // answered from the source: no arguments, no resolve info
    } else if (field.resolve === undefined) {
      // graphql-js's default resolver: a property of the source, called if it is a function.
      const property = source !== null && (typeof source === 'object' || typeof source === 'function') ? (source as Record<string, unknown>)[field.name] : undefined;
      if (typeof property === 'function') {
        path ??= fieldPath(parentPath, field);
        result = (source as Record<string, (...args: unknown[]) => unknown>)[field.name]!(argumentsOf(run, field), run.contextValue, resolveInfo(run, field, path));
      } else result = property;
    } else {
      path ??= fieldPath(parentPath, field);
      result = field.resolve(source, argumentsOf(run, field), run.contextValue, resolveInfo(run, field, path));
    }
    const completed = isPromise(result) ? result.then((resolved) => field.complete(run, resolved, path, field)) : field.complete(run, result, path, field);
    if (isPromise(completed)) {
      return completed.then(undefined, (raw: unknown) => fieldError(run, raw, field.nodes, path ?? fieldPath(parentPath, field), field.definition.type));
    }
    return completed;
  } catch (raw) {
    return fieldError(run, raw, field.nodes, path ?? fieldPath(parentPath, field), field.definition.type);
  }
}

/** The path of a field of an object at `parentPath`. */
function fieldPath(parentPath: Path | undefined, field: FieldPlan): Path {
  return addPath(parentPath, field.key, field.parentType.name);
}

/**
 * A field's arguments: the same for every item it is asked of in one run, so coerced once
 * per run — or once for good when they hold no variable (coercing a literal costs more than
 * copying it). Each call gets its own copy, nested objects included.
 */
function argumentsOf(run: Run, field: FieldPlan): Record<string, unknown> {
  const definition = field.definition as Parameters<typeof getArgumentValues>[0];
  const node = field.nodes[0]!;
  let coerced = fixedArguments.get(field);
  if (coerced === undefined) {
    coerced = null;
    if (!node.arguments?.some((argument) => holdsVariable(argument.value))) {
      try {
        coerced = getArgumentValues(definition, node, {});
      } catch {
        // A literal a scalar refuses: coerced (and refused) per call, with the field's error.
      }
    }
    fixedArguments.set(field, coerced);
  }
  if (coerced === null) {
    coerced = run.args.get(field);
    if (coerced === undefined) {
      coerced = getArgumentValues(definition, node, run.variableValues);
      run.args.set(field, coerced);
    }
  }
  return copyArguments(coerced) as Record<string, unknown>;
}

/** Arguments coerced from literals alone, by field of a cached plan (null: they read variables). */
const fixedArguments = new WeakMap<FieldPlan, Record<string, unknown> | null>();

function holdsVariable(value: ValueNode): boolean {
  if (value.kind === Kind.VARIABLE) return true;
  if (value.kind === Kind.LIST) return value.values.some(holdsVariable);
  if (value.kind === Kind.OBJECT) return value.fields.some((field) => holdsVariable(field.value));
  return false;
}

/** Lists and plain objects copied level by level; any other value (a scalar's) shared. */
function copyArguments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyArguments);
  if (value === null || typeof value !== 'object') return value;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy = Object.create(prototype) as Record<string, unknown>;
  for (const key of Object.keys(value)) copy[key] = copyArguments((value as Record<string, unknown>)[key]);
  return copy;
}

function resolveInfo(run: Run, field: FieldPlan, path: Path | undefined): GraphQLResolveInfo {
  return {
    fieldName: field.name,
    fieldNodes: field.nodes,
    returnType: field.definition.type,
    parentType: field.parentType,
    path: path!,
    schema: run.schema,
    fragments: run.plan.fragments,
    rootValue: run.rootValue,
    operation: run.plan.operation,
    variableValues: run.variableValues,
  };
}

/** graphql-js's handleFieldError: null in place of the field, unless it is non-null (then its parent's problem). */
function fieldError(run: Run, raw: unknown, nodes: readonly FieldNode[], path: Path, type: GraphQLOutputType): null {
  if (raw instanceof Unplanned) throw raw;
  const error = locatedError(raw, nodes, pathToArray(path));
  if (isNonNullType(type)) throw error;
  run.errors.push(error);
  return null;
}

function promiseForObject(object: Record<string, unknown>): Promise<Record<string, unknown>> {
  const keys = Object.keys(object);
  return Promise.all(Object.values(object)).then((values) => {
    const resolved: Record<string, unknown> = {};
    keys.forEach((key, i) => (resolved[key] = values[i]));
    return resolved;
  });
}

/** graphql-js's isPromise (a thenable), the common case — a string, number or null — first. */
function isPromise(value: unknown): value is Promise<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

export interface PlannedExecution {
  readonly schema: GraphQLSchema;
  readonly plan: OperationPlan;
  readonly contextValue: unknown;
  /** Already coerced (getVariableValues). */
  readonly variableValues: Record<string, unknown>;
}

/**
 * Runs a planned query: graphql-js's executeOperation and buildResponse. Throws Unplanned
 * when graphql-js must run it instead.
 */
export async function executePlanned(options: PlannedExecution): Promise<ExecutionResult> {
  const run: Run = { schema: options.schema, plan: options.plan, contextValue: options.contextValue, rootValue: undefined, variableValues: options.variableValues, errors: [], args: new Map() };
  let data: unknown;
  try {
    data = await executeFields(run, options.plan.root, undefined, undefined);
  } catch (error) {
    if (error instanceof Unplanned) throw error;
    run.errors.push(error as GraphQLError);
    data = null;
  }
  return run.errors.length === 0 ? { data: data as ExecutionResult['data'] } : { errors: run.errors, data: data as ExecutionResult['data'] };
}
