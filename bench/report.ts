/**
 * bench/results.json and the printed table: every figure of the generated server next to
 * the baseline's and as a ratio to it, and the issue's targets as met / not met. Missing a
 * target is reported, never an error: this is a measurement, not a test.
 */
import { writeFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import type { Measurement } from './measure.js';
import { formatProfile, type ProfileSummary } from './profile.js';
import type { Sameness, Scenario } from './scenarios.js';

export const targets = {
  /** Generated requests/s as a fraction of the baseline's, at least. */
  minRpsRatio: 0.5,
  p99Ms: 50,
  rssMb: 150,
  coldStartMs: 1000,
} as const;

export interface ScenarioResult {
  readonly key: string;
  readonly title: string;
  readonly path: string;
  readonly expectedEntries: number;
  readonly json: Sameness;
  readonly generated: Measurement;
  readonly baseline: Measurement;
}

export interface ColdStart {
  /** Spawn → first answered request, each run, ms. */
  readonly runsMs: readonly number[];
  /** Spawn → "listening" log line, each run, ms. */
  readonly listeningMs: readonly number[];
}

export interface Diagnostic {
  readonly key: string;
  /** Median of sequential requests (one at a time), ms, client side. */
  readonly generatedMs: number;
  readonly baselineMs: number;
  /** From the generated server's Server-Timing header (median over the same requests). */
  readonly dbMs: number;
  readonly queries: number;
}

export interface Report {
  readonly settings: { connections: number; durationSeconds: number; warmupSeconds: number; quietWaitSeconds: number; quick: boolean };
  /** Identifies the generated output measured (see GeneratedServer.emittedSha256). */
  readonly emittedSha256: string;
  readonly seed: { articles: number; published: number; authors: number; categories: number; tags: number; seconds: number };
  readonly scenarios: readonly ScenarioResult[];
  readonly coldStart: ColdStart;
  /** Largest RSS of the measured generated server over its whole life, MB. */
  readonly generatedMaxRssMb: number;
  readonly diagnostics?: {
    readonly sequentialRequests: number;
    /** Statements the baseline runs for each scenario (the generated server's come from Server-Timing). */
    readonly baselineStatements: Readonly<Record<string, number>>;
    readonly perScenario: readonly Diagnostic[];
    /** Plain list, sequential medians, with the API token and as the public role. */
    readonly auth?: { withTokenMs: number; publicMs: number; withTokenStatements: number | null; publicStatements: number | null };
  };
  /** `--profile`: where the generated server's CPU time goes under load. */
  readonly profile?: ProfileSummary;
}

const ratio = (a: number, b: number): number | null => (b > 0 && Number.isFinite(a) ? Math.round((a / b) * 1000) / 1000 : null);

function scenarioJson(s: ScenarioResult) {
  const { generated: g, baseline: b } = s;
  return {
    key: s.key,
    title: s.title,
    path: s.path,
    expectedEntries: s.expectedEntries,
    json: s.json,
    generated: g,
    baseline: b,
    ratio: { rps: ratio(g.rps, b.rps), p50: ratio(g.p50, b.p50), p99: ratio(g.p99, b.p99), maxRssMb: ratio(g.maxRssMb, b.maxRssMb) },
    targets: {
      rpsAtLeastHalfOfBaseline: (ratio(g.rps, b.rps) ?? 0) >= targets.minRpsRatio,
      p99Under50Ms: g.p99 < targets.p99Ms,
      rssUnder150Mb: g.maxRssMb < targets.rssMb,
    },
  };
}

export function summary(report: Report) {
  const scenarios = report.scenarios.map(scenarioJson);
  const bestColdStart = Math.min(...report.coldStart.runsMs);
  const worstP99 = Math.max(...report.scenarios.map((s) => s.generated.p99));
  return {
    scenarios,
    targets: {
      rpsAtLeastHalfOfBaseline: { met: scenarios.every((s) => s.targets.rpsAtLeastHalfOfBaseline), worstRatio: Math.min(...scenarios.map((s) => s.ratio.rps ?? 0)) },
      p99Under50Ms: { met: worstP99 < targets.p99Ms, worstMs: worstP99 },
      rssUnder150Mb: { met: report.generatedMaxRssMb < targets.rssMb, maxMb: report.generatedMaxRssMb },
      coldStartUnder1s: { met: bestColdStart < targets.coldStartMs, bestMs: bestColdStart },
    },
  };
}

export function writeResults(file: string, report: Report): void {
  const { scenarios, targets: met } = summary(report);
  const cpus = os.cpus();
  const json = {
    node: process.version,
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? null,
    platform: `${os.platform()} ${os.release()}`,
    date: new Date().toISOString(),
    settings: report.settings,
    emittedSha256: report.emittedSha256,
    seed: report.seed,
    targets: { definitions: targets, ...met },
    scenarios,
    coldStart: {
      bestMs: Math.min(...report.coldStart.runsMs),
      runsMs: report.coldStart.runsMs,
      listeningMs: report.coldStart.listeningMs,
    },
    generatedMaxRssMb: report.generatedMaxRssMb,
    ...(report.diagnostics ? { diagnostics: report.diagnostics } : {}),
    ...(report.profile ? { profile: report.profile } : {}),
  };
  writeFileSync(`${file}.tmp`, `${JSON.stringify(json, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

const fmt = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '-');
const fmtRatio = (value: number | null) => (value === null ? '-' : `${value.toFixed(2)}x`);
const metText = (met: boolean) => (met ? 'met' : 'NOT MET');

function table(rows: string[][], rightAligned: (col: number) => boolean): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((row, r) => {
      const line = row.map((cell, i) => (rightAligned(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
      return r === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

export function formatReport(report: Report): string {
  const { scenarios, targets: met } = summary(report);
  const header = ['scenario', 'req/s', 'base', 'ratio', 'p50 ms', 'base', 'ratio', 'p99 ms', 'base', 'ratio', 'RSS MB', 'base', 'ratio', 'other CPU', 'targets'];
  const rows = scenarios.map((s) => {
    const { generated: g, baseline: b, ratio: r } = s;
    const misses = [
      ...(s.targets.rpsAtLeastHalfOfBaseline ? [] : ['req/s']),
      ...(s.targets.p99Under50Ms ? [] : ['p99']),
      ...(s.targets.rssUnder150Mb ? [] : ['RSS']),
    ];
    const errors = g.non2xx + g.errors + b.non2xx + b.errors;
    return [
      s.title,
      fmt(g.rps),
      fmt(b.rps),
      fmtRatio(r.rps),
      fmt(g.p50, 2),
      fmt(b.p50, 2),
      fmtRatio(r.p50),
      fmt(g.p99, 2),
      fmt(b.p99, 2),
      fmtRatio(r.p99),
      fmt(g.maxRssMb),
      fmt(b.maxRssMb),
      fmtRatio(r.maxRssMb),
      `${fmt(g.otherCpuPercent)}%/${fmt(b.otherCpuPercent)}%`,
      (misses.length ? `missed: ${misses.join(', ')}` : 'all met') + (errors ? ` (${errors} non-2xx/errors!)` : ''),
    ];
  });
  const s = report.settings;
  const cold = report.coldStart;
  const noisy = scenarios.filter((x) => Math.max(x.generated.otherCpuPercent, x.baseline.otherCpuPercent) > 10).map((x) => x.key);
  const lines = [
    `contentgen bench: ${s.connections} connections, ${s.durationSeconds} s per run (+${s.warmupSeconds} s warm-up), node ${process.version}, ${os.cpus().length} cpus, generated output ${report.emittedSha256.slice(0, 12)}`,
    `data: ${report.seed.articles} articles (${report.seed.published} published), ${report.seed.authors} authors, ${report.seed.categories} categories, ${report.seed.tags} tags, seeded through REST in ${report.seed.seconds} s`,
    `"base" = hand-written node:http + better-sqlite3 server on the same data; "ratio" = generated / base;`,
    `"other CPU" = CPU used by other processes on the machine during the generated/base run (% of all cores; noise if high)`,
    '',
    table([header, ...rows], (i) => i > 0 && i < header.length - 1),
    '',
    `cold start (spawn -> first answered request, best of ${cold.runsMs.length}): ${fmt(Math.min(...cold.runsMs))} ms` +
      ` (runs ${cold.runsMs.map((m) => fmt(m)).join(', ')} ms; listening after ${cold.listeningMs.map((m) => fmt(m)).join(', ')} ms)`,
    ...(noisy.length ? [`WARNING: other processes used over 10% of the machine during ${noisy.join(', ')}: those figures are noisy; rerun on a quiet machine`] : []),
    `JSON checked against the baseline: ${scenarios.map((x) => `${x.key} ${x.json}`).join('; ')}`,
    '',
    'targets:',
    ...table(
      [
        ['target', 'result', 'figure'],
        [`req/s >= ${targets.minRpsRatio * 100}% of baseline, every scenario`, metText(met.rpsAtLeastHalfOfBaseline.met), `worst ${fmtRatio(met.rpsAtLeastHalfOfBaseline.worstRatio)}`],
        [`p99 < ${targets.p99Ms} ms, every scenario`, metText(met.p99Under50Ms.met), `worst ${fmt(met.p99Under50Ms.worstMs, 2)} ms`],
        [`RSS < ${targets.rssMb} MB throughout`, metText(met.rssUnder150Mb.met), `max ${fmt(met.rssUnder150Mb.maxMb)} MB`],
        [`cold start < ${targets.coldStartMs / 1000} s`, metText(met.coldStartUnder1s.met), `best ${fmt(met.coldStartUnder1s.bestMs)} ms`],
      ],
      () => false,
    )
      .split('\n')
      .map((l) => `  ${l}`),
  ];
  const d = report.diagnostics;
  if (d) {
    lines.push(
      '',
      `where the time goes (generated server with SERVER_TIMING=1, medians of ${d.sequentialRequests} sequential requests):`,
      table(
        [
          ['scenario', 'generated ms', 'baseline ms', 'ratio', 'SQL statements', 'baseline statements', 'SQL ms (sum)'],
          ...d.perScenario.map((x) => [
            x.key,
            fmt(x.generatedMs, 2),
            fmt(x.baselineMs, 2),
            fmtRatio(ratio(x.generatedMs, x.baselineMs)),
            fmt(x.queries),
            String(d.baselineStatements[x.key] ?? '-'),
            fmt(x.dbMs, 2),
          ]),
        ],
        (i) => i > 0,
      ),
      '("SQL statements" and "SQL ms (sum)" are what the server\'s Server-Timing header reports, API-token lookup included',
      ' if it goes through the same seam; statements of one request may overlap, so the sum can exceed the request.)',
    );
    if (d.auth) {
      lines.push(
        `plain list, sequential: ${fmt(d.auth.withTokenMs, 2)} ms and ${d.auth.withTokenStatements ?? '?'} statements with the API token,` +
          ` ${fmt(d.auth.publicMs, 2)} ms and ${d.auth.publicStatements ?? '?'} statements as the public role` +
          ` (token check ~${fmt(d.auth.withTokenMs - d.auth.publicMs, 2)} ms per request; the baseline checks nothing)`,
      );
    }
  }
  if (report.profile) lines.push('', formatProfile(report.profile));
  return lines.join('\n');
}
