/**
 * Webhooks and events (Strapi v4's, with durable delivery): content-type and media writes
 * record their events in the outbox table within their own transaction (outbox.ts,
 * entry-events.ts); every server process runs a dispatcher that sends them to the webhooks
 * of `webhooks` in src/config.ts and to the app's `onEvent` (dispatcher.ts). See README,
 * "Webhooks".
 */
import type { Database } from '../db/database.js';
import { AddressGuard } from './address-guard.js';
import { webhookEvents, type WebhooksConfig } from './config.js';
import { Dispatcher, type DeliveryTarget } from './dispatcher.js';
import { Outbox, type EventTarget, type WebhookEvent } from './outbox.js';

/** The delivery name of the app's in-process `onEvent` (not a webhook name anyone can take). */
export const appListenerName = 'app:onEvent';

export interface Webhooks {
  /** Given to the entity and upload services: where writes record their events. */
  readonly outbox: Outbox;
  /** Starts delivering (once the server is ready). */
  start(): void;
  /** Stops claiming deliveries and waits for those in flight. */
  stop(): Promise<void>;
}

export interface WebhooksOptions {
  readonly db: Database;
  readonly config: WebhooksConfig;
  /** The app's `onEvent` (src/index.ts): every event, delivered like a webhook (retried when it throws). */
  readonly onEvent?: (event: WebhookEvent) => unknown;
  /** `error`: the failure behind the message, when there is one. */
  readonly log?: (message: string, error?: unknown) => void;
}

export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { config } = options;
  const targets = new Map<string, DeliveryTarget>();
  const eventTargets: EventTarget[] = [];
  for (const endpoint of config.endpoints) {
    if (!endpoint.isEnabled) continue;
    targets.set(endpoint.name, { kind: 'webhook', endpoint, defaultHeaders: config.defaultHeaders });
    eventTargets.push({ name: endpoint.name, events: endpoint.events });
  }
  if (options.onEvent) {
    targets.set(appListenerName, { kind: 'listener', listener: options.onEvent });
    eventTargets.push({ name: appListenerName, events: webhookEvents });
  }
  const guard = new AddressGuard(config);
  const dispatcher = new Dispatcher(options.db, config.delivery, targets, guard, options.log ?? ((message) => console.error(message)));
  let started = false;
  const outbox = new Outbox(eventTargets, () => {
    if (started) dispatcher.soon();
  });
  return {
    outbox,
    start() {
      // Without targets there is nothing to send (deliveries of a webhook since removed wait for it to return).
      if (targets.size === 0) return;
      started = true;
      dispatcher.start();
    },
    stop: () => dispatcher.stop(),
  };
}

export { resolveWebhooksConfig, webhookEvents, type WebhookEndpoint, type WebhookEventName, type WebhooksConfig, type WebhooksUserConfig } from './config.js';
export { recordEntryEvents, recordMediaEvent } from './entry-events.js';
export { Outbox, type WebhookEvent } from './outbox.js';
