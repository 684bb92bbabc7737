/**
 * `--profile`: a V8 CPU profile of the generated server under load for one scenario,
 * summarised by where the time goes (Prisma, SQLite, Koa, the runtime's modules, GC, …), so
 * an optimisation can start from numbers instead of guesses. Not part of the default run.
 */
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { startGenerated, type GeneratedServer } from './generated.js';
import { measure } from './measure.js';
import { scenarioRequest, type Scenario } from './scenarios.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface ProfileShare {
  readonly what: string;
  /** Percent of the busy (non-idle) CPU time. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly scenario: string;
  readonly seconds: number;
  readonly rps: number;
  readonly busySeconds: number;
  readonly byArea: readonly ProfileShare[];
  readonly topFunctions: readonly ProfileShare[];
}

function area(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(garbage collector)') return 'GC';
  if (functionName === '(idle)') return 'idle';
  if (functionName === '(program)') return 'V8/native, unattributed';
  if (url.includes('@prisma/adapter-better-sqlite3')) return 'Prisma SQLite adapter (runs better-sqlite3: SQLite time is here)';
  if (url.includes('better-sqlite3')) return 'better-sqlite3 (statement preparation)';
  if (url.includes('query_compiler') || url.startsWith('wasm')) return 'Prisma query compiler (wasm)';
  if (url.includes('@prisma/')) return 'Prisma client runtime';
  if (url.includes('/prisma-client/')) return 'generated Prisma client';
  const runtime = url.split('/dist/runtime/')[1];
  if (runtime) return `runtime/${runtime.replace(/\.js$/, '')}`;
  if (/node_modules\/(koa|@koa|koa-compose|delegates|accepts|type-is|mime-types|statuses|on-finished|content-type|vary)/.test(url)) return 'Koa and its helpers (respond: JSON.stringify of the body)';
  if (url.includes('node_modules/qs')) return 'qs (query string)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  if (url === '') return `native ${functionName || '(anonymous)'}`;
  return url.split('node_modules/').pop() ?? url;
}

function functionLabel(node: ProfileNode): string {
  const { url, functionName, lineNumber } = node.callFrame;
  const file = url.split('/').slice(-2).join('/');
  return `${functionName || '(anonymous)'} ${file}${file ? `:${lineNumber + 1}` : ''}`;
}

function shares(times: Map<string, number>, busy: number, top: number): ProfileShare[] {
  return [...times]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([what, t]) => ({ what, percent: Math.round((1000 * t) / busy) / 10 }));
}

export function summarise(profile: CpuProfile): Omit<ProfileSummary, 'scenario' | 'seconds' | 'rps'> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, t] of self) {
    const node = nodes.get(id)!;
    const a = area(node);
    if (a === 'idle') continue;
    busy += t;
    areas.set(a, (areas.get(a) ?? 0) + t);
    const f = functionLabel(node);
    functions.set(f, (functions.get(f) ?? 0) + t);
  }
  return { busySeconds: Math.round(busy / 1e4) / 100, byArea: shares(areas, busy, 15), topFunctions: shares(functions, busy, 15) };
}

export async function profileScenario(
  server: GeneratedServer,
  scenario: Scenario,
  headers: Record<string, string>,
  options: { connections: number; seconds: number },
): Promise<ProfileSummary> {
  const dir = path.join(server.tempRoot, 'cpu-profile');
  await mkdir(dir, { recursive: true });
  const proc = await startGenerated(server, { name: 'generated server (--cpu-prof)', nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let rps: number;
  try {
    const request = scenarioRequest(scenario, proc.url, headers);
    rps = (await measure(request, proc.pid, { connections: options.connections, duration: options.seconds, warmup: 1 })).rps;
  } finally {
    await proc.stop(); // a graceful exit writes the profile
  }
  const file = (await readdir(dir)).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no CPU profile was written to ${dir}`);
  const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CpuProfile;
  return { scenario: scenario.key, seconds: options.seconds, rps, ...summarise(profile) };
}

export function formatProfile(summary: ProfileSummary): string {
  const line = (s: ProfileShare) => `  ${s.percent.toFixed(1).padStart(5)}%  ${s.what}`;
  return [
    `CPU profile of the generated server, scenario "${summary.scenario}" (${summary.seconds} s under load, ${Math.round(summary.rps)} req/s, ${summary.busySeconds} s busy):`,
    ' by area (self time, % of busy CPU):',
    ...summary.byArea.map(line),
    ' top functions (self time):',
    ...summary.topFunctions.map(line),
  ].join('\n');
}
