/**
 * The v5 schema's `documentId`s: the stored ones (entity/document-id.ts, #30 item 1). Answers read
 * them per request in batches (one statement per type and resolver level, like relations);
 * filters and `article(documentId:)` turn them into row ids first.
 */
import type { Database } from '../db/database.js';
import { documentIdColumn, documentIdsOf } from '../entity/document-id.js';
import { ValidationError } from '../errors.js';
import type { ContentTypeMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { SqlBuilder } from '../query/sql.js';

/** Per request: the documentIds of entries, read for every entry asked in the same tick at once. */
export class DocumentIdReader {
  readonly #waiting = new Map<ContentTypeMeta, { ids: Set<number>; done: Promise<Map<number, string>> }>();

  constructor(private readonly db: Database) {}

  of(meta: ContentTypeMeta, id: number): Promise<string | null> {
    let batch = this.#waiting.get(meta);
    if (!batch) {
      const ids = new Set<number>();
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        this.#waiting.delete(meta);
        return documentIdsOf(this.db, meta, [...ids]);
      });
      this.#waiting.set(meta, (batch = { ids, done }));
    }
    batch.ids.add(id);
    return batch.done.then((found) => found.get(id) ?? null);
  }
}

/** The row ids of the entries (every locale) with these documentIds. */
export async function idsOfDocuments(db: Database, meta: ContentTypeMeta, documentIds: readonly unknown[]): Promise<number[]> {
  const values = documentIds.filter((value): value is string => typeof value === 'string');
  if (values.length === 0) return [];
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(`SELECT ${sql.ident('id')} AS id FROM ${sql.ident(meta.table)} WHERE ${sql.ident(documentIdColumn)} IN (${values.map((v) => sql.param(v)).join(', ')})`);
  return (await db.query<{ id: unknown }>(compiled.sql, compiled.params)).map((row) => Number(row.id));
}

/**
 * A GraphQL `documentId` filter (`{ eq }`, `{ in }`, …) as one on row ids. `eq`/`in` keep the
 * entries with those documentIds, `ne`/`notIn` the others; a documentId is never null.
 */
export async function documentIdFilterAsIds(db: Database, meta: ContentTypeMeta, filter: unknown): Promise<Record<string, unknown>> {
  const operators = isPlainObject(filter) ? filter : { eq: filter };
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(operators)) {
    if (operand === undefined) continue;
    const list = Array.isArray(operand) ? operand : [operand];
    if (op === 'eq' || op === 'in') out.in = await idsOfDocuments(db, meta, list);
    else if (op === 'ne' || op === 'notIn') out.notIn = await idsOfDocuments(db, meta, list);
    else if (op === 'null') out.null = operand === true ? true : undefined;
    else if (op === 'notNull') out.notNull = operand === true ? undefined : true;
    else throw new ValidationError(`Invalid parameter documentId: filter it with eq, ne, in, notIn, null or notNull, not ${op}`);
    if (out.null === undefined) delete out.null;
    if (out.notNull === undefined) delete out.notNull;
  }
  return out;
}
