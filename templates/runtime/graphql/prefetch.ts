/**
 * Relations and media read with the list (or entry) that holds them, before graphql-js walks
 * its items: the list resolver reads the link fields its query asks of the entries' attributes
 * at once, then those of the entries read, level by level, and each entry's field resolver
 * answers from what was read, without a promise per entry and per field. The statements are
 * the loader's (one populate per field and level), so the count still follows the query's
 * shape.
 *
 * Fields are grouped as graphql-js merges them: by response key and arguments, fragments
 * expanded, the union of their selections read once. A field whose type an extension or a
 * plugin wraps (its resolver may change arguments or read anything) is left to the loader, as
 * is a relation the caller may not `find` (its resolver refuses it).
 */
import { getArgumentValues, isObjectType, type FieldNode, type GraphQLField, type GraphQLResolveInfo } from 'graphql';
import type { ContentTypeMeta, Registry } from '../meta.js';
import type { Entry } from '../rest/transform.js';
import type { GraphqlContext } from './context.js';
import { readLinks, type LinkField, type Loaded, type LoaderOptions } from './loader.js';
import * as naming from './naming.js';
import type { Slot } from '../slot.js';
import { fieldsOf, readShape, selectedAttributes, selectionSetsAt, type ReadShape } from './selection.js';

const fileUid = 'plugin::upload.file';

/** What a link field's resolver finds for an entry's attributes, by the field node that asked. */
export type Prefetched = Slot<Map<FieldNode, Loaded>>;

export interface PrefetchOptions extends LoaderOptions {
  /** Types whose fields an extension or plugin wraps: not prefetched. */
  readonly wrapped: (typeName: string) => boolean;
  readonly canFind: (context: GraphqlContext, uid: string) => boolean;
}

/**
 * Reads the link fields asked under `data.attributes` of `nodes` (the field that answered
 * `entries`: the query's own field, then a link field's merged nodes) for every entry.
 */
export async function prefetchLinks(
  options: PrefetchOptions,
  prefetched: Prefetched,
  meta: ContentTypeMeta,
  entries: readonly Entry[],
  context: GraphqlContext,
  info: GraphQLResolveInfo,
  nodes: readonly FieldNode[] = info.fieldNodes,
): Promise<void> {
  if (entries.length === 0) return;
  const groups = linkGroups(options, meta, info, nodes);
  if (groups.length === 0) return;
  const ids = entries.map((entry) => entry.id);
  await Promise.all(
    groups.map(async ({ field, definition, nodes: fieldNodes, target, shape }) => {
      if (field.kind === 'relation' && !options.canFind(context, field.target)) return;
      let loaded: Loaded[];
      try {
        const args = getArgumentValues(definition, fieldNodes[0]!, info.variableValues);
        loaded = await readLinks(options, { owner: meta, inComponent: false, field, args, shape }, ids);
      } catch {
        // Bad arguments: left to the field's resolver (the loader), whose error has the field's path.
        return;
      }
      entries.forEach((entry, i) => {
        let byNode = prefetched.get(entry.attributes);
        if (!byNode) prefetched.set(entry.attributes, (byNode = new Map()));
        for (const node of fieldNodes) byNode.set(node, loaded[i]!);
      });
      // The next level: what the query asks of the entries just read.
      const next = loaded.flatMap((value) => (Array.isArray(value) ? value : value ? [value] : []));
      await prefetchLinks(options, prefetched, target, next, context, info, fieldNodes);
    }),
  );
}

/** The link fields asked of `meta`'s entries under `nodes`, grouped as graphql-js merges them. */
interface LinkGroup {
  readonly field: LinkField;
  readonly definition: GraphQLField<unknown, unknown>;
  readonly nodes: FieldNode[];
  /** The type it links to, and what to read of it. */
  readonly target: ContentTypeMeta;
  readonly shape: ReadShape;
}

/**
 * Worked out once per field nodes and type: a planned query (execute.ts) hands the same
 * nodes to every request of its document. A validated document gives the fields of one
 * response key the same arguments, so grouping by response key is grouping by key and
 * arguments; the arguments' values (variables) are read per request.
 */
const linkGroupsCache = new WeakMap<readonly FieldNode[], Map<string, LinkGroup[]>>();

function linkGroups(options: PrefetchOptions, meta: ContentTypeMeta, info: GraphQLResolveInfo, nodes: readonly FieldNode[]): LinkGroup[] {
  let byType = linkGroupsCache.get(nodes);
  if (!byType) linkGroupsCache.set(nodes, (byType = new Map()));
  let groups = byType.get(meta.uid);
  if (groups) return groups;
  groups = [];
  const typeName = naming.typeName(meta);
  const type = info.schema.getType(typeName);
  if (!options.wrapped(typeName) && isObjectType(type)) {
    const definitions = type.getFields();
    const byKey = new Map<string, { field: LinkField; definition: GraphQLField<unknown, unknown>; nodes: FieldNode[] }>();
    for (const node of fieldsOf(selectionSetsAt(nodes, ['data', 'attributes'], info.fragments), info.fragments)) {
      const field = meta.fields[node.name.value];
      const definition = definitions[node.name.value];
      if (!field || !definition || (field.kind !== 'relation' && field.kind !== 'media') || !field.link) continue;
      const key = node.alias?.value ?? node.name.value;
      const group = byKey.get(key);
      if (group) group.nodes.push(node);
      else byKey.set(key, { field, definition: definition as GraphQLField<unknown, unknown>, nodes: [node] });
    }
    for (const group of byKey.values()) {
      const target = options.registry.contentTypes.get(group.field.kind === 'relation' ? group.field.target : fileUid);
      if (!target) continue;
      const names = selectedAttributes({ ...info, fieldNodes: group.nodes }, ['data', 'attributes']);
      const whole = options.wrapped(naming.typeName(target));
      groups.push({ ...group, target, shape: readShape(target, whole ? undefined : names, options.registry) });
    }
  }
  byType.set(meta.uid, groups);
  return groups;
}
