/**
 * Limits on what one request may ask: the depth of its operations (a validation rule with
 * graphql-depth-limit's counting and message), and a bounded cache of parsed and
 * validated documents (Apollo's `cache: 'bounded'`): repeated queries skip parsing and
 * validation, and the cache never grows past its budgets of entries and of characters of
 * query text (1,000 documents, 4 Mi characters).
 */
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLFormattedError,
  type SelectionNode,
  type ValidationContext,
} from 'graphql';

/**
 * Fields nested deeper than `maxDepth` are refused: `'<operation>' exceeds maximum
 * operation depth of <maxDepth>`. A field with a selection set counts one level; leaves
 * and introspection fields (`__schema`, `__typename`) count none.
 */
export function depthLimitRule(maxDepth: number) {
  return function DepthLimitRule(context: ValidationContext): ASTVisitor {
    return {
      OperationDefinition(node) {
        const fragments: Record<string, FragmentDefinitionNode> = {};
        for (const definition of context.getDocument().definitions) {
          if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
        }
        const operationName = node.name?.value ?? '';
        let reported = false;
        const depthOf = (selections: readonly SelectionNode[], depthSoFar: number): number =>
          Math.max(0, ...selections.map((selection) => selectionDepth(selection, depthSoFar)));
        const selectionDepth = (selection: SelectionNode, depthSoFar: number): number => {
          if (depthSoFar > maxDepth) {
            if (!reported) context.reportError(new GraphQLError(`'${operationName}' exceeds maximum operation depth of ${maxDepth}`, { nodes: selection }));
            reported = true;
            return 0;
          }
          switch (selection.kind) {
            case Kind.FIELD:
              if (selection.name.value.startsWith('__') || !selection.selectionSet) return 0;
              return 1 + depthOf(selection.selectionSet.selections, depthSoFar + 1);
            case Kind.FRAGMENT_SPREAD: {
              const fragment = fragments[selection.name.value];
              return fragment ? depthOf(fragment.selectionSet.selections, depthSoFar) : 0;
            }
            case Kind.INLINE_FRAGMENT:
              return depthOf(selection.selectionSet.selections, depthSoFar);
          }
        };
        depthOf(node.selectionSet.selections, 0);
        return false;
      },
    };
  };
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
