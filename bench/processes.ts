/**
 * Child processes of the benchmark: every server it starts is tracked here so that one call
 * (on success, failure or Ctrl-C) stops them all. Also the RSS sampler that reads
 * /proc/<pid>/status while a server is under load.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Milliseconds from spawn to the "listening" log line. */
  readonly listeningAfterMs: number;
  readonly output: () => string;
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
        stop,
      });
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited (${signal ?? code}) before listening`);
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
    child.once('error', (err) => fail(err.message));
  });
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

function processTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime
  } catch {
    return 0;
  }
}

function selfTicks(): number {
  const { user, system } = process.cpuUsage();
  return ((user + system) / 1e6) * TICKS_PER_SECOND;
}

/**
 * CPU used by processes other than the server under test and the benchmark itself (which
 * runs autocannon), as a percentage of the whole machine, between start() and stop(): a
 * busy neighbour (a test suite, a build) makes a measurement noisy, and this says so.
 */
export function foreignCpu(serverPid: number) {
  const take = () => ({ at: performance.now(), system: systemBusyTicks(), server: processTicks(serverPid), self: selfTicks() });
  const start = take();
  return {
    stopPercent(): number {
      const end = take();
      const capacity = ((end.at - start.at) / 1000) * TICKS_PER_SECOND * os.cpus().length;
      const foreign = end.system - start.system - (end.server - start.server) - (end.self - start.self);
      return capacity > 0 ? Math.max(0, Math.round((1000 * foreign) / capacity) / 10) : 0;
    },
  };
}
