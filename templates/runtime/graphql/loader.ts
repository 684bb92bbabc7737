/**
 * The per-request batch loader behind every relation and media field: no N+1.
 *
 * graphql-js resolves the fields of all items of a list before any of their promises
 * settle, so the `author` resolver of 25 articles is called 25 times in a row. Each call
 * only queues its parent under a key — owner type, field and arguments — and one
 * `setImmediate` later (after every resolver of that level has queued) each key runs as
 * one populate over all its parents: the same batched statements REST populate runs (one
 * link-table join per field and level). So a request costs a number of statements fixed by
 * its shape, never by its rows.
 *
 * Per-parent pagination of to-many fields is applied to each parent's list after the read.
 * Only the attributes the query asks of the targets are selected (look-ahead, selection.ts).
 */
import type { Database } from '../db/database.js';
import type { ComponentMeta, ContentTypeMeta, MediaFieldMeta, Registry, RelationFieldMeta } from '../meta.js';
import { populateEntries, populateInstances, type EntryItem, type InstanceItem } from '../populate/execute.js';
import { parsePopulateCached } from '../populate/cache.js';
import type { Entry } from '../rest/transform.js';
import { applyWindow, resolveWindow, toRestFilters, toRestSort, type ListLimits } from './args.js';

export type LinkField = RelationFieldMeta | MediaFieldMeta;

/** Arguments of a relation field: filters, pagination, sort, publicationState (to-many only). */
export type RelationArgs = Record<string, unknown>;

/**
 * Set (by the v5 schema) in the arguments of a relation of an entry read as its draft: the
 * entry's draft's links are read (entity/drafts.ts). No GraphQL argument has this name.
 */
export const draftLinksArg = '__draftLinks';

/** What to read of the targets (selection.ts): scalar fields and components. */
export interface TargetShape {
  readonly fields?: string[];
  readonly populate?: Record<string, unknown>;
}

export type Loaded = Entry | Entry[] | null;

interface Waiting {
  /** The parent: an entry id, or a component instance's stored JSON. */
  readonly parent: number | Record<string, unknown>;
  resolve(value: Loaded): void;
  reject(err: unknown): void;
}

interface Batch {
  readonly owner: ContentTypeMeta | ComponentMeta;
  readonly inComponent: boolean;
  readonly field: LinkField;
  readonly args: RelationArgs;
  readonly shape: TargetShape;
  readonly waiting: Waiting[];
}

export interface LoaderOptions {
  readonly db: Database;
  readonly registry: Registry;
  readonly limits: ListLimits;
}

const fileUid = 'plugin::upload.file';

export class RelationLoader {
  readonly #batches = new Map<string, Batch>();
  /** Shapes are shared by every item of a field: their key is computed once. */
  readonly #shapeKeys = new WeakMap<TargetShape, string>();
  #scheduled = false;

  constructor(private readonly options: LoaderOptions) {}

  /** A relation or media field of a content-type entry. */
  entry(owner: ContentTypeMeta, field: LinkField, args: RelationArgs, shape: TargetShape, id: number): Promise<Loaded> {
    return this.enqueue(owner, false, field, args, shape, id);
  }

  /** A relation or media field inside a component instance (ids stored in its JSON). */
  instance(owner: ComponentMeta, field: LinkField, args: RelationArgs, shape: TargetShape, stored: Record<string, unknown>): Promise<Loaded> {
    return this.enqueue(owner, true, field, args, shape, stored);
  }

  private enqueue(owner: ContentTypeMeta | ComponentMeta, inComponent: boolean, field: LinkField, args: RelationArgs, shape: TargetShape, parent: Waiting['parent']): Promise<Loaded> {
    let shapeKey = this.#shapeKeys.get(shape);
    if (shapeKey === undefined) this.#shapeKeys.set(shape, (shapeKey = JSON.stringify(shape)));
    const key = `${inComponent ? 'c' : 't'}:${owner.uid}:${field.name}:${JSON.stringify(args)}:${shapeKey}`;
    let batch = this.#batches.get(key);
    if (!batch) {
      batch = { owner, inComponent, field, args, shape, waiting: [] };
      this.#batches.set(key, batch);
    }
    const promise = new Promise<Loaded>((resolve, reject) => batch.waiting.push({ parent, resolve, reject }));
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.dispatch());
    }
    return promise;
  }

  private dispatch(): void {
    this.#scheduled = false;
    const batches = [...this.#batches.values()];
    this.#batches.clear();
    for (const batch of batches) {
      this.run(batch).catch((err: unknown) => {
        for (const waiting of batch.waiting) waiting.reject(err);
      });
    }
  }

  private async run(batch: Batch): Promise<void> {
    const loaded = await readLinks(this.options, batch, batch.waiting.map((w) => w.parent));
    batch.waiting.forEach((waiting, i) => waiting.resolve(loaded[i]!));
  }
}

/** What `readLinks` reads: a link field of `owner` (a content type, or a component: `inComponent`) with its arguments. */
export interface LinkRead {
  readonly owner: ContentTypeMeta | ComponentMeta;
  readonly inComponent: boolean;
  readonly field: LinkField;
  readonly args: RelationArgs;
  readonly shape: TargetShape;
}

/**
 * The targets of one link field for many parents (entry ids, or component instances' stored
 * JSON) as one populate: a number of statements fixed by the shape. To-many lists are
 * paginated per parent.
 */
export async function readLinks(options: LoaderOptions, read: LinkRead, parents: readonly Waiting['parent'][]): Promise<Loaded[]> {
  const { registry, db, limits } = options;
  const { field, args } = read;
  const target = registry.contentTypes.get(field.kind === 'relation' ? field.target : fileUid)!;
  const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
  const window = toMany ? resolveWindow(args['pagination'], limits) : undefined;
  const spec = definedOnly({
    filters: toRestFilters(args['filters'], target, registry),
    sort: toRestSort(args['sort']),
    publicationState: publicationStateOf(args, toMany),
    fields: read.shape.fields,
    populate: read.shape.populate,
  });
  // Kept per owner and JSON of the read (populate/cache.ts): the same selection and arguments
  // plan once, and the populate statements compiled for its nodes are kept with it.
  const tree = parsePopulateCached(read.owner, { [field.name]: spec }, { registry, maxDepth: 100 });
  // Already authorized by the field's scope: nothing here is dropped for permissions.
  const draftOwner = !read.inComponent && args[draftLinksArg] === true ? (read.owner as ContentTypeMeta) : undefined;
  const context = { db, registry, maxRelationEntries: Number.MAX_SAFE_INTEGER, publicationState: 'live' as const, draftOwner };
  const slots = parents.map(() => ({}) as Record<string, unknown>);
  if (read.inComponent) {
    const items: InstanceItem[] = parents.map((parent, i) => ({ stored: parent as Record<string, unknown>, out: slots[i]! }));
    await populateInstances(context, items, tree);
  } else {
    const items: EntryItem[] = parents.map((parent, i) => ({ id: parent as number, row: {}, attributes: slots[i]! }));
    await populateEntries(context, items, tree, read.owner as ContentTypeMeta);
  }
  return slots.map((slot) => {
    const data = (slot[field.name] as { data?: Loaded } | null)?.data ?? (toMany ? [] : null);
    return toMany && window ? applyWindow(data as Entry[], window) : data;
  });
}

/**
 * The publication state a link field reads its targets in. A to-many field has the
 * `publicationState` argument (LIVE by default); a to-one field has none, and Strapi 4.26.2's
 * association resolver then loads the target whatever its state (`entityService.load` with no
 * `publicationState`): a draft target is answered, in a LIVE query too. The v5 endpoint sets it
 * for every field (graphql-v5/resolvers.ts): `live` for a published version, `preview` for a draft.
 */
export function publicationStateOf(args: RelationArgs, toMany: boolean): unknown {
  // v4's to-one fields have no such argument; the v5 endpoint gives one (Strapi 5 reads a published version's targets published).
  return toMany ? args['publicationState'] : (args['publicationState'] ?? 'preview');
}

/** Without the keys that have no value (a kept plan is keyed by its JSON). */
function definedOnly(spec: Record<string, unknown>): Record<string, unknown> {
  for (const key of Object.keys(spec)) if (spec[key] === undefined) delete spec[key];
  return spec;
}
