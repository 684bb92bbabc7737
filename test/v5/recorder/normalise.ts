/**
 * What differs between two recordings of the same script (measured by recording each set twice,
 * see fixtures/strapi5-data/README.md), replaced by stable placeholders so answers can be
 * compared: a Strapi 5 recording with another, or with contentgen's v5 dialect.
 *
 * - documentIds (24 characters of [a-z0-9], random per run) become `doc:<n>`, numbered in order of
 *   first appearance over the whole recording (paths, bodies, variables and answers), so the
 *   same document keeps one label everywhere;
 * - createdAt/updatedAt/publishedAt become `<time>` (null stays null: it says draft or not);
 * - upload hashes (`<name>_<10 hex>`, in `hash`, `url` and formats) become `<name>_<hash>`;
 * - JWTs become `<jwt>`;
 * - with `ids: true`, every numeric `id` becomes `<id>` (contentgen's row ids differ from Strapi 5's
 *   by design: Strapi writes a new published row, with a new id, at every publish).
 */
import type { RecordedRequest } from '../../helpers/strapi-data.js';

const documentIdPattern = /(?<![A-Za-z0-9])[a-z0-9]{24}(?![A-Za-z0-9])/g;
const timeKeys = new Set(['createdAt', 'updatedAt', 'publishedAt']);

/** Requests whose order depends on documentIds (random): compare their rows as a set. */
export const unorderedRequests = new Set(['articles.list.sortDocumentId']);

export interface NormaliseOptions {
  ids?: boolean;
}

export function normaliseRecording(requests: RecordedRequest[], options: NormaliseOptions = {}): RecordedRequest[] {
  const labels = new Map<string, string>();
  const label = (text: string) =>
    text.replace(documentIdPattern, (id) => {
      if (!/[a-z]/.test(id)) return id; // 24 digits: a number, not a documentId
      if (!labels.has(id)) labels.set(id, `doc:${labels.size + 1}`);
      return labels.get(id)!;
    });
  const walk = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      if (key === 'jwt' || /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/.test(value)) return '<jwt>';
      if (key && timeKeys.has(key)) return '<time>';
      if (key === 'hash' || key === 'url') return label(value.replace(/_[0-9a-f]{10}(?=\.[A-Za-z0-9]+$|$)/, '_<hash>'));
      return label(value);
    }
    if (typeof value === 'number' && key === 'id' && options.ids) return '<id>';
    if (Array.isArray(value)) return value.map((v) => walk(v));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [label(k), walk(v, k)]));
    return value;
  };
  return requests.map((request) => {
    const normalised = walk(request) as RecordedRequest;
    if (unorderedRequests.has(request.name) && Array.isArray(normalised.answer?.data)) {
      normalised.answer.data = [...normalised.answer.data].sort((a: unknown, b: unknown) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    return normalised;
  });
}

