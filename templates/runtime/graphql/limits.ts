/**
 * Limits on what one request may ask, checked before anything runs and each linear in the
 * size of the document:
 *
 *   source   → `scanSource`: tokens (`maxTokens`) and nesting of braces, brackets and
 *              parentheses (`maxNesting`), with graphql-js's own lexer and no recursion, so
 *              the parser (recursive) never sees a document that could exhaust its stack;
 *   document → `countSelections`: fields (`maxFields`) and aliases (`maxAliases`), written
 *              out (fragments are counted once), so graphql-js's validation (whose
 *              OverlappingFieldsCanBeMergedRule is quadratic in repeated fields) stays small;
 *   validate → `depthLimitRule`: the depth of each operation (graphql-depth-limit's counting
 *              and message), each fragment measured once;
 *   variables → `variablesNesting`: JSON nesting of the variables (`maxNesting`), and
 *              `variableValueCount`: what they hold, within the same budget as the
 *              document's tokens (`maxTokens`), before graphql-js coerces them.
 *
 * The cost of an operation (items × fields) is cost.ts. Also here: the bounded cache of
 * parsed and validated documents (Apollo's `cache: 'bounded'`): repeated queries skip
 * parsing and validation, and the cache never grows past its budgets of entries and of
 * characters of query text (1,000 documents, 4 Mi characters).
 */
import {
  getNullableType,
  GraphQLError,
  isInputObjectType,
  isInputType,
  isListType,
  Kind,
  Lexer,
  Source,
  TokenKind,
  typeFromAST,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import { isPlainObject } from '../query/is-plain-object.js';

/** Braces, brackets and parentheses nest at most this deep; variables too. */
export const maxNesting = 100;

export interface SourceLimits {
  /** Most tokens (punctuators, names, values) a document may have; 0: no limit. */
  readonly maxTokens: number;
  /** Deepest nesting of `{`, `[` and `(`. */
  readonly maxNesting: number;
}

/**
 * Reads the document's tokens once, without parsing: the reason it is refused, if it is.
 * A lexical error (an unterminated string, say) throws graphql-js's syntax error.
 */
export function scanSource(source: string, limits: SourceLimits): string | undefined {
  const lexer = new Lexer(new Source(source));
  let tokens = 0;
  let depth = 0;
  for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
    tokens++;
    if (limits.maxTokens > 0 && tokens > limits.maxTokens) {
      return `The GraphQL document has more than ${limits.maxTokens} tokens (plugins.graphql.maxTokens).`;
    }
    switch (token.kind) {
      case TokenKind.BRACE_L:
      case TokenKind.BRACKET_L:
      case TokenKind.PAREN_L:
        if (++depth > limits.maxNesting) return `The GraphQL document nests braces, brackets or parentheses more than ${limits.maxNesting} levels deep.`;
        break;
      case TokenKind.BRACE_R:
      case TokenKind.BRACKET_R:
      case TokenKind.PAREN_R:
        depth--;
        break;
    }
  }
  return undefined;
}

export interface SelectionLimits {
  /** Most fields written in a document (aliases included); 0: no limit. */
  readonly maxFields: number;
  /** Most aliased fields in a document; 0: no limit. */
  readonly maxAliases: number;
}

/** Fields and aliases as written in the document (operations and fragments), counted once each. */
export function countSelections(document: DocumentNode): { fields: number; aliases: number } {
  let fields = 0;
  let aliases = 0;
  const sets: SelectionSetNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) sets.push(definition.selectionSet);
  }
  for (let set = sets.pop(); set; set = sets.pop()) {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields++;
        if (selection.alias) aliases++;
      }
      if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) sets.push(selection.selectionSet);
    }
  }
  return { fields, aliases };
}

/** Times one response name may be asked for in one selection set, fragments included. */
export const maxRepeats = 50;

/** The reason a document's fields or aliases are refused, if they are. */
export function checkSelections(document: DocumentNode, limits: SelectionLimits): string | undefined {
  const { fields, aliases } = countSelections(document);
  if (limits.maxFields > 0 && fields > limits.maxFields) {
    return `The GraphQL document has ${fields} fields, more than the limit of ${limits.maxFields} (plugins.graphql.maxFields).`;
  }
  if (limits.maxAliases > 0 && aliases > limits.maxAliases) {
    return `The GraphQL document has ${aliases} aliases, more than the limit of ${limits.maxAliases} (plugins.graphql.maxAliases).`;
  }
  const repeated = mostRepeated(document);
  if (repeated && repeated.count > maxRepeats) {
    return `The field "${repeated.name}" is asked for ${repeated.count} times in one selection set (fragments spread there included), more than ${maxRepeats}.`;
  }
  return undefined;
}

/**
 * The response name asked for most often in one selection set, counting the fields of
 * inline fragments and of the fragments spread there (transitively): how many fields
 * graphql-js's OverlappingFieldsCanBeMergedRule compares pairwise (its time is quadratic in
 * that number: 30,000 `id`s take it 14 s). Each fragment's fields are counted once; the
 * numbers may overcount a fragment reached twice, never undercount.
 */
export function mostRepeated(document: DocumentNode): { name: string; count: number } | undefined {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const sets: SelectionSetNode[] = [];
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION || definition.kind === Kind.FRAGMENT_DEFINITION) sets.push(definition.selectionSet);
  }
  const fragmentCounts = new Map<string, ReadonlyMap<string, number>>();
  const counting = new Set<string>();
  const add = (into: Map<string, number>, name: string, count: number) => into.set(name, (into.get(name) ?? 0) + count);
  /** Response names of one level: the set's fields, its inline fragments', its spreads'. */
  const levelCounts = (set: SelectionSetNode, into: Map<string, number>, spread: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) add(into, (selection.alias ?? selection.name).value, 1);
      else if (selection.kind === Kind.INLINE_FRAGMENT) levelCounts(selection.selectionSet, into, spread);
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        for (const [name, count] of countsOf(selection.name.value)) add(into, name, count);
      }
    }
  };
  const countsOf = (fragmentName: string): ReadonlyMap<string, number> => {
    const known = fragmentCounts.get(fragmentName);
    if (known) return known;
    const fragment = fragments.get(fragmentName);
    if (!fragment || counting.has(fragmentName)) return new Map();
    counting.add(fragmentName);
    const counts = new Map<string, number>();
    levelCounts(fragment.selectionSet, counts, new Set([fragmentName]));
    counting.delete(fragmentName);
    fragmentCounts.set(fragmentName, counts);
    return counts;
  };
  let most: { name: string; count: number } | undefined;
  for (let set = sets.pop(); set; set = sets.pop()) {
    const counts = new Map<string, number>();
    levelCounts(set, counts, new Set());
    for (const [name, count] of counts) if (!most || count > most.count) most = { name, count };
    for (const selection of set.selections) {
      if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) sets.push(selection.selectionSet);
    }
  }
  return most;
}

/**
 * Fields nested deeper than `maxDepth` are refused: `'<operation>' exceeds maximum
 * operation depth of <maxDepth>`, at the first field past the limit. A field with a
 * selection set counts one level; leaves and introspection fields (`__schema`,
 * `__typename`) count none; fragments count what they hold where they are spread.
 *
 * Each fragment is measured once (a fragment spread twice in each of 30 nested fragments
 * costs 30 measures, not 2^30), and a fragment that spreads itself counts nothing here:
 * graphql-js's NoFragmentCyclesRule reports the cycle.
 */
export function depthLimitRule(maxDepth: number) {
  return function DepthLimitRule(context: ValidationContext): ASTVisitor {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const fragmentDepths = new Map<string, number>();
    const measuring = new Set<string>();

    /** Depth of a fragment's content, measured once; 0 for an unknown fragment or a cycle. */
    const fragmentDepth = (name: string): number => {
      const known = fragmentDepths.get(name);
      if (known !== undefined) return known;
      const fragment = fragments.get(name);
      if (!fragment || measuring.has(name)) return 0;
      measuring.add(name);
      const depth = depthOf(fragment.selectionSet.selections);
      measuring.delete(name);
      fragmentDepths.set(name, depth);
      return depth;
    };
    const depthOf = (selections: readonly SelectionNode[]): number => {
      let deepest = 0;
      for (const selection of selections) deepest = Math.max(deepest, selectionDepth(selection));
      return deepest;
    };
    const depths = new WeakMap<SelectionNode, number>();
    const selectionDepth = (selection: SelectionNode): number => {
      if (selection.kind === Kind.FRAGMENT_SPREAD) return fragmentDepth(selection.name.value);
      let depth = depths.get(selection);
      if (depth === undefined) {
        if (selection.kind === Kind.INLINE_FRAGMENT) depth = depthOf(selection.selectionSet.selections);
        else depth = selection.name.value.startsWith('__') || !selection.selectionSet ? 0 : 1 + depthOf(selection.selectionSet.selections);
        depths.set(selection, depth);
      }
      return depth;
    };
    /** The first field past the limit: follow the deepest selections down from the operation. */
    const firstTooDeep = (selections: readonly SelectionNode[], remaining: number): SelectionNode | undefined => {
      const seen = new Set<string>();
      for (;;) {
        const next = selections.find((selection) => selectionDepth(selection) > remaining);
        if (!next) return undefined;
        if (next.kind === Kind.FIELD) {
          if (remaining === 0) return next;
          selections = next.selectionSet!.selections;
          remaining--;
        } else if (next.kind === Kind.INLINE_FRAGMENT) selections = next.selectionSet.selections;
        else {
          if (seen.has(next.name.value)) return next;
          seen.add(next.name.value);
          selections = fragments.get(next.name.value)!.selectionSet.selections;
        }
      }
    };

    return {
      OperationDefinition(node) {
        if (depthOf(node.selectionSet.selections) > maxDepth) {
          const at = firstTooDeep(node.selectionSet.selections, maxDepth) ?? node;
          context.reportError(new GraphQLError(`'${node.name?.value ?? ''}' exceeds maximum operation depth of ${maxDepth}`, { nodes: at }));
        }
        return false;
      },
    };
  };
}

/**
 * Values the variables of `operation` hold as input types see them: list members and input
 * object fields (what graphql-js coerces one by one, each object against every field of its
 * type: 20,000 filter objects cost it half a second); the content of a scalar (a JSON
 * attribute, say) counts nothing. Stops counting past `stopAt`; no recursion.
 */
export function variableValueCount(schema: GraphQLSchema, operation: OperationDefinitionNode, inputs: Record<string, unknown>, stopAt: number): number {
  let count = 0;
  const stack: Array<[unknown, GraphQLInputType]> = [];
  for (const definition of operation.variableDefinitions ?? []) {
    const type = typeFromAST(schema, definition.type);
    if (type && isInputType(type) && inputs[definition.variable.name.value] !== undefined) stack.push([inputs[definition.variable.name.value], type]);
  }
  for (let item = stack.pop(); item && count <= stopAt; item = stack.pop()) {
    const [value, nullable] = item;
    const type = getNullableType(nullable);
    if (isListType(type)) {
      if (!Array.isArray(value)) stack.push([value, type.ofType]);
      else {
        count += value.length;
        for (const member of value.slice(0, stopAt + 1)) stack.push([member, type.ofType]);
      }
    } else if (isInputObjectType(type) && isPlainObject(value)) {
      const fields = type.getFields();
      for (const [key, member] of Object.entries(value)) {
        count++;
        const field = fields[key];
        if (field && count <= stopAt) stack.push([member, field.type]);
      }
    }
  }
  return count;
}

/** How deep objects and arrays nest in a value (JSON variables), without recursion. */
export function variablesNesting(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, depth] = item;
    const children = Array.isArray(node) ? node : isPlainObject(node) ? Object.values(node) : undefined;
    if (!children) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > stopAt) return deepest;
    for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * graphql-js's messages without their suggestions (`Did you mean "title"?`): with
 * introspection off, they would spell out the schema to whoever guesses close enough.
 */
export function withoutSuggestions(error: GraphQLFormattedError): GraphQLFormattedError {
  if (!error.message.includes(' Did you mean ')) return error;
  return { ...error, message: error.message.replace(/ Did you mean [^?]*\?/g, '') };
}

export interface CachedDocument {
  readonly document?: DocumentNode;
  /** Parse or validation errors, already formatted; the request answers 400 with them. */
  readonly errors?: readonly GraphQLFormattedError[];
}

/** A least-recently-used cache of documents, bounded in entries and in characters of source. */
export class DocumentCache {
  readonly #entries = new Map<string, CachedDocument>();
  #bytes = 0;

  constructor(
    readonly maxEntries = 1000,
    readonly maxBytes = 4 * 1024 * 1024,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  /** Characters of query text held. */
  get bytes(): number {
    return this.#bytes;
  }

  get(source: string): CachedDocument | undefined {
    const hit = this.#entries.get(source);
    if (hit) {
      // Most recently used last.
      this.#entries.delete(source);
      this.#entries.set(source, hit);
    }
    return hit;
  }

  set(source: string, value: CachedDocument): void {
    if (source.length > this.maxBytes) return;
    if (this.#entries.delete(source)) this.#bytes -= source.length;
    this.#entries.set(source, value);
    this.#bytes += source.length;
    for (const key of this.#entries.keys()) {
      if (this.#entries.size <= this.maxEntries && this.#bytes <= this.maxBytes) break;
      this.#entries.delete(key);
      this.#bytes -= key.length;
    }
  }
}
