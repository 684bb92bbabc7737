/**
 * A v5 write body as the v4 service takes it: unknown keys are refused (`Invalid key x`, as
 * Strapi 5 validates a body before writing; `id`, `documentId` and v4's `attributes` too),
 * relations and media named by documentId become row ids through the stored column (a localized
 * target in the item's `locale`, else the written entry's; a documentId of nothing is Strapi
 * 5's `Document with id … not found`), and `publishedAt` follows `status` (writes publish
 * unless `status=draft`; a `publishedAt` in the body is ignored), `locale` comes from the query.
 */
import type { Database } from '../db/database.js';
import { ValidationError } from '../errors.js';
import { assertDataPayload } from '../entity/input.js';
import type { Access } from '../entity/service.js';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { parseStoredJson } from '../entity/component-holders.js';
import { draftIdOf, draftTableOf } from '../entity/drafts.js';
import { applyEdit, parseRelationInput } from '../entity/relations.js';
import { SqlBuilder } from '../query/sql.js';
import { documentNotFound, findDocuments, localeOf } from './identity.js';
import type { Status } from './query.js';

const fileUid = 'plugin::upload.file';
/** Keys v5 answers but a body may not set. */
const readOnlyKeys = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'localizations']);

export type WriteKind = 'create' | 'update';

export class InputTranslator {
  constructor(private readonly registry: Registry) {}

  /**
   * `entryId`: the row an update writes (its stored components are what `connect`/`disconnect`
   * inside a kept component instance edit, and what an omitted relation of one keeps).
   */
  async translate(db: Database, meta: ContentTypeMeta, body: unknown, status: Status, kind: WriteKind, access?: Access, locale?: unknown, entryId?: number | null): Promise<{ data: Record<string, unknown> }> {
    const data = assertDataPayload(body);
    const out: Record<string, unknown> = {};
    const resolver = new DocumentResolver(db, this.registry, meta.localized ? localeOf(this.registry, meta, locale) : null);
    const written: [FieldMeta, unknown][] = [];
    // The body's keys first (Strapi 5 validates a body before it looks anything up).
    for (const [key, value] of Object.entries(data)) {
      const field = meta.fields[key];
      // Strapi 5 gives `path` for a name it does not know, none for one it answers but a body may not set.
      if (readOnlyKeys.has(key)) throw new ValidationError(`Invalid key ${key}`, { key, source: 'body' });
      if (!field) throw new ValidationError(`Invalid key ${key}`, { key, path: null, source: 'body' });
      // A relation to a type the caller may not read is a key it may not write (v4 drops it silently).
      const target = field.kind === 'relation' ? field.target : field.kind === 'media' ? fileUid : undefined;
      if (target && access && !access.canFind(target)) throw new ValidationError(`Invalid key ${key}`, { key, path: key, source: 'body' });
      if (key === 'publishedAt' || key === 'locale') continue;
      written.push([field, value]);
    }
    // Every documentId of the write, at any depth (components, zone entries), looked up at once.
    const nested = new NestedLinks(this.registry, resolver);
    for (const [field, value] of written) {
      const target = this.targetOf(field);
      if (target) resolver.note(target, value);
      else if (field.kind === 'component' || field.kind === 'dynamiczone') nested.note(field, value);
    }
    await resolver.resolve();
    const stored = kind === 'update' && entryId !== undefined && entryId !== null ? await nested.storedFor(db, meta, entryId, written) : {};
    for (const [field, value] of written) {
      const target = this.targetOf(field);
      if (target) out[field.name] = value === null || value === undefined ? value : resolver.replace(target, value);
      else if (field.kind === 'component' || field.kind === 'dynamiczone') out[field.name] = nested.value(field, value, stored[field.name]);
      else out[field.name] = value;
    }
    // A document is created in the query's locale (`?locale=de`); the body's is ignored.
    if (meta.localized && kind === 'create' && typeof locale === 'string') out.locale = locale;
    if (meta.draftAndPublish) {
      if (status === 'published') out.publishedAt = new Date().toISOString();
      else if (kind === 'create') out.publishedAt = null;
    }
    return { data: out };
  }

  private targetOf(field: FieldMeta): ContentTypeMeta | undefined {
    if (field.kind === 'relation') return this.registry.contentTypes.get(field.target);
    if (field.kind === 'media') return this.registry.contentTypes.get(fileUid);
    return undefined;
  }
}

type Bag = Record<string, unknown>;

/**
 * Relations and media inside components and zone entries (stored as row ids in the
 * component's JSON: entity/components.ts): their documentIds noted for the write's one lookup,
 * then each value made the plain ids the v4 writer stores, as Strapi 5 writes them: shorthand
 * and `set` replace, `connect` (with positions) and `disconnect` edit the instance's stored
 * list when the instance is kept (an `id` it holds), else an empty one; a relation or media
 * field a kept instance omits keeps its stored value (a new instance's is empty).
 */
class NestedLinks {
  constructor(
    private readonly registry: Registry,
    private readonly resolver: DocumentResolver,
  ) {}

  note(field: FieldMeta, value: unknown): void {
    this.instances(field, value, undefined, (component, instance) => {
      for (const inner of Object.values(component.fields)) {
        const target = this.targetOf(inner);
        if (target) this.resolver.note(target, instance[inner.name]);
        else if (inner.kind === 'component') this.note(inner, instance[inner.name]);
      }
      return instance;
    });
  }

  /** The stored JSON of the component and zone fields the write names, when a kept instance may need it. */
  async storedFor(db: Database, meta: ContentTypeMeta, id: number, written: readonly [FieldMeta, unknown][]): Promise<Bag> {
    const fields = written.filter(([field, value]) => (field.kind === 'component' || field.kind === 'dynamiczone') && this.namesIds(field, value)).map(([field]) => field);
    if (fields.length === 0) return {};
    // A published document with a pending draft is edited from its draft (Strapi 5 writes the draft, then publishes it).
    const draftId = meta.draftAndPublish ? await draftIdOf(db, meta, id) : null;
    const sql = new SqlBuilder(db.dialect);
    const columns = fields.map((field) => `${sql.ident((field as { column: string }).column)} AS ${sql.ident(field.name)}`);
    const table = draftId === null ? meta.table : draftTableOf(meta);
    const compiled = sql.finish(`SELECT ${columns.join(', ')} FROM ${sql.ident(table)} WHERE ${sql.ident('id')} = ${sql.param(draftId ?? id)}`);
    const [row] = await db.query<Bag>(compiled.sql, compiled.params);
    return Object.fromEntries(fields.map((field) => [field.name, parseStoredJson(row?.[field.name])]));
  }

  /** The field's value with every relation and media inside made ids (`stored`: the field's stored JSON). */
  value(field: FieldMeta, value: unknown, stored: unknown): unknown {
    return this.instances(field, value, stored, (component, instance, kept) => {
      const out: Bag = { ...instance };
      for (const inner of Object.values(component.fields)) {
        const target = this.targetOf(inner);
        const given = instance[inner.name];
        if (target) {
          const toMany = inner.kind === 'relation' ? inner.toMany : inner.kind === 'media' && inner.multiple;
          const current = idsOf(kept?.[inner.name]);
          if (given === undefined) {
            if (kept) out[inner.name] = toMany ? current : (current.at(-1) ?? null);
          } else out[inner.name] = this.links(target, inner.name, toMany, given, current);
        } else if (inner.kind === 'component' && given !== undefined) out[inner.name] = this.value(inner, given, kept?.[inner.name]);
      }
      return out;
    });
  }

  private links(target: ContentTypeMeta, name: string, toMany: boolean, value: unknown, current: number[]): unknown {
    if (value === null) return toMany ? [] : null;
    const replaced = this.resolver.replace(target, value);
    let parsed: ReturnType<typeof parseRelationInput>;
    try {
      parsed = parseRelationInput(name, replaced);
    } catch (err) {
      // A value the v4 writer refuses: left to it, which says why, with the instance's path.
      if (err instanceof ValidationError) return replaced;
      throw err;
    }
    // A position next to a link the instance does not have is refused here (v4 has no positions inside components).
    const ids = parsed.kind === 'set' ? [...parsed.ids] : applyEdit(name, current, parsed);
    if (toMany) return [...new Set(ids)];
    return ids.at(-1) ?? null;
  }

  /** Maps each component instance of a component or zone value (with the stored instance it keeps, if any). */
  private instances(field: FieldMeta, value: unknown, stored: unknown, map: (component: ComponentMeta, instance: Bag, kept: Bag | undefined) => Bag): unknown {
    if (field.kind === 'component') {
      const component = this.registry.components.get(field.component);
      if (!component) return value;
      const storedList = (Array.isArray(stored) ? stored : [stored]).filter(isBag);
      const one = (item: unknown) => (isBag(item) ? map(component, item, keptOf(storedList, item)) : item);
      if (field.repeatable) return Array.isArray(value) ? value.map(one) : value;
      return one(value);
    }
    if (field.kind === 'dynamiczone') {
      if (!Array.isArray(value)) return value;
      const storedList = (Array.isArray(stored) ? stored : []).filter(isBag);
      return value.map((item) => {
        if (!isBag(item) || typeof item.__component !== 'string' || !field.components.includes(item.__component)) return item;
        const component = this.registry.components.get(item.__component);
        return component ? map(component, item, keptOf(storedList.filter((s) => s.__component === item.__component), item)) : item;
      });
    }
    return value;
  }

  /** Whether a component or zone value names an instance id with relations or media in it (a kept one may need its stored links). */
  private namesIds(field: FieldMeta, value: unknown): boolean {
    let found = false;
    this.instances(field, value, undefined, (component, instance) => {
      const linked = Object.values(component.fields).some((inner) => this.targetOf(inner) !== undefined);
      if (linked && instance.id !== undefined && instance.id !== null) found = true;
      for (const inner of Object.values(component.fields)) if (inner.kind === 'component' && this.namesIds(inner, instance[inner.name])) found = true;
      return instance;
    });
    return found;
  }

  private targetOf(field: FieldMeta): ContentTypeMeta | undefined {
    if (field.kind === 'relation') return this.registry.contentTypes.get(field.target);
    if (field.kind === 'media') return this.registry.contentTypes.get(fileUid);
    return undefined;
  }
}

/** The stored instance an input instance keeps: the one with its id (REST numbers, GraphQL numeric strings). */
function keptOf(stored: readonly Bag[], item: Bag): Bag | undefined {
  if (item.id === undefined || item.id === null) return undefined;
  const id = String(item.id);
  return stored.find((instance) => instance.id !== undefined && instance.id !== null && String(instance.id) === id);
}

/** Stored relation or media ids of an instance: a list, one id, or nothing. */
function idsOf(value: unknown): number[] {
  if (Array.isArray(value)) return value.filter((id): id is number => typeof id === 'number');
  return typeof value === 'number' ? [value] : [];
}

/**
 * documentIds of one write to row ids, looked up once per target type, locale and documentId.
 * A localized target is looked up in the item's `locale`, else in the written entry's (the
 * default one for an entry without locales), as Strapi 5 does; other targets in none.
 */
class DocumentResolver {
  private readonly known = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly registry: Registry,
    private readonly sourceLocale: string | null,
  ) {}

  private readonly wanted = new Map<ContentTypeMeta, Map<string | null, Set<string>>>();

  /** Notes the documentIds a relation value names (targets and position pivots), for `resolve`. */
  note(target: ContentTypeMeta, value: unknown): void {
    if (value === null || value === undefined) return;
    let byLocale = this.wanted.get(target);
    if (!byLocale) this.wanted.set(target, (byLocale = new Map()));
    for (const { documentId, locale } of collectDocumentIds(value)) {
      const key = this.localeFor(target, locale);
      let set = byLocale.get(key);
      if (!set) byLocale.set(key, (set = new Set()));
      set.add(documentId);
    }
  }

  /** Looks up every noted documentId: one statement per target type and locale (in batches). */
  async resolve(): Promise<void> {
    for (const [target, byLocale] of this.wanted) for (const [locale, documentIds] of byLocale) await this.lookUp(target, [...documentIds], locale);
    this.wanted.clear();
  }

  private localeFor(target: ContentTypeMeta, locale: unknown): string | null {
    if (!target.localized) return null;
    return typeof locale === 'string' && locale ? locale : (this.sourceLocale ?? localeOf(this.registry, target, undefined));
  }

  private async lookUp(target: ContentTypeMeta, documentIds: string[], locale: string | null): Promise<void> {
    const missing = documentIds.filter((d) => !this.known.has(`${target.uid}\0${locale}\0${d}`));
    if (!missing.length) return;
    const found = await findDocuments(this.db, target, missing, locale);
    for (const documentId of missing) {
      const id = found.get(documentId);
      if (id === undefined) throw documentNotFound(documentId, locale);
      this.known.set(`${target.uid}\0${locale}\0${documentId}`, id);
    }
  }

  private id(target: ContentTypeMeta, documentId: string, locale?: unknown): number {
    return this.known.get(`${target.uid}\0${this.localeFor(target, locale)}\0${documentId}`)!;
  }

  /** A relation value with its documentIds made row ids (once `resolve` has looked them up). */
  replace(target: ContentTypeMeta, value: unknown): unknown {
    if (isNumeric(value)) return value;
    if (typeof value === 'string') return this.id(target, value);
    if (Array.isArray(value)) return value.map((item) => this.item(target, item));
    if (isBag(value)) {
      if ('documentId' in value || 'id' in value) return this.item(target, value);
      const out: Record<string, unknown> = { ...value };
      for (const key of ['connect', 'disconnect', 'set'] as const) {
        if (value[key] === undefined) continue;
        const list = Array.isArray(value[key]) ? value[key] : [value[key]];
        out[key] = (list as unknown[]).map((item) => this.item(target, item));
      }
      return out;
    }
    return value;
  }

  /** One target: a documentId, a row id, `{ documentId | id, position }`. */
  private item(target: ContentTypeMeta, item: unknown): unknown {
    if (isNumeric(item)) return { id: item };
    if (typeof item === 'string') return { id: this.id(target, item) };
    if (!isBag(item)) return item;
    const { documentId, position, locale, ...rest } = item;
    const out: Record<string, unknown> = { ...rest };
    if (typeof documentId === 'string') out.id = this.id(target, documentId, locale);
    if (isBag(position)) {
      const pivot: Record<string, unknown> = { ...position };
      for (const side of ['before', 'after'] as const) if (typeof position[side] === 'string') pivot[side] = this.id(target, position[side] as string, position.locale ?? locale);
      out.position = pivot;
    } else if (position !== undefined) out.position = position;
    return out;
  }
}

/** Every documentId a relation value names (targets and position pivots), with the locale an item names. */
function collectDocumentIds(value: unknown): { documentId: string; locale?: unknown }[] {
  const out: { documentId: string; locale?: unknown }[] = [];
  const item = (v: unknown) => {
    if (isNumeric(v)) return;
    if (typeof v === 'string') out.push({ documentId: v });
    else if (isBag(v)) {
      if (typeof v.documentId === 'string') out.push({ documentId: v.documentId, locale: v.locale });
      const position = v.position;
      if (isBag(position)) for (const side of ['before', 'after']) if (typeof position[side] === 'string') out.push({ documentId: position[side] as string, locale: position.locale ?? v.locale });
    }
  };
  if (isNumeric(value)) return out;
  if (typeof value === 'string') out.push({ documentId: value });
  else if (Array.isArray(value)) value.forEach(item);
  else if (isBag(value)) {
    if ('documentId' in value || 'id' in value) item(value);
    for (const key of ['connect', 'disconnect', 'set']) {
      const list = value[key];
      if (Array.isArray(list)) list.forEach(item);
      else if (list !== undefined) item(list);
    }
  }
  return out;
}

/** Strapi 5's test for a row id in a relation's shorthand (`parseInt` gives a number): `5`, `"5"`. */
function isNumeric(value: unknown): boolean {
  return (typeof value === 'number' || typeof value === 'string') && !Number.isNaN(Number.parseInt(String(value), 10));
}

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
