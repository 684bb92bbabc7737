/**
 * Resolvers of the Strapi 5 schema's reads: `<type>(documentId)`, `<types>` and
 * `<types>_connection` with `filters`, `pagination`, `sort`, `status` and `locale`, relation
 * fields (`tags`, `tags_connection`), media, components and dynamic zones. They run on the
 * same parts as v4's: the entity services with the GraphQL list limits, the per-request
 * RelationLoader (one statement per field and level), the v4 argument conversions (args.ts).
 *
 * A node (`Article`) is the entry's REST attributes plus its `documentId`; a Slot remembers
 * which entry it is, for its relation fields. `status: DRAFT` reads every entry (contentgen
 * keeps one row per entry: the draft of a published entry is the entry itself) and answers
 * `publishedAt: null`, as Strapi's draft rows have it.
 */
import type { GraphQLResolveInfo } from 'graphql';
import type { Database } from '../db/database.js';
import type { EntityService } from '../entity/service.js';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import type { Entry } from '../rest/transform.js';
import { Slot } from '../slot.js';
import { draftLinksArg } from '../graphql/loader.js';
import { applyWindow, matchesFilters, paginationMeta, resolveWindow, sortItems, toRestFilters, toRestSort, type ListLimits } from '../graphql/args.js';
import type { GraphqlContext } from '../graphql/context.js';
import type { ResolverMap } from '../graphql/extension.js';
import type { LinkField, Loaded } from '../graphql/loader.js';
import * as naming from '../graphql/naming.js';
import { listLocalesAction } from '../graphql/i18n.js';
import { accessOf, dynamicZoneInput } from '../graphql/resolvers.js';
import { scalarResolvers } from '../graphql/scalars.js';
import { readShape } from '../graphql/selection.js';
import { verify } from '../graphql/wrap.js';
import { findActionOf } from '../rest/routes.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { withDocumentView, type DocumentView, type PublicationFilter } from '../entity/drafts.js';
import { isStored } from './builtins.js';
import { storedValueOf } from '../populate/execute.js';
import { rowsOfDocuments } from '../entity/document-id.js';
import { DocumentIdReader, documentIdFilterAsIds } from './document-id.js';
import { fileUid, v5ContentTypes } from './sdl.js';

type Json = Record<string, unknown>;

const localeUid = 'plugin::i18n.locale';

export interface V5ResolverOptions {
  readonly registry: Registry;
  readonly db: Database;
  readonly service: (uid: string) => EntityService;
  readonly limits: ListLimits;
}

interface NodeOf {
  readonly meta: ContentTypeMeta;
  readonly id: number;
  readonly draft: boolean;
}

const nodeOf = new Slot<NodeOf>('v5 node');

/** Component instances (at any depth) of a node read as a draft: their relations read drafts too. */
const draftInstances = new WeakSet<object>();

function markDraftInstances(value: unknown, depth = 0): void {
  if (depth > 8 || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) markDraftInstances(item, depth + 1);
    return;
  }
  draftInstances.add(value);
  for (const inner of Object.values(value)) markDraftInstances(inner, depth + 1);
}

/** An entry as a v5 node: its attributes, its documentId; `publishedAt: null` when read as a draft. */
function toNode(meta: ContentTypeMeta, entry: Entry, draft: boolean, documentId: string | null): Json {
  const node: Json = { documentId, ...entry.attributes };
  if (draft) {
    node.publishedAt = null;
    for (const field of Object.values(meta.fields)) if (field.kind === 'component' || field.kind === 'dynamiczone') markDraftInstances(node[field.name]);
  }
  // Strapi 5 publishes an entry of a type without draft & publish when it writes it.
  else if (!meta.draftAndPublish && node.publishedAt === undefined) node.publishedAt = node.createdAt ?? null;
  nodeOf.set(node, { meta, id: entry.id, draft });
  return node;
}

/** The request's documentId reader (one per GraphQL context). */
const readers = new WeakMap<GraphqlContext, DocumentIdReader>();
function readerOf(context: GraphqlContext, db: Database): DocumentIdReader {
  let reader = readers.get(context);
  if (!reader) readers.set(context, (reader = new DocumentIdReader(db)));
  return reader;
}

/**
 * An entry as the v5 node of a request: its documentId read with every other of the tick, unless
 * it is given (a deleted entry's, read before the delete).
 */
export async function v5Node(context: GraphqlContext, db: Database, meta: ContentTypeMeta, entry: Entry, draft: boolean, documentId?: string | null): Promise<Json> {
  return toNode(meta, entry, draft, documentId !== undefined ? documentId : await readerOf(context, db).of(meta, entry.id));
}

/** `status: DRAFT` on a draft & publish type: every entry, as its draft. */
const readsDrafts = (meta: ContentTypeMeta, args: Json) => meta.draftAndPublish && args.status === 'DRAFT';

/**
 * v5 filters as v4 GraphQL filters: `documentId` becomes a filter on row ids (document-id.ts), in
 * relations and `and`/`or`/`not` too.
 */
export async function v5Filters(filters: unknown, meta: ContentTypeMeta | ComponentMeta, registry: Registry, db: Database): Promise<unknown> {
  if (!isPlainObject(filters)) return filters;
  const out: Json = {};
  for (const [key, value] of Object.entries(filters)) {
    if (key === 'and' || key === 'or') out[key] = Array.isArray(value) ? await Promise.all(value.map((member) => v5Filters(member, meta, registry, db))) : value;
    else if (key === 'not' || key === 'localizations') out[key] = await v5Filters(value, meta, registry, db);
    else if (key === 'documentId' && naming.isContentType(meta)) out.id = await documentIdFilterAsIds(db, meta, value);
    else {
      const field: FieldMeta | undefined = meta.fields[key];
      const target = field?.kind === 'relation' ? registry.contentTypes.get(field.target) : field?.kind === 'component' ? registry.components.get(field.component) : undefined;
      out[key] = target ? await v5Filters(value, target, registry, db) : value;
    }
  }
  return out;
}

/**
 * The document view a query reads (entity/drafts.ts): `status: DRAFT` the draft view, else the
 * live rows; `publicationFilter` (and the legacy `hasPublishedVersion`) as the REST one.
 */
function withViewOf(meta: ContentTypeMeta, args: Json, query: Json): Json {
  if (!meta.draftAndPublish) return query;
  const filter = args.publicationFilter ?? (args.hasPublishedVersion === true ? 'HAS_PUBLISHED_VERSION' : args.hasPublishedVersion === false ? 'NEVER_PUBLISHED' : undefined);
  const view: DocumentView = { status: readsDrafts(meta, args) ? 'draft' : 'published', ...(filter ? { filter: String(filter).toLowerCase().replaceAll('_', '-') as PublicationFilter } : {}) };
  return withDocumentView(query, view);
}

/** `locale: "*"` is every locale (the v4 side says `all`). */
function localeOf(args: Json): Json {
  if (args.locale === undefined || args.locale === null) return {};
  return { locale: args.locale === '*' ? 'all' : args.locale };
}

export function v5Resolvers(options: V5ResolverOptions): ResolverMap {
  const { registry, limits, db } = options;
  /** Entries as nodes, their documentIds read in one statement with every other of the level. */
  const nodesOf = (context: GraphqlContext, meta: ContentTypeMeta, entries: readonly Entry[], draft: boolean) => Promise.all(entries.map((entry) => v5Node(context, db, meta, entry, draft)));
  const types = v5ContentTypes(registry);
  const map: Record<string, Record<string, unknown>> = {};
  const add = (type: string, field: string, resolver: unknown) => ((map[type] ??= {})[field] = resolver);

  map.GenericMorph = { __resolveType: (value: Json) => (nodeOf.get(value) ? naming.typeName(nodeOf.get(value)!.meta) : undefined) };
  if (registry.contentTypes.has('plugin::users-permissions.user')) {
    // The users-permissions plugin's `me`: the JWT's user, with its documentId.
    add('Query', 'me', (_: unknown, _args: Json, context: GraphqlContext) => {
      verify(context.state.auth, 'plugin::users-permissions.user.me');
      const user = context.state.user;
      if (!user) return null;
      const userMeta = registry.contentTypes.get('plugin::users-permissions.user')!;
      return readerOf(context, db)
        .of(userMeta, Number(user.id))
        .then((documentId) => ({ ...user, documentId, role: user.role ? { description: null, ...user.role } : null }));
    });
  }
  for (const component of registry.components.values()) addOwnerFields(component);
  for (const meta of types) {
    addOwnerFields(meta);
    if (meta.uid !== 'plugin::users-permissions.permission') addQueries(meta);
  }
  return { ...scalarResolvers, ...map };

  function addOwnerFields(owner: ContentTypeMeta | ComponentMeta): void {
    const typeName = naming.ownerTypeName(owner);
    // v4 compatibility fields (only in the schema in that mode): an entry or component is its own
    // `attributes` and `data`; an entry's `id` is its row id.
    add(typeName, 'attributes', (parent: Json) => parent);
    add(typeName, 'data', (parent: Json) => parent);
    if (naming.isContentType(owner)) add(typeName, 'id', (parent: Json) => String(nodeOf.get(parent)?.id ?? ''));
    for (const field of Object.values(owner.fields) as FieldMeta[]) {
      if (field.kind === 'scalar' && field.type === 'enumeration' && field.enum?.length) {
        map[naming.enumTypeName(owner, field.name)] = Object.fromEntries(field.enum.map((value) => [naming.enumValueName(value), value]));
      } else if ((field.kind === 'relation' && !field.unstored) || field.kind === 'media') {
        const target = types.find((meta) => meta.uid === (field.kind === 'relation' ? field.target : fileUid));
        if (!target) continue;
        const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
        const resolver = naming.isContentType(owner) ? linkResolver(owner, field, target, toMany) : instanceLinkResolver(owner, field, target, toMany);
        add(typeName, field.name, resolver);
        if (toMany) {
          const list = resolver;
          add(typeName, `${field.name}_connection`, async (parent: Json, args: Json, context: GraphqlContext, info: GraphQLResolveInfo) => {
            const nodes = await list(parent, args, context, info);
            return { nodes, data: nodes };
          });
        }
      } else if (field.kind === 'component' && field.repeatable) {
        const component = registry.components.get(field.component);
        add(typeName, field.name, (parent: Json, args: Json) => {
          const items = Array.isArray(parent[field.name]) ? (parent[field.name] as Json[]) : [];
          if (!component) return items;
          const filtered = items.filter((item) => matchesFilters(item, args?.filters, component, registry));
          return applyWindow(sortItems(filtered, args?.sort, component), resolveWindow(args?.pagination, limits));
        });
      } else if (field.kind === 'dynamiczone' && naming.isContentType(owner)) {
        map[naming.dynamicZoneName(owner, field.name)] = {
          __resolveType: (item: Json) => (item && typeof item.__component === 'string' ? naming.componentTypeName(item.__component) : 'Error'),
        };
        // Its input: items named by `__typename`, as the v4 endpoint takes them.
        const components = field.components.filter((uid) => registry.components.has(uid));
        map[naming.dynamicZoneInputName(owner, field.name)] = dynamicZoneInput(naming.dynamicZoneInputName(owner, field.name), components, registry);
      }
    }
  }

  /** A relation or media field of a node, batched per request by the loader; the target's find permission is needed, as in v4. */
  function linkResolver(owner: ContentTypeMeta, field: LinkField, target: ContentTypeMeta, toMany: boolean) {
    return async (parent: Json, args: Json, context: GraphqlContext, _info?: GraphQLResolveInfo): Promise<unknown> => {
      const node = nodeOf.get(parent);
      if (!node || !field.link || !isStored(target)) return toMany ? [] : null;
      if (field.kind === 'relation') verify(context.state.auth, findActionOf(target.uid));
      const relationArgs: Json = { ...args, filters: await v5Filters(args?.filters, target, registry, db), publicationState: node.draft ? 'preview' : 'live', ...(node.draft && owner.draftAndPublish ? { [draftLinksArg]: true } : {}) };
      // An unsorted `localizations` in row-id order, as Strapi 5.54.0 answers it here (its resolver's
      // `load` has no ORDER BY; SQLite reads it in rowid order, unlike REST's populate, which walks the
      // documents index: populate/execute.ts withLocaleOrder). Strapi's published rows get new ids
      // at every publish; these keep theirs, so a re-published locale is not moved last here.
      if (field.name === 'localizations' && toRestSort(args?.sort) === undefined) relationArgs.sort = ['id:asc'];
      const loaded: Loaded = await context.loader.entry(owner, field, relationArgs, readShape(target, undefined, registry), node.id);
      const reader = readerOf(context, db);
      if (Array.isArray(loaded)) return Promise.all(loaded.map(async (entry) => toNode(target, entry, false, await reader.of(target, entry.id))));
      return loaded ? toNode(target, loaded, false, await reader.of(target, loaded.id)) : null;
    };
  }

  /**
   * A relation or media field inside a component instance (its ids are in the instance's
   * stored JSON), batched per request by the loader as v4's are; a draft's instance reads drafts.
   */
  function instanceLinkResolver(owner: ComponentMeta, field: LinkField, target: ContentTypeMeta, toMany: boolean) {
    return async (parent: Json, args: Json, context: GraphqlContext, _info?: GraphQLResolveInfo): Promise<unknown> => {
      const stored = storedValueOf(parent);
      if (!stored || !isStored(target)) return toMany ? [] : null;
      if (field.kind === 'relation') verify(context.state.auth, findActionOf(target.uid));
      const draft = draftInstances.has(parent);
      const relationArgs = { ...args, filters: await v5Filters(args?.filters, target, registry, db), publicationState: draft ? 'preview' : 'live' };
      const loaded: Loaded = await context.loader.instance(owner, field, relationArgs, readShape(target, undefined, registry), stored);
      const reader = readerOf(context, db);
      if (Array.isArray(loaded)) return Promise.all(loaded.map(async (entry) => toNode(target, entry, false, await reader.of(target, entry.id))));
      return loaded ? toNode(target, loaded, false, await reader.of(target, loaded.id)) : null;
    };
  }

  function addQueries(meta: ContentTypeMeta): void {
    const service = () => options.service(meta.uid);
    const stored = isStored(meta);
    const whole = () => readShape(meta, undefined, registry) as Json;
    // The upload plugin's actions are named for its Content API (`plugin::upload.content-api.find`);
    // the i18n plugin has one for both.
    const actionOf = (action: 'find' | 'findOne') =>
      meta.uid === localeUid ? listLocalesAction : action === 'find' ? findActionOf(meta.uid) : findActionOf(meta.uid).replace(/find$/, 'findOne');
    const allowed = (context: GraphqlContext, action: 'find' | 'findOne') => verify(context.state.auth, actionOf(action));

    if (meta.kind === 'singleType') {
      add('Query', naming.findOneQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext) => {
        allowed(context, 'find');
        const draft = readsDrafts(meta, args);
        const entry = await service().findSingle(withViewOf(meta, args, { ...whole(), ...localeOf(args), ...(draft ? { publicationState: 'preview' } : {}) }), accessOf(context));
        if (!entry || (meta.draftAndPublish && !draft && entry.attributes.publishedAt == null)) return null;
        return (await nodesOf(context, meta, [entry], draft))[0];
      });
      return;
    }

    /** One page of entries and a lazy count, for `<types>` and `<types>_connection`. */
    const list = async (args: Json, context: GraphqlContext, withCount: boolean) => {
      allowed(context, 'find');
      const window = resolveWindow(args.pagination, limits);
      if (!stored) return { nodes: [], window, total: 0 };
      const draft = readsDrafts(meta, args);
      const filters = toRestFilters(await v5Filters(args.filters, meta, registry, db), meta, registry);
      const query = {
        filters,
        sort: toRestSort(args.sort),
        publicationState: draft ? 'preview' : 'live',
        ...localeOf(args),
      };
      const result = await service().find(withViewOf(meta, args, { ...query, ...whole(), pagination: { start: window.start, limit: window.limit, withCount } }), accessOf(context));
      return { nodes: await nodesOf(context, meta, result.data, draft), window, total: withCount ? Number(result.meta.pagination.total ?? 0) : 0 };
    };

    add('Query', naming.findOneQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext) => {
      allowed(context, 'findOne');
      if (!stored) return null;
      const draft = readsDrafts(meta, args);
      const ids = (await rowsOfDocuments(db, meta, [args.documentId])).map((row) => row.id);
      const result = await service().find(
        withViewOf(meta, args, { filters: { id: { $in: ids } }, ...whole(), ...localeOf(args), publicationState: draft ? 'preview' : 'live', pagination: { start: 0, limit: 1, withCount: false } }),
        accessOf(context),
      );
      const [entry] = result.data;
      return entry ? (await nodesOf(context, meta, [entry], draft))[0] : null;
    });
    add('Query', naming.findQueryName(meta), async (_: unknown, args: Json, context: GraphqlContext) => (await list(args, context, false)).nodes);
    add('Query', `${naming.findQueryName(meta)}_connection`, async (_: unknown, args: Json, context: GraphqlContext) => {
      const { nodes, window, total } = await list(args, context, true);
      return { nodes, pageInfo: paginationMeta(window, total), data: nodes, meta: { pagination: paginationMeta(window, total) } };
    });
  }
}
