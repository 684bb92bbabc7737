/**
 * Our documentIds in Strapi's words: contentgen's documentIds differ from Strapi 5's (random
 * there), and a recording names documents everywhere (paths, bodies, answers). Numbering them in
 * order of appearance (normalise.ts) only lines up when both sides answer the same documents in
 * the same places; a document one side does not show yet (a user, a file) shifts every number
 * after it. So the replay's documentIds are first replaced by the recorded ones they stand
 * for: walking both answers of each request side by side, a `documentId` at the same place pairs
 * the two. A pairing is kept for good: the wrong document answered later shows as a difference.
 */
import type { RecordedRequest } from '../helpers/strapi-data.js';

export function alignDocumentIds(recorded: readonly RecordedRequest[], replayed: readonly RecordedRequest[]): RecordedRequest[] {
  const oursToTheirs = new Map<string, string>();
  const theirsTaken = new Set<string>();
  const pair = (theirs: unknown, ours: unknown, key?: string): void => {
    if (key === 'documentId' && typeof theirs === 'string' && typeof ours === 'string') {
      if (!oursToTheirs.has(ours) && !theirsTaken.has(theirs)) {
        oursToTheirs.set(ours, theirs);
        theirsTaken.add(theirs);
      }
      return;
    }
    if (Array.isArray(theirs) && Array.isArray(ours)) theirs.forEach((t, i) => pair(t, ours[i]));
    else if (theirs && ours && typeof theirs === 'object' && typeof ours === 'object') for (const [k, t] of Object.entries(theirs)) pair(t, (ours as Record<string, unknown>)[k], k);
  };
  const byName = new Map(recorded.map((r) => [r.name, r]));
  for (const request of replayed) pair(byName.get(request.name)?.answer, request.answer);
  const pattern = /(?<![A-Za-z0-9])[a-z][a-z0-9]{23}(?![A-Za-z0-9])/g;
  const replace = (value: unknown): unknown => {
    if (typeof value === 'string') return value.replace(pattern, (id) => oursToTheirs.get(id) ?? id);
    if (Array.isArray(value)) return value.map(replace);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]));
    return value;
  };
  return replayed.map((request) => replace(request) as RecordedRequest);
}
