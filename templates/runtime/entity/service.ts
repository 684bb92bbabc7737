/**
 * Entity service: find, findOne, create, update and delete of one content type, the layer
 * REST (and later GraphQL) handlers call. Reads compile the query to SQL; writes validate
 * input, then run in one transaction through Prisma.
 */
import { DbNull } from '@prisma/client/runtime/client';
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta } from '../meta.js';
import type { Database } from '../db/database.js';
import { NotFoundError, ValidationError, validationErrors } from '../errors.js';
import { buildFindOneQuery, buildFindQuery } from '../query/list.js';
import { assertDataPayload, prepareWriteData } from './input.js';
import { toEntry, type Entry } from '../rest/transform.js';

export interface RestLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly withCount: boolean;
}

export interface EntityServiceOptions {
  readonly db: Database;
  readonly limits: RestLimits;
  readonly hashPassword: (plain: string) => Promise<string>;
}

export interface FindResult {
  data: Entry[];
  meta: { pagination: Record<string, number> };
}

export class EntityService {
  constructor(
    readonly meta: ContentTypeMeta,
    private readonly options: EntityServiceOptions,
  ) {}

  private get db(): Database {
    return this.options.db;
  }

  async find(query: Record<string, unknown>): Promise<FindResult> {
    const plan = buildFindQuery(this.meta, query, { dialect: this.db.dialect, ...this.options.limits });
    const [rows, total] = await Promise.all([
      this.db.query(plan.select.sql, plan.select.params),
      plan.count ? this.db.query<{ count: unknown }>(plan.count.sql, plan.count.params).then((r) => Number(r[0]?.count ?? 0)) : undefined,
    ]);
    return {
      data: rows.map((row) => toEntry(this.meta, row, plan.fields)),
      meta: { pagination: plan.pagination.meta(total) as Record<string, number> },
    };
  }

  /** The entry with this id, or null. Ids that are not positive integers match nothing. */
  async findOne(id: unknown, query: Record<string, unknown>, db: Database = this.db): Promise<Entry | null> {
    const entryId = parseId(id);
    if (entryId === null) return null;
    const plan = buildFindOneQuery(this.meta, entryId, query, { dialect: db.dialect, ...this.options.limits });
    const [row] = await db.query(plan.select.sql, plan.select.params);
    return row ? toEntry(this.meta, row, plan.fields) : null;
  }

  /** The single type's entry (the first row), or null. */
  async findSingle(query: Record<string, unknown>): Promise<Entry | null> {
    const id = await this.firstId(this.db);
    return id === null ? null : this.findOne(id, query);
  }

  async create(body: unknown, query: Record<string, unknown>): Promise<Entry> {
    const input = assertDataPayload(body);
    const now = new Date();
    const data = await prepareWriteData(this.meta, input, { mode: 'create', hashPassword: this.options.hashPassword, now, jsonNull: DbNull });
    return this.db.transaction(async (tx) => {
      await this.assertUnique(tx, data, null);
      const created = await this.delegate(tx).create({
        data: { ...data, createdAt: now, updatedAt: now },
        select: { id: true },
      }).catch((err: unknown) => this.rethrowUnique(err));
      return (await this.findOne(created.id, query, tx))!;
    });
  }

  async update(id: unknown, body: unknown, query: Record<string, unknown>): Promise<Entry> {
    const input = assertDataPayload(body);
    const entryId = parseId(id);
    return this.db.transaction(async (tx) => {
      // Strapi answers 404 for a missing entry before it validates the body.
      const stored = entryId === null ? null : await this.delegate(tx).findUnique({ where: { id: entryId }, select: this.publishedSelect });
      if (entryId === null || !stored) throw new NotFoundError();
      const data = await prepareWriteData(this.meta, input, {
        mode: 'update',
        hashPassword: this.options.hashPassword,
        now: new Date(),
        jsonNull: DbNull,
        // Strapi skips required/minLength for drafts: an entry stays a draft unless this update publishes it.
        isDraft: this.meta.draftAndPublish && stored.publishedAt === null && !(input.publishedAt != null),
      });
      await this.assertUnique(tx, data, entryId);
      await this.delegate(tx)
        .update({ where: { id: entryId }, data: { ...data, updatedAt: new Date() }, select: { id: true } })
        .catch((err: unknown) => this.rethrowUnique(err));
      return (await this.findOne(entryId, query, tx))!;
    });
  }

  async delete(id: unknown, query: Record<string, unknown>): Promise<Entry> {
    return this.db.transaction(async (tx) => {
      const entry = await this.findOne(id, query, tx);
      if (!entry) throw new NotFoundError();
      await this.delegate(tx).delete({ where: { id: entry.id }, select: { id: true } });
      return entry;
    });
  }

  /** Single types: PUT creates the entry when there is none, else updates it (same id). */
  async upsertSingle(body: unknown, query: Record<string, unknown>): Promise<Entry> {
    assertDataPayload(body);
    const id = await this.firstId(this.db);
    return id === null ? this.create(body, query) : this.update(id, body, query);
  }

  async deleteSingle(query: Record<string, unknown>): Promise<Entry> {
    const id = await this.firstId(this.db);
    if (id === null) throw new NotFoundError();
    return this.delete(id, query);
  }

  private delegate(db: Database): any {
    return db.prisma[this.meta.delegate];
  }

  /** What update needs of the stored entry: that it exists, and whether it is a draft. */
  private get publishedSelect(): Record<string, true> {
    return this.meta.draftAndPublish ? { id: true, publishedAt: true } : { id: true };
  }

  private async firstId(db: Database): Promise<number | null> {
    const row = await this.delegate(db).findFirst({ orderBy: { id: 'asc' }, select: { id: true } });
    return row ? row.id : null;
  }

  /**
   * Strapi checks unique attributes before writing and answers 400 "This attribute must be
   * unique" per field; the database constraint stays the final guard against races.
   */
  private async assertUnique(db: Database, data: Record<string, unknown>, exceptId: number | null): Promise<void> {
    const issues = [];
    for (const field of Object.values(this.meta.fields) as FieldMeta[]) {
      if (field.kind !== 'scalar' || !field.unique || field.name === 'id') continue;
      const value = data[field.prismaField];
      if (value === undefined || value === null) continue;
      const clash = await this.delegate(db).findFirst({
        where: { [field.prismaField]: value, ...(exceptId === null ? {} : { NOT: { id: exceptId } }) },
        select: { id: true },
      });
      if (clash) issues.push(uniqueIssue(field));
    }
    if (issues.length) throw validationErrors(issues);
  }

  /** A unique violation that slipped past assertUnique (a concurrent write) is still a 400. */
  private rethrowUnique(err: unknown): never {
    const e = err as { code?: string; meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } };
    if (e?.code === 'P2002') {
      const targets = [e.meta?.target, e.meta?.driverAdapterError?.cause?.constraint?.fields].flat().filter((t): t is string => typeof t === 'string');
      const field = (Object.values(this.meta.fields) as FieldMeta[]).find(
        (f): f is ScalarFieldMeta => f.kind === 'scalar' && (targets.includes(f.column) || targets.includes(f.prismaField)),
      );
      throw field ? validationErrors([uniqueIssue(field)]) : new ValidationError('This attribute must be unique');
    }
    throw err;
  }
}

function uniqueIssue(field: ScalarFieldMeta) {
  return { path: [field.name], message: 'This attribute must be unique', name: 'ValidationError' as const };
}

/** Strapi ids are positive integers; anything else finds nothing (404), never a 500. */
export function parseId(id: unknown): number | null {
  const text = String(id);
  if (!/^[1-9]\d{0,15}$/.test(text)) return null;
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : null;
}
