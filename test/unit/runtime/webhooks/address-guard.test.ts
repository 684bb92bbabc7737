/** The webhook address guard: private and loopback addresses refused unless allowed, in literals and in DNS answers. */
import { describe, expect, it } from 'vitest';
import { AddressGuard, AddressRefusedError } from '../../../../templates/runtime/webhooks/address-guard.js';
import { sendWebhook } from '../../../../templates/runtime/webhooks/sender.js';

const guard = (allowedAddresses: string[] = [], blockPrivateAddresses = true) => new AddressGuard({ allowedAddresses, blockPrivateAddresses });

describe('AddressGuard', () => {
  it('refuses loopback, private, link-local, metadata and unique-local addresses', () => {
    for (const address of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1']) {
      expect(() => guard().check(address, 'example.com'), address).toThrow(AddressRefusedError);
    }
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(() => guard().check(address, 'example.com'), address).not.toThrow();
  });

  it('allows what allowedAddresses lists: an address, a CIDR range, a host name', () => {
    expect(() => guard(['127.0.0.1']).check('127.0.0.1', 'x')).not.toThrow();
    expect(() => guard(['127.0.0.1']).check('127.0.0.2', 'x')).toThrow(AddressRefusedError);
    expect(() => guard(['10.0.0.0/8']).check('10.9.8.7', 'x')).not.toThrow();
    expect(() => guard(['hooks.internal']).check('10.9.8.7', 'Hooks.Internal')).not.toThrow();
    expect(() => guard([], false).check('127.0.0.1', 'x')).not.toThrow();
  });

  it('checks what a host name resolves to, at connection time: localhost is refused without a request', async () => {
    const result = await sendWebhook({ url: 'http://localhost:9/hook', headers: {}, body: '{}', timeout: 2_000 }, guard());
    expect(result).toMatchObject({ ok: false, status: null, permanent: true });
    expect(result.error).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a private or loopback address/);
  });
});
