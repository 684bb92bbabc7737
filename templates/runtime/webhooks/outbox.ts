/**
 * The outbox: an event is written as one delivery row per webhook that wants it, through the
 * database handle of the write that caused it, so it commits or rolls back with that write.
 * The dispatcher (dispatcher.ts) sends the rows; nothing is sent from here.
 */
import type { Database } from '../db/database.js';
import { SqlBuilder } from '../query/sql.js';
import type { WebhookEventName } from './config.js';

export const deliveriesTable = 'contentgen_webhook_deliveries';

/** What a webhook receives, as Strapi v4 sends it: entry events carry `model`, `uid` and `entry`; media events `media`. */
export interface WebhookEvent {
  readonly event: WebhookEventName;
  /** When the write happened (ISO 8601). */
  readonly createdAt: string;
  readonly model?: string;
  readonly uid?: string;
  readonly entry?: Record<string, unknown>;
  readonly media?: Record<string, unknown>;
}

/** Somewhere events go: a configured webhook, or the app's in-process `onEvent`. */
export interface EventTarget {
  readonly name: string;
  readonly events: readonly WebhookEventName[];
}

export class Outbox {
  readonly #wanted = new Set<WebhookEventName>();

  constructor(
    private readonly targets: readonly EventTarget[],
    /** Told after a write with events committed, so delivery starts at once. */
    private readonly onCommit: () => void = () => {},
  ) {
    for (const target of targets) for (const event of target.events) this.#wanted.add(event);
  }

  /** Whether any target wants the event: if none does, the write records (and reads) nothing for it. */
  wants(event: WebhookEventName): boolean {
    return this.#wanted.has(event);
  }

  /**
   * Records `events` about one entry or file (`key`: deliveries of one key to one target are
   * sent in order) through `db`, the write's transaction.
   */
  async record(db: Database, key: string, events: readonly WebhookEvent[]): Promise<void> {
    const now = Date.now();
    const rows: unknown[][] = [];
    for (const event of events) {
      const payload = JSON.stringify(event);
      for (const target of this.targets) if (target.events.includes(event.event)) rows.push([target.name, event.event, key, payload, now, now]);
    }
    if (rows.length === 0) return;
    const sql = new SqlBuilder(db.dialect);
    const columns = ['webhook', 'event', 'entry_key', 'payload', 'next_attempt_at', 'created_at'].map((c) => sql.ident(c)).join(', ');
    const values = rows.map((row) => `(${row.map((value) => sql.param(value)).join(', ')})`).join(', ');
    const compiled = sql.finish(`INSERT INTO ${sql.ident(deliveriesTable)} (${columns}) VALUES ${values}`);
    await db.execute(compiled.sql, compiled.params);
  }

  /** A write that recorded events committed: wake the dispatcher. */
  committed(): void {
    this.onCommit();
  }
}
