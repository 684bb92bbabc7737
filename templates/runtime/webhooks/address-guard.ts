/**
 * Which addresses a webhook may reach. A webhook is a request the server makes to a URL
 * from its configuration; pointed at 127.0.0.1, 169.254.169.254 (cloud metadata) or a
 * private network it would reach what only the server can (SSRF). The check is made on the
 * address a host name resolves to, in the connection's own lookup, so a name that resolves
 * differently later (DNS rebinding) is checked again.
 */
import dns from 'node:dns';
import net from 'node:net';

/** Ranges that are not the public Internet (IANA special-purpose registries). */
const privateRanges: readonly [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
];

export class AddressRefusedError extends Error {}

export class AddressGuard {
  readonly #private = new net.BlockList();
  readonly #allowed = new net.BlockList();
  readonly #allowedHosts = new Set<string>();

  constructor(private readonly options: { readonly blockPrivateAddresses: boolean; readonly allowedAddresses: readonly string[] }) {
    for (const [address, prefix, type] of privateRanges) this.#private.addSubnet(address, prefix, type);
    for (const entry of options.allowedAddresses) {
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const type = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
      if (!type) {
        if (prefix !== undefined) throw new Error(`config webhooks.allowedAddresses: "${entry}" is not a CIDR range`);
        this.#allowedHosts.add(entry.toLowerCase());
      } else if (prefix === undefined) this.#allowed.addAddress(address, type);
      else this.#allowed.addSubnet(address, Number(prefix), type);
    }
  }

  /** Throws AddressRefusedError when `address` (an IP) may not be reached. */
  check(address: string, host: string): void {
    if (!this.options.blockPrivateAddresses || this.#allowedHosts.has(host.toLowerCase())) return;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const ip = mapped ?? address;
    const type = net.isIPv4(ip) ? 'ipv4' : 'ipv6';
    if (this.#allowed.check(ip, type)) return;
    if (this.#private.check(ip, type)) {
      throw new AddressRefusedError(`${host} resolves to ${address}, a private or loopback address: add it to webhooks.allowedAddresses to allow it`);
    }
  }

  /** A `lookup` for http.request that refuses addresses `check` refuses. */
  lookup(host: string): net.LookupFunction {
    return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
      dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
        if (err) return callback(err);
        try {
          for (const { address } of addresses) this.check(address, host);
        } catch (refused) {
          return callback(refused);
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      });
    }) as net.LookupFunction;
  }
}
