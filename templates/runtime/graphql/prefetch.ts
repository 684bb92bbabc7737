/**
 * Relations and media read with the list (or entry) that holds them, before graphql-js walks
 * its items: the list resolver reads every link field its query asks of the entries, at every
 * level, as one populate over the page (the REST path: one statement per field and level, the
 * per-parent windows of to-many fields applied after), and each entry's field resolver
 * answers from what was read, without a promise per entry and per field.
 *
 * The populate tree is planned once per selection (the field nodes a planned document hands
 * every request), variables and the caller's `find` permissions on the linked types: the
 * arguments are coerced, the tree parsed and its statements compiled once (populate/execute.ts
 * keeps them per tree node), not per request, field and level.
 *
 * Fields are grouped as graphql-js merges them: by response key and arguments, fragments
 * expanded, the union of their selections read once. Left to the loader (loader.ts), whose
 * errors carry the field's path: a field whose type an extension or a plugin wraps (its
 * resolver may change arguments or read anything), a relation the caller may not `find` (its
 * resolver refuses it), a field whose arguments do not coerce or do not plan, a field asked
 * under two response keys of one selection (one populate key cannot hold both), and every
 * field of a read whose populate fails.
 */
import { getArgumentValues, isObjectType, type FieldNode, type GraphQLField, type GraphQLResolveInfo } from 'graphql';
import type { ContentTypeMeta } from '../meta.js';
import { populateEntries, type EntryItem } from '../populate/execute.js';
import { parsePopulate, type PopulateTree } from '../populate/parse.js';
import type { Entry } from '../rest/transform.js';
import { Slot } from '../slot.js';
import { applyWindow, resolveWindow, toRestFilters, toRestSort, type Window } from './args.js';
import type { GraphqlContext } from './context.js';
import { publicationStateOf, type LinkField, type Loaded, type LoaderOptions } from './loader.js';
import * as naming from './naming.js';
import { fieldsOf, readShape, selectedAttributes, selectionSetsAt, type ReadShape } from './selection.js';

const fileUid = 'plugin::upload.file';

export interface PrefetchOptions extends LoaderOptions {
  /** Types whose fields an extension or plugin wraps: not prefetched. */
  readonly wrapped: (typeName: string) => boolean;
  readonly canFind: (context: GraphqlContext, uid: string) => boolean;
}

/** A link field in a plan: where its values are, and how each parent's list is cut. */
interface PlannedLink {
  readonly name: string;
  readonly toMany: boolean;
  /** To-many fields: the field's pagination (its default when not given). */
  readonly window?: Window;
  /** What is planned of the entries it links to. */
  readonly links: readonly PlannedLink[];
}

/** One selection's populate, for one set of variables and `find` answers. */
interface SelectionPlan {
  readonly tree: PopulateTree;
  readonly links: readonly PlannedLink[];
  /** The caller's `find` answers the plan was made with: reused only for the same ones. */
  readonly answers: ReadonlyArray<readonly [uid: string, canFind: boolean]>;
}

/** Plans kept per variables text of one selection, and per caller permissions. */
const maxVariableSets = 50;
const maxPlansPerVariables = 8;
const longestVariables = 2000;

export class LinkPrefetch {
  /** What each entry's link fields answer, by field name (an entry's attributes → its answers). */
  readonly #answers = new Slot<Record<string, unknown>>('prefetched links');
  /** Field nodes some plan reads: only those answer from #answers (another alias of the name does not). */
  readonly #plannedNodes = new WeakSet<FieldNode>();
  readonly #plans = new WeakMap<readonly FieldNode[], Map<string, SelectionPlan[]>>();
  /** Link groups by field nodes and owner type (see linkGroups). */
  readonly #groups = new WeakMap<readonly FieldNode[], Map<string, LinkGroup[]>>();

  constructor(private readonly options: PrefetchOptions) {}

  /**
   * Reads the link fields asked under `data.attributes` of the field being resolved (a list
   * or one entry of `meta`), at every level, for all of `entries` at once.
   */
  async read(meta: ContentTypeMeta, entries: readonly Entry[], context: GraphqlContext, info: GraphQLResolveInfo): Promise<void> {
    if (entries.length === 0) return;
    const plan = this.planFor(meta, context, info);
    if (!plan || plan.links.length === 0) return;
    const { db, registry } = this.options;
    // Already authorized by the fields' scopes: nothing here is dropped for permissions.
    const populate = { db, registry, maxRelationEntries: Number.MAX_SAFE_INTEGER, publicationState: 'live' as const };
    const found = entries.map(() => ({}) as Record<string, unknown>);
    const items: EntryItem[] = entries.map((entry, i) => ({ id: entry.id, row: {}, attributes: found[i]! }));
    try {
      await populateEntries(populate, items, plan.tree, meta);
    } catch {
      return; // left to the fields' resolvers (the loader), whose errors have the fields' paths
    }
    this.settle(
      plan.links,
      entries.map((entry, i) => [entry.attributes, found[i]!] as const),
    );
  }

  /**
   * What the link field `node` of an entry's attributes was read as, or undefined when it was
   * not (the resolver loads it).
   */
  answer(attributes: object, node: FieldNode, name: string): Loaded | undefined {
    const answers = this.#answers.get(attributes);
    if (answers === undefined || !this.#plannedNodes.has(node)) return undefined;
    return answers[name] as Loaded | undefined;
  }

  /**
   * Turns populated `{ data }` values into what each field answers (to-many lists cut to their
   * window) and remembers them for the entries' resolvers, level by level. An entry read
   * once for several parents is settled once.
   */
  private settle(links: readonly PlannedLink[], holders: ReadonlyArray<readonly [attributes: object, found: Record<string, unknown>]>): void {
    const next = links.map(() => [] as Array<readonly [object, Record<string, unknown>]>);
    for (const [attributes, found] of holders) {
      if (this.#answers.get(attributes) !== undefined) continue;
      links.forEach((link, i) => {
        const data = (found[link.name] as { data?: Loaded } | null | undefined)?.data ?? (link.toMany ? [] : null);
        const value = link.toMany && link.window ? applyWindow(data as Entry[], link.window) : data;
        found[link.name] = value;
        if (link.links.length === 0 || value === null) return;
        // Entries read by populate carry their own link fields in their attributes.
        for (const entry of Array.isArray(value) ? value : [value]) next[i]!.push([entry.attributes, entry.attributes]);
      });
      this.#answers.set(attributes, found);
    }
    links.forEach((link, i) => {
      if (next[i]!.length > 0) this.settle(link.links, next[i]!);
    });
  }

  /** The kept plan of this selection for these variables and this caller, made when missing. */
  private planFor(meta: ContentTypeMeta, context: GraphqlContext, info: GraphQLResolveInfo): SelectionPlan | undefined {
    const variables = info.operation.variableDefinitions?.length ? JSON.stringify(info.variableValues) : '';
    const keep = variables.length <= longestVariables;
    const key = `${meta.uid}\u0000${variables}`;
    let byKey = this.#plans.get(info.fieldNodes);
    if (!byKey) this.#plans.set(info.fieldNodes, (byKey = new Map()));
    const plans = byKey.get(key);
    const hit = plans?.find((plan) => plan.answers.every(([uid, answer]) => this.options.canFind(context, uid) === answer));
    if (hit) return hit;

    const answers: Array<readonly [string, boolean]> = [];
    const canFind = (uid: string) => {
      const answer = this.options.canFind(context, uid);
      answers.push([uid, answer]);
      return answer;
    };
    const { spec, links } = this.planLevel(meta, info, info.fieldNodes, canFind);
    let tree: PopulateTree;
    try {
      tree = parsePopulate(meta, spec, { registry: this.options.registry, maxDepth: 100 });
    } catch {
      return undefined;
    }
    const plan: SelectionPlan = { tree, links, answers };
    if (!keep) return plan;
    if (plans) {
      if (plans.length >= maxPlansPerVariables) plans.shift();
      plans.push(plan);
    } else {
      if (byKey.size >= maxVariableSets) byKey.delete(byKey.keys().next().value!);
      byKey.set(key, [plan]);
    }
    return plan;
  }

  /**
   * The populate of the link fields asked of `meta`'s entries under `nodes`, and how their
   * values are cut, with what is asked of the entries they link to (recursively). A field that
   * cannot be planned is left out, and so left to its resolver.
   */
  private planLevel(
    meta: ContentTypeMeta,
    info: GraphQLResolveInfo,
    nodes: readonly FieldNode[],
    canFind: (uid: string) => boolean,
  ): { spec: Record<string, unknown>; links: PlannedLink[] } {
    const { registry, limits } = this.options;
    const spec: Record<string, unknown> = {};
    const links: PlannedLink[] = [];
    const groups = this.linkGroups(meta, info, nodes);
    const keysPerName = new Map<string, number>();
    for (const group of groups) keysPerName.set(group.field.name, (keysPerName.get(group.field.name) ?? 0) + 1);
    for (const group of groups) {
      const { field, target, shape } = group;
      if (keysPerName.get(field.name)! > 1) continue;
      if (field.kind === 'relation' && !canFind(field.target)) continue;
      const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
      let own: Record<string, unknown>;
      let window: Window | undefined;
      try {
        const args = getArgumentValues(group.definition, group.nodes[0]!, info.variableValues);
        window = toMany ? resolveWindow(args['pagination'], limits) : undefined;
        own = definedOnly({
          filters: toRestFilters(args['filters'], target, registry),
          sort: toRestSort(args['sort']),
          publicationState: publicationStateOf(args, toMany),
          fields: shape.fields,
        });
        // Planned alone first: a field whose arguments do not plan is left to its resolver.
        parsePopulate(meta, { [field.name]: { ...own, ...(shape.populate ? { populate: shape.populate } : {}) } }, { registry, maxDepth: 100 });
      } catch {
        continue;
      }
      const inner = this.planLevel(target, info, group.nodes, canFind);
      const populate = { ...shape.populate, ...inner.spec };
      spec[field.name] = { ...own, ...(Object.keys(populate).length > 0 ? { populate } : {}) };
      links.push({ name: field.name, toMany, ...(window ? { window } : {}), links: inner.links });
      for (const node of group.nodes) this.#plannedNodes.add(node);
    }
    return { spec, links };
  }

  /**
   * The link fields asked of `meta`'s entries under `nodes`, grouped as graphql-js merges them.
   * Worked out once per field nodes and type: a planned query (execute.ts) hands the same
   * nodes to every request of its document. A validated document gives the fields of one
   * response key the same arguments, so grouping by response key is grouping by key and
   * arguments.
   */
  private linkGroups(meta: ContentTypeMeta, info: GraphQLResolveInfo, nodes: readonly FieldNode[]): LinkGroup[] {
    const { options } = this;
    let byType = this.#groups.get(nodes);
    if (!byType) this.#groups.set(nodes, (byType = new Map()));
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
}

/** The link fields asked of one type's entries under one response key. */
interface LinkGroup {
  readonly field: LinkField;
  readonly definition: GraphQLField<unknown, unknown>;
  readonly nodes: FieldNode[];
  /** The type it links to, and what to read of it. */
  readonly target: ContentTypeMeta;
  readonly shape: ReadShape;
}

/** Without the keys that have no value. */
function definedOnly(spec: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(spec)) if (spec[key] === undefined) delete spec[key];
  return spec;
}
