/**
 * Seeds the demo models through the REST API, deterministically (a seeded PRNG, so every
 * run stores the same data): authors, categories and tags first, then articles, each with an
 * author, a category, three tags, a `seo` component, two `links` and two dynamic-zone items.
 * Every request has a timeout and the number of requests in flight is bounded.
 */
export interface SeedOptions {
  readonly articles: number;
  readonly authors: number;
  readonly categories: number;
  readonly tags: number;
  /** Every n-th article is left a draft (no publishedAt); 0 for none. */
  readonly draftEvery: number;
  /** Requests in flight at once. */
  readonly concurrency: number;
}

export const defaultSeed: SeedOptions = { articles: 1000, authors: 50, categories: 20, tags: 100, draftEvery: 25, concurrency: 8 };

export interface SeedResult {
  readonly articles: number;
  readonly published: number;
  readonly authors: number;
  readonly categories: number;
  readonly tags: number;
  /** Category names by id: the deep scenario filters on one. */
  readonly categoryNames: ReadonlyMap<number, string>;
  /** Published articles per category id. */
  readonly publishedPerCategory: ReadonlyMap<number, number>;
  readonly articleIds: readonly number[];
  readonly ms: number;
  /** The articles alone (each with its relations, component and zone), ms. */
  readonly articlesMs: number;
}

/** mulberry32: small, fast, good enough for test data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, int, pick };
}

const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ' +
  'quebec romeo sierra tango uniform victor whiskey xray yankee zulu river stone cloud ember forest ' +
  'harbor island jungle lantern meadow orbit prairie quartz rocket summit thunder valley willow canyon ' +
  'glacier horizon' +
  ' café naïve señor'
).split(' ');

const SURNAMES = ['Smith', 'Okafor', 'García', 'Nguyen', 'Müller', 'Rossi', 'Kowalski', 'Haddad', 'Tanaka', 'Silva'];

type Rand = ReturnType<typeof prng>;

function words(rand: Rand, count: number): string {
  return Array.from({ length: count }, () => rand.pick(WORDS)).join(' ');
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

export interface Api {
  post(path: string, body: unknown): Promise<{ id: number }>;
}

/** A JSON client for writes with a per-request timeout; throws on anything but 2xx. */
export function restApi(baseUrl: string, headers: Record<string, string>, timeoutMs = 15_000): Api {
  return {
    async post(path, body) {
      const res = await fetch(baseUrl + path, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await res.text();
      if (res.status !== 200 && res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${text.slice(0, 500)}`);
      const parsed = JSON.parse(text) as { data?: { id?: unknown } };
      const id = Number(parsed.data?.id);
      if (!Number.isSafeInteger(id)) throw new Error(`POST ${path} answered no id: ${text.slice(0, 500)}`);
      return { id };
    },
  };
}

/** Runs `task(i)` for i in [0, count) with at most `concurrency` in flight; results in order. */
async function pool<T>(count: number, concurrency: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

function articleData(i: number, rand: Rand, ids: { authors: number[]; categories: number[]; tags: number[] }, draft: boolean) {
  const n = i + 1;
  const tagIds = new Set<number>();
  while (tagIds.size < 3) tagIds.add(rand.pick(ids.tags));
  const month = rand.int(1, 12);
  const day = rand.int(1, 28);
  const big = n % 10 === 0 ? 9_007_199_254_740_993n + BigInt(n) * 1_000_003n : BigInt(rand.int(0, 5_000_000));
  const quote = { __component: 'shared.quote', title: capitalized(words(rand, 3)), body: `${capitalized(words(rand, 14))}.` };
  const richText = { __component: 'shared.rich-text', body: `## ${capitalized(words(rand, 3))}\n\n${capitalized(words(rand, 30))}.` };
  return {
    title: `${capitalized(words(rand, rand.int(2, 5)))} #${n}`,
    slug: `article-${pad(n, 4)}`,
    description: `${capitalized(words(rand, rand.int(8, 20)))}.`,
    content: Array.from({ length: 3 }, () => `${capitalized(words(rand, rand.int(20, 40)))}.`).join('\n\n'),
    status: rand.pick(['draft', 'in review', 'final']),
    views: rand.int(0, 100_000),
    rating: Math.round(rand.next() * 50) / 10,
    price: Math.round(rand.next() * 10_000) / 100,
    impressions: big.toString(),
    featured: rand.next() < 0.2,
    publishDate: `2024-${pad(month, 2)}-${pad(day, 2)}`,
    readingTime: `00:${pad(rand.int(1, 59), 2)}:${pad(rand.int(0, 59), 2)}`,
    lastReviewedAt: new Date(Date.UTC(2025, rand.int(0, 11), rand.int(1, 28), rand.int(0, 23), rand.int(0, 59), rand.int(0, 59), rand.int(0, 999))).toISOString(),
    metadata: { wordCount: rand.int(100, 3000), source: rand.pick(['web', 'import', 'api']), flags: { pinned: rand.next() < 0.1 }, n },
    editorNote: `Private note ${n}`,
    author: ids.authors[i % ids.authors.length],
    category: ids.categories[i % ids.categories.length],
    tags: [...tagIds],
    seo: { metaTitle: `${capitalized(words(rand, 3))} ${n}`.slice(0, 60), metaDescription: `${capitalized(words(rand, 12))}.`.slice(0, 160) },
    links: [
      { label: capitalized(words(rand, 2)), url: `https://example.com/${n}/a` },
      { label: capitalized(words(rand, 2)), url: `https://example.com/${n}/b` },
    ],
    blocks: rand.next() < 0.5 ? [quote, richText] : [richText, quote],
    ...(draft ? { publishedAt: null } : {}),
  };
}

export async function seed(api: Api, options: SeedOptions = defaultSeed): Promise<SeedResult> {
  const started = performance.now();
  const rand = prng(20261121);
  const c = options.concurrency;

  const authorRows = Array.from({ length: options.authors }, (_, i) => ({
    name: `${capitalized(rand.pick(WORDS))} ${rand.pick(SURNAMES)}`,
    email: `author${pad(i + 1, 3)}@example.com`,
    bio: `${capitalized(words(rand, rand.int(5, 15)))}.`,
  }));
  const categoryNames = Array.from({ length: options.categories }, (_, i) => `Category ${pad(i + 1, 2)}`);
  // Tag names do not follow id order, so sorting tags by name is visible in the output.
  const tagNames = Array.from({ length: options.tags }, (_, i) => `${rand.pick(WORDS)}-${pad(i + 1, 3)}`);

  const authors = await pool(authorRows.length, c, (i) => api.post('/api/authors', { data: authorRows[i] }).then((r) => r.id));
  const categories = await pool(categoryNames.length, c, (i) =>
    api.post('/api/categories', { data: { name: categoryNames[i], slug: `category-${pad(i + 1, 2)}` } }).then((r) => r.id),
  );
  const tags = await pool(tagNames.length, c, (i) => api.post('/api/tags', { data: { name: tagNames[i] } }).then((r) => r.id));

  // Data is drawn in article order before any request, so concurrency cannot change it.
  const ids = { authors, categories, tags };
  const drafts = (i: number) => options.draftEvery > 0 && (i + 1) % options.draftEvery === 0;
  const bodies = Array.from({ length: options.articles }, (_, i) => articleData(i, rand, ids, drafts(i)));
  const articlesStarted = performance.now();
  const articleIds = await pool(bodies.length, c, (i) => api.post('/api/articles', { data: bodies[i] }).then((r) => r.id));
  const articlesMs = performance.now() - articlesStarted;

  const publishedPerCategory = new Map<number, number>();
  bodies.forEach((body, i) => {
    if (drafts(i)) return;
    publishedPerCategory.set(body.category!, (publishedPerCategory.get(body.category!) ?? 0) + 1);
  });
  return {
    articles: articleIds.length,
    published: bodies.filter((_, i) => !drafts(i)).length,
    authors: authors.length,
    categories: categories.length,
    tags: tags.length,
    categoryNames: new Map(categories.map((id, i) => [id, categoryNames[i]!])),
    publishedPerCategory,
    articleIds,
    ms: performance.now() - started,
    articlesMs,
  };
}
