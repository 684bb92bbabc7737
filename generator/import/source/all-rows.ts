import type { NormalizedRow } from './types.js';

/** Every row of a source's batches, for the reads that need them all at once (links, components, documents). */
export async function all(batches: AsyncIterable<NormalizedRow[]>): Promise<NormalizedRow[]> {
  const rows: NormalizedRow[] = [];
  for await (const batch of batches) rows.push(...batch);
  return rows;
}
