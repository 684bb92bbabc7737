/**
 * One measurement: a short warm-up, then autocannon on loopback for a fixed time, while the
 * server's RSS is sampled from /proc. Latency percentiles are computed from every response
 * time autocannon reports (sub-millisecond), not from its histogram (whole milliseconds).
 */
import autocannon, { type Result } from 'autocannon';
import { foreignCpu, rssSampler } from './processes.js';

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
}

/**
 * Waits (bounded) until other processes use under 10% of the machine for one second.
 * Returns the seconds waited.
 */
export async function waitForQuiet(pid: number, maxSeconds: number, log: (message: string) => void): Promise<number> {
  const started = performance.now();
  let told = false;
  for (;;) {
    const others = foreignCpu(pid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const percent = others.stopPercent();
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
  /** Largest RSS during warm-up and measurement, MB. */
  readonly maxRssMb: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** CPU used by other processes on the machine during the run, % of all cores (noise). */
  readonly otherCpuPercent: number;
}

/** Bounded: at most this many latencies are kept (far above what 10 s produce here). */
const MAX_SAMPLES = 2_000_000;

function run(url: string, headers: Record<string, string>, connections: number, duration: number, record: boolean) {
  const latencies: number[] = [];
  return new Promise<{ result: Result; latencies: number[] }>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration, headers, timeout: 10 }, (err, result) => {
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

export async function measure(
  url: string,
  headers: Record<string, string>,
  pid: number,
  options: LoadOptions,
  log: (message: string) => void = () => {},
): Promise<Measurement> {
  if (options.quietWait) await waitForQuiet(pid, options.quietWait, log);
  const rss = rssSampler(pid);
  try {
    if (options.warmup > 0) await run(url, headers, options.connections, options.warmup, false);
    const others = foreignCpu(pid);
    const { result, latencies } = await run(url, headers, options.connections, options.duration, true);
    const otherCpuPercent = others.stopPercent();
    latencies.sort((a, b) => a - b);
    const requests = result.requests.total;
    return {
      rps: round(requests / result.duration, 1),
      p50: round(percentile(latencies, 50), 2),
      p99: round(percentile(latencies, 99), 2),
      maxRssMb: round(rss.max(), 1),
      requests,
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      otherCpuPercent,
    };
  } finally {
    rss.stop();
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
export async function sequential(url: string, headers: Record<string, string>, count: number): Promise<Sequential> {
  const times: number[] = [];
  const db: number[] = [];
  const queries: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
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
