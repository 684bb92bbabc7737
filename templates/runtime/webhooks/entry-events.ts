/**
 * The events of content-type and media writes, as Strapi v4 emits them: `entry.create`,
 * `entry.update`, `entry.delete` with the entry as stored (its attributes, no relations,
 * private attributes removed), and `entry.publish` / `entry.unpublish` after the create or
 * update that changed `publishedAt` of a draft-and-publish type; `media.*` with the file.
 * Never for users-permissions users (Strapi sends no webhook for them) or roles; a file
 * written through its content type is a media event.
 */
import type { Database } from '../db/database.js';
import type { ContentTypeMeta } from '../meta.js';
import type { WebhookEventName } from './config.js';
import type { Outbox, WebhookEvent } from './outbox.js';

const silentTypes = new Set(['plugin::users-permissions.user', 'plugin::users-permissions.role', 'plugin::upload.folder']);
const fileUid = 'plugin::upload.file';

/** A stored entry as the services read it: `{ id, attributes }`. */
type ReadEntry = { id: number; attributes: Record<string, unknown> } | null;

export type EntryWrite = 'create' | 'update' | 'delete';

/**
 * Records the events of one entry write through `tx` (its transaction). `read` reads the
 * entry as stored (in the transaction), called only when some target wants an event;
 * `wasPublished` is whether the entry was published before an update.
 */
export async function recordEntryEvents(
  outbox: Outbox | undefined,
  tx: Database,
  meta: ContentTypeMeta,
  write: EntryWrite,
  read: () => Promise<ReadEntry>,
  wasPublished = false,
): Promise<void> {
  if (!outbox || silentTypes.has(meta.uid)) return;
  if (meta.uid === fileUid) {
    // A file written through its content type (GraphQL's updateUploadFile, …) is media.
    if (!outbox.wants(`media.${write}`)) return;
    const stored = await read();
    if (stored) await recordMediaEvent(outbox, tx, `media.${write}`, { id: stored.id, ...stored.attributes });
    return;
  }
  const mayPublish = meta.draftAndPublish && write !== 'delete';
  const candidates: WebhookEventName[] = [`entry.${write}`, ...(mayPublish ? (['entry.publish', 'entry.unpublish'] as const) : [])];
  if (!candidates.some((event) => outbox.wants(event))) return;
  const stored = await read();
  if (!stored) return;
  const entry: Record<string, unknown> = { id: stored.id, ...stored.attributes };
  const names: WebhookEventName[] = [`entry.${write}`];
  if (mayPublish) {
    const published = entry['publishedAt'] != null;
    if (published && !wasPublished) names.push('entry.publish');
    if (!published && wasPublished) names.push('entry.unpublish');
  }
  const createdAt = new Date().toISOString();
  const events: WebhookEvent[] = names.filter((event) => outbox.wants(event)).map((event) => ({ event, createdAt, model: meta.singularName, uid: meta.uid, entry }));
  await outbox.record(tx, `${meta.uid}:${stored.id}`, events);
}

/** Records a `media.*` event about a file (as the upload API answers it) through `tx`. */
export async function recordMediaEvent(outbox: Outbox | undefined, tx: Database, event: 'media.create' | 'media.update' | 'media.delete', file: { id: number } & Record<string, unknown>): Promise<void> {
  if (!outbox?.wants(event)) return;
  await outbox.record(tx, `plugin::upload.file:${file.id}`, [{ event, createdAt: new Date().toISOString(), media: file }]);
}
