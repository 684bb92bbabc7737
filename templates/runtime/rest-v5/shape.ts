/**
 * Strapi 5's answers from the v4 service's entries: flat (`{ id, documentId, ...attributes }`,
 * no `attributes`/`data` wrappers), relations and media as the entries themselves, zone items
 * with `__component` last, `publishedAt` on every type (a type without draft & publish is
 * published when created). documentIds are the stored ones, looked up once per type after
 * shaping (identity.ts).
 */
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import type { Entry } from '../rest/transform.js';
import type { Database } from '../db/database.js';
import { DocumentIds } from './identity.js';
import { countOf } from '../populate/execute.js';

export type FlatEntry = Record<string, unknown>;
type Fields = Readonly<Record<string, FieldMeta>>;

const fileUid = 'plugin::upload.file';

export class Shaper {
  constructor(private readonly registry: Registry) {}

  async entry(db: Database, meta: ContentTypeMeta, entry: Entry): Promise<FlatEntry> {
    const documentIds = new DocumentIds();
    const out = this.shape(documentIds, meta, entry);
    await documentIds.fill(db);
    return out;
  }

  async entries(db: Database, meta: ContentTypeMeta, entries: readonly Entry[]): Promise<FlatEntry[]> {
    const documentIds = new DocumentIds();
    const out = entries.map((entry) => this.shape(documentIds, meta, entry));
    await documentIds.fill(db);
    return out;
  }

  private shape(documentIds: DocumentIds, meta: ContentTypeMeta, entry: Entry): FlatEntry {
    const { documentId: _stored, ...attributes } = entry.attributes;
    const out: FlatEntry = { id: entry.id, documentId: null };
    documentIds.want(meta, entry.id, out);
    const file = meta.uid === fileUid;
    for (const [key, value] of Object.entries(attributes)) {
      out[key] = this.value(documentIds, meta.fields[key], value);
      if (key === 'updatedAt' && !('publishedAt' in attributes)) out.publishedAt = attributes.createdAt ?? value;
      // Strapi 5's files have a focal point (none here: null).
      if (file && key === 'caption' && !('focalPoint' in attributes)) out.focalPoint = null;
    }
    return out;
  }

  private value(documentIds: DocumentIds, field: FieldMeta | undefined, value: unknown): unknown {
    if (!field || value === null || value === undefined) return value;
    switch (field.kind) {
      case 'relation':
        return this.related(documentIds, this.registry.contentTypes.get(field.target), value);
      case 'media': {
        const related = this.related(documentIds, this.registry.contentTypes.get(fileUid), value);
        // Strapi 5 reads a multiple media field as a list: no files is `[]` (v4 answers `{ data: null }`).
        return related === null && field.multiple ? [] : related;
      }
      case 'component': {
        const component = this.registry.components.get(field.component);
        return Array.isArray(value) ? value.map((item) => this.component(documentIds, component, item)) : this.component(documentIds, component, value);
      }
      case 'dynamiczone':
        return Array.isArray(value) ? value.map((item) => this.zoneItem(documentIds, item)) : value;
      default:
        return value;
    }
  }

  /** `{ data: entry | entry[] | null }` → the entries, flat; a count (`populate[x][count]`) → `{ count }`. */
  private related(documentIds: DocumentIds, target: ContentTypeMeta | undefined, value: unknown): unknown {
    const count = countOf(value);
    if (count !== undefined) return { count };
    if (!isBag(value) || !('data' in value)) return value;
    const data = value.data;
    const one = (item: unknown) => (isEntry(item) ? (target ? this.shape(documentIds, target, item) : { id: item.id, ...item.attributes }) : item);
    return Array.isArray(data) ? data.map(one) : data === null ? null : one(data);
  }

  private component(documentIds: DocumentIds, component: ComponentMeta | undefined, value: unknown): unknown {
    if (!component || !isBag(value)) return value;
    return this.fieldsOf(documentIds, component.fields, value);
  }

  private zoneItem(documentIds: DocumentIds, item: unknown): unknown {
    if (!isBag(item)) return item;
    const { __component, ...rest } = item;
    const component = this.registry.components.get(String(__component));
    return { ...(component ? this.fieldsOf(documentIds, component.fields, rest) : rest), __component };
  }

  private fieldsOf(documentIds: DocumentIds, fields: Fields, bag: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(bag)) out[key] = this.value(documentIds, fields[key], value);
    return out;
  }
}

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown): value is Entry {
  return isBag(value) && typeof value.id === 'number' && isBag(value.attributes);
}
