/**
 * Sends the outbox's deliveries, in every server process. Each claim takes due deliveries
 * with a lease: on PostgreSQL and MySQL/MariaDB the claim locks the rows (`FOR UPDATE SKIP
 * LOCKED`, so processes never wait for each other) and stamps them with the claim's token
 * until the lease ends; a delivery is sent by the process holding it.
 * A process that dies mid-delivery leaves a lease that runs out, and the delivery is sent
 * again (at least once). Only the oldest pending delivery of an entry (per webhook) can be
 * claimed: an entry's events arrive in order, its later events waiting out earlier retries.
 * Failures are retried with exponential back-off up to `maxAttempts`, then marked failed.
 * At most `batchSize` deliveries are in flight (and in memory) per process, `concurrency` per
 * webhook; the rest wait in the table.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.js';
import { SqlBuilder } from '../query/sql.js';
import type { AddressGuard } from './address-guard.js';
import type { WebhookDeliveryConfig, WebhookEndpoint } from './config.js';
import { deliveriesTable, type WebhookEvent } from './outbox.js';
import { sendWebhook, type SendResult } from './sender.js';

/** Where a delivery goes: a configured webhook, or a function of the app (`onEvent`). */
export type DeliveryTarget =
  | { readonly kind: 'webhook'; readonly endpoint: WebhookEndpoint; readonly defaultHeaders: Readonly<Record<string, string>> }
  | { readonly kind: 'listener'; readonly listener: (event: WebhookEvent) => unknown };

interface ClaimedDelivery {
  readonly id: number;
  readonly webhook: string;
  readonly event: string;
  readonly payload: string;
  readonly attempts: number;
  /** The lease's token: only the round holding it records the outcome. */
  readonly token: string;
}

/** How long a look at the outbox waits after a commit, gathering the events of writes around it. */
const coalesceMs = 10;
/** How often delivered and failed deliveries past their retention are deleted. */
const purgeEveryMs = 60_000;
/** A lease outlasts the delivery's timeout by this much (recording the outcome included). */
const leaseMarginMs = 5_000;

export class Dispatcher {
  #timer: NodeJS.Timeout | undefined;
  /** A look at the outbox in progress (one at a time per process). */
  #pumping: Promise<void> | undefined;
  #again = false;
  #soon = false;
  #stopped = false;
  #lastPurge = 0;
  /** Deliveries being sent, and how many per webhook. */
  readonly #inFlight = new Set<Promise<void>>();
  readonly #perWebhook = new Map<string, number>();

  constructor(
    private readonly db: Database,
    private readonly config: WebhookDeliveryConfig,
    private readonly targets: ReadonlyMap<string, DeliveryTarget>,
    private readonly guard: AddressGuard,
    /** `error`: the failure behind the message, when there is one (a database outage is logged once: server.ts). */
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  start(): void {
    this.wake();
  }

  /**
   * A write with events committed: look at the outbox shortly, so the events of writes
   * committing close together are claimed together.
   */
  soon(): void {
    if (this.#stopped || this.#soon) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#soon = true;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#soon = false;
      this.#timer = undefined;
      this.wake();
    }, coalesceMs).unref();
  }

  /** Looks at the outbox now, or right after the look in progress. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#soon = false;
    this.#pumping = this.pump().finally(() => {
      this.#pumping = undefined;
      if (this.#stopped) return;
      if (this.#again) {
        this.#again = false;
        this.wake();
      } else this.#timer ??= setTimeout(() => this.wake(), this.config.pollInterval).unref();
    });
  }

  /**
   * Stops claiming; resolves once the deliveries in flight are settled, or after `graceMs`
   * (a delivery cut off then is sent again once its lease ends: at least once).
   */
  async stop(graceMs = 3_000): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.all([this.#pumping, ...this.#inFlight]), grace]);
    clearTimeout(timer);
  }

  /**
   * Claims due deliveries while this process has room (`batchSize` in flight, `concurrency`
   * per webhook) and starts sending them; each one settled looks again, since it may have
   * let an entry's next event through. A slow webhook holds its own slots, not the others'.
   */
  private async pump(): Promise<void> {
    try {
      while (!this.#stopped && this.#inFlight.size < this.config.batchSize) {
        const claimed = await this.claim(this.config.batchSize - this.#inFlight.size);
        if (claimed.length === 0) break;
        for (const delivery of claimed) this.track(delivery);
      }
      if (Date.now() - this.#lastPurge > purgeEveryMs) await this.purge();
    } catch (err) {
      this.log(`webhooks: the outbox could not be read: ${(err as Error).message}`, err);
    }
  }

  private track(delivery: ClaimedDelivery): void {
    this.#perWebhook.set(delivery.webhook, (this.#perWebhook.get(delivery.webhook) ?? 0) + 1);
    const sending: Promise<void> = this.deliver(delivery)
      .catch((err: unknown) => {
        if (!this.#stopped) this.log(`webhooks: delivery ${delivery.id} could not be recorded: ${(err as Error).message}`, err);
      })
      .finally(() => {
        this.#inFlight.delete(sending);
        const left = (this.#perWebhook.get(delivery.webhook) ?? 1) - 1;
        if (left > 0) this.#perWebhook.set(delivery.webhook, left);
        else this.#perWebhook.delete(delivery.webhook);
        this.soon();
      });
    this.#inFlight.add(sending);
  }

  /** Claims at most `room` due deliveries (within each webhook's remaining concurrency) with a lease. */
  private async claim(room: number): Promise<ClaimedDelivery[]> {
    const now = Date.now();
    const t = (sql: SqlBuilder) => sql.ident(deliveriesTable);
    const c = (sql: SqlBuilder, name: string) => sql.ident(name);
    const busy = [...this.#perWebhook].filter(([, count]) => count >= this.config.concurrency).map(([name]) => name);
    const find = new SqlBuilder(this.db.dialect);
    const due = find.finish(
      `SELECT d.${c(find, 'id')} AS id, d.${c(find, 'webhook')} AS webhook FROM ${t(find)} d WHERE d.${c(find, 'status')} = 'pending' AND d.${c(find, 'next_attempt_at')} <= ${find.param(now)}` +
        ` AND (d.${c(find, 'locked_until')} IS NULL OR d.${c(find, 'locked_until')} < ${find.param(now)})` +
        (busy.length ? ` AND d.${c(find, 'webhook')} NOT IN (${busy.map((name) => find.param(name)).join(', ')})` : '') +
        ` AND NOT EXISTS (SELECT 1 FROM ${t(find)} e WHERE e.${c(find, 'webhook')} = d.${c(find, 'webhook')} AND e.${c(find, 'entry_key')} = d.${c(find, 'entry_key')}` +
        ` AND e.${c(find, 'status')} = 'pending' AND e.${c(find, 'id')} < d.${c(find, 'id')})` +
        // In the index's order (status, next_attempt_at): the scan stops at LIMIT, however long the backlog (0.07 ms for 100,000 rows on SQLite; by id: 43 ms).
        ` ORDER BY d.${c(find, 'next_attempt_at')}, d.${c(find, 'id')} LIMIT ${room}`,
    );
    const remaining = new Map<string, number>();
    const candidates: number[] = [];
    for (const row of await this.db.query<{ id: unknown; webhook: unknown }>(due.sql, due.params)) {
      const webhook = String(row.webhook);
      const left = remaining.get(webhook) ?? this.config.concurrency - (this.#perWebhook.get(webhook) ?? 0);
      if (left <= 0) continue;
      remaining.set(webhook, left - 1);
      candidates.push(Number(row.id));
    }
    if (candidates.length === 0) return [];
    const token = randomUUID();
    const leaseEnd = now + 2 * this.config.timeout + leaseMarginMs;
    const rows = await this.stamp(candidates, token, leaseEnd, now);
    return rows.map((row) => ({ id: Number(row.id), webhook: String(row.webhook), event: String(row.event), payload: String(row.payload), attempts: Number(row.attempts), token }));
  }

  /**
   * Stamps those of `candidates` still free (and, on PostgreSQL and MySQL/MariaDB, not locked
   * by another process's claim) with the lease; answers the rows stamped. SQLite and
   * PostgreSQL do it in one statement (`UPDATE … RETURNING`; on SQLite the statement is
   * atomic, there are no row locks); MySQL/MariaDB in a transaction (no `UPDATE … RETURNING`).
   */
  private async stamp(candidates: readonly number[], token: string, leaseEnd: number, now: number): Promise<Record<string, unknown>[]> {
    const dialect = this.db.dialect;
    const sql = new SqlBuilder(dialect);
    const table = sql.ident(deliveriesTable);
    const id = sql.ident('id');
    const set = `${sql.ident('lease_token')} = ${sql.param(token)}, ${sql.ident('locked_until')} = ${sql.param(leaseEnd)}`;
    const free = (b: SqlBuilder) => `${b.ident('status')} = 'pending' AND (${b.ident('locked_until')} IS NULL OR ${b.ident('locked_until')} < ${b.param(now)})`;
    const list = (b: SqlBuilder, ids: readonly number[]) => ids.map((value) => b.param(value)).join(', ');
    const columns = ['id', 'webhook', 'event', 'payload', 'attempts'].map((n) => sql.ident(n)).join(', ');
    if (dialect === 'sqlite' || dialect === 'postgresql') {
      const where =
        dialect === 'sqlite'
          ? `${id} IN (${list(sql, candidates)}) AND ${free(sql)}`
          : `${id} IN (SELECT ${id} FROM ${table} WHERE ${id} IN (${list(sql, candidates)}) AND ${free(sql)} FOR UPDATE SKIP LOCKED)`;
      const compiled = sql.finish(`UPDATE ${table} SET ${set} WHERE ${where} RETURNING ${columns}`);
      // A write answering rows: on the writer's connection, not the read executor's (which may be read-only).
      return this.db.transaction((tx) => tx.query<Record<string, unknown>>(compiled.sql, compiled.params), { direct: true });
    }
    return this.db.transaction(async (tx) => {
      const lock = new SqlBuilder(dialect);
      const locked = lock.finish(`SELECT ${lock.ident('id')} AS id FROM ${lock.ident(deliveriesTable)} WHERE ${lock.ident('id')} IN (${list(lock, candidates)}) AND ${free(lock)} FOR UPDATE SKIP LOCKED`);
      const mine = (await tx.query<{ id: unknown }>(locked.sql, locked.params)).map((row) => Number(row.id));
      if (mine.length === 0) return [];
      const update = sql.finish(`UPDATE ${table} SET ${set} WHERE ${id} IN (${list(sql, mine)})`);
      await tx.execute(update.sql, update.params);
      const read = new SqlBuilder(dialect);
      const claimed = read.finish(`SELECT ${columns} FROM ${table} WHERE ${read.ident('lease_token')} = ${read.param(token)}`);
      return tx.query<Record<string, unknown>>(claimed.sql, claimed.params);
    }, { direct: true });
  }

  private async deliver(delivery: ClaimedDelivery): Promise<void> {
    const target = this.targets.get(delivery.webhook);
    const result: SendResult = !target
      ? { ok: false, status: null, error: `webhook "${delivery.webhook}" is no longer configured or enabled`, permanent: true }
      : await this.send(target, delivery);
    await this.settle(delivery, result);
  }

  private async send(target: DeliveryTarget, delivery: ClaimedDelivery): Promise<SendResult> {
    if (target.kind === 'listener') {
      try {
        const event = JSON.parse(delivery.payload) as WebhookEvent;
        await withTimeout(Promise.resolve(target.listener(event)), this.config.timeout);
        return { ok: true, status: null, error: null, permanent: false };
      } catch (err) {
        return { ok: false, status: null, error: String((err as Error)?.message ?? err).slice(0, 1_000), permanent: false };
      }
    }
    const { endpoint, defaultHeaders } = target;
    return sendWebhook(
      {
        url: endpoint.url,
        headers: { ...defaultHeaders, ...endpoint.headers, 'X-Strapi-Event': delivery.event, 'Content-Type': 'application/json', 'X-Contentgen-Delivery': String(delivery.id) },
        body: delivery.payload,
        timeout: this.config.timeout,
      },
      this.guard,
    );
  }

  /** Records the attempt's outcome, if this round still holds the delivery's lease. */
  private async settle(delivery: ClaimedDelivery, result: SendResult): Promise<void> {
    const attempts = delivery.attempts + 1;
    const now = Date.now();
    const sql = new SqlBuilder(this.db.dialect);
    const set: string[] = [`${sql.ident('attempts')} = ${sql.param(attempts)}`, `${sql.ident('last_status')} = ${sql.param(result.status)}`, `${sql.ident('lease_token')} = NULL`, `${sql.ident('locked_until')} = NULL`];
    if (result.ok) {
      set.push(`${sql.ident('status')} = 'delivered'`, `${sql.ident('delivered_at')} = ${sql.param(now)}`, `${sql.ident('last_error')} = NULL`);
    } else {
      const giveUp = result.permanent || attempts >= this.config.maxAttempts;
      const delay = Math.min(this.config.maxDelay, this.config.initialDelay * 2 ** (attempts - 1));
      set.push(`${sql.ident('last_error')} = ${sql.param(result.error)}`, `${sql.ident('next_attempt_at')} = ${sql.param(giveUp ? now : now + delay)}`);
      if (giveUp) set.push(`${sql.ident('status')} = 'failed'`);
      const outcome = giveUp ? `given up after ${attempts} attempt(s)` : `attempt ${attempts} of ${this.config.maxAttempts}, retried in ${delay} ms`;
      this.log(`webhooks: delivery ${delivery.id} (${delivery.event}) to "${delivery.webhook}" failed, ${outcome}: ${result.error ?? `HTTP ${result.status}`}`);
    }
    const compiled = sql.finish(
      `UPDATE ${sql.ident(deliveriesTable)} SET ${set.join(', ')} WHERE ${sql.ident('id')} = ${sql.param(delivery.id)} AND ${sql.ident('lease_token')} = ${sql.param(delivery.token)}`,
    );
    await this.db.execute(compiled.sql, compiled.params);
  }

  private async purge(): Promise<void> {
    this.#lastPurge = Date.now();
    const cutoff = Date.now() - this.config.retention;
    const sql = new SqlBuilder(this.db.dialect);
    const compiled = sql.finish(
      `DELETE FROM ${sql.ident(deliveriesTable)} WHERE (${sql.ident('status')} = 'delivered' AND ${sql.ident('delivered_at')} < ${sql.param(cutoff)})` +
        ` OR (${sql.ident('status')} = 'failed' AND ${sql.ident('next_attempt_at')} < ${sql.param(cutoff)})`,
    );
    await this.db.execute(compiled.sql, compiled.params);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
