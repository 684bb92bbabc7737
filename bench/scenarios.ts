/**
 * The five measured requests, and their check before measuring: each must answer 200 with
 * the expected number of entries, and the baseline must answer the same JSON.
 */
import { isDeepStrictEqual } from 'node:util';
import type { SeedResult } from './seed.js';

export interface Scenario {
  readonly key: string;
  readonly title: string;
  readonly path: string;
  /** Entries in `data`: an array of that length, or one object (findOne). */
  readonly expectedEntries: number;
  readonly single: boolean;
  /** `meta.pagination.total` for lists. */
  readonly expectedTotal?: number;
}

export const scenarioKeys = ['list', 'populateAll', 'deep', 'one', 'list100'] as const;

export function scenarios(seeded: SeedResult): Scenario[] {
  // The deep scenario filters on the category with the most published articles.
  const [categoryId, inCategory] = [...seeded.publishedPerCategory].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  const categoryName = encodeURIComponent(seeded.categoryNames.get(categoryId)!);
  // findOne of an article in the middle of the data.
  const oneId = seeded.articleIds[Math.floor(seeded.articleIds.length / 2) + 1]!;
  return [
    { key: 'list', title: 'plain list (25)', path: '/api/articles', expectedEntries: Math.min(25, seeded.published), single: false, expectedTotal: seeded.published },
    {
      key: 'populateAll',
      title: 'populate=* list of 25',
      path: '/api/articles?populate=*&pagination[pageSize]=25',
      expectedEntries: Math.min(25, seeded.published),
      single: false,
      expectedTotal: seeded.published,
    },
    {
      key: 'deep',
      title: 'deep populate+filter+sort',
      path:
        `/api/articles?filters[category][name][$eq]=${categoryName}&sort=title:desc` +
        '&populate[author][fields][0]=name&populate[tags][sort][0]=name:asc&populate[seo]=true',
      expectedEntries: Math.min(25, inCategory),
      single: false,
      expectedTotal: inCategory,
    },
    { key: 'one', title: 'one entry, populate=*', path: `/api/articles/${oneId}?populate=*`, expectedEntries: 1, single: true },
    {
      key: 'list100',
      title: 'plain list of 100',
      path: '/api/articles?pagination[pageSize]=100',
      expectedEntries: Math.min(100, seeded.published),
      single: false,
      expectedTotal: seeded.published,
    },
  ];
}

export interface Fetched {
  readonly status: number;
  readonly text: string;
}

export async function fetchText(url: string, headers: Record<string, string>, timeoutMs = 10_000): Promise<Fetched> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, text: await res.text() };
}

/** Throws unless the generated server's answer has the expected status and shape. */
export function checkAnswer(scenario: Scenario, answer: Fetched): void {
  const where = `scenario "${scenario.title}" (${scenario.path})`;
  if (answer.status !== 200) throw new Error(`${where} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
  const body = JSON.parse(answer.text) as { data?: unknown; meta?: { pagination?: { total?: number } } };
  if (scenario.single) {
    if (body.data === null || typeof body.data !== 'object' || Array.isArray(body.data)) throw new Error(`${where}: data is not one entry`);
  } else {
    if (!Array.isArray(body.data)) throw new Error(`${where}: data is not an array`);
    if (body.data.length !== scenario.expectedEntries) throw new Error(`${where}: ${body.data.length} entries, expected ${scenario.expectedEntries}`);
    const total = body.meta?.pagination?.total;
    if (scenario.expectedTotal !== undefined && total !== scenario.expectedTotal) {
      throw new Error(`${where}: pagination total ${String(total)}, expected ${scenario.expectedTotal}`);
    }
  }
}

export type Sameness = 'identical bytes' | 'equal up to key order';

/**
 * Compares the baseline's answer to the generated server's: identical text, or failing that
 * equal parsed values (key order ignored). Throws with the first difference otherwise.
 */
export function compareAnswers(scenario: Scenario, generated: Fetched, baseline: Fetched): Sameness {
  if (baseline.status !== generated.status) {
    throw new Error(`baseline answered ${baseline.status} to ${scenario.path}: ${baseline.text.slice(0, 300)}`);
  }
  if (generated.text === baseline.text) return 'identical bytes';
  const a = JSON.parse(generated.text) as unknown;
  const b = JSON.parse(baseline.text) as unknown;
  if (isDeepStrictEqual(a, b)) return 'equal up to key order';
  throw new Error(`baseline JSON differs from the generated server's for "${scenario.title}" (${scenario.path}): ${firstDifference(a, b, '$')}`);
}

function firstDifference(a: unknown, b: unknown, at: string): string {
  if (isDeepStrictEqual(a, b)) return '';
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
    for (const key of keys) {
      if (!(key in rb)) return `${at}.${key} only in the generated answer (${JSON.stringify(ra[key])?.slice(0, 200)})`;
      if (!(key in ra)) return `${at}.${key} only in the baseline answer (${JSON.stringify(rb[key])?.slice(0, 200)})`;
      const found = firstDifference(ra[key], rb[key], `${at}.${key}`);
      if (found) return found;
    }
  }
  return `${at}: generated ${JSON.stringify(a)?.slice(0, 200)} vs baseline ${JSON.stringify(b)?.slice(0, 200)}`;
}
