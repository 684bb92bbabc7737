/**
 * Compares two recordings after normalising what varies per run (normalise.ts):
 *
 *   npx tsx test/v5/recorder/compare.ts <answers-a.json> <answers-b.json> [--ids]
 *
 * Prints each request whose normalised form differs (its first differing path) and exits 1 if any.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { RecordedRequest } from '../../helpers/strapi-data.js';
import { normaliseRecording } from './normalise.js';

function firstDifference(a: unknown, b: unknown, path: string): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference((a as any)[key], (b as any)[key], `${path}.${key}`);
      if (found) return found;
    }
  }
  return `${path}: ${JSON.stringify(a)?.slice(0, 120)} ≠ ${JSON.stringify(b)?.slice(0, 120)}`;
}

const args = process.argv.slice(2);
const [fileA, fileB] = args.filter((a) => !a.startsWith('--'));
if (!fileA || !fileB) {
  console.error('usage: compare.ts <answers-a.json> <answers-b.json> [--ids]');
  process.exit(2);
}
const read = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { requests: RecordedRequest[] }).requests;
const options = { ids: args.includes('--ids') };
const a = normaliseRecording(read(fileA), options);
const b = new Map(normaliseRecording(read(fileB), options).map((r) => [r.name, r]));
let differing = 0;
for (const request of a) {
  const other = b.get(request.name);
  const difference = other ? firstDifference(request, other, request.name) : `${request.name}: missing in ${fileB}`;
  if (difference) {
    differing++;
    console.log(difference);
  }
}
console.log(`${a.length} requests, ${differing} differ`);
process.exit(differing ? 1 : 0);
