/**
 * The entity service of a localized type (Strapi's i18n entity-service decorator): lists
 * and single types read one locale (the default one unless `locale` is given; `all` reads
 * every one), creates take `data.locale`, updates ignore `locale` and `localizations`, and
 * `createLocalization` adds an entry in another locale to an entry's group. An entry's
 * `localizations` link it to every other entry of its group, both ways; the attributes the
 * type shares (`sharedAttributes`) are kept equal across the group on every write (Strapi
 * copies them on update only when the request populates `localizations`).
 */
import { DbNull } from '@prisma/client/runtime/client';
import type { Database } from '../db/database.js';
import { prismaJson } from '../entity/input.js';
import { ApplicationError, NotFoundError, ValidationError } from '../errors.js';
import { prismaFieldOf, type ContentTypeMeta, type FieldMeta, type I18nSettings, type Registry } from '../meta.js';
import { EntityService, parseId, type Access, type CreateOptions, type FindResult } from '../entity/service.js';
import { rethrowUniqueViolation } from '../entity/unique.js';
import { reserveComponentIds } from '../entity/component-ids.js';
import { parseStoredJson } from '../entity/component-holders.js';
import { recordEntryEvents } from '../webhooks/index.js';
import { SqlBuilder } from '../query/sql.js';
import { documentIdsOf } from '../entity/document-id.js';
import { documentViewOf, draftIdOf } from '../entity/drafts.js';
import type { Entry } from '../rest/transform.js';

type Query = Record<string, unknown>;
type Json = Record<string, unknown>;

/** A fresh Strapi's locales: English alone. */
export const defaultI18n: I18nSettings = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] };

export function i18nOf(registry: Registry): I18nSettings {
  return registry.i18n ?? defaultI18n;
}

/** `locale=all` lifts the restriction to one locale. */
const allLocales = 'all';

export class LocalizedEntityService extends EntityService {
  private get i18n(): I18nSettings {
    return i18nOf(this.options.registry);
  }

  /** The list's query restricted to its locale, as Strapi's `wrapParams`: `$and: [{locale}, filters]`. */
  private localeQuery(query: Query): Query {
    const { locale, ...rest } = query;
    if (locale === allLocales) return rest;
    const code = locale === undefined ? this.i18n.defaultLocale : locale;
    return { ...rest, filters: { $and: [{ locale: code }, ...(rest.filters === undefined ? [] : [rest.filters])] } };
  }

  override find(query: Query, access?: Access): Promise<FindResult> {
    return super.find(this.localeQuery(query), access);
  }

  override async findSingle(query: Query, access?: Access): Promise<Entry | null> {
    const id = await this.singleId(this.db, query['locale'], this.publishedOnly(query));
    return id === null ? null : this.findSingleById(id, query, access);
  }

  override async create(body: unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry> {
    const data = dataOf(body);
    if (!data) return super.create(body, query, access, options);
    const locale = this.validLocale(data.locale, options?.anyLocale);
    const group = data.localizations;
    const input = { ...withoutI18n(data), locale };
    return this.committed(this.db.transaction(async (tx) => {
      const service = this.bound(tx) as LocalizedEntityService;
      const ids = group === undefined || group === null ? undefined : await service.groupOf(tx, relatedIds(group));
      // Created into a group: the entry is a localization of its document (the group's documentId).
      const documentId = ids && (await service.groupDocumentId(tx, ids, locale));
      const created = await EntityService.prototype.create.call(service, { data: input }, { fields: ['id'] }, access, { ...options, ...(documentId ? { documentId } : {}) });
      if (ids) {
        await service.joinGroup(tx, created.id, ids, locale);
        await service.shareWithGroup(tx, created.id, ids, Object.keys(input));
      }
      return (await service.readOne(created.id, query, access, tx))!;
    }));
  }

  override update(id: unknown, body: unknown, query: Query, access?: Access): Promise<Entry> {
    const data = dataOf(body);
    if (!data) return super.update(id, body, query, access);
    const input = withoutI18n(data);
    return this.committed(this.db.transaction(async (tx) => {
      const service = this.bound(tx) as LocalizedEntityService;
      // A v5 publish applies the entry's pending draft (entity/drafts.ts): its shared attributes are written too.
      const entryId = parseId(id);
      const publishesDraft = entryId !== null && documentViewOf(query)?.status === 'published' && (await draftIdOf(tx, this.meta, entryId)) !== null;
      const entry = await EntityService.prototype.update.call(service, id, { data: input }, query, access);
      const siblings = await service.siblingsOf(tx, entry.id);
      await service.copyShared(tx, entry.id, siblings, publishesDraft ? [...new Set([...Object.keys(input), ...(this.meta.sharedAttributes ?? [])])] : Object.keys(input));
      // The answer was read before the copy: read again when it may show the siblings.
      return siblings.length > 0 && query['populate'] !== undefined ? (await service.readOne(entry.id, query, access, tx))! : entry;
    }));
  }

  override async upsertSingle(body: unknown, query: Query, access?: Access, options?: CreateOptions): Promise<Entry> {
    const data = dataOf(body);
    if (!data) return super.upsertSingle(body, query, access, options);
    const locale = query['locale'] ?? data.locale;
    const id = await this.singleId(this.db, locale ?? this.i18n.defaultLocale);
    if (id !== null) return this.update(id, body, query, access);
    // Another locale's entry exists: a single type's other locales are made with POST /localizations.
    if ((await this.singleId(this.db, allLocales)) !== null) throw new ValidationError('singleType.alreadyExists');
    return this.create({ data: { ...data, ...(locale === undefined ? {} : { locale }) } }, query, access, options);
  }

  override async deleteSingle(query: Query, access?: Access): Promise<Entry> {
    const id = await this.singleId(this.db, query['locale']);
    if (id === null) throw new NotFoundError();
    return this.delete(id, query, access);
  }

  /**
   * `POST /api/<plural>/:id/localizations` (`id` null: the single type's entry): a new
   * entry in `body.locale`, in the group of the entry, with the attributes they share; a
   * draft unless `publishedAt` is sent. Answers the bare entry with its `localizations`.
   */
  async createLocalization(id: unknown, body: unknown, access?: Access): Promise<Json> {
    return this.committed(this.db.transaction(async (tx) => {
      const service = this.bound(tx) as LocalizedEntityService;
      const { created, group } = await service.localize(tx, id, body, access);
      return service.bareEntry(tx, created, group);
    }));
  }

  /** createLocalization answering the new entry read with `query` (GraphQL's `createXLocalization`). */
  async createLocalizationEntry(id: unknown, body: unknown, query: Query, access?: Access): Promise<Entry> {
    return this.committed(this.db.transaction(async (tx) => {
      const service = this.bound(tx) as LocalizedEntityService;
      const { created } = await service.localize(tx, id, body, access);
      return (await service.readOne(created, query, access, tx))!;
    }));
  }

  private async localize(tx: Database, id: unknown, body: unknown, access: Access | undefined): Promise<{ created: number; group: number[] }> {
    // Concurrent localizations of one group run one after the other: the source's row is locked
    // first, before any read (a MariaDB transaction reads the snapshot of its first read).
    const sourceId = id === null ? await firstIdLocked(tx, this.meta, () => this.singleId(tx, allLocales)) : parseId(id);
    if (sourceId !== null) await lockRows(tx, this.meta, [sourceId]);
    const source = sourceId === null ? null : await this.readOne(sourceId, {}, undefined, tx);
    if (!source) throw new NotFoundError('Entity not found');
    const data = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Json;
    if (!('locale' in data)) throw new ApplicationError('locale is missing');
    if (typeof data.locale !== 'string' || !this.i18n.locales.some((l) => l.code === data.locale)) throw new ApplicationError('locale is invalid');
    const group = [source.id, ...(await this.siblingsOf(tx, source.id))];
    await lockRows(tx, this.meta, group);
    const locales = await this.localesOf(tx, group);
    if (locales.includes(data.locale)) throw new ApplicationError('locale is already used');

    const shared = new Set(this.meta.sharedAttributes ?? []);
    // Shared scalars are copied before validation (a required one need not be sent again); the rest after the create.
    const copied = Object.fromEntries(
      Object.entries(source.attributes).filter(([name]) => shared.has(name) && this.meta.fields[name]?.kind === 'scalar' && !(name in data)),
    );
    const input: Json = { ...copied, ...withoutI18n(data), locale: data.locale };
    if (this.meta.draftAndPublish && !('publishedAt' in data)) input.publishedAt = null;
    const documentId = (await documentIdsOf(tx, this.meta, [source.id])).get(source.id);
    const created = await EntityService.prototype.create.call(this, { data: input }, { fields: ['id'] }, access, documentId ? { documentId } : undefined);
    await this.joinGroup(tx, created.id, group, data.locale);
    const fromSource = [...shared].filter((name) => !(name in data) && !(name in copied));
    await this.copyShared(tx, source.id, [created.id], fromSource, false);
    await this.copyShared(tx, created.id, group, Object.keys(withoutI18n(data)));
    return { created: created.id, group };
  }

  /** A code of the configured locales (any code with `anyLocale`), the default when absent; else Strapi's 400. */
  private validLocale(locale: unknown, anyLocale = false): string {
    if (locale === undefined || locale === null) return this.i18n.defaultLocale;
    if (typeof locale === 'string' && (anyLocale ? locale !== '' : this.i18n.locales.some((l) => l.code === locale))) return locale;
    throw new ApplicationError("This locale doesn't exist");
  }

  /** The single type's entry in `locale` (the default one when absent; `all`: any), or null. */
  private async singleId(db: Database, locale: unknown, publishedOnly = false): Promise<number | null> {
    if (locale === allLocales) return this.lowestId(db, publishedOnly);
    const code = locale === undefined ? this.i18n.defaultLocale : locale;
    return typeof code === 'string' ? this.lowestId(db, publishedOnly, code) : null;
  }

  private get links() {
    const field = this.meta.fields['localizations'] as Extract<FieldMeta, { kind: 'relation' }>;
    return field.link!;
  }

  /** The other entries of `id`'s group. */
  async siblingsOf(db: Database, id: number): Promise<number[]> {
    const sql = new SqlBuilder(db.dialect);
    const { table, ownerColumn, targetColumn } = this.links;
    const compiled = sql.finish(`SELECT ${sql.ident(targetColumn)} AS id FROM ${sql.ident(table)} WHERE ${sql.ident(ownerColumn)} = ${sql.param(id)}`);
    return (await db.query<{ id: unknown }>(compiled.sql, compiled.params)).map((r) => Number(r.id));
  }

  /** The entries named and every entry of their groups. */
  private async groupOf(db: Database, ids: readonly number[]): Promise<number[]> {
    const group = new Set<number>();
    for (const id of ids) {
      const exists = await this.delegate(db).findUnique({ where: { id }, select: { id: true } });
      if (!exists) continue;
      group.add(id);
      for (const sibling of await this.siblingsOf(db, id)) group.add(sibling);
    }
    return [...group];
  }

  private async localesOf(db: Database, ids: readonly number[]): Promise<string[]> {
    const rows = await this.delegate(db).findMany({ where: { id: { in: [...ids] } }, select: { locale: true } });
    return rows.map((r: { locale: string | null }) => r.locale ?? '');
  }

  /**
   * The documentId a new entry in `locale` joining `group` takes: that of the group's first
   * entry (by id) in another locale, the ones `joinGroup` links it to. None: a document of its own.
   */
  private async groupDocumentId(db: Database, group: readonly number[], locale: string): Promise<string | undefined> {
    const rows = await this.delegate(db).findMany({ where: { id: { in: [...group] } }, orderBy: { id: 'asc' }, select: { locale: true, documentId: true } });
    return rows.find((r: { locale: string | null }) => r.locale !== locale)?.documentId;
  }

  /**
   * Links `id` to every entry of `group` and each of them back. An entry of the group in the
   * same locale as `id` is left out (a group holds one entry per locale).
   */
  private async joinGroup(db: Database, id: number, group: readonly number[], locale: string): Promise<void> {
    const rows = await this.delegate(db).findMany({ where: { id: { in: group.filter((g) => g !== id) } }, select: { id: true, locale: true } });
    const members = rows.filter((r: { locale: string | null }) => r.locale !== locale).map((r: { id: number }) => r.id);
    const all = [id, ...members];
    const { table, ownerColumn, targetColumn, orderColumn } = this.links;
    for (const owner of all) {
      const clear = new SqlBuilder(db.dialect);
      const cleared = clear.finish(`DELETE FROM ${clear.ident(table)} WHERE ${clear.ident(ownerColumn)} = ${clear.param(owner)}`);
      await db.execute(cleared.sql, cleared.params);
      const targets = all.filter((t) => t !== owner);
      for (const [i, target] of targets.entries()) {
        const sql = new SqlBuilder(db.dialect);
        const compiled = sql.finish(
          `INSERT INTO ${sql.ident(table)} (${sql.ident(ownerColumn)}, ${sql.ident(targetColumn)}, ${sql.ident(orderColumn)}) VALUES (${sql.param(owner)}, ${sql.param(target)}, ${sql.param(i + 1)})`,
        );
        await db.execute(compiled.sql, compiled.params);
      }
    }
  }

  /** After a create in a group: its shared attributes written are pushed to the group, the others pulled from it. */
  private async shareWithGroup(db: Database, id: number, group: readonly number[], written: readonly string[]): Promise<void> {
    const members = group.filter((g) => g !== id);
    if (members.length === 0) return;
    const shared = this.meta.sharedAttributes ?? [];
    await this.copyShared(db, members[0]!, [id], shared.filter((name) => !written.includes(name)), false);
    await this.copyShared(db, id, members, written);
  }

  /**
   * Copies the shared attributes among `names` from entry `from` to the entries `to`:
   * columns as stored, components with new instance ids, media links row for row.
   */
  async copyShared(db: Database, from: number, to: readonly number[], names: readonly string[], announce = true): Promise<void> {
    const fields = (this.meta.sharedAttributes ?? []).filter((name) => names.includes(name)).map((name) => this.meta.fields[name]!);
    if (fields.length === 0 || to.length === 0) return;
    await this.copySharedFields(db, from, to, fields);
    // Each sibling written is an update, as Strapi's entity service writes them (webhooks); an
    // entry being created is not (its create carries what it was given).
    if (!announce) return;
    for (const target of to) {
      const published = this.meta.draftAndPublish ? (await this.delegate(db).findUnique({ where: { id: target }, select: { publishedAt: true } }))?.publishedAt != null : false;
      await recordEntryEvents(this.options.events, db, this.meta, 'update', () => this.readOne(target, {}, undefined, db), published);
    }
  }

  private async copySharedFields(db: Database, from: number, to: readonly number[], fields: readonly FieldMeta[]): Promise<void> {
    const columns = fields.filter((f) => f.kind === 'scalar' || f.kind === 'component' || f.kind === 'dynamiczone');
    if (columns.length > 0) {
      const select = Object.fromEntries(columns.map((f) => [prismaFieldOf(f), true]));
      const stored = await this.delegate(db).findUnique({ where: { id: from }, select });
      const nested = columns.filter((f) => f.kind !== 'scalar');
      if (stored) {
        for (const target of to) {
          // The target's own instances, whose ids the copy takes over where it can.
          const current = nested.length > 0 ? await this.delegate(db).findUnique({ where: { id: target }, select: Object.fromEntries(nested.map((f) => [prismaFieldOf(f), true])) }) : null;
          const data: Json = {};
          for (const f of columns) {
            const key = prismaFieldOf(f);
            data[key] = f.kind === 'scalar' ? stored[key] : await this.withNewIds(db, f, stored[key], current?.[key]);
          }
          await this.delegate(db)
            .update({ where: { id: target }, data: nullsAsJson(data, columns), select: { id: true } })
            .catch((err: unknown) => rethrowUniqueViolation(this.meta, err));
        }
      }
    }
    for (const f of fields) {
      if (f.kind !== 'media' || !f.link) continue;
      const { table, ownerColumn, targetColumn, orderColumn } = f.link;
      for (const target of to) {
        const clear = new SqlBuilder(db.dialect);
        const cleared = clear.finish(`DELETE FROM ${clear.ident(table)} WHERE ${clear.ident(ownerColumn)} = ${clear.param(target)}`);
        await db.execute(cleared.sql, cleared.params);
        const copy = new SqlBuilder(db.dialect);
        const copied = copy.finish(
          `INSERT INTO ${copy.ident(table)} (${copy.ident(ownerColumn)}, ${copy.ident(targetColumn)}, ${copy.ident(orderColumn)}) ` +
            `SELECT ${copy.param(target)}, ${copy.ident(targetColumn)}, ${copy.ident(orderColumn)} FROM ${copy.ident(table)} WHERE ${copy.ident(ownerColumn)} = ${copy.param(from)}`,
        );
        await db.execute(copied.sql, copied.params);
      }
    }
  }

  /**
   * A component or zone value for another entry: every instance, nested ones too, gets an id
   * of its own — the id of the instance it replaces in that entry (same place, same
   * component) when there is one, else a new one. So keeping a shared component equal across
   * the localizations does not renumber theirs: Strapi copies a shared component only when the
   * request populates it (a localization's create never does), and the others keep their ids.
   */
  private async withNewIds(db: Database, field: FieldMeta, value: unknown, replaced?: unknown): Promise<unknown> {
    if (value === null || value === undefined) return null;
    const copy = JSON.parse(typeof value === 'string' ? value : JSON.stringify(value)) as unknown;
    const asList = (node: unknown): unknown[] => (Array.isArray(node) ? node : [node]);
    const renumber = async (uid: string | undefined, node: unknown, old: unknown): Promise<void> => {
      const olds = asList(old);
      for (const [index, instance] of (asList(node) as Json[]).entries()) {
        if (instance === null || typeof instance !== 'object') continue;
        const component = this.options.registry.components.get(uid ?? (instance.__component as string));
        if (!component) continue;
        const previous = olds[index] as Json | null | undefined;
        const same = previous !== null && typeof previous === 'object' && typeof previous.id === 'number' && (uid !== undefined || previous.__component === instance.__component);
        instance.id = same ? previous.id : await reserveComponentIds(db, this.options.registry, component.uid, 1);
        for (const nested of Object.values(component.fields)) {
          if (nested.kind === 'component' && instance[nested.name] != null) await renumber(nested.component, instance[nested.name], same ? previous[nested.name] : undefined);
        }
      }
    };
    await renumber(field.kind === 'component' ? field.component : undefined, copy, parseStoredJson(replaced));
    return copy;
  }

  /** Strapi's answer to createLocalization: the entry's attributes beside its id, `localizations` a plain list. */
  private async bareEntry(db: Database, id: number, group: readonly number[]): Promise<Json> {
    const flat = (entry: Entry): Json => ({ id: entry.id, ...entry.attributes });
    const entry = (await this.readOne(id, {}, undefined, db))!;
    const siblings = await EntityService.prototype.find.call(this, {
      filters: { id: { $in: [...group] } },
      publicationState: 'preview',
      sort: 'id',
      pagination: { start: 0, limit: Math.max(group.length, 1), withCount: false },
    });
    return { ...flat(entry), localizations: siblings.data.map(flat) };
  }
}

/**
 * Locks the rows of `ids` (in id order, so two writers never wait on each other) until the
 * transaction ends, on PostgreSQL and MySQL/MariaDB; a SQLite write transaction already has
 * the database to itself.
 */
async function lockRows(db: Database, meta: ContentTypeMeta, ids: readonly number[]): Promise<void> {
  if (db.dialect === 'sqlite' || ids.length === 0) return;
  const sql = new SqlBuilder(db.dialect);
  const list = [...ids].sort((a, b) => a - b).map((id) => sql.param(id)).join(', ');
  const compiled = sql.finish(`SELECT ${sql.ident('id')} FROM ${sql.ident(meta.table)} WHERE ${sql.ident('id')} IN (${list}) ORDER BY ${sql.ident('id')} FOR UPDATE`);
  await db.query(compiled.sql, compiled.params);
}

/** The first entry's id, read with a lock on PostgreSQL and MySQL/MariaDB. */
async function firstIdLocked(db: Database, meta: ContentTypeMeta, unlocked: () => Promise<number | null>): Promise<number | null> {
  if (db.dialect === 'sqlite') return unlocked();
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)} ORDER BY ${sql.ident('id')} LIMIT 1 FOR UPDATE`);
  const [row] = await db.query<{ id: unknown }>(compiled.sql, compiled.params);
  return row ? Number(row.id) : null;
}

/** `body.data` when it is an object (else the base service answers its usual 400). */
function dataOf(body: unknown): Json | null {
  const data = (body as Json | null)?.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Json) : null;
}

function withoutI18n(data: Json): Json {
  const { locale: _locale, localizations: _localizations, ...rest } = data;
  return rest;
}

/** The ids of a `localizations` write: `[1, 2]`, `[{id: 1}]` or `{ connect: [...] }`/`{ set: [...] }`. */
function relatedIds(value: unknown): number[] {
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? [...(((value as Json).set as unknown[]) ?? []), ...(((value as Json).connect as unknown[]) ?? [])] : [value];
  return list.map((v) => parseId(v && typeof v === 'object' ? (v as Json).id : v)).filter((id): id is number => id !== null);
}

/** Prisma writes SQL NULL into a Json column only as `DbNull`; JSON values as the write path stores them. */
function nullsAsJson(data: Json, columns: readonly FieldMeta[]): Json {
  const out: Json = { ...data };
  for (const f of columns) {
    if (f.kind === 'scalar' && f.type !== 'json') continue;
    const key = prismaFieldOf(f);
    out[key] = out[key] === null || out[key] === undefined ? DbNull : prismaJson(out[key]);
  }
  return out;
}
