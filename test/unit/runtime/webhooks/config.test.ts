/** `webhooks` of src/config.ts: defaults, Strapi's webhook object shape, and the errors a wrong value gets at start. */
import { describe, expect, it } from 'vitest';
import { defaultWebhookDelivery, resolveWebhooksConfig, webhookEvents } from '../../../../templates/runtime/webhooks/config.js';

describe('resolveWebhooksConfig', () => {
  it('defaults: no webhooks, private addresses refused', () => {
    expect(resolveWebhooksConfig()).toEqual({ defaultHeaders: {}, endpoints: [], delivery: defaultWebhookDelivery, blockPrivateAddresses: true, allowedAddresses: [] });
  });

  it('a webhook gets every event and is enabled unless told otherwise', () => {
    const config = resolveWebhooksConfig({ endpoints: [{ name: 'rebuild', url: 'https://ci.example.com/hook' }], delivery: { maxAttempts: 3 } });
    expect(config.endpoints).toEqual([{ name: 'rebuild', url: 'https://ci.example.com/hook', headers: {}, events: [...webhookEvents], isEnabled: true }]);
    expect(config.delivery).toEqual({ ...defaultWebhookDelivery, maxAttempts: 3 });
  });

  it('refuses what would fail later, naming the key', () => {
    const cases: [unknown, string][] = [
      [{ endpoints: [{ name: 'a', url: 'ftp://x' }] }, 'config webhooks.endpoints[0].url must be an http(s) URL'],
      [{ endpoints: [{ name: 'a', url: 'not a url' }] }, 'config webhooks.endpoints[0].url must be an absolute http(s) URL'],
      [{ endpoints: [{ name: 'a', url: 'http://x' }, { name: 'a', url: 'http://y' }] }, 'two webhooks are named "a"'],
      [{ endpoints: [{ name: 'a', url: 'http://x', events: ['entry.created'] }] }, 'unknown event "entry.created"'],
      [{ endpoints: [{ name: 'a', url: 'http://x', headers: { 'X-N': 1 } }] }, 'config webhooks.endpoints[0].headers must be an object'],
      [{ delivery: { maxAttempts: 0 } }, 'config webhooks.delivery.maxAttempts must be an integer of at least 1'],
      [{ allowedAddresses: '127.0.0.1' }, 'config webhooks.allowedAddresses must be a list'],
    ];
    for (const [user, message] of cases) expect(() => resolveWebhooksConfig(user as never), message).toThrow(message);
  });
});
