/**
 * Query strings written exactly as `qs.stringify(query, { encodeValuesOnly: true })` writes
 * them (what Strapi's documentation tells users to do, so a server log reads the same), with
 * no dependency: the client runs on `fetch` alone, in a browser module too.
 *
 * qs's defaults, kept: nested objects and arrays as brackets with indices
 * (`filters[$or][0][views][$gt]=3`), keys not encoded, values percent-encoded per RFC 3986
 * (UTF-8, unreserved characters kept), `null` as an empty value, `undefined` and empty
 * arrays or objects left out, dates as ISO strings.
 */

export function stringifyQuery(query: object): string {
  const parts: string[] = [];
  for (const key of Object.keys(query)) write((query as Record<string, unknown>)[key], key, parts, new Set());
  return parts.join('&');
}

function write(raw: unknown, prefix: string, parts: string[], ancestors: Set<object>): void {
  const value = raw instanceof Date ? raw.toISOString() : raw === null ? '' : raw;
  if (value === undefined || typeof value === 'function') return;
  if (typeof value !== 'object') {
    parts.push(`${prefix}=${encodeValue(value)}`);
    return;
  }
  // qs refuses a cyclic value the same way.
  if (ancestors.has(value)) throw new RangeError('Cyclic object value');
  ancestors.add(value);
  for (const key of Object.keys(value)) write((value as Record<string, unknown>)[key], `${prefix}[${key}]`, parts, ancestors);
  ancestors.delete(value);
}

const hex = Array.from({ length: 256 }, (_, i) => `%${i < 16 ? '0' : ''}${i.toString(16).toUpperCase()}`);

/** qs reads a value in segments of this many UTF-16 units (a pair split across two is kept as qs writes it). */
const segmentLength = 1024;

/** qs's `utils.encode`: UTF-8 percent-encoding that keeps `A-Z a-z 0-9 - . _ ~`. */
function encodeValue(value: unknown): string {
  const text = typeof value === 'symbol' ? value.toString() : String(value);
  let out = '';
  for (let start = 0; start < text.length; start += segmentLength) {
    const segment = text.length >= segmentLength ? text.slice(start, start + segmentLength) : text;
    for (let i = 0; i < segment.length; i++) {
      let c = segment.charCodeAt(i);
      if (c === 0x2d || c === 0x2e || c === 0x5f || c === 0x7e || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) {
        out += segment.charAt(i);
      } else if (c < 0x80) {
        out += hex[c];
      } else if (c < 0x800) {
        out += hex[0xc0 | (c >> 6)]! + hex[0x80 | (c & 0x3f)]!;
      } else if (c < 0xd800 || c >= 0xe000) {
        out += hex[0xe0 | (c >> 12)]! + hex[0x80 | ((c >> 6) & 0x3f)]! + hex[0x80 | (c & 0x3f)]!;
      } else {
        // A surrogate: qs takes the next unit as its pair, whatever it is.
        i += 1;
        c = 0x10000 + (((c & 0x3ff) << 10) | (segment.charCodeAt(i) & 0x3ff));
        out += hex[0xf0 | (c >> 18)]! + hex[0x80 | ((c >> 12) & 0x3f)]! + hex[0x80 | ((c >> 6) & 0x3f)]! + hex[0x80 | (c & 0x3f)]!;
      }
    }
  }
  return out;
}
