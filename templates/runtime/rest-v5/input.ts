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
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { documentNotFound, findDocuments, localeOf } from './identity.js';
import type { Status } from './query.js';

const fileUid = 'plugin::upload.file';
/** Keys v5 answers but a body may not set. */
const readOnlyKeys = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'localizations']);

export type WriteKind = 'create' | 'update';

export class InputTranslator {
  constructor(private readonly registry: Registry) {}

  async translate(db: Database, meta: ContentTypeMeta, body: unknown, status: Status, kind: WriteKind, access?: Access, locale?: unknown): Promise<{ data: Record<string, unknown> }> {
    const data = assertDataPayload(body);
    const out: Record<string, unknown> = {};
    const resolver = new DocumentResolver(db, this.registry, meta.localized ? localeOf(this.registry, meta, locale) : null);
    for (const [key, value] of Object.entries(data)) {
      const field = meta.fields[key];
      // Strapi 5 gives `path` for a name it does not know, none for one it answers but a body may not set.
      if (readOnlyKeys.has(key)) throw new ValidationError(`Invalid key ${key}`, { key, source: 'body' });
      if (!field) throw new ValidationError(`Invalid key ${key}`, { key, path: null, source: 'body' });
      // A relation to a type the caller may not read is a key it may not write (v4 drops it silently).
      const target = field.kind === 'relation' ? field.target : field.kind === 'media' ? fileUid : undefined;
      if (target && access && !access.canFind(target)) throw new ValidationError(`Invalid key ${key}`, { key, path: key, source: 'body' });
      if (key === 'publishedAt' || key === 'locale') continue;
      out[key] = await this.value(resolver, field, value);
    }
    // A document is created in the query's locale (`?locale=de`); the body's is ignored.
    if (meta.localized && kind === 'create' && typeof locale === 'string') out.locale = locale;
    if (meta.draftAndPublish) {
      if (status === 'published') out.publishedAt = new Date().toISOString();
      else if (kind === 'create') out.publishedAt = null;
    }
    return { data: out };
  }

  private async value(resolver: DocumentResolver, field: FieldMeta, value: unknown): Promise<unknown> {
    if (field.kind === 'relation') {
      const target = this.registry.contentTypes.get(field.target);
      return target ? resolver.relation(target, value) : value;
    }
    if (field.kind === 'media') {
      const files = this.registry.contentTypes.get(fileUid);
      return files ? resolver.relation(files, value) : value;
    }
    return value;
  }
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

  async relation(target: ContentTypeMeta, value: unknown): Promise<unknown> {
    if (value === null || value === undefined) return value;
    const byLocale = new Map<string | null, string[]>();
    for (const { documentId, locale } of collectDocumentIds(value)) {
      const key = this.localeFor(target, locale);
      byLocale.set(key, [...(byLocale.get(key) ?? []), documentId]);
    }
    for (const [locale, documentIds] of byLocale) await this.lookUp(target, documentIds, locale);
    return this.replace(target, value);
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

  private replace(target: ContentTypeMeta, value: unknown): unknown {
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
    if (typeof v === 'string') out.push({ documentId: v });
    else if (isBag(v)) {
      if (typeof v.documentId === 'string') out.push({ documentId: v.documentId, locale: v.locale });
      const position = v.position;
      if (isBag(position)) for (const side of ['before', 'after']) if (typeof position[side] === 'string') out.push({ documentId: position[side] as string, locale: position.locale ?? v.locale });
    }
  };
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

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
