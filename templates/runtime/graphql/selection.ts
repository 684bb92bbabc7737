/**
 * Look-ahead: which attributes a query asks of the entries a resolver reads, so the read
 * selects those columns and parses those components only (REST's `fields` and `populate`),
 * instead of every column and every component JSON of every entry.
 *
 * Fragments and inline fragments are followed; `@skip`/`@include` are ignored, so the set
 * is never smaller than what execution will ask for.
 */
import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { ComponentMeta, ContentTypeMeta, Registry } from '../meta.js';
import { isSelectableScalar } from '../meta.js';
import { componentPopulate } from './args.js';

/** Fields named in a selection set (fragments expanded), with their nodes. */
export function fieldsOf(sets: readonly SelectionSetNode[], fragments: Record<string, FragmentDefinitionNode>): FieldNode[] {
  const out: FieldNode[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) out.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        visit(fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const set of sets) visit(set);
  return out;
}

/**
 * The attribute names asked under `path` (e.g. `data.attributes`) of the field being
 * resolved, or undefined when they cannot be known.
 */
export function selectedAttributes(info: GraphQLResolveInfo, path: readonly string[]): Set<string> | undefined {
  return new Set(fieldsOf(selectionSetsAt(info.fieldNodes, path, info.fragments), info.fragments).map((field) => field.name.value));
}

/** The selection sets reached from `nodes` by following `path` (field names, every alias). */
export function selectionSetsAt(nodes: readonly FieldNode[], path: readonly string[], fragments: Record<string, FragmentDefinitionNode>): SelectionSetNode[] {
  let sets: SelectionSetNode[] = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const step of path) {
    sets = fieldsOf(sets, fragments)
      .filter((field) => field.name.value === step)
      .flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  }
  return sets;
}

/** What to read of entries of `meta` for these attribute names: REST `fields` and `populate`. */
export interface ReadShape {
  /** Scalar attributes to select; undefined: all of them. */
  readonly fields?: string[];
  /** Component and dynamic-zone fields to parse (nested components included). */
  readonly populate?: Record<string, unknown>;
}

/**
 * The read for these names; every attribute when `names` is undefined or holds one the
 * model does not have (a field an extension added may read any attribute).
 */
export function readShape(meta: ContentTypeMeta | ComponentMeta, names: ReadonlySet<string> | undefined, registry: Registry, extra: readonly string[] = []): ReadShape {
  const all = componentPopulate(meta, registry);
  if (!names || [...names].some((name) => name !== '__typename' && !(name in meta.fields))) return all ? { populate: all } : {};
  const fields = [...names, ...extra].filter((name) => {
    const field = meta.fields[name];
    return field !== undefined && name !== 'id' && isSelectableScalar(field);
  });
  const populate = Object.fromEntries(Object.entries(all ?? {}).filter(([name]) => names.has(name)));
  return { fields: [...new Set(fields)], ...(Object.keys(populate).length ? { populate } : {}) };
}
