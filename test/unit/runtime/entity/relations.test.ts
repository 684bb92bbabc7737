/**
 * applyEdit (connect/disconnect with positions): the linear-time implementation against the
 * original quadratic one, kept here as the reference, on seeded random inputs; and a connect
 * array of 40,000 positioned items.
 */
import { describe, expect, it } from 'vitest';
import { applyEdit, type RelationInput } from '../../../../templates/runtime/entity/relations.js';

type Edit = Extract<RelationInput, { kind: 'edit' }>;
type Item = Edit['connect'][number];

/** The implementation before it was made linear: pass after pass over the pending items. */
function reference(current: readonly number[], input: Edit): number[] | string {
  const seen = new Set<number>();
  for (const { id } of input.connect) {
    if (seen.has(id)) return 'duplicate';
    seen.add(id);
  }
  const disconnect = new Set(input.disconnect.filter((id) => !seen.has(id)));
  const list = current.filter((id) => !disconnect.has(id) && !seen.has(id));
  let pending = [...input.connect];
  while (pending.length > 0) {
    const deferred: Item[] = [];
    for (const item of pending) {
      const anchor = item.position && ('before' in item.position ? item.position.before : 'after' in item.position ? item.position.after : undefined);
      if (anchor !== undefined && !list.includes(anchor)) {
        if (pending.some((other) => other.id === anchor && other !== item)) {
          deferred.push(item);
          continue;
        }
        if (input.strict) return `missing ${item.id}`;
        list.push(item.id);
        continue;
      }
      const position = item.position;
      if (!position || 'end' in position) list.push(item.id);
      else if ('start' in position) list.unshift(item.id);
      else if ('before' in position) list.splice(list.indexOf(position.before), 0, item.id);
      else list.splice(list.indexOf(position.after) + 1, 0, item.id);
    }
    if (deferred.length === pending.length) return 'circular';
    pending = deferred;
  }
  return list;
}

function outcome(current: readonly number[], input: Edit): number[] | string {
  try {
    return applyEdit('tags', current, input);
  } catch (err) {
    const message = (err as Error).message;
    if (message.includes('already connected')) return 'duplicate';
    if (message.includes('circular')) return 'circular';
    const missing = /connecting relation with id (\d+)/.exec(message);
    return missing ? `missing ${missing[1]}` : message;
  }
}

/** mulberry32 */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('applyEdit', () => {
  it('matches the original algorithm on 5,000 random edits (positions, chains, cycles, strict and not)', () => {
    const next = random(42);
    const pick = (n: number) => Math.floor(next() * n);
    for (let run = 0; run < 5000; run++) {
      const universe = 2 + pick(12);
      const ids = Array.from({ length: universe }, (_, i) => i + 1);
      const current = ids.filter(() => next() < 0.4);
      const connect: Item[] = [];
      for (let n = pick(8); n > 0; n--) {
        const id = 1 + pick(universe + (next() < 0.05 ? 0 : 0));
        const roll = next();
        const anchor = 1 + pick(universe);
        const position = roll < 0.3 ? undefined : roll < 0.55 ? { before: anchor } : roll < 0.8 ? { after: anchor } : roll < 0.9 ? { start: true as const } : { end: true as const };
        connect.push(position ? { id, position } : { id });
      }
      const input: Edit = { kind: 'edit', connect, disconnect: ids.filter(() => next() < 0.2), strict: next() < 0.5 };
      expect(outcome(current, input), JSON.stringify({ current, input })).toEqual(reference(current, input));
    }
  });

  it('places 40,000 chained connect items in linear time', () => {
    const n = 40_000;
    // Each item goes before the next one, which is connected later: one pass per item in the original.
    const connect: Item[] = Array.from({ length: n }, (_, i) => (i === n - 1 ? { id: i + 1 } : { id: i + 1, position: { before: i + 2 } }));
    const started = performance.now();
    const list = applyEdit('tags', [], { kind: 'edit', connect, disconnect: [], strict: true });
    expect(performance.now() - started).toBeLessThan(10_000); // the original: one pass per item, each scanning every pending item
    expect(list).toHaveLength(n);
    expect(list.slice(0, 3)).toEqual([1, 2, 3]);
    expect(list.at(-1)).toBe(n);
  });
});
