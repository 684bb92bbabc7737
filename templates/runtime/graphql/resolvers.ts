/**
 * The Shadow CRUD resolvers: queries and mutations through the same EntityService as REST
 * (same data, validation and errors), relation and media fields through the per-request
 * loader, components and dynamic zones from the JSON read with their entry.
 *
 * Shapes: an `XEntity` is the REST entry `{ id, attributes }` itself; `X` is its
 * `attributes` object (a WeakMap remembers which entry it belongs to, for its relation
 * fields); responses are `{ data }`, collections `{ data, meta }`.
 */
import { GraphQLScalarType, Kind, valueFromASTUntyped, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Access, EntityService } from '../entity/service.js';
import { ApplicationError, NotFoundError, ValidationError } from '../errors.js';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, MorphFieldMeta, Registry } from '../meta.js';
import { readMorphRefs } from '../entity/morph.js';
import { storedValueOf } from '../populate/execute.js';
import { findActionOf } from '../rest/routes.js';
import type { Entry } from '../rest/transform.js';
import {
  applyWindow,
  matchesFilters,
  paginationMeta,
  resolveWindow,
  sortItems,
  toRestData,
  toRestFilters,
  toRestSort,
  type ListLimits,
  type Window,
} from './args.js';
import type { GraphqlContext } from './context.js';
import type { Database } from '../db/database.js';
import { RelatedEntriesLoader } from './related.js';
import type { ResolverMap } from './extension.js';
import type { LinkField, Loaded } from './loader.js';
import * as naming from './naming.js';
import { scalarBehaviour, scalarResolvers } from './scalars.js';
import { Slot } from '../slot.js';
import { readShape, selectedAttributes, type ReadShape } from './selection.js';
import { hasMorphToField, morphUnionName } from './sdl.js';
import { LinkPrefetch } from './prefetch.js';
import { answerFromSource, type SourceAnswer } from './execute.js';

export interface ShadowCrudResolverOptions {
  readonly registry: Registry;
  /** For `UploadFile.related`'s link lookups (related.ts). */
  readonly db: Database;
  /** The entity service of a content type, with the GraphQL list limits. */
  readonly service: (uid: string) => EntityService;
  readonly limits: ListLimits;
  /** Removes an uploaded file and its stored copies (deleteUploadFile). */
  readonly removeFile?: (id: unknown) => Promise<unknown>;
  /**
   * Types whose entries must be read whole (extensions resolve fields of them, and may read
   * any attribute): no look-ahead for those.
   */
  readonly readWhole?: (typeName: string) => boolean;
}

type Json = Record<string, unknown>;
type Resolver = (parent: any, args: any, context: GraphqlContext, info: GraphQLResolveInfo) => unknown;

const fileUid = 'plugin::upload.file';

/** Entries read at once for `UploadFile.related` (Strapi's smallest default maxLimit is 100). */
const relatedPage = 100;

/** Which entry an `X` object (an entry's attributes) belongs to. */
const entryOf = new Slot<{ readonly meta: ContentTypeMeta; readonly id: number }>('entry');

/** Marks an entry as an `XEntity` of `meta`; returns it. */
export function entityNode(meta: ContentTypeMeta, entry: Entry): Entry {
  entryOf.set(entry.attributes, { meta, id: entry.id });
  return entry;
}

/** Marks each of `entries` (see entityNode); returns the same array, not a copy. */
function entityNodes(meta: ContentTypeMeta, entries: readonly Entry[]): readonly Entry[] {
  for (const entry of entries) entityNode(meta, entry);
  return entries;
}

/** What the caller may read through filters: types it may `find`. */
export function accessOf(context: GraphqlContext): Access {
  return { canFind: (uid) => context.state.auth?.can(findActionOf(uid)) ?? false };
}

/** The internal value of a `ResponseCollectionMeta`: enough to count lazily. */
interface CollectionInfo {
  readonly window: Window;
  readonly total?: number;
  readonly count: () => Promise<number>;
}

export function shadowCrudResolvers(options: ShadowCrudResolverOptions): ResolverMap {
  const { registry } = options;
  const map: Record<string, Record<string, unknown>> = {};
  const add = (type: string, field: string, resolver: unknown) => ((map[type] ??= {})[field] = resolver);
  /** Read shapes by field (`info.fieldNodes`) and type: see shapeOf. */
  const shapes = new WeakMap<object, Map<string, ReadShape>>();
  /** Link fields read with their list, one populate per selection (prefetch.ts). */
  const prefetch = new LinkPrefetch({
    db: options.db,
    registry,
    limits: options.limits,
    wrapped: (typeName) => options.readWhole?.(typeName) ?? false,
    canFind: (context, uid) => accessOf(context).canFind(uid),
  });

  addRelated();
  // Without a promise when the total was read with the page (a planned query then completes synchronously).
  add('ResponseCollectionMeta', 'pagination', (parent: CollectionInfo) =>
    parent.total !== undefined ? paginationMeta(parent.window, parent.total) : parent.count().then((total) => paginationMeta(parent.window, total)),
  );
  map.PublicationState = { LIVE: 'live', PREVIEW: 'preview' };

  for (const component of registry.components.values()) addOwnerFields(component);
  for (const meta of registry.contentTypes.values()) {
    addOwnerFields(meta);
    addOperations(meta);
  }
  return { ...scalarResolvers, ...map };

  function addOwnerFields(owner: ContentTypeMeta | ComponentMeta): void {
    const typeName = naming.ownerTypeName(owner);
    for (const field of Object.values(owner.fields) as FieldMeta[]) {
      switch (field.kind) {
        case 'scalar':
          if (field.type === 'enumeration' && field.enum?.length) {
            map[naming.enumTypeName(owner, field.name)] = Object.fromEntries(field.enum.map((value) => [naming.enumValueName(value), value]));
          }
          break;
        case 'relation':
        case 'media':
          // As a field config, not a bare function, which graphql-tools would bind (losing answerFromSource).
          add(typeName, field.name, { resolve: linkResolver(owner, field) });
          break;
        case 'component':
          if (field.repeatable) add(typeName, field.name, repeatableResolver(field.name, registry.components.get(field.component)));
          break;
        case 'morph':
          if (naming.isContentType(owner) && (field.relation === 'morphToOne' || field.relation === 'morphToMany')) add(typeName, field.name, morphResolver(owner, field));
          break;
        case 'dynamiczone':
          if (naming.isContentType(owner)) {
            map[naming.dynamicZoneName(owner, field.name)] = {
              __resolveType: (item: Json) => (item && typeof item.__component === 'string' ? naming.componentTypeName(item.__component) : 'Error'),
            };
            map[naming.dynamicZoneInputName(owner, field.name)] = dynamicZoneInput(naming.dynamicZoneInputName(owner, field.name), field.components, registry);
          }
          break;
      }
    }
  }

  /**
   * What to read of entries of `meta` for the field being resolved (its `data.attributes`).
   * graphql-js hands every item of a list the same `fieldNodes` array: the shape is worked
   * out once per field of the query, not once per entry.
   */
  function shapeOf(meta: ContentTypeMeta, info: GraphQLResolveInfo, extra: readonly string[] = []): ReadShape {
    let byType = shapes.get(info.fieldNodes);
    if (!byType) shapes.set(info.fieldNodes, (byType = new Map()));
    const key = `${meta.uid}|${extra.join(',')}`;
    let shape = byType.get(key);
    if (!shape) {
      const whole = options.readWhole?.(naming.typeName(meta)) ?? false;
      shape = readShape(meta, whole ? undefined : selectedAttributes(info, ['data', 'attributes']), registry, extra);
      byType.set(key, shape);
    }
    return shape;
  }

  function linkResolver(owner: ContentTypeMeta | ComponentMeta, field: LinkField): Resolver {
    const target = registry.contentTypes.get(field.kind === 'relation' ? field.target : fileUid);
    const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
    const answer = (value: Loaded) => {
      if (!target) return { data: toMany ? [] : null };
      if (Array.isArray(value)) return { data: entityNodes(target, value) };
      return { data: value ? entityNode(target, value) : null };
    };
    const resolve: Resolver & { [answerFromSource]?: SourceAnswer } = (parent: Json, args, context, info) => {
      const ready = prefetch.answer(parent, info.fieldNodes[0]!, field.name);
      if (ready !== undefined) return answer(ready);
      let loaded: Promise<Loaded>;
      const shape = target ? shapeOf(target, info) : {};
      if (naming.isContentType(owner)) {
        const entry = entryOf.get(parent);
        if (!entry || !field.link) return toMany ? { data: [] } : { data: null };
        loaded = context.loader.entry(owner, field, args ?? {}, shape, entry.id);
      } else {
        const stored = storedValueOf(parent);
        if (!stored) return toMany ? { data: [] } : { data: null };
        loaded = context.loader.instance(owner, field, args ?? {}, shape, stored);
      }
      return loaded.then(answer);
    };
    // A planned query takes what was read with the list without a call per entry (execute.ts).
    resolve[answerFromSource] = (parent, _context, nodes) => {
      const ready = prefetch.answer(parent as object, nodes[0]!, field.name);
      return ready === undefined ? undefined : answer(ready);
    };
    return resolve;
  }

  /**
   * A morphToOne/morphToMany field (Strapi types it but fails to resolve it): the linked
   * entries in order, as members of `GenericMorph` (`... on Tag { name }`), read whole through
   * their type's service (drafts left out, as lists do); types the caller may not `find` are
   * left out, as Strapi's output sanitizer does.
   */
  function morphResolver(owner: ContentTypeMeta, field: MorphFieldMeta): Resolver {
    /** Entries of one request asking this field, gathered until the next tick: one read for all. */
    const batches = new WeakMap<GraphqlContext, { ids: number[]; done: Promise<Map<number, Json[]>> }>();
    const load = (context: GraphqlContext, id: number): Promise<Json[]> => {
      let batch = batches.get(context);
      if (!batch) {
        const ids: number[] = [];
        const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
          batches.delete(context);
          return readMorphed(context, ids);
        });
        batches.set(context, (batch = { ids, done }));
      }
      batch.ids.push(id);
      return batch.done.then((byOwner) => byOwner.get(id) ?? []);
    };
    const readMorphed = async (context: GraphqlContext, ownerIds: readonly number[]): Promise<Map<number, Json[]>> => {
      const refs = await readMorphRefs(options.db, owner, field, ownerIds);
      const access = accessOf(context);
      const byType = new Map<string, Set<number>>();
      for (const ref of [...refs.values()].flat()) if (access.canFind(ref.uid)) byType.set(ref.uid, (byType.get(ref.uid) ?? new Set()).add(ref.id));
      const found = new Map<string, Json>();
      for (const [uid, idSet] of byType) {
        const meta = registry.contentTypes.get(uid);
        if (!meta) continue;
        const ids = [...idSet];
        for (let i = 0; i < ids.length; i += relatedPage) {
          const page = ids.slice(i, i + relatedPage);
          const query = { ...readShape(meta, undefined, registry), filters: { id: { $in: page } }, locale: 'all', pagination: { start: 0, limit: page.length, withCount: false } };
          for (const read of (await options.service(uid).find(query, access)).data) found.set(`${uid}\u0000${read.id}`, entityNode(meta, read).attributes);
        }
      }
      const out = new Map<number, Json[]>();
      for (const [ownerId, list] of refs) {
        out.set(ownerId, list.map((ref) => found.get(`${ref.uid}\u0000${ref.id}`)).filter((value): value is Json => value !== undefined));
      }
      return out;
    };
    return async (parent: Json, _args, context) => {
      const entry = entryOf.get(parent);
      if (!entry) return field.toMany ? [] : null;
      const list = await load(context, entry.id);
      return field.toMany ? list : (list[0] ?? null);
    };
  }

  /**
   * `UploadFile.related` (batched per request, related.ts) and its union `GenericMorph`,
   * whose members are the attributes objects of entries (entityNode marks their type).
   */
  function addRelated(): void {
    const file = registry.contentTypes.get(fileUid);
    if (!file && !hasMorphToField(registry)) return;
    map[morphUnionName] = {
      __resolveType: (value: Json) => {
        const owner = entryOf.get(value);
        return owner ? naming.typeName(owner.meta) : undefined;
      },
    };
    if (!file) return;
    const loaders = new WeakMap<GraphqlContext, RelatedEntriesLoader>();
    const loaderOf = (context: GraphqlContext) => {
      let loader = loaders.get(context);
      if (!loader) {
        const access = accessOf(context);
        // Whole entries with their components (any of their fields may be asked), in pages
        // no larger than any list limit allows.
        const read = async (meta: ContentTypeMeta, ids: readonly number[]) => {
          const entries: Entry[] = [];
          for (let i = 0; i < ids.length; i += relatedPage) {
            const page = ids.slice(i, i + relatedPage);
            const query = { ...readShape(meta, undefined, registry), filters: { id: { $in: page } }, locale: 'all', pagination: { start: 0, limit: page.length, withCount: false } };
            entries.push(...(await options.service(meta.uid).find(query, access)).data);
          }
          return entries;
        };
        loaders.set(context, (loader = new RelatedEntriesLoader(options.db, registry, (uid) => access.canFind(uid), read)));
      }
      return loader;
    };
    add(naming.typeName(file), 'related', async (parent: Json, _args: Json, context: GraphqlContext) => {
      const entry = entryOf.get(parent);
      if (!entry) return [];
      return (await loaderOf(context).load(entry.id)).map(({ meta, entry: related }) => entityNode(meta, related).attributes);
    });
  }

  function repeatableResolver(name: string, component: ComponentMeta | undefined): Resolver {
    return (parent: Json, args) => {
      const items = Array.isArray(parent[name]) ? (parent[name] as Json[]) : [];
      if (!component) return items;
      const filtered = items.filter((item) => matchesFilters(item, args?.filters, component, registry));
      return applyWindow(sortItems(filtered, args?.sort, component), resolveWindow(args?.pagination, options.limits));
    };
  }

  function addOperations(meta: ContentTypeMeta): void {
    const service = () => options.service(meta.uid);
    /** `fields` and `populate` of the read, from what the query asks (`data.attributes`). */
    const read = (info: GraphQLResolveInfo, extra?: readonly string[]): Json => {
      const shape = shapeOf(meta, info, extra);
      return { ...(shape.fields ? { fields: shape.fields } : {}), populate: shape.populate };
    };
    const response = (entry: Entry | null) => ({ data: entry ? entityNode(meta, entry) : null });
    const data = (args: Json) => ({ data: { ...toRestData(args.data, meta, registry), ...localeOf(args) } });
    /** Update and delete of an entry that is not there answer `{ data: null }`, as Strapi does. */
    const orNull = async (run: () => Promise<Entry>) => {
      try {
        return response(await run());
      } catch (err) {
        if (err instanceof NotFoundError) return response(null);
        throw err;
      }
    };

    if (meta.kind === 'singleType') {
      add('Query', naming.findOneQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) => {
        const entry = await service().findSingle({ ...read(info, meta.draftAndPublish ? ['publishedAt'] : []), ...localeOf(args) }, accessOf(context));
        // A live read of a draft & publish single type sees it only once published.
        const live = meta.draftAndPublish && (args.publicationState ?? 'live') === 'live';
        return response(entry && live && entry.attributes.publishedAt == null ? null : entry);
      });
      add('Mutation', naming.updateMutationName(meta), async (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) =>
        response(await service().upsertSingle(data(args), { ...read(info), ...localeOf(args) }, accessOf(context), entityServiceCreate)),
      );
      add('Mutation', naming.deleteMutationName(meta), (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) =>
        orNull(() => service().deleteSingle({ ...read(info), ...localeOf(args) }, accessOf(context))),
      );
      return;
    }

    add('Query', naming.findOneQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) => {
      const entry = await service().findOne(args.id, read(info), accessOf(context));
      if (entry) await prefetch.read(meta, [entry], context, info);
      return response(entry);
    });
    add('Query', naming.findQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) => {
      const window = resolveWindow(args.pagination, options.limits);
      const access = accessOf(context);
      const query = {
        filters: toRestFilters(args.filters, meta, registry),
        sort: toRestSort(args.sort),
        publicationState: args.publicationState,
        ...localeOf(args),
        ...read(info),
      };
      // The count runs with the page (in parallel) when `meta` is asked for.
      const withCount = selects(info, 'meta');
      const result = await service().find({ ...query, pagination: { start: window.start, limit: window.limit, withCount } }, access);
      const total = withCount ? Number(result.meta.pagination.total ?? 0) : undefined;
      const count = async () =>
        Number((await service().find({ ...query, fields: [], populate: undefined, pagination: { start: 0, limit: 1, withCount: true } }, access)).meta.pagination.total ?? 0);
      const info_: CollectionInfo = { window, ...(total === undefined ? {} : { total }), count };
      await prefetch.read(meta, result.data, context, info);
      return { data: entityNodes(meta, result.data), meta: info_ };
    });
    add('Mutation', naming.createMutationName(meta), async (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) =>
      response(await service().create(data(args), read(info), accessOf(context), entityServiceCreate)),
    );
    add('Mutation', naming.updateMutationName(meta), (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) =>
      orNull(() => service().update(args.id, data(args), read(info), accessOf(context))),
    );
    add('Mutation', naming.deleteMutationName(meta), (_: unknown, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) =>
      orNull(async () => {
        if (meta.uid !== fileUid || !options.removeFile) return service().delete(args.id, read(info), accessOf(context));
        // Files go through the upload plugin, which also removes the stored copies.
        const entry = await service().findOne(args.id, read(info), accessOf(context));
        if (!entry) throw new NotFoundError();
        await options.removeFile(args.id);
        return entry;
      }),
    );
  }
}

/**
 * Strapi's GraphQL create calls its entity service, not the core service REST uses: an entry
 * sent without `publishedAt` is created a draft (and a single type's update that creates one).
 */
const entityServiceCreate = { publish: false } as const;

/** The i18n plugin's `locale` argument, for the service (absent: the default locale). */
function localeOf(args: Json): Json {
  return args?.locale === undefined || args.locale === null ? {} : { locale: args.locale };
}

/**
 * A dynamic zone's input scalar: each item names its component by GraphQL type
 * (`__typename: "ComponentSharedQuote"`), turned into `__component: "shared.quote"`.
 */
export function dynamicZoneInput(name: string, zone: readonly string[], registry: Registry) {
  const byTypeName = new Map([...registry.components.keys()].map((uid) => [naming.componentTypeName(uid), uid]));
  const parse = (value: unknown): Json => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(`${name}: each item must be an object with a __typename`);
    const { __typename, ...rest } = value as Json;
    const uid = byTypeName.get(String(__typename));
    if (!uid) throw new ApplicationError(`Component not found. expected one of: ${zone.map(naming.componentTypeName).join(', ')}`);
    return { __component: uid, ...rest };
  };
  return scalarBehaviour(
    new GraphQLScalarType({
      name,
      serialize: (value) => value,
      parseValue: parse,
      parseLiteral: (ast, variables) => (ast.kind === Kind.OBJECT ? parse(valueFromASTUntyped(ast, variables)) : undefined),
    }),
  );
}

/** Whether the field being resolved selects `name` (directly or through fragments). */
export function selects(info: GraphQLResolveInfo, name: string): boolean {
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return selection.name.value === name;
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      return visit(info.fragments[selection.name.value]?.selectionSet);
    });
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}
