/**
 * Parses Strapi v4's `populate` parameter into a tree of what to populate, validated
 * against the metadata: `*`, `a,b`, arrays, dotted paths `a.b.c`, `populate[a]=true|false|
 * t|f|1|0`, nested `populate[a][populate]…`, per-field `fields`, `sort`, `filters`,
 * `publicationState`, and dynamic-zone `on` fragments.
 *
 * Like Strapi, unknown, private and scalar keys are ignored, and relations whose target the
 * caller may not `find` are dropped. Past `maxDepth` levels (`*` counts as one) → 400.
 */
import { ValidationError } from '../errors.js';
import { parseBoolean } from '../query/encode.js';
import { allOfComponent, parseComponentQuery, type ComponentQuery } from './component-query.js';
import { deepPopulate, deepRequest, type PopulateDeepOptions } from './deep.js';
import type {
  ComponentFieldMeta,
  ComponentMeta,
  ContentTypeMeta,
  DynamicZoneFieldMeta,
  FieldMeta,
  MediaFieldMeta,
  MorphFieldMeta,
  Registry,
  RelationFieldMeta,
} from '../meta.js';

export type PopulatableField = RelationFieldMeta | MorphFieldMeta | MediaFieldMeta | ComponentFieldMeta | DynamicZoneFieldMeta;

/** Per-field query options inside a populate object. */
export interface PopulateQuery {
  readonly fields?: unknown;
  readonly sort?: unknown;
  readonly filters?: unknown;
  readonly publicationState?: unknown;
  /**
   * `populate[tags][count]=true`: a relation answers how many entries it would populate
   * (execute.ts `relationCount`), as Strapi's database layer does for relations (not media,
   * morph relations or components, whose populate ignores it).
   */
  readonly count?: boolean;
}

export interface PopulateNode {
  readonly field: PopulatableField;
  /** Relations and media: the type they point at. */
  readonly target?: ContentTypeMeta;
  readonly query: PopulateQuery;
  /** What to populate inside the target (relations, media) or the component. */
  readonly children: PopulateTree;
  /** Dynamic zones: what to populate inside each of its components, by component uid. */
  readonly on: ReadonlyMap<string, PopulateTree>;
  /** Components: `fields`, `sort`, `filters` of the instances (component-query.ts). */
  readonly component?: ComponentQuery;
  /** Dynamic zones: the same per component uid (absent: all of it). */
  readonly onQuery?: ReadonlyMap<string, ComponentQuery>;
  /** morphToOne/morphToMany: the content types whose linked entries the caller may see. */
  readonly morphTypes?: ReadonlySet<string>;
}

/** Field name → what to populate there, in request order. */
export type PopulateTree = ReadonlyMap<string, PopulateNode>;

export interface PopulateOptions {
  readonly registry: Registry;
  /** Levels of population allowed; `*` counts as one. */
  readonly maxDepth: number;
  /** May the caller `find` this content type? Targets it may not are not populated. */
  readonly canFind?: (uid: string) => boolean;
  /**
   * strapi-plugin-populate-deep is installed: `populate=deep[,N]` at the top of a read
   * populates the whole model N levels down (populate/deep.ts), within `maxDepth`.
   */
  readonly deep?: PopulateDeepOptions;
}

type Owner = ContentTypeMeta | ComponentMeta;

export const emptyTree: PopulateTree = new Map();

const truthy = new Set(['true', 't', '1', '*']);
const falsy = new Set(['false', 'f', '0']);

export function parsePopulate(owner: Owner, raw: unknown, options: PopulateOptions, depth = 1): PopulateTree {
  if (raw === undefined || raw === null || raw === '') return emptyTree;
  if (depth === 1 && options.deep && 'table' in owner) {
    const levels = deepRequest(raw, options.deep);
    if (levels !== undefined) {
      // Deeper than the populate limit allows is cut there, not refused: the request did not spell it.
      const built = deepPopulate(owner, Math.min(levels, options.maxDepth + 1), options.registry, options.deep);
      const { deep: _deep, ...plain } = options;
      return built ? parsePopulate(owner, built, plain, 1) : emptyTree;
    }
  }
  const tree = new Map<string, PopulateNode>();
  const add = (name: string, spec: unknown) => {
    const field = owner.fields[name];
    if (!field || !isPopulatable(field) || field.private) return; // ignored like Strapi
    const node = buildNode(field, spec, options, depth);
    if (!node) return;
    const existing = tree.get(name);
    tree.set(name, existing ? mergeNodes(existing, node) : node);
  };

  if (typeof raw === 'string') {
    if (raw === '*') {
      for (const [name, field] of Object.entries(owner.fields)) if (isPopulatable(field)) add(name, true);
    } else {
      for (const path of raw.split(',')) addPath(path.trim(), add);
    }
  } else if (Array.isArray(raw)) {
    for (const item of raw) {
      if (typeof item === 'string') for (const path of item.split(',')) addPath(path.trim(), add);
    }
  } else if (typeof raw === 'object') {
    for (const [name, spec] of Object.entries(raw as Record<string, unknown>)) add(name, spec);
  } else if (raw === true) {
    return parsePopulate(owner, '*', options, depth);
  }
  // Populated fields appear in the order the request named them (`*`: the model's), as in Strapi.
  return tree;
}

/** `a.b.c` → populate a with `b.c` inside it. */
function addPath(path: string, add: (name: string, spec: unknown) => void): void {
  if (path === '') return;
  const dot = path.indexOf('.');
  if (dot === -1) add(path, true);
  else add(path.slice(0, dot), { populate: path.slice(dot + 1) });
}

function buildNode(field: PopulatableField, spec: unknown, options: PopulateOptions, depth: number): PopulateNode | undefined {
  if (spec === false || (typeof spec === 'string' && falsy.has(spec))) return undefined;
  if (depth > options.maxDepth) {
    throw new ValidationError(`populate is nested deeper than ${options.maxDepth} levels (at "${field.name}")`);
  }
  const object = spec !== null && typeof spec === 'object' && !Array.isArray(spec) ? (spec as Record<string, unknown>) : undefined;
  if (!object && !(spec === true || (typeof spec === 'string' && truthy.has(spec)))) return undefined;

  const query: PopulateQuery = object
    ? { fields: object.fields, sort: object.sort, filters: object.filters, publicationState: object.publicationState, ...(field.kind === 'relation' && parseBoolean(object.count) === true ? { count: true } : {}) }
    : {};
  const nested = object?.populate;

  switch (field.kind) {
    case 'relation':
    case 'media': {
      const uid = field.kind === 'relation' ? field.target : 'plugin::upload.file';
      const target = options.registry.contentTypes.get(uid);
      // Creator fields (target admin::user, not served) populate as null for any caller, as in Strapi.
      if (field.kind === 'relation' && field.unstored && !target) return { field, query, children: emptyTree, on: new Map() };
      // Media are populated for anyone who may read the entry (Strapi checks relations to
      // content types only; the upload plugin's own routes stay guarded).
      if (!target || (field.kind === 'relation' && options.canFind && !options.canFind(uid))) return undefined;
      return { field, target, query, children: parsePopulate(target, nested, options, depth + 1), on: new Map() };
    }
    case 'morph': {
      if (field.relation === 'morphOne' || field.relation === 'morphMany') {
        const target = options.registry.contentTypes.get(field.target!);
        if (!target || (options.canFind && !options.canFind(target.uid))) return undefined;
        return { field, target, query, children: parsePopulate(target, nested, options, depth + 1), on: new Map() };
      }
      // Entries of any type: their own attributes (no nested populate), of the types the caller
      // may find; `populate[items][on][api::tag.tag]=true` narrows them to the types named (Strapi).
      const on = object?.on !== null && typeof object?.on === 'object' ? Object.keys(object.on as object) : undefined;
      const morphTypes = new Set([...options.registry.contentTypes.keys()].filter((uid) => (!on || on.includes(uid)) && (!options.canFind || options.canFind(uid))));
      return { field, query: {}, children: emptyTree, on: new Map(), morphTypes };
    }
    case 'component': {
      const component = options.registry.components.get(field.component);
      if (!component) return undefined;
      const componentQuery = parseComponentQuery(component, object, options.registry);
      return { field, query, children: parsePopulate(component, nested, options, depth + 1), on: new Map(), component: componentQuery };
    }
    case 'dynamiczone': {
      // `populate[dz][populate|fields|filters]=…` applies inside every component of the zone
      // (and must be valid for each, as in Strapi); `on` per component instead.
      const on = new Map<string, PopulateTree>();
      const onQuery = new Map<string, ComponentQuery>();
      const fragments = object?.on !== null && typeof object?.on === 'object' ? (object.on as Record<string, unknown>) : undefined;
      for (const uid of field.components) {
        const component = options.registry.components.get(uid);
        if (!component) continue;
        const shared = parseComponentQuery(component, object, options.registry);
        if (fragments) continue;
        onQuery.set(uid, shared);
        on.set(uid, parsePopulate(component, nested, options, depth + 1));
      }
      if (fragments) {
        // A fragment naming a component outside the zone selects nothing (Strapi: `[]`; an
        // unknown component is a 500 there, nothing here).
        for (const [uid, fragment] of Object.entries(fragments)) {
          const component = options.registry.components.get(uid);
          if (!component) continue;
          const fragmentObject = fragment !== null && typeof fragment === 'object' && !Array.isArray(fragment) ? (fragment as Record<string, unknown>) : undefined;
          const fragmentQuery = parseComponentQuery(component, fragmentObject, options.registry);
          if (!field.components.includes(uid)) continue;
          const fragmentPopulate = fragmentObject ? fragmentObject.populate : fragment;
          on.set(uid, parsePopulate(component, fragmentPopulate, options, depth + 1));
          onQuery.set(uid, fragmentQuery);
        }
        // An empty `on: {}` omits the zone, like Strapi.
        if (Object.keys(fragments).length === 0) return undefined;
      }
      return { field, query, children: emptyTree, on, onQuery };
    }
  }
}

function mergeNodes(a: PopulateNode, b: PopulateNode): PopulateNode {
  const children = new Map(a.children);
  for (const [name, node] of b.children) {
    const existing = children.get(name);
    children.set(name, existing ? mergeNodes(existing, node) : node);
  }
  const on = new Map(a.on);
  for (const [uid, tree] of b.on) on.set(uid, tree);
  const onQuery = new Map(a.onQuery ?? []);
  for (const [uid, query] of b.onQuery ?? []) onQuery.set(uid, query);
  return {
    ...a,
    query: { ...a.query, ...definedOnly(b.query) },
    children,
    on,
    ...(a.component || b.component ? { component: b.component !== allOfComponent && b.component ? b.component : a.component } : {}),
    ...(a.onQuery || b.onQuery ? { onQuery } : {}),
  };
}

function definedOnly(query: PopulateQuery): PopulateQuery {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
}

export function isPopulatable(field: FieldMeta): field is PopulatableField {
  return field.kind !== 'scalar';
}
