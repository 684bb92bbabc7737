/**
 * Child processes of the benchmark: every server it starts is tracked here so that one call
 * (on success, failure or Ctrl-C) stops them all. Also the RSS sampler that reads
 * /proc/<pid>/status while a server is under load, and the CPU accounting (who else used
 * the machine during a run) from /proc/stat.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Milliseconds from spawn to the "listening" log line. */
  readonly listeningAfterMs: number;
  readonly output: () => string;
  /** Null while running; else how it ended (`code 1`, `SIGKILL`). */
  readonly exited: () => string | null;
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly name: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** The log line announcing the URL; its first group is the URL. */
  readonly listening?: RegExp;
  readonly timeoutMs?: number;
}

const live = new Set<ChildProcess>();

/** Starts `node <args>` and resolves once it logs its URL. */
export function startNode(options: StartOptions): Promise<ServerProcess> {
  const listening = options.listening ?? /listening on (http:\/\/\S+)/;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const started = performance.now();
  // stdin is a pipe the parent holds: a server that watches it (the baseline) exits when
  // the benchmark dies without cleaning up.
  const child = spawn(process.execPath, options.args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  live.add(child);
  child.once('exit', () => live.delete(child));
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);

  const stop = () => stopChild(child);
  return new Promise<ServerProcess>((resolve, reject) => {
    const fail = (message: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`${options.name}: ${message}\n${output.trim()}`));
    };
    const timer = setTimeout(() => fail(`did not log its URL within ${timeoutMs} ms`), timeoutMs);
    const onData = () => {
      const match = listening.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      resolve({
        name: options.name,
        pid: child.pid!,
        url: match[1]!.replace('localhost', '127.0.0.1'),
        listeningAfterMs: performance.now() - started,
        output: () => output,
        exited: () => (child.exitCode !== null ? `code ${child.exitCode}` : child.signalCode),
        stop,
      });
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? code}) before listening`);
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (err) => fail(err.message));
  });
}

/**
 * Throws, with the end of its output, if a server has exited: a server that died under load
 * must fail the run, not read as a slow one (every request an error).
 */
export function assertRunning(...servers: readonly ServerProcess[]): void {
  for (const server of servers) {
    const how = server.exited();
    if (how !== null) throw new Error(`${server.name} (pid ${server.pid}) exited (${how}) during the benchmark; its last output:\n${server.output().slice(-4000).trim()}`);
  }
}

/** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Stops every process started by startNode that is still running. */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map(stopChild));
}

/** Synchronous last resort (process 'exit' handler): SIGKILL whatever is left. */
export function killAllNow(): void {
  for (const child of live) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** Resident set size of a process in MB, or null once it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** The largest resident set size a process has had (the kernel's VmHWM), in MB, or null once it is gone. */
export function peakRssMb(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; `max()` since the last reset. */
export function rssSampler(pid: number, intervalMs = 100) {
  let windowMax = 0;
  let overallMax = 0;
  const sample = () => {
    const mb = rssMb(pid);
    if (mb === null) return;
    windowMax = Math.max(windowMax, mb);
    overallMax = Math.max(overallMax, mb);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  timer.unref();
  return {
    reset(): void {
      windowMax = 0;
      sample();
    },
    /** Largest RSS since the last reset, MB. */
    max(): number {
      sample();
      return windowMax;
    },
    /** Largest RSS since the sampler started, MB. */
    overallMax(): number {
      sample();
      return overallMax;
    },
    stop(): void {
      clearInterval(timer);
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

function systemBusyTicks(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
  const [, user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).map(Number);
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
}

/** CPU ticks (user + system) a process has used, or null once it is gone. */
function processTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return null;
  }
}

function selfTicks(): number {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6) * TICKS_PER_SECOND;
}

/**
 * Ticks used by `pids` since `start` (a snapshot of the same pids): a process gone since
 * counts 0, so its CPU stays with "other".
 */
function ticksSince(start: ReadonlyMap<number, number | null>): number {
  let sum = 0;
  for (const [pid, before] of start) {
    const now = processTicks(pid);
    if (before !== null && now !== null) sum += now - before;
  }
  return sum;
}

const snapshot = (pids: readonly number[]) => new Map(pids.map((pid) => [pid, processTicks(pid)]));

/**
 * Processes whose command name is one of `names` (e.g. the local PostgreSQL server and its
 * backends, all named `postgres`), read from /proc; only used to account for their CPU.
 */
export function pidsNamed(names: readonly string[]): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (names.includes(readFileSync(`/proc/${entry}/comm`, 'utf8').trim())) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export interface CpuShares {
  /**
   * CPU used by processes other than the servers, the database server and the benchmark
   * itself (which runs autocannon), % of all cores: noise if high.
   */
  readonly otherPercent: number;
  /** CPU used by the database server's processes, % of all cores (0 when none are given). */
  readonly databasePercent: number;
  /** CPU time the servers used, ms (user + system): per request, the figure a busy machine disturbs least. */
  readonly serverMs: number;
}

/**
 * Who used the machine's CPU between start() and stop(): a busy neighbour (a test suite, a
 * build) makes a measurement noisy, and this says so. The database server (`databasePids`,
 * local PostgreSQL/MariaDB) is counted apart: under load it works for the servers measured.
 */
export function cpuShares(serverPids: readonly number[], databasePids: readonly number[] = []) {
  const startedAt = performance.now();
  const system = systemBusyTicks();
  const self = selfTicks();
  const servers = snapshot(serverPids);
  const database = snapshot(databasePids);
  return {
    stop(): CpuShares {
      const capacity = ((performance.now() - startedAt) / 1000) * TICKS_PER_SECOND * os.cpus().length;
      if (capacity <= 0) return { otherPercent: 0, databasePercent: 0, serverMs: 0 };
      const databaseTicks = ticksSince(database);
      const serverTicks = ticksSince(servers);
      const foreign = systemBusyTicks() - system - serverTicks - databaseTicks - (selfTicks() - self);
      const percent = (ticks: number) => Math.max(0, Math.round((1000 * ticks) / capacity) / 10);
      return { otherPercent: percent(foreign), databasePercent: percent(databaseTicks), serverMs: (serverTicks * 1000) / TICKS_PER_SECOND };
    },
  };
}
