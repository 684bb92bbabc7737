/**
 * The v5 schema's `documentId`s: the stored ones (entity/document-id.ts, #30 item 1). Answers read
 * them per request in batches (one statement per type and resolver level, like relations);
 * filters turn them into row ids first (entity/document-id.ts, shared with the REST dialect).
 */
import type { Database } from '../db/database.js';
import { documentIdFilter, documentIdsOf } from '../entity/document-id.js';
import { toRestOperators } from '../graphql/args.js';
import type { ContentTypeMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';

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

/**
 * A GraphQL `documentId` filter (`{ eq }`, `{ in }`, `{ startsWith }`, … or a bare value) as one
 * on row ids, by the REST dialect's own (entity/document-id.ts `documentIdFilter`).
 */
export async function documentIdFilterAsIds(db: Database, meta: ContentTypeMeta, filter: unknown): Promise<Record<string, unknown>> {
  const ids = await documentIdFilter(db, meta, isPlainObject(filter) ? toRestOperators(filter) : { $eq: filter });
  return ids.$in !== undefined ? { in: ids.$in } : { notIn: ids.$notIn };
}
