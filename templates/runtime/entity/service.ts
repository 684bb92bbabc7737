/**
 * Entity service: find, findOne, create, update and delete of one content type, the layer
 * REST (and GraphQL) handlers call. Reads compile the query to SQL and populate with a
 * bounded number of statements; writes validate everything first, then run in one
 * transaction (entry row, link rows, component JSON), so a failure leaves nothing behind.
 */
import type { Database, TransactionOptions } from '../db/database.js';
import { ApplicationError, NotFoundError, ValidationError, validationErrors, type ValidationIssue } from '../errors.js';
import type { ComponentFieldMeta, ContentTypeMeta, DynamicZoneFieldMeta, FieldMeta, MorphFieldMeta, Registry } from '../meta.js';
import { jsonFieldsFor, localeOrderOf, populateEntries, type EntryItem } from '../populate/execute.js';
import { parsePopulateCached } from '../populate/cache.js';
import type { PopulateTree } from '../populate/parse.js';
import type { PopulateDeepOptions } from '../populate/deep.js';
import { buildFindOneQuery, buildFindQuery, parsePublicationState, type PublicationState } from '../query/list.js';
import { batches, SqlBuilder } from '../query/sql.js';
import { toEntry, type Entry } from '../rest/transform.js';
import { assertAllowedTypes } from '../upload/allowed-types.js';
import { lifecycleModel, withLifecycle, type LifecycleModel, type Lifecycles } from '../extend/lifecycles.js';
import { NestedValidationError, prepareNestedValue } from './components.js';
import { assignComponentIds } from './component-ids.js';
import { assertUniqueAttributes, rethrowUniqueViolation } from './unique.js';
import { deleteEntryRow, insertEntryRow, updateEntryRow } from './entry-row.js';
import { parseStoredJson } from './component-holders.js';
import { assertDataPayload, pickNonScalarInput, prepareWriteData } from './input.js';
import { assertTargetsExist, parseRelationInput, referencedIds, writeLinks, type LinkField, type RelationInput } from './relations.js';
import { recordEntryEvents, type Outbox } from '../webhooks/index.js';
import { deleteMorphLinks, prepareMorphInput, writeMorph, type MorphInput } from './morph.js';
import { removeRestrictedRelations } from './restricted-relations.js';
import { newDocumentId } from './document-id.js';
import { applyDraft, discardDraft, documentViewOf, draftMetaOf, ensureDraft, withDocumentView, writeDraftLinks, type DraftLinkField } from './drafts.js';

/** The entity service's own writes run only SQL of ours: no Prisma transaction (db/database.ts). */
const direct: TransactionOptions = { direct: true };

/**
 * How a create sets `publishedAt` when the body has none: Strapi's core service (REST)
 * publishes the entry, its entity service (GraphQL's create, and a single type's update that
 * creates) leaves a draft. `publish` defaults to true.
 */
export interface CreateOptions {
  readonly publish?: boolean;
  /** The documentId of the entry's group (a localization of an existing entry); absent: a new one. */
  readonly documentId?: string;
  /**
   * A localized type's entry may be in a locale that is not one of the project's (stored as
   * given): Strapi 5's Content API does not check it (only its admin's routes do), v4's 400s.
   */
  readonly anyLocale?: boolean;
}

export interface RestLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly withCount: boolean;
}

export interface PopulateLimits {
  /** Levels of population a request may ask for; `*` counts as one. */
  readonly maxDepth: number;
  /** Entries one populated to-many field may hold per entry. */
  readonly maxRelationEntries: number;
  /** strapi-plugin-populate-deep's `populate=deep[,N]` (populate/deep.ts); absent: not installed. */
  readonly deep?: PopulateDeepOptions;
}

export interface EntityServiceOptions {
  readonly db: Database;
  readonly registry: Registry;
  readonly limits: RestLimits;
  readonly populate: PopulateLimits;
  readonly hashPassword: (plain: string) => Promise<string>;
  /** The type's lifecycle hooks (its src/api/<name>.ts), run for REST and GraphQL alike. */
  readonly lifecycles?: Lifecycles<any, any>;
  /** Where writes record their webhook events, in their transaction (webhooks/). */
  readonly events?: Outbox;
}

/** What the caller may see: content types it may not `find` are not populated or filtered through. */
export interface Access {
  canFind(uid: string): boolean;
}

export interface FindResult {
  data: Entry[];
  meta: { pagination: Record<string, number> };
}

type Query = Record<string, unknown>;

export class EntityService {
  private readonly model: LifecycleModel;

  constructor(
    readonly meta: ContentTypeMeta,
    protected readonly options: EntityServiceOptions,
  ) {
    this.model = lifecycleModel(meta);
  }

  protected get db(): Database {
    return this.options.db;
  }

  async find(query: Query, access?: Access): Promise<FindResult> {
    return withLifecycle(this.options.lifecycles, this.model, 'findMany', query, (params) => this.findPage(params, access), (result) => result.data);
  }

  private async findPage(query: Query, access?: Access): Promise<FindResult> {
    const tree = this.parsePopulate(query, access);
    const plan = buildFindQuery(this.meta, query, {
      dialect: this.db.dialect,
      registry: this.options.registry,
      ...(access ? { canFind: (uid: string) => access.canFind(uid) } : {}),
      extraFields: jsonFieldsFor(tree),
      ...this.options.limits,
    });
    const [rows, total] = await Promise.all([
      this.db.query(plan.select.sql, plan.select.params),
      plan.count
        ? withLifecycle(this.options.lifecycles, this.model, 'count', query, () =>
            this.db.query<{ count: unknown }>(plan.count!.sql, plan.count!.params).then((r) => Number(r[0]?.count ?? 0)),
          )
        : undefined,
    ]);
    const data = await this.toEntries(this.db, rows, plan.fields, tree, parsePublicationState(query['publicationState']), localeOrderOf(query), this.draftOwnerOf(query));
    return { data, meta: { pagination: plan.pagination.meta(total) as Record<string, number> } };
  }

  /** The entry with this id, or null. Ids that are not positive integers match nothing. */
  async findOne(id: unknown, query: Query, access?: Access): Promise<Entry | null> {
    const entryId = parseId(id);
    if (entryId === null) return null;
    return withLifecycle(this.options.lifecycles, this.model, 'findOne', { where: { id: entryId }, query }, (params) =>
      this.readOne(params.where.id, params.query, access, this.db),
    );
  }

  /** findOne without hooks: the entry a write answers with, read in the write's transaction. */
  protected async readOne(id: unknown, query: Query, access: Access | undefined, db: Database, relations: PublicationState = 'preview'): Promise<Entry | null> {
    const entryId = parseId(id);
    if (entryId === null) return null;
    const tree = this.parsePopulate(query, access);
    const plan = buildFindOneQuery(this.meta, entryId, query, {
      dialect: db.dialect,
      extraFields: jsonFieldsFor(tree),
      registry: this.options.registry,
      ...(access ? { canFind: (uid: string) => access.canFind(uid) } : {}),
    });
    const rows = await db.query(plan.select.sql, plan.select.params);
    // findOne ignores publicationState, for the entry and for what it populates: Strapi's findOne
    // passes none, so drafts are listed in its relations (at any depth) as they are not in a live
    // list. A single type's GET is a find there (`relations`: its publicationState, live by default).
    const [entry] = await this.toEntries(db, rows, plan.fields, tree, relations, localeOrderOf(query), this.draftOwnerOf(query));
    return entry ?? null;
  }

  /**
   * The single type's entry (the first row), or null. Strapi reads it as a list (findMany): a
   * live read (the default) of a draft-and-publish type answers its first published row, so an
   * unpublished single type is a 404 there, as an imported draft stays one here.
   */
  async findSingle(query: Query, access?: Access): Promise<Entry | null> {
    const id = await this.firstId(this.db, this.publishedOnly(query));
    return id === null ? null : this.findSingleById(id, query, access);
  }

  /** A single type's entry as its GET reads it: populated relations in the query's publicationState. */
  protected findSingleById(id: number, query: Query, access: Access | undefined): Promise<Entry | null> {
    const relations = parsePublicationState(query['publicationState']);
    return withLifecycle(this.options.lifecycles, this.model, 'findOne', { where: { id }, query }, (params) =>
      this.readOne(params.where.id, params.query, access, this.db, relations),
    );
  }

  async create(body: unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry> {
    const input = this.sanitizeRelations(assertDataPayload(body), access);
    this.parsePopulate(query, access); // a bad populate is a 400 before anything is written
    const now = new Date();
    return this.committed(this.db.transaction((tx) =>
      withLifecycle(this.options.lifecycles, this.model, 'create', { data: input, query }, async (params) => {
        const write = await this.prepareWrite(tx, assertDataPayload({ data: params.data }), 'create', now, null, false, options?.publish);
        await assertUniqueAttributes(tx, this.meta, write.data, null);
        const id = await insertEntryRow(tx, this.meta, { ...write.data, documentId: options?.documentId ?? newDocumentId(), createdAt: now, updatedAt: now }).catch((err: unknown) =>
          rethrowUniqueViolation(this.meta, err),
        );
        for (const [field, relationInput] of write.links) await writeLinks(tx, field, id, relationInput, true);
        for (const [field, morphInput] of write.morphs) await writeMorph(tx, this.options.registry, this.meta, field, id, morphInput, true);
        const answer = (await this.readOne(id, params.query, access, tx))!;
        await recordEntryEvents(this.options.events, tx, this.meta, 'create', () => this.eventEntry(id, params.query, answer, tx));
        return answer;
      }),
      direct,
    ));
  }

  async update(id: unknown, body: unknown, query: Query, access?: Access): Promise<Entry> {
    const input = this.sanitizeRelations(assertDataPayload(body), access);
    const entryId = parseId(id);
    this.parsePopulate(query, access);
    return this.committed(this.db.transaction(async (tx) => {
      // Strapi answers 404 for a missing entry before it validates the body.
      if (entryId !== null) await lockEntry(tx, this.meta, entryId);
      // A v5 write that publishes (Strapi 5 writes the draft, then publishes it): the pending
      // draft's values become the live row's first (same id), the input is written over them.
      if (entryId !== null && this.meta.draftAndPublish && documentViewOf(query)?.status === 'published') await applyDraft(tx, this.meta, entryId, this.options.registry);
      const stored = entryId === null ? null : await this.storedForUpdate(tx, entryId, input);
      if (entryId === null || !stored) throw new NotFoundError();
      return withLifecycle(this.options.lifecycles, this.model, 'update', { where: { id: entryId }, data: input, query }, async (params) => {
        const data = assertDataPayload({ data: params.data });
        // Strapi skips required/minLength for drafts: an entry stays a draft unless this update publishes it.
        const isDraft = this.meta.draftAndPublish && stored.publishedAt === null && !(data.publishedAt != null);
        const write = await this.prepareWrite(tx, data, 'update', new Date(), stored, isDraft);
        await assertUniqueAttributes(tx, this.meta, write.data, entryId);
        await updateEntryRow(tx, this.meta, entryId, { ...write.data, updatedAt: new Date() }).catch((err: unknown) => rethrowUniqueViolation(this.meta, err));
        for (const [field, relationInput] of write.links) await writeLinks(tx, field, entryId, relationInput);
        for (const [field, morphInput] of write.morphs) await writeMorph(tx, this.options.registry, this.meta, field, entryId, morphInput, false);
        const answer = (await this.readOne(entryId, params.query, access, tx))!;
        await recordEntryEvents(this.options.events, tx, this.meta, 'update', () => this.eventEntry(entryId, params.query, answer, tx), stored.publishedAt != null);
        return answer;
      });
    }, direct));
  }

  /**
   * A v5 update of a stored document (REST `PUT`, GraphQL `updateX`): the query's document view
   * `draft` (`status=draft`) saves the draft (`saveDraft`); any other update publishes it
   * (`update`, which applies a pending draft first when the view is `published`).
   */
  updateDocument(id: number, body: unknown, query: Query, access?: Access): Promise<Entry> {
    return documentViewOf(query)?.status === 'draft' ? this.saveDraft(id, body, query, access) : this.update(id, body, query, access);
  }

  /**
   * Strapi 5's draft save (`PUT …?status=draft`): on a published entry the input goes to its
   * draft (entity/drafts.ts; made from the live row, links included, when it has none), the
   * live row and what v4 reads stay as they were; the answer is the draft view. Relations and
   * media are written to the draft's own links (connect/disconnect/set with positions, as a
   * live write); a target one entry only may hold moves away from its other entry when the
   * draft is published, not now. An entry never published is its own draft: updated as
   * `update` does. As Strapi 5's document service (its `update` of the draft row), the
   * `update` lifecycle hooks run (`where.id` is the entry's id, `data` the input) and an
   * `entry.update` event carries the draft (`publishedAt: null`).
   */
  async saveDraft(id: number, body: unknown, query: Query, access?: Access): Promise<Entry> {
    const input = this.sanitizeRelations(assertDataPayload(body), access);
    this.parsePopulate(query, access);
    const draftQuery = (q: Query) => withDocumentView(q, { status: 'draft' });
    const drafted = await this.committed(this.db.transaction(async (tx) => {
      await lockEntry(tx, this.meta, id);
      const live = await this.storedForUpdate(tx, id, {});
      if (!live) throw new NotFoundError();
      if (live.publishedAt === null || live.publishedAt === undefined) return undefined;
      return withLifecycle(this.options.lifecycles, this.model, 'update', { where: { id }, data: input, query }, async (params) => {
        const data = assertDataPayload({ data: params.data });
        const draftId = await ensureDraft(tx, this.meta, id);
        const stored = (await this.storedForUpdate(tx, draftId, data, draftMetaOf(this.meta)))!;
        const write = await this.prepareWrite(tx, data, 'update', new Date(), stored, true);
        if (write.morphs.length > 0) {
          const names = write.morphs.map(([field]) => field.name);
          throw new ValidationError(`The polymorphic relations of a published document cannot be saved as a draft (${names.join(', ')}): write them with the document published`);
        }
        const { publishedAt: _publishedAt, ...columns } = write.data;
        await updateEntryRow(tx, draftMetaOf(this.meta), draftId, { ...columns, updatedAt: new Date() });
        for (const [field, relationInput] of write.links) await writeDraftLinks(tx, this.meta, id, field as DraftLinkField, relationInput);
        const answer = (await this.readOne(id, draftQuery(params.query), access, tx))!;
        const eventEntry = () =>
          params.query['populate'] === undefined && params.query['fields'] === undefined ? Promise.resolve(answer) : this.readOne(id, draftQuery({}), undefined, tx);
        await recordEntryEvents(this.options.events, tx, this.meta, 'update', eventEntry);
        return answer;
      });
    }, direct));
    return drafted ?? this.update(id, body, query, access);
  }

  /** Drops the entry's pending draft (Strapi 5's document service `discardDraft`); the live row stays. */
  async discardDraft(id: number): Promise<void> {
    if (this.meta.draftAndPublish) await discardDraft(this.db, this.meta, id);
  }

  /** Deletes the entry, its links (the entries it pointed to stay) and its components. */
  async delete(id: unknown, query: Query, access?: Access): Promise<Entry> {
    return this.committed(this.db.transaction(async (tx) => {
      // Events of one entry are recorded in the order its writes commit (see lockEntry).
      const eventId = this.options.events?.wants('entry.delete') ? parseId(id) : null;
      if (eventId !== null) await lockEntry(tx, this.meta, eventId);
      // The answer is the entry as it was, read first (as Strapi's entity service does); the hooks surround the deletion.
      const entry = await this.readOne(id, query, access, tx);
      if (!entry) throw new NotFoundError();
      return withLifecycle(this.options.lifecycles, this.model, 'delete', { where: { id: entry.id }, query }, async () => {
        await recordEntryEvents(this.options.events, tx, this.meta, 'delete', () => this.eventEntry(entry.id, query, entry, tx));
        for (const field of this.linkFields()) {
          const sql = new SqlBuilder(tx.dialect);
          const compiled = sql.finish(`DELETE FROM ${sql.ident(field.link!.table)} WHERE ${sql.ident(field.link!.ownerColumn)} = ${sql.param(entry.id)}`);
          await tx.execute(compiled.sql, compiled.params);
        }
        await deleteMorphLinks(tx, this.options.registry, this.meta, entry.id);
        // Its pending draft and the draft's links (the foreign keys would too).
        if (this.meta.draftAndPublish) await discardDraft(tx, this.meta, entry.id);
        await deleteEntryRow(tx, this.meta, entry.id);
        return entry;
      });
    }, direct));
  }

  /** Single types: PUT creates the entry when there is none, else updates it (same id). */
  async upsertSingle(body: unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry> {
    assertDataPayload(body);
    const id = await this.firstId(this.db);
    return id === null ? this.create(body, query, access, options) : this.update(id, body, query, access);
  }

  async deleteSingle(query: Query, access?: Access): Promise<Entry> {
    const id = await this.firstId(this.db);
    if (id === null) throw new NotFoundError();
    return this.delete(id, query, access);
  }

  /**
   * Runs `fn` in one transaction with this service bound to it, for a write that spans more
   * than the entry (files uploaded with it): a failure anywhere rolls all of it back.
   */
  async transaction<R>(fn: (service: EntityService, tx: Database) => Promise<R>, options?: TransactionOptions): Promise<R> {
    return this.committed(this.db.transaction((tx) => fn(this.bound(tx), tx), options));
  }

  /** The entry as a webhook event carries it (no populate, every public attribute): the answer itself when the query asked for no more or less. */
  private async eventEntry(id: number, query: Query, answer: Entry, tx: Database): Promise<Entry | null> {
    return query['populate'] === undefined && query['fields'] === undefined ? answer : this.readOne(id, {}, undefined, tx);
  }

  /** A write committed: its events (if any) may be delivered now. */
  protected async committed<R>(write: Promise<R>): Promise<R> {
    const result = await write;
    this.options.events?.committed();
    return result;
  }

  /** This service on `tx` (the same class: a localized type's stays localized). */
  protected bound(tx: Database): EntityService {
    return new (this.constructor as new (meta: ContentTypeMeta, options: EntityServiceOptions) => EntityService)(this.meta, { ...this.options, db: tx });
  }

  private parsePopulate(query: Query, access: Access | undefined): PopulateTree {
    return parsePopulateCached(this.meta, query['populate'], {
      registry: this.options.registry,
      maxDepth: this.options.populate.maxDepth,
      ...(this.options.populate.deep ? { deep: this.options.populate.deep } : {}),
      ...(access ? { canFind: (uid: string) => access.canFind(uid) } : {}),
    });
  }

  /** The type, when the query reads its draft view (its entries' relations are their drafts' links), else undefined. */
  private draftOwnerOf(query: Query): ContentTypeMeta | undefined {
    return this.meta.draftAndPublish && documentViewOf(query)?.status === 'draft' ? this.meta : undefined;
  }

  private async toEntries(db: Database, rows: Record<string, unknown>[], fields: string[], tree: PopulateTree, publicationState: 'live' | 'preview', localizationsByLocale: boolean, draftOwner?: ContentTypeMeta): Promise<Entry[]> {
    const entries = rows.map((row) => toEntry(this.meta, row, fields));
    const items: EntryItem[] = entries.map((entry, i) => ({ id: entry.id, row: rows[i]!, attributes: entry.attributes }));
    await populateEntries(
      { db, registry: this.options.registry, maxRelationEntries: this.options.populate.maxRelationEntries, publicationState, localizationsByLocale, draftOwner },
      items,
      tree,
      this.meta,
    );
    return entries;
  }

  /** A caller's input without the relations to types it may not read (Strapi's sanitizeInput). */
  private sanitizeRelations(input: Record<string, unknown>, access: Access | undefined): Record<string, unknown> {
    return access ? removeRestrictedRelations(this.meta.fields, input, this.options.registry, (uid) => access.canFind(uid)) : input;
  }

  /**
   * Validates the whole input (scalars, components, relation syntax and targets) and
   * reports every problem in one ValidationError, as Strapi's yup validation does.
   */
  private async prepareWrite(
    tx: Database,
    input: Record<string, unknown>,
    mode: 'create' | 'update',
    now: Date,
    stored: Record<string, unknown> | null,
    isDraft: boolean,
    publish?: boolean,
  ): Promise<{ data: Record<string, unknown>; links: [LinkField, RelationInput][]; morphs: [MorphFieldMeta, MorphInput][] }> {
    const issues: ValidationIssue[] = [];
    let data: Record<string, unknown> = {};
    try {
      data = await prepareWriteData(this.meta, input, { mode, hashPassword: this.options.hashPassword, now, isDraft, ...(publish === undefined ? {} : { publish }) });
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      issues.push(...issuesOf(err));
    }
    const nested = pickNonScalarInput(this.meta, input);
    // New component instances of every field get their ids together once all is valid (one lock order, three statements).
    const fresh = new Map<string, Record<string, unknown>[]>();
    // An update naming component instances the entry does not hold is refused once the input is otherwise valid (components.ts).
    const unrelated: ApplicationError[] = [];
    const componentValues = new Map<string, unknown>();
    const links: [LinkField, RelationInput][] = [];
    const morphs: [MorphFieldMeta, MorphInput][] = [];
    for (const field of Object.values(this.meta.fields) as FieldMeta[]) {
      if (field.kind === 'scalar') continue;
      const value = nested[field.name];
      try {
        if (field.kind === 'component' || field.kind === 'dynamiczone') {
          if (value === undefined && mode === 'update') continue;
          if (value === undefined && !(field.kind === 'dynamiczone' || field.repeatable || field.required)) continue;
          const json = await prepareNestedValue(
            { db: tx, registry: this.options.registry, hashPassword: this.options.hashPassword, now, fresh, update: mode === 'update', unrelated },
            field as ComponentFieldMeta | DynamicZoneFieldMeta,
            value,
            stored?.[field.name] ?? null,
          );
          componentValues.set(field.name, json);
        } else if (field.kind === 'morph') {
          if (value !== undefined) morphs.push([field, await prepareMorphInput(tx, this.options.registry, field, value)]);
        } else if (value !== undefined && field.link) {
          const relationInput = parseRelationInput(field.name, value);
          const target = this.options.registry.contentTypes.get(field.kind === 'relation' ? field.target : 'plugin::upload.file');
          if (target) await assertTargetsExist(tx, target, referencedIds(relationInput));
          if (field.kind === 'media' && target) await assertMediaTypes(tx, target, field, referencedIds(relationInput));
          links.push([field, relationInput]);
        }
      } catch (err) {
        if (err instanceof NestedValidationError) issues.push(...err.issues);
        else if (err instanceof ValidationError) issues.push(...issuesOf(err));
        else throw err;
      }
    }
    if (issues.length > 0) throw validationErrors(issues);
    if (unrelated[0]) throw unrelated[0];
    await assignComponentIds(tx, this.options.registry, fresh);
    for (const [name, json] of componentValues) data[name] = json;
    return { data, links, morphs };
  }

  private linkFields(): LinkField[] {
    return (Object.values(this.meta.fields) as FieldMeta[]).filter((f): f is LinkField => (f.kind === 'relation' || f.kind === 'media') && f.link !== undefined);
  }

  protected delegate(db: Database): any {
    return db.prisma[this.meta.delegate];
  }

  /** What update needs of the stored entry: that it exists, whether it is a draft, and the component values it replaces. */
  private async storedForUpdate(db: Database, id: number, input: Record<string, unknown>, meta: ContentTypeMeta = this.meta): Promise<Record<string, unknown> | null> {
    const sql = new SqlBuilder(db.dialect);
    const columns = [`${sql.ident('id')} AS ${sql.ident('id')}`];
    const nested: string[] = [];
    for (const field of Object.values(this.meta.fields) as FieldMeta[]) {
      const stored = (field.kind === 'scalar' && field.name === 'publishedAt' && this.meta.draftAndPublish) || ((field.kind === 'component' || field.kind === 'dynamiczone') && input[field.name] !== undefined);
      if (!stored) continue;
      columns.push(`${sql.ident((field as { column: string }).column)} AS ${sql.ident(field.name)}`);
      if (field.kind !== 'scalar') nested.push(field.name);
    }
    const compiled = sql.finish(`SELECT ${columns.join(', ')} FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} = ${sql.param(id)}`);
    const [row] = await db.query(compiled.sql, compiled.params);
    if (!row) return null;
    // JSON columns come back as text on SQLite and MySQL/MariaDB, parsed on PostgreSQL: the component writer takes values.
    for (const name of nested) row[name] = parseStoredJson(row[name]);
    return row;
  }

  /** Whether a read sees published entries only: a live read of a draft-and-publish type. */
  protected publishedOnly(query: Query): boolean {
    return this.meta.draftAndPublish && parsePublicationState(query['publicationState']) === 'live';
  }

  private firstId(db: Database, publishedOnly = false): Promise<number | null> {
    return this.lowestId(db, publishedOnly);
  }

  /** The first entry's id (published ones only, in one locale when asked): a single type's entry. */
  protected async lowestId(db: Database, publishedOnly: boolean, locale?: string): Promise<number | null> {
    const sql = new SqlBuilder(db.dialect);
    const conditions: string[] = [];
    const column = (name: string) => sql.ident((this.meta.fields[name] as { column: string }).column);
    if (locale !== undefined) conditions.push(`${column('locale')} = ${sql.param(locale)}`);
    if (publishedOnly) conditions.push(`${column('publishedAt')} IS NOT NULL`);
    const where = conditions.length > 0 ? ` WHERE ${conditions.join(' AND ')}` : '';
    const compiled = sql.finish(`SELECT ${sql.ident('id')} AS ${sql.ident('id')} FROM ${sql.ident(this.meta.table)}${where} ORDER BY ${sql.ident('id')} LIMIT 1`);
    const [row] = await db.query<{ id: unknown }>(compiled.sql, compiled.params);
    return row ? Number(row.id) : null;
  }

}

/**
 * Locks the entry's row until the transaction ends (PostgreSQL, MySQL/MariaDB), so that
 * concurrent updates of one entry run one after the other: each reads the links and
 * components the previous one wrote, instead of overwriting them with its own stale copy.
 * SQLite needs nothing: a write transaction has the whole database to itself.
 */
export async function lockEntry(db: Database, meta: ContentTypeMeta, id: number): Promise<void> {
  if (db.dialect === 'sqlite') return;
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`SELECT ${sql.ident('id')} FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} = ${sql.param(id)} FOR UPDATE`);
  await db.query(compiled.sql, compiled.params);
}

/** Files linked to a media field must be of its `allowedTypes` (images, videos, audios, files). */
async function assertMediaTypes(db: Database, files: ContentTypeMeta, field: Extract<FieldMeta, { kind: 'media' }>, ids: readonly number[]): Promise<void> {
  if (!field.allowedTypes?.length || ids.length === 0) return;
  for (const batch of batches([...new Set(ids)])) {
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(
      `SELECT ${sql.ident('id')}, ${sql.ident('name')}, ${sql.ident('mime')} FROM ${sql.ident(files.table)} WHERE ${sql.ident('id')} IN (${batch.map((id) => sql.param(id)).join(', ')})`,
    );
    for (const file of await db.query<{ id: unknown; name: string | null; mime: string | null }>(compiled.sql, compiled.params)) {
      assertAllowedTypes(field, { id: Number(file.id), name: file.name, mime: file.mime });
    }
  }
}

function issuesOf(err: ValidationError): ValidationIssue[] {
  const listed = err.details.errors as ValidationIssue[] | undefined;
  return listed ?? [{ path: [], message: err.message, name: 'ValidationError' }];
}

/** Strapi ids are positive integers; anything else finds nothing (404), never a 500. */
export function parseId(id: unknown): number | null {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}
