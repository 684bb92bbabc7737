/**
 * One measurement: a short warm-up, then autocannon on loopback for a fixed time, while the
 * server's RSS is sampled from /proc. Latency percentiles are computed from every response
 * time autocannon reports (sub-millisecond), not from its histogram (whole milliseconds).
 * The load can also be split across several server processes (measureSplit), as a load
 * balancer would.
 */
import autocannon, { type Result } from 'autocannon';
import { cpuShares, pidsNamed, rssSampler } from './processes.js';

export interface LoadOptions {
  readonly connections: number;
  /** Seconds measured. */
  readonly duration: number;
  /** Seconds of warm-up before measuring (not recorded). */
  readonly warmup: number;
  /**
   * Seconds to wait at most, before measuring, for other processes to leave the machine
   * (under 10% of its CPU); the run then goes ahead and records how busy they were.
   */
  readonly quietWait?: number;
  /**
   * Command names of the local database server's processes (`postgres`, `mariadbd`): their
   * CPU is recorded apart from "other". Looked up when each run starts, as PostgreSQL forks a
   * process per connection.
   */
  readonly databaseProcesses?: readonly string[];
}

/** What every connection sends, over and over. */
export interface HttpRequest {
  readonly url: string;
  /** Default GET. */
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One server process under load: the request it gets and its pid (RSS and CPU accounting). */
export interface Target {
  readonly request: HttpRequest;
  readonly pid: number;
}

/**
 * Waits (bounded) until other processes use under 10% of the machine for one second.
 * Returns the seconds waited.
 */
export async function waitForQuiet(pids: readonly number[], maxSeconds: number, log: (message: string) => void): Promise<number> {
  const started = performance.now();
  let told = false;
  for (;;) {
    // The database server counts as "other" here: it should be idle between runs.
    const cpu = cpuShares(pids);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const percent = cpu.stop().otherPercent;
    const waited = (performance.now() - started) / 1000;
    if (percent < 10) return Math.round(waited);
    if (waited >= maxSeconds) {
      log(`other processes still use ${percent}% of the machine after ${Math.round(waited)} s: measuring anyway (noisy)`);
      return Math.round(waited);
    }
    if (!told) log(`other processes use ${percent}% of the machine: waiting up to ${maxSeconds} s for quiet`);
    told = true;
  }
}

export interface Measurement {
  /** Requests per second (2xx and others alike; non2xx says if there were others). */
  readonly rps: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Largest RSS during warm-up and measurement, MB (of any process when split). */
  readonly maxRssMb: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** CPU used by other processes on the machine during the run, % of all cores (noise). */
  readonly otherCpuPercent: number;
  /**
   * CPU time of the server process(es) per request, ms (user + system, from /proc): what a
   * request costs, which a busy machine changes far less than req/s.
   */
  readonly cpuMsPerRequest: number;
  /** CPU used by the local database server during the run, % of all cores (PostgreSQL/MariaDB only). */
  readonly databaseCpuPercent?: number;
}

/** Bounded: at most this many latencies are kept (far above what 10 s produce here). */
const MAX_SAMPLES = 2_000_000;

function run(request: HttpRequest, connections: number, duration: number, record: boolean) {
  const latencies: number[] = [];
  return new Promise<{ result: Result; latencies: number[] }>((resolve, reject) => {
    const { url, method = 'GET', headers = {}, body } = request;
    const options = { url, method, headers: { ...headers }, ...(body === undefined ? {} : { body }), connections, duration, timeout: 10 };
    const instance = autocannon(options, (err, result) => {
      if (err) reject(err);
      else resolve({ result, latencies });
    });
    if (record) {
      instance.on('response', (_client, _status, _bytes, responseTime) => {
        if (latencies.length < MAX_SAMPLES) latencies.push(responseTime);
      });
    }
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** `connections` divided as evenly as possible between `parts` (10 over 2: 5 + 5). */
export function splitConnections(connections: number, parts: number): number[] {
  if (connections < parts) throw new Error(`${connections} connections cannot be split across ${parts} processes`);
  return Array.from({ length: parts }, (_, i) => Math.floor(connections / parts) + (i < connections % parts ? 1 : 0));
}

/** Load on one server process. */
export function measure(request: HttpRequest, pid: number, options: LoadOptions, log: (message: string) => void = () => {}): Promise<Measurement> {
  return measureSplit([{ request, pid }], options, log);
}

/**
 * Load split across server processes: one autocannon instance per process, all running at
 * once, the connections divided between them. Requests/s is the sum of the instances',
 * percentiles come from every response of every instance, RSS is the largest of any process.
 */
export async function measureSplit(targets: readonly Target[], options: LoadOptions, log: (message: string) => void = () => {}): Promise<Measurement> {
  const pids = targets.map((t) => t.pid);
  const shares = splitConnections(options.connections, targets.length);
  const runAll = (duration: number, record: boolean) => Promise.all(targets.map((t, i) => run(t.request, shares[i]!, duration, record)));
  if (options.quietWait) await waitForQuiet(pids, options.quietWait, log);
  const samplers = pids.map((pid) => rssSampler(pid));
  try {
    if (options.warmup > 0) await runAll(options.warmup, false);
    const cpu = cpuShares(pids, options.databaseProcesses ? pidsNamed(options.databaseProcesses) : []);
    const runs = await runAll(options.duration, true);
    const { otherPercent, databasePercent, serverMs } = cpu.stop();
    const results = runs.map((r) => r.result);
    const requests = sum(results.map((r) => r.requests.total));
    const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
    return {
      rps: round(sum(results.map((r) => r.requests.total / r.duration)), 1),
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      maxRssMb: round(Math.max(...samplers.map((s) => s.max())), 1),
      requests,
      non2xx: sum(results.map((r) => r.non2xx)),
      errors: sum(results.map((r) => r.errors)),
      timeouts: sum(results.map((r) => r.timeouts)),
      otherCpuPercent: otherPercent,
      cpuMsPerRequest: requests > 0 ? round(serverMs / requests, 3) : Number.NaN,
      ...(options.databaseProcesses ? { databaseCpuPercent: databasePercent } : {}),
    };
  } finally {
    for (const sampler of samplers) sampler.stop();
  }
}

const median = (values: number[]) => round(percentile([...values].sort((a, b) => a - b), 50), 3);

export interface Sequential {
  /** Client-side latency, ms. */
  readonly ms: number;
  /** From `Server-Timing: db;dur=…;desc="N queries"` (generated) or `x-sql-statements` (baseline). */
  readonly dbMs: number | null;
  readonly queries: number | null;
}

/** Medians of `count` requests sent one after another (no concurrency). */
export async function sequential(request: HttpRequest, count: number): Promise<Sequential> {
  const times: number[] = [];
  const db: number[] = [];
  const queries: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await send(request);
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${request.method ?? 'GET'} ${request.url} answered ${res.status}`);
    const timing = /db;dur=([\d.]+);desc="(\d+) queries"/.exec(res.headers.get('server-timing') ?? '');
    if (timing) {
      db.push(Number(timing[1]));
      queries.push(Number(timing[2]));
    } else if (res.headers.has('x-sql-statements')) {
      queries.push(Number(res.headers.get('x-sql-statements'))); // the baseline's own count
    }
  }
  return { ms: median(times), dbMs: db.length ? median(db) : null, queries: queries.length ? median(queries) : null };
}

/** One request with fetch (checks, cold start, sequential timings), with a timeout. */
export async function send(request: HttpRequest, timeoutMs = 10_000): Promise<Response> {
  const method = request.method ?? 'GET';
  try {
    return await fetch(request.url, {
      method,
      headers: { ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    // undici's "fetch failed" says neither what nor why: name the request and the cause.
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
    throw new Error(`${method} ${request.url} failed: ${cause}`, { cause: err });
  }
}
