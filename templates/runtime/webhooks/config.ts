/**
 * `webhooks` of src/config.ts: Strapi v4's `config/server.js` → `webhooks` (`defaultHeaders`)
 * plus the webhooks its admin panel would store (`name`, `url`, `headers`, `events`,
 * `isEnabled`), and how delivery retries and which addresses it may reach.
 */
export const webhookEvents = [
  'entry.create',
  'entry.update',
  'entry.delete',
  'entry.publish',
  'entry.unpublish',
  'media.create',
  'media.update',
  'media.delete',
] as const;

export type WebhookEventName = (typeof webhookEvents)[number];

export interface WebhookEndpoint {
  /** Unique; deliveries are recorded under it. */
  readonly name: string;
  /** http(s) URL the event is POSTed to. */
  readonly url: string;
  /** Sent with every request, over `defaultHeaders`. */
  readonly headers: Readonly<Record<string, string>>;
  /** The events it is sent; every event when absent. */
  readonly events: readonly WebhookEventName[];
  /** Strapi's `isEnabled`: a disabled webhook is sent nothing (default true). */
  readonly isEnabled: boolean;
}

export interface WebhookDeliveryConfig {
  /** Attempts of one delivery before it is marked failed. */
  readonly maxAttempts: number;
  /** Milliseconds before the first retry; each later one waits twice as long. */
  readonly initialDelay: number;
  /** Longest wait between two attempts, in milliseconds. */
  readonly maxDelay: number;
  /** Milliseconds a receiver has to answer (Strapi: 10 s). */
  readonly timeout: number;
  /** Milliseconds between two looks at the outbox when nothing woke the dispatcher. */
  readonly pollInterval: number;
  /** Most deliveries in flight (claimed, held in memory) at once per process. */
  readonly batchSize: number;
  /** Most deliveries in flight to one webhook at once per process (Strapi sends 5 at once). */
  readonly concurrency: number;
  /** Delivered and failed deliveries are deleted this many milliseconds after their last attempt. */
  readonly retention: number;
}

export interface WebhooksConfig {
  /** Headers of every webhook request (Strapi's `webhooks.defaultHeaders`). */
  readonly defaultHeaders: Readonly<Record<string, string>>;
  readonly endpoints: readonly WebhookEndpoint[];
  readonly delivery: WebhookDeliveryConfig;
  /**
   * Refuse to send to loopback, private, link-local and other non-public addresses (checked on
   * the address the host name resolves to, at connection time), unless `allowedAddresses` lists it.
   */
  readonly blockPrivateAddresses: boolean;
  /** Host names, IP addresses or CIDR ranges (`10.0.0.0/8`) that may be reached even if private. */
  readonly allowedAddresses: readonly string[];
}

export type WebhooksUserConfig = {
  defaultHeaders?: Record<string, string>;
  endpoints?: readonly (Partial<Omit<WebhookEndpoint, 'events'>> & { name: string; url: string; events?: readonly string[] })[];
  delivery?: Partial<WebhookDeliveryConfig>;
  blockPrivateAddresses?: boolean;
  allowedAddresses?: readonly string[];
};

export const defaultWebhookDelivery: WebhookDeliveryConfig = {
  maxAttempts: 10,
  initialDelay: 1_000,
  maxDelay: 3_600_000,
  timeout: 10_000,
  pollInterval: 1_000,
  batchSize: 20,
  concurrency: 5,
  retention: 7 * 24 * 3_600_000,
};

export function resolveWebhooksConfig(user: WebhooksUserConfig = {}): WebhooksConfig {
  const at = (key: string) => `config webhooks.${key}`;
  const headers = (value: unknown, where: string): Record<string, string> => {
    if (value === undefined) return {};
    if (!value || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
      throw new Error(`${at(where)} must be an object of header names to strings`);
    }
    return { ...(value as Record<string, string>) };
  };
  const names = new Set<string>();
  const endpoints = (user.endpoints ?? []).map((endpoint, i): WebhookEndpoint => {
    const where = `endpoints[${i}]`;
    if (typeof endpoint?.name !== 'string' || endpoint.name === '') throw new Error(`${at(`${where}.name`)} must be a non-empty string`);
    if (names.has(endpoint.name)) throw new Error(`${at(`${where}.name`)}: two webhooks are named "${endpoint.name}"`);
    names.add(endpoint.name);
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw new Error(`${at(`${where}.url`)} must be an absolute http(s) URL, got ${String(endpoint.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${at(`${where}.url`)} must be an http(s) URL, got ${endpoint.url}`);
    const events = endpoint.events ?? webhookEvents;
    for (const event of events) {
      if (!(webhookEvents as readonly string[]).includes(event)) throw new Error(`${at(`${where}.events`)}: unknown event "${event}" (one of ${webhookEvents.join(', ')})`);
    }
    const isEnabled = endpoint.isEnabled ?? true;
    if (typeof isEnabled !== 'boolean') throw new Error(`${at(`${where}.isEnabled`)} must be true or false`);
    return { name: endpoint.name, url: url.href, headers: headers(endpoint.headers, `${where}.headers`), events: [...events] as WebhookEventName[], isEnabled };
  });
  const delivery = { ...defaultWebhookDelivery, ...user.delivery };
  for (const key of Object.keys(defaultWebhookDelivery) as (keyof WebhookDeliveryConfig)[]) {
    const min = key === 'initialDelay' || key === 'maxDelay' || key === 'retention' ? 0 : 1;
    if (!Number.isInteger(delivery[key]) || delivery[key] < min) throw new Error(`${at(`delivery.${key}`)} must be an integer of at least ${min}, got ${String(delivery[key])}`);
  }
  const blockPrivateAddresses = user.blockPrivateAddresses ?? true;
  if (typeof blockPrivateAddresses !== 'boolean') throw new Error(`${at('blockPrivateAddresses')} must be true or false`);
  const allowedAddresses = user.allowedAddresses ?? [];
  if (!Array.isArray(allowedAddresses) || !allowedAddresses.every((a) => typeof a === 'string' && a !== '')) {
    throw new Error(`${at('allowedAddresses')} must be a list of host names, IP addresses or CIDR ranges`);
  }
  return { defaultHeaders: headers(user.defaultHeaders, 'defaultHeaders'), endpoints, delivery, blockPrivateAddresses, allowedAddresses: [...allowedAddresses] };
}
