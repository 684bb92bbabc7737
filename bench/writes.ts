/**
 * `npm run bench:writes [-- --db postgresql|mysql] [--requests N] [--clients N] [--profile] [--keep]`: the write path.
 *
 * Builds the demo (fixtures/blog/models), seeds authors, categories and tags through REST, then
 * measures four writes of an article with an author, a category, three tags, a component, a
 * repeatable component and a two-item dynamic zone:
 *  - create  POST   /api/articles            (the whole entry)
 *  - update  PUT    /api/articles/:id        (partial: a title, `tags: {connect, disconnect}`, the category)
 *  - publish PUT    /api/articles/:id        (`publishedAt` on a draft)
 *  - delete  DELETE /api/articles/:id
 * each one request at a time (one client) and then with 10 clients at once, `--requests` of each
 * (every write changes state, so each request has its own entry: a loop of fetches, not autocannon).
 * Per kind: requests/s, p50/p99 latency, the server's CPU time per request (/proc, as bench/measure.ts),
 * the database server's CPU share and the statements one write runs (the `Server-Timing` header's
 * count: every statement sent to the database, Prisma's included, db/count-statements.ts), and any
 * answer that is not 200; and the peak RSS (VmHWM) of the server that took all of them. `--profile` then CPU-profiles the server while it creates entries one at a
 * time (bench/profile.ts's summary). `--against <dir>` (SQLite) also measures another build, a
 * folder kept by an earlier `--keep` run (its `out/`), alternately with this one: rounds of
 * creates, updates and deletes sent one at a time to each server in turn, each server's CPU per
 * request taken per round, so both see the same load (a shared machine's load moves a lot
 * between runs), and each server's peak RSS. Writes bench/results-writes[-<db>].json.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, probe, providerLabel, providers, type TestDatabase, type TestProvider } from '../test/helpers/databases.js';
import { authHeaders, buildGenerated, createToken, startGenerated, type GeneratedServer } from './generated.js';
import { send } from './measure.js';
import { cpuShares, killAllNow, peakRssMb, pidsNamed, stopAll, type ServerProcess } from './processes.js';
import { summarise, type ProfileSummary } from './profile.js';
import { restApi, seed } from './seed.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const log = (message: string) => process.stderr.write(`[bench:writes] ${message}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

type Kind = 'create' | 'update' | 'publish' | 'delete';

interface WriteRequest {
  readonly method: 'POST' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly body?: unknown;
}

export interface WriteMeasurement {
  readonly kind: Kind;
  readonly clients: number;
  readonly requests: number;
  readonly rps: number;
  /** Client-side latency, ms. */
  readonly p50: number;
  readonly p99: number;
  /** Server process CPU (user + system) per request, ms. */
  readonly cpuMsPerRequest: number;
  /** Statements per write (median of the Server-Timing counts). */
  readonly statements: number | null;
  /** Database server CPU during the run, % of all cores (PostgreSQL/MariaDB). */
  readonly databaseCpuPercent: number | null;
  /** CPU of other processes during the run, % of all cores (noise). */
  readonly otherCpuPercent: number;
  /** Answers other than 200, by status (a deadlock would show as 500). */
  readonly failures: Readonly<Record<string, number>>;
}

interface Ids {
  readonly authors: readonly number[];
  readonly categories: readonly number[];
  readonly tags: readonly number[];
}

let serial = 0;

/** The seeding's article shape: author, category, three tags, `seo`, two `links`, two zone items. */
function articleBody(ids: Ids, draft: boolean): Record<string, unknown> {
  const n = ++serial;
  const pick = (list: readonly number[], k: number) => list[(n * 7 + k * 13) % list.length]!;
  return {
    data: {
      title: `Write benchmark article #${n}`,
      slug: `write-bench-${n}`,
      description: 'An article written by the write benchmark.',
      content: 'Some content.\n\nMore content.',
      status: 'final',
      views: n,
      rating: 4.5,
      price: 12.5,
      impressions: String(1000 + n),
      featured: n % 2 === 0,
      publishDate: '2024-05-06',
      readingTime: '00:05:00',
      lastReviewedAt: '2025-01-02T03:04:05.006Z',
      metadata: { n, source: 'bench' },
      author: pick(ids.authors, 0),
      category: pick(ids.categories, 0),
      tags: [pick(ids.tags, 0), pick(ids.tags, 1), pick(ids.tags, 2)],
      seo: { metaTitle: `Article ${n}`, metaDescription: 'A description for search engines.' },
      links: [
        { label: 'First', url: `https://example.com/${n}/a` },
        { label: 'Second', url: `https://example.com/${n}/b` },
      ],
      blocks: [
        { __component: 'shared.quote', title: 'A quote', body: 'Quoted text.' },
        { __component: 'shared.rich-text', body: '## Heading\n\nText.' },
      ],
      ...(draft ? { publishedAt: null } : {}),
    },
  };
}

/** A partial update: one scalar, one tag connected (at the start) and one disconnected, the category moved. */
function updateBody(ids: Ids, i: number): Record<string, unknown> {
  const tag = (k: number) => ids.tags[(i * 5 + k) % ids.tags.length]!;
  return {
    data: {
      title: `Updated article ${i}`,
      tags: { connect: [{ id: tag(0), position: { start: true } }], disconnect: [tag(1)] },
      category: ids.categories[i % ids.categories.length],
    },
  };
}

interface Sent {
  readonly ms: number;
  readonly status: number;
  readonly statements: number | null;
  readonly id: number | null;
}

async function sendWrite(base: string, headers: Record<string, string>, request: WriteRequest): Promise<Sent> {
  const started = performance.now();
  let res: Response;
  try {
    res = await send(
      {
        url: base + request.path,
        method: request.method as 'POST',
        headers: { ...headers, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      },
      30_000,
    );
  } catch (err) {
    // No answer in 30 s (a machine far too busy): counted as a failure, status 0.
    if (failuresShown++ < 5) log(String(err));
    return { ms: performance.now() - started, status: 0, statements: null, id: null };
  }
  const text = await res.text();
  const ms = performance.now() - started;
  const timing = /desc="(\d+) queries"/.exec(res.headers.get('server-timing') ?? '');
  let id: number | null = null;
  if (res.status === 200) id = Number((JSON.parse(text) as { data: { id: number } }).data.id);
  else if (failuresShown++ < 5) log(`${request.method} ${request.path} answered ${res.status}: ${text.slice(0, 300)}`);
  return { ms, status: res.status, statements: timing ? Number(timing[1]) : null, id };
}
let failuresShown = 0;

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Sends `requests` with `clients` in flight at once, measuring the server's CPU around them. */
async function measureWrites(
  kind: Kind,
  server: ServerProcess,
  headers: Record<string, string>,
  requests: readonly WriteRequest[],
  clients: number,
  databaseProcesses: readonly string[] | undefined,
): Promise<{ measurement: WriteMeasurement; ids: number[] }> {
  const results = new Array<Sent>(requests.length);
  const cpu = cpuShares([server.pid], databaseProcesses ? pidsNamed(databaseProcesses) : []);
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < requests.length) {
        const i = next++;
        results[i] = await sendWrite(server.url, headers, requests[i]!);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const shares = cpu.stop();
  const times = results.map((r) => r.ms).sort((a, b) => a - b);
  const counts = results.flatMap((r) => (r.statements === null ? [] : [r.statements])).sort((a, b) => a - b);
  const failures: Record<string, number> = {};
  for (const r of results) if (r.status !== 200) failures[r.status] = (failures[r.status] ?? 0) + 1;
  return {
    measurement: {
      kind,
      clients,
      requests: requests.length,
      rps: round(requests.length / seconds, 1),
      p50: round(percentile(times, 50)),
      p99: round(percentile(times, 99)),
      cpuMsPerRequest: round(shares.serverMs / requests.length, 3),
      statements: counts.length ? percentile(counts, 50) : null,
      databaseCpuPercent: databaseProcesses ? shares.databasePercent : null,
      otherCpuPercent: shares.otherPercent,
      failures,
    },
    ids: results.flatMap((r) => (r.id === null ? [] : [r.id])),
  };
}

/** Every kind, in an order that gives each request its own entry: create, update, publish (of drafts made first), delete. */
async function measureAll(server: ServerProcess, headers: Record<string, string>, ids: Ids, count: number, clients: number, databaseProcesses: readonly string[] | undefined) {
  const out: WriteMeasurement[] = [];
  const record = (m: WriteMeasurement) => {
    out.push(m);
    log(`${m.kind.padEnd(7)} ${String(clients).padStart(2)} client(s): ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms, CPU ${m.cpuMsPerRequest} ms/req, ${m.statements} statements${Object.keys(m.failures).length ? `, failures ${JSON.stringify(m.failures)}` : ''}`);
  };
  const creates = Array.from({ length: count }, (): WriteRequest => ({ method: 'POST', path: '/api/articles', body: articleBody(ids, false) }));
  const created = await measureWrites('create', server, headers, creates, clients, databaseProcesses);
  record(created.measurement);
  const updates = created.ids.map((id, i): WriteRequest => ({ method: 'PUT', path: `/api/articles/${id}`, body: updateBody(ids, i) }));
  record((await measureWrites('update', server, headers, updates, clients, databaseProcesses)).measurement);
  const drafts = Array.from({ length: count }, (): WriteRequest => ({ method: 'POST', path: '/api/articles', body: articleBody(ids, true) }));
  const draftIds = (await measureWrites('create', server, headers, drafts, clients, undefined)).ids;
  const publishes = draftIds.map((id): WriteRequest => ({ method: 'PUT', path: `/api/articles/${id}`, body: { data: { publishedAt: '2025-06-01T00:00:00.000Z' } } }));
  record((await measureWrites('publish', server, headers, publishes, clients, databaseProcesses)).measurement);
  const deletes = [...created.ids, ...draftIds].map((id): WriteRequest => ({ method: 'DELETE', path: `/api/articles/${id}` }));
  record((await measureWrites('delete', server, headers, deletes, clients, databaseProcesses)).measurement);
  return out;
}

async function profileCreates(server: GeneratedServer, headers: Record<string, string>, ids: Ids, count: number): Promise<ProfileSummary> {
  const dir = path.join(server.tempRoot, 'cpu-profile-writes');
  await mkdir(dir, { recursive: true });
  const proc = await startGenerated(server, { name: 'generated server (--cpu-prof)', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  const started = performance.now();
  try {
    for (let i = 0; i < count; i++) await sendWrite(proc.url, headers, { method: 'POST', path: '/api/articles', body: articleBody(ids, false) });
  } finally {
    await proc.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile was written to ${dir}`);
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8'));
  return { scenario: 'create, one at a time', seconds: round(seconds, 1), rps: round(count / seconds, 1), ...summarise(profile) };
}

/** One build's CPU per request in an alternating comparison (medians over the rounds). */
export interface AlternateMeasurement {
  readonly build: 'this' | 'against';
  readonly dir: string;
  readonly createCpuMs: number;
  readonly updateCpuMs: number;
  readonly deleteCpuMs: number;
  /** Per round, create CPU ms per request: the spread shows the noise. */
  readonly createRounds: readonly number[];
  /** The server's peak RSS over the whole comparison (VmHWM), MB. */
  readonly peakRssMb: number | null;
  readonly otherCpuPercent: number;
}

/** A server built earlier (a kept run's `out/`), with fresh secrets and its own token. */
function keptServer(dir: string, current: GeneratedServer): GeneratedServer {
  const other: GeneratedServer = { ...current, tempRoot: path.dirname(dir), dir, databaseFile: path.join(dir, 'data/bench.db'), emittedSha256: '', token: null };
  // Token names are unique: the kept build has its own run's token already.
  other.token = createToken(other, `bench-against-${Date.now()}`);
  return other;
}

async function compareAlternately(current: GeneratedServer, againstDir: string, ids: Ids, rounds: number, perRound: number): Promise<AlternateMeasurement[]> {
  const against = keptServer(path.resolve(againstDir), current);
  const builds = [
    { build: 'this' as const, server: current, proc: await startGenerated(current, { name: 'generated server (this build)' }) },
    { build: 'against' as const, server: against, proc: await startGenerated(against, { name: 'generated server (against)' }) },
  ];
  const cpu = builds.map(() => ({ create: [] as number[], update: [] as number[], delete: [] as number[], other: [] as number[] }));
  const peaks: (number | null)[] = builds.map(() => null);
  try {
    const timed = async (i: number, requests: readonly WriteRequest[]): Promise<{ ms: number; ids: number[] }> => {
      const { proc, server } = builds[i]!;
      const headers = authHeaders(server.token);
      const shares = cpuShares([proc.pid]);
      const made: number[] = [];
      for (const request of requests) {
        const sent = await sendWrite(proc.url, headers, request);
        if (sent.id !== null) made.push(sent.id);
      }
      const measured = shares.stop();
      cpu[i]!.other.push(measured.otherPercent);
      return { ms: measured.serverMs / requests.length, ids: made };
    };
    for (let round = 0; round < rounds + 1; round++) {
      // Round 0 warms both up; the order alternates so neither always goes first.
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const created = await timed(i, Array.from({ length: perRound }, (): WriteRequest => ({ method: 'POST', path: '/api/articles', body: articleBody(ids, false) })));
        const updated = await timed(i, created.ids.map((id, k): WriteRequest => ({ method: 'PUT', path: `/api/articles/${id}`, body: updateBody(ids, k) })));
        const deleted = await timed(i, created.ids.map((id): WriteRequest => ({ method: 'DELETE', path: `/api/articles/${id}` })));
        if (round === 0) continue;
        cpu[i]!.create.push(round3(created.ms));
        cpu[i]!.update.push(round3(updated.ms));
        cpu[i]!.delete.push(round3(deleted.ms));
      }
      if (round > 0) log(`round ${round}: create CPU ms/req this ${cpu[0]!.create.at(-1)}, against ${cpu[1]!.create.at(-1)}`);
    }
    builds.forEach(({ proc }, i) => (peaks[i] = peakRssMb(proc.pid)));
  } finally {
    for (const { proc } of builds) await proc.stop();
  }
  const median = (values: readonly number[]) => percentile([...values].sort((a, b) => a - b), 50);
  return builds.map(({ build, server }, i) => ({
    build,
    dir: server.dir,
    createCpuMs: median(cpu[i]!.create),
    updateCpuMs: median(cpu[i]!.update),
    deleteCpuMs: median(cpu[i]!.delete),
    createRounds: cpu[i]!.create,
    peakRssMb: peaks[i] === null ? null : round(peaks[i]!, 0),
    otherCpuPercent: median(cpu[i]!.other),
  }));
}
const round3 = (value: number) => round(value, 3);

interface Settings {
  readonly db: TestProvider;
  /** A kept build's `out/` folder to measure alternately with this one (SQLite). */
  readonly against?: string;
  readonly rounds: number;
  readonly requests: number;
  readonly clients: number;
  readonly profile: boolean;
  /** Keep the build (not the database) for a look at it afterwards. */
  readonly keep: boolean;
}

function parseArgs(argv: readonly string[]): Settings {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const raw = (value('--db') ?? 'sqlite').toLowerCase();
  const db = (raw === 'mariadb' ? 'mysql' : raw) as TestProvider;
  if (!providers.includes(db)) throw new Error(`--db must be sqlite, postgresql or mysql (mariadb), got "${raw}"`);
  const against = value('--against');
  return {
    db,
    requests: Number(value('--requests') ?? 300),
    clients: Number(value('--clients') ?? 10),
    profile: argv.includes('--profile'),
    keep: argv.includes('--keep'),
    ...(against ? { against } : {}),
    rounds: Number(value('--rounds') ?? 8),
  };
}

const databaseCommandNames: Record<TestProvider, readonly string[] | undefined> = { sqlite: undefined, postgresql: ['postgres'], mysql: ['mariadbd', 'mysqld'] };

const cleanupTasks: (() => Promise<void> | void)[] = [];
process.on('exit', () => killAllNow());

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  let databaseUrl: string | undefined;
  if (settings.db !== 'sqlite') {
    const available = await probe(settings.db);
    if (!available.ok) throw new Error(available.reason);
    process.env.CG_TEST_RUN = 'bench';
    const database: TestDatabase = await createTestDatabase(settings.db, '');
    cleanupTasks.push(() => database.drop());
    databaseUrl = database.url;
  }
  log(`building the blog fixture for ${providerLabel[settings.db]}`);
  const server = await buildGenerated({
    provider: settings.db,
    ...(databaseUrl ? { databaseUrl } : {}),
    onTempDir: (dir) => cleanupTasks.push(() => (settings.keep ? log(`kept ${dir}`) : rmSync(dir, { recursive: true, force: true })) as void),
  });
  server.token = createToken(server);
  const headers = authHeaders(server.token);

  const seeder = await startGenerated(server, { name: 'generated server (seeding)' });
  let ids: Ids;
  try {
    const seeded = await seed(restApi(seeder.url, headers), { articles: 20, authors: 20, categories: 10, tags: 60, draftEvery: 0, concurrency: 4 });
    // Seeded ids are consecutive from 1 on a fresh database.
    const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    ids = { authors: range(seeded.authors), categories: range(seeded.categories), tags: range(seeded.tags) };
  } finally {
    await seeder.stop();
  }

  const proc = await startGenerated(server, { serverTiming: true });
  const results: WriteMeasurement[] = [];
  let serverPeakRssMb: number | null = null;
  try {
    // Warm-up (not recorded): the JIT, prepared statements, and the pool at the concurrency measured
    // (after a one-client warm-up the pool holds one connection, so the first concurrent writes
    // would open the others while measured).
    await measureAll(proc, headers, ids, 50, 1, undefined);
    if (settings.clients > 1) await measureAll(proc, headers, ids, 50, settings.clients, undefined);
    log(`${settings.requests} writes of each kind, one client`);
    results.push(...(await measureAll(proc, headers, ids, settings.requests, 1, databaseCommandNames[settings.db])));
    log(`${settings.requests} writes of each kind, ${settings.clients} clients`);
    results.push(...(await measureAll(proc, headers, ids, settings.requests, settings.clients, databaseCommandNames[settings.db])));
    serverPeakRssMb = peakRssMb(proc.pid);
    if (serverPeakRssMb !== null) log(`peak RSS of the server that took these writes: ${round(serverPeakRssMb, 0)} MB`);
  } finally {
    await proc.stop();
  }
  const alternate = settings.against ? await compareAlternately(server, settings.against, ids, settings.rounds, 50) : undefined;
  if (alternate) for (const m of alternate) log(`${m.build.padEnd(7)} (${m.dir}): CPU ms/req create ${m.createCpuMs}, update ${m.updateCpuMs}, delete ${m.deleteCpuMs}; peak RSS ${m.peakRssMb} MB; other CPU ${m.otherCpuPercent}%`);
  const profile = settings.profile ? await profileCreates(server, headers, ids, settings.requests * 3) : undefined;
  if (profile) {
    log(`profile of creates (${profile.busySeconds} s busy):`);
    for (const s of profile.byArea) log(`  ${s.percent.toFixed(1).padStart(5)}%  ${s.what}`);
    log(' top functions:');
    for (const s of profile.topFunctions) log(`  ${s.percent.toFixed(1).padStart(5)}%  ${s.what}`);
  }
  const cpus = os.cpus();
  const file = path.join(benchDir, settings.db === 'sqlite' ? 'results-writes.json' : `results-writes-${settings.db}.json`);
  const json = {
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    date: new Date().toISOString(),
    database: providerLabel[settings.db],
    emittedSha256: server.emittedSha256,
    settings: { requestsPerKind: settings.requests, clients: settings.clients },
    target: { createCpuMsOnSqlite: 1.5 },
    results,
    peakRssMb: serverPeakRssMb === null ? null : round(serverPeakRssMb, 0),
    ...(alternate ? { alternate: { rounds: settings.rounds, writesPerRound: 50, builds: alternate } } : {}),
    ...(profile ? { profile } : {}),
  };
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  log(`wrote ${path.relative(process.cwd(), file)}`);
}

async function cleanup(): Promise<void> {
  await stopAll();
  for (const task of cleanupTasks.reverse()) await Promise.resolve(task()).catch((err: unknown) => log(`cleanup: ${String(err)}`));
}

try {
  await main();
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
