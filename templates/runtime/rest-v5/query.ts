/**
 * A v5 query string, parsed, as the v4 planner reads it: the query language is the same
 * (filters, sort, fields, populate, pagination), only documents are named otherwise.
 *
 * - `documentId` in filters (at any depth of relations) becomes a condition on the row ids
 *   whose stored documentId matches (identity.ts); in sort it becomes `id` (the planner does
 *   not know the column: ids and documentIds are both given at insert, so the order is the
 *   documents' creation order, not Strapi's alphabetical one); in fields it is always answered;
 * - `status=draft` (any value but `published`, as `@strapi/core` reads it) reads drafts:
 *   v4's `publicationState=preview`; `publicationState` itself is ignored, as Strapi 5 does;
 * - `status` and `publicationFilter` (and the legacy `hasPublishedVersion`) mark the query with
 *   the document view the planner reads (entity/drafts.ts): `status=draft` reads every
 *   document's draft (its pending edits, else its live row, `publishedAt` null).
 */
import { ValidationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import type { Database } from '../db/database.js';
import { withDocumentView, type PublicationFilter } from '../entity/drafts.js';
import { withLocaleOrder } from '../populate/execute.js';
import { documentIdFilter } from './identity.js';
import { QueryValidator } from './validate.js';

type Query = Record<string, unknown>;
type Fields = Readonly<Record<string, FieldMeta>>;

export const publicationFilters: readonly PublicationFilter[] = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
];

export type Status = 'draft' | 'published';

export function statusOf(query: Query): Status {
  return query.status === undefined || query.status === 'published' ? 'published' : 'draft';
}

export class QueryTranslator {
  private readonly validator: QueryValidator;

  constructor(private readonly registry: Registry) {
    this.validator = new QueryValidator(registry);
  }

  /** The v4 query for a v5 one on `meta` (400 `Invalid key …` first, as Strapi 5 checks it). */
  async translate(db: Database, meta: ContentTypeMeta, query: Query): Promise<Query> {
    this.validator.level(meta.fields, query);
    const { status: _status, publicationState: _state, publicationFilter, hasPublishedVersion, ...rest } = query;
    const out: Query = await this.node(db, meta.fields, meta.uid, rest);
    if (statusOf(query) === 'draft' && meta.draftAndPublish) out.publicationState = 'preview';
    if (meta.localized) this.locale(query, out);
    const filter = publicationFilterOf(publicationFilter, hasPublishedVersion);
    // The document view the planner reads (entity/drafts.ts): the draft view or the live rows;
    // `localizations` in locale order (populate/execute.ts withLocaleOrder).
    const v5 = withLocaleOrder(out);
    return meta.draftAndPublish ? withDocumentView(v5, { status: statusOf(query), ...(filter === undefined ? {} : { filter }) }) : v5;
  }

  /**
   * Strapi 5's `locale`: `*` is every locale (v4's `all`), `all` a code no locale has; a
   * request without one that filters on `locale` reads every locale (the filter picks).
   */
  private locale(query: Query, out: Query): void {
    if (query.locale === '*') out.locale = 'all';
    else if (query.locale === 'all') {
      const none = { id: { $eq: 0 } };
      out.filters = out.filters === undefined ? none : { $and: [out.filters, none] };
    } else if (query.locale === undefined && isBag(query.filters) && 'locale' in query.filters) out.locale = 'all';
  }

  /** filters/sort/fields/populate of one level (the query, or a populated relation's). */
  private async node(db: Database, fields: Fields, uid: string | undefined, query: Query): Promise<Query> {
    const out: Query = { ...query };
    if (query.filters !== undefined) out.filters = await this.filters(db, fields, uid, query.filters);
    if (query.sort !== undefined) out.sort = this.sort(fields, query.sort);
    if (query.fields !== undefined) out.fields = this.fields(query.fields);
    if (isBag(query.populate)) out.populate = await this.populate(db, fields, query.populate);
    return out;
  }

  private async populate(db: Database, fields: Fields, populate: Record<string, unknown>): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(populate)) {
      const field = fields[key];
      const target = this.targetOf(field);
      if (isBag(value) && target) {
        const inner: Query = await this.node(db, target.fields, target.uid, value);
        if (isBag(value.on)) {
          const on: Record<string, unknown> = {};
          for (const [uid, q] of Object.entries(value.on)) on[uid] = isBag(q) ? await this.node(db, this.registry.components.get(uid)?.fields ?? {}, undefined, q) : q;
          inner.on = on;
        }
        out[key] = inner;
      } else out[key] = value;
    }
    return out;
  }

  private targetOf(field: FieldMeta | undefined): { fields: Fields; uid: string | undefined } | undefined {
    if (!field) return undefined;
    if (field.kind === 'relation') {
      const target = this.registry.contentTypes.get(field.target);
      return target ? { fields: target.fields, uid: target.uid } : undefined;
    }
    if (field.kind === 'media') return { fields: this.registry.contentTypes.get('plugin::upload.file')?.fields ?? {}, uid: 'plugin::upload.file' };
    if (field.kind === 'component') return { fields: this.registry.components.get(field.component)?.fields ?? {}, uid: undefined };
    if (field.kind === 'dynamiczone') return { fields: {}, uid: undefined };
    return undefined;
  }

  private async filters(db: Database, fields: Fields, uid: string | undefined, filters: unknown): Promise<unknown> {
    if (Array.isArray(filters)) return Promise.all(filters.map((f) => this.filters(db, fields, uid, f)));
    if (!isBag(filters)) return filters;
    const out: Record<string, unknown> = {};
    const meta = uid === undefined ? undefined : this.registry.contentTypes.get(uid);
    for (const [key, value] of Object.entries(filters)) {
      if (key === '$and' || key === '$or' || key === '$not') out[key] = await this.filters(db, fields, uid, value);
      else if (key === 'documentId' && meta && !('documentId' in fields)) out.id = await documentIdFilter(db, meta, isBag(value) ? value : { $eq: value });
      else {
        const target = this.targetOf(fields[key]);
        out[key] = target && isBag(value) ? await this.filters(db, target.fields, target.uid, value) : value;
      }
    }
    return out;
  }

  private sort(fields: Fields, sort: unknown): unknown {
    if (typeof sort === 'string') return sort.split(',').map((part) => part.replace(/^documentId(?=$|:)/, 'id')).join(',');
    if (Array.isArray(sort)) return sort.map((s) => this.sort(fields, s));
    if (!isBag(sort)) return sort;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(sort)) {
      const target = this.targetOf(fields[key]);
      if (key === 'documentId' && !('documentId' in fields)) out.id = value;
      else out[key] = target && (isBag(value) || Array.isArray(value)) ? this.sort(target.fields, value) : value;
    }
    return out;
  }

  /** `documentId` is always answered (with `id`): asking for it alone asks for no attribute. */
  private fields(fields: unknown): unknown {
    const names = typeof fields === 'string' ? fields.split(',') : fields;
    if (!Array.isArray(names)) return fields;
    const kept = names.filter((name) => name !== 'documentId');
    return kept.length || !names.length ? kept : ['id'];
  }
}

function publicationFilterOf(raw: unknown, hasPublishedVersion: unknown): PublicationFilter | undefined {
  if (raw === undefined) {
    if (hasPublishedVersion === 'true' || hasPublishedVersion === true) return 'has-published-version';
    if (hasPublishedVersion === 'false' || hasPublishedVersion === false) return 'never-published';
    return undefined;
  }
  if (!(publicationFilters as readonly unknown[]).includes(raw)) {
    throw new ValidationError(`Invalid value for 'publicationFilter'. Expected one of: ${publicationFilters.join(', ')}.`, { source: 'query', param: 'publicationFilter' });
  }
  return raw as PublicationFilter;
}

function isBag(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
