/**
 * bench/results.json (SQLite) or bench/results-<db>.json and the printed tables: every
 * figure of the generated server next to the baseline's and as a ratio to it (SQLite only:
 * the baseline reads the SQLite file), the issue's targets as met / not met, GraphQL as a
 * ratio to the same list through REST, and the scaling from one server process to two.
 * Missing a target is reported, never an error: this is a measurement, not a test.
 */
import { writeFileSync, renameSync } from 'node:fs';
import os from 'node:os';
import type { TestProvider } from '../test/helpers/databases.js';
import type { Measurement } from './measure.js';
import { formatProfile, type ProfileSummary } from './profile.js';
import type { Sameness } from './scenarios.js';

export const targets = {
  /** Generated requests/s as a fraction of the baseline's, at least (issue 18). */
  minRpsRatio: 0.8,
  /** GraphQL requests/s as a fraction of the equivalent REST request's, at least (issue 18). */
  minGraphqlRatio: 0.8,
  p99Ms: 50,
  rssMb: 150,
  coldStartMs: 1000,
} as const;

export interface DatabaseInfo {
  readonly provider: TestProvider;
  /** As named in messages: SQLite, PostgreSQL, MariaDB. */
  readonly label: string;
  /** `SELECT version()` of the database server; null for SQLite. */
  readonly serverVersion: string | null;
}

export interface ScenarioResult {
  readonly key: string;
  readonly title: string;
  readonly path: string;
  readonly expectedEntries: number;
  /** How the baseline's JSON compared to the generated server's; null without a baseline. */
  readonly json: Sameness | null;
  readonly generated: Measurement;
  /** Absent on PostgreSQL/MariaDB: the baseline reads SQLite only. */
  readonly baseline?: Measurement;
}

/** Issue 5: the GraphQL list against the same page through REST, on the generated server. */
export interface GraphqlResult {
  readonly query: string;
  readonly restPath: string;
  readonly entries: number;
  readonly graphql: Measurement;
  readonly rest: Measurement;
}

/** Issue 6: each scenario on one server process, then split across two. */
export interface ScalingResult {
  readonly processes: number;
  readonly connectionsPerProcess: readonly number[];
  readonly scenarios: readonly { key: string; title: string; one: Measurement; two: Measurement }[];
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
  /** Null for scenarios the baseline does not serve, and on PostgreSQL/MariaDB. */
  readonly baselineMs: number | null;
  /** From the generated server's Server-Timing header (median over the same requests). */
  readonly dbMs: number;
  readonly queries: number;
}

export interface Report {
  readonly settings: { connections: number; durationSeconds: number; warmupSeconds: number; quietWaitSeconds: number; quick: boolean; processes: number };
  readonly database: DatabaseInfo;
  /** Identifies the generated output measured (see GeneratedServer.emittedSha256). */
  readonly emittedSha256: string;
  readonly seed: { articles: number; published: number; authors: number; categories: number; tags: number; seconds: number };
  readonly scenarios: readonly ScenarioResult[];
  readonly graphql: GraphqlResult;
  /** `--processes 2` (the default on PostgreSQL/MariaDB). */
  readonly scaling?: ScalingResult;
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

/** `a / b` of each figure compared in the tables. */
function ratios(a: Measurement, b: Measurement | undefined) {
  const of = (pick: (m: Measurement) => number) => (b ? ratio(pick(a), pick(b)) : null);
  return { rps: of((m) => m.rps), p50: of((m) => m.p50), p99: of((m) => m.p99), maxRssMb: of((m) => m.maxRssMb), cpuMsPerRequest: of((m) => m.cpuMsPerRequest) };
}

function scenarioJson(s: ScenarioResult) {
  const { generated: g, baseline: b } = s;
  const r = ratios(g, b);
  return {
    key: s.key,
    title: s.title,
    path: s.path,
    expectedEntries: s.expectedEntries,
    json: s.json,
    generated: g,
    ...(b ? { baseline: b } : {}),
    ratio: r,
    targets: {
      /** Null without a baseline. */
      rpsAtLeastRatioOfBaseline: b ? (r.rps ?? 0) >= targets.minRpsRatio : null,
      p99Under50Ms: g.p99 < targets.p99Ms,
      rssUnder150Mb: g.maxRssMb < targets.rssMb,
    },
  };
}

const hasBaseline = (report: Report) => report.scenarios.every((s) => s.baseline);

export function summary(report: Report) {
  const scenarios = report.scenarios.map(scenarioJson);
  const bestColdStart = Math.min(...report.coldStart.runsMs);
  const worstP99 = Math.max(...report.scenarios.map((s) => s.generated.p99));
  const graphqlRatio = ratios(report.graphql.graphql, report.graphql.rest);
  return {
    scenarios,
    targets: {
      rpsAtLeastRatioOfBaseline: hasBaseline(report)
        ? { met: scenarios.every((s) => s.targets.rpsAtLeastRatioOfBaseline), worstRatio: Math.min(...scenarios.map((s) => s.ratio.rps ?? 0)) }
        : { met: null, worstRatio: null },
      graphqlAtLeastRatioOfRest: {
        met: (graphqlRatio.rps ?? 0) >= targets.minGraphqlRatio,
        ratio: graphqlRatio.rps,
        /** REST's CPU per request over GraphQL's: the same comparison, less disturbed by a busy machine. */
        cpuRatio: graphqlRatio.cpuMsPerRequest === null || graphqlRatio.cpuMsPerRequest === 0 ? null : Math.round(1000 / graphqlRatio.cpuMsPerRequest) / 1000,
      },
      p99Under50Ms: { met: worstP99 < targets.p99Ms, worstMs: worstP99 },
      rssUnder150Mb: { met: report.generatedMaxRssMb < targets.rssMb, maxMb: report.generatedMaxRssMb },
      coldStartUnder1s: { met: bestColdStart < targets.coldStartMs, bestMs: bestColdStart },
    },
  };
}

function graphqlJson(g: GraphqlResult) {
  const r = ratios(g.graphql, g.rest);
  return { ...g, checked: 'same ids, titles, author names and tag names as REST', ratio: { rps: r.rps, p50: r.p50, p99: r.p99, cpuMsPerRequest: r.cpuMsPerRequest } };
}

/** Two processes over one: 2 would be perfect; autocannon shares the same cores here. */
const scalingFactor = (row: ScalingResult['scenarios'][number]) => ratio(row.two.rps, row.one.rps);

/** Why scaling is bounded here: everything shares the machine's cores. */
function scalingNote(report: Report, scaling: ScalingResult): string {
  const database = report.database.provider === 'sqlite' ? '' : ` and the ${report.database.label} server`;
  return `${os.cpus().length} cpus shared by the ${scaling.processes} servers, autocannon (one instance per process, all in the benchmark process)${database}`;
}

function scalingJson(s: ScalingResult, note: string) {
  return {
    processes: s.processes,
    connectionsPerProcess: s.connectionsPerProcess,
    note,
    scenarios: s.scenarios.map((row) => ({ key: row.key, title: row.title, oneProcess: row.one, twoProcesses: row.two, scalingFactor: scalingFactor(row) })),
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
    database: { ...report.database, baseline: hasBaseline(report) },
    emittedSha256: report.emittedSha256,
    seed: report.seed,
    targets: { definitions: targets, ...met },
    scenarios,
    graphql: graphqlJson(report.graphql),
    ...(report.scaling ? { scaling: scalingJson(report.scaling, scalingNote(report, report.scaling)) } : {}),
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
const metText = (met: boolean | null) => (met === null ? 'n/a' : met ? 'met' : 'NOT MET');
const percents = (values: readonly (number | undefined)[]) => values.map((v) => `${fmt(v ?? Number.NaN)}%`).join('/');

function table(rows: string[][], rightAligned: (col: number) => boolean): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((row, r) => {
      const line = row.map((cell, i) => (rightAligned(i) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join('  ');
      return r === 0 ? `${line}\n${widths.map((w) => '-'.repeat(w)).join('  ')}` : line;
    })
    .join('\n');
}

/** A column of a printed table: right-aligned (figures) unless it is the first or `text`. */
interface Column<T> {
  readonly header: string;
  readonly cell: (row: T) => string;
  readonly text?: boolean;
}

function columnTable<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  return table([columns.map((c) => c.header), ...rows.map((row) => columns.map((c) => c.cell(row)))], (i) => i > 0 && !columns[i]!.text);
}

type ScenarioSummary = ReturnType<typeof scenarioJson>;

/** The main table; without a baseline, only the generated server's figures. */
function scenarioColumns(withBaseline: boolean, withDatabaseCpu: boolean): Column<ScenarioSummary>[] {
  const figure = (header: string, pick: (m: Measurement) => number, digits: number, key: keyof ScenarioSummary['ratio']): Column<ScenarioSummary>[] => [
    { header, cell: (s) => fmt(pick(s.generated), digits) },
    ...(withBaseline
      ? [
          { header: 'base', cell: (s: ScenarioSummary) => fmt(s.baseline ? pick(s.baseline) : Number.NaN, digits) },
          { header: 'ratio', cell: (s: ScenarioSummary) => fmtRatio(s.ratio[key]) },
        ]
      : []),
  ];
  const misses = (s: ScenarioSummary) => [
    ...(s.targets.rpsAtLeastRatioOfBaseline === false ? ['req/s'] : []),
    ...(s.targets.p99Under50Ms ? [] : ['p99']),
    ...(s.targets.rssUnder150Mb ? [] : ['RSS']),
  ];
  const errors = (s: ScenarioSummary) => [s.generated, ...(s.baseline ? [s.baseline] : [])].reduce((n, m) => n + m.non2xx + m.errors, 0);
  return [
    { header: 'scenario', cell: (s) => s.title },
    ...figure('req/s', (m) => m.rps, 0, 'rps'),
    ...figure('p50 ms', (m) => m.p50, 2, 'p50'),
    ...figure('p99 ms', (m) => m.p99, 2, 'p99'),
    ...figure('RSS MB', (m) => m.maxRssMb, 0, 'maxRssMb'),
    ...figure('CPU ms/req', (m) => m.cpuMsPerRequest, 3, 'cpuMsPerRequest'),
    { header: 'other CPU', cell: (s) => percents([s.generated.otherCpuPercent, ...(s.baseline ? [s.baseline.otherCpuPercent] : [])]) },
    ...(withDatabaseCpu ? [{ header: 'DB CPU', cell: (s: ScenarioSummary) => percents([s.generated.databaseCpuPercent]) }] : []),
    {
      header: 'targets',
      text: true,
      cell: (s) => {
        const missed = misses(s);
        const n = errors(s);
        return (missed.length ? `missed: ${missed.join(', ')}` : 'all met') + (n ? ` (${n} non-2xx/errors!)` : '');
      },
    },
  ];
}

/** Columns shared by the GraphQL and scaling tables, for one measurement of a row. */
function measurementColumns<T>(suffix: string, pick: (row: T) => Measurement, withDatabaseCpu: boolean): Column<T>[] {
  return [
    { header: `req/s${suffix}`, cell: (row) => fmt(pick(row).rps) },
    { header: `p50 ms${suffix}`, cell: (row) => fmt(pick(row).p50, 2) },
    { header: `p99 ms${suffix}`, cell: (row) => fmt(pick(row).p99, 2) },
    { header: `RSS MB${suffix}`, cell: (row) => fmt(pick(row).maxRssMb) },
    { header: `CPU ms/req${suffix}`, cell: (row) => fmt(pick(row).cpuMsPerRequest, 3) },
    { header: `other CPU${suffix}`, cell: (row) => percents([pick(row).otherCpuPercent]) },
    ...(withDatabaseCpu ? [{ header: `DB CPU${suffix}`, cell: (row: T) => percents([pick(row).databaseCpuPercent]) }] : []),
  ];
}

function formatGraphql(g: GraphqlResult, withDatabaseCpu: boolean): string[] {
  const r = ratios(g.graphql, g.rest);
  type Row = { title: string; m: Measurement };
  const rows: Row[] = [
    { title: `GraphQL (POST /graphql)`, m: g.graphql },
    { title: 'REST equivalent', m: g.rest },
  ];
  return [
    `GraphQL vs REST: the same ${g.entries} articles with author and tag names (checked equal), same generated server:`,
    columnTable<Row>([{ header: 'request', cell: (row) => row.title }, ...measurementColumns<Row>('', (row) => row.m, withDatabaseCpu)], rows),
    `GraphQL / REST: req/s ${fmtRatio(r.rps)}, p50 ${fmtRatio(r.p50)}, p99 ${fmtRatio(r.p99)}, CPU per request ${fmtRatio(r.cpuMsPerRequest)}   (REST: ${g.restPath})`,
  ];
}

function formatScaling(s: ScalingResult, note: string, withDatabaseCpu: boolean): string[] {
  type Row = ScalingResult['scenarios'][number];
  const columns: Column<Row>[] = [
    { header: 'scenario', cell: (row) => row.title },
    { header: 'req/s 1 proc', cell: (row) => fmt(row.one.rps) },
    { header: `req/s ${s.processes} procs`, cell: (row) => fmt(row.two.rps) },
    { header: 'scaling', cell: (row) => fmtRatio(scalingFactor(row)) },
    { header: 'p50 ms 1', cell: (row) => fmt(row.one.p50, 2) },
    { header: `p50 ms ${s.processes}`, cell: (row) => fmt(row.two.p50, 2) },
    { header: 'p99 ms 1', cell: (row) => fmt(row.one.p99, 2) },
    { header: `p99 ms ${s.processes}`, cell: (row) => fmt(row.two.p99, 2) },
    { header: `RSS MB ${s.processes} (max)`, cell: (row) => fmt(row.two.maxRssMb) },
    { header: 'other CPU 1/2', cell: (row) => percents([row.one.otherCpuPercent, row.two.otherCpuPercent]) },
    ...(withDatabaseCpu ? [{ header: 'DB CPU 1/2', cell: (row: Row) => percents([row.one.databaseCpuPercent, row.two.databaseCpuPercent]) }] : []),
  ];
  return [
    `${s.processes} server processes, load split ${s.connectionsPerProcess.join(' + ')} connections (one autocannon instance per process);` +
      ` "scaling" = ${s.processes} procs / 1 proc req/s.`,
    `note: ${note}: the scaling is bounded by them`,
    columnTable(columns, s.scenarios),
  ];
}

/** Every measurement of the report, named, for the noise and error warnings. */
function allMeasurements(report: Report): [string, Measurement][] {
  return [
    ...report.scenarios.flatMap((s): [string, Measurement][] => [[s.key, s.generated], ...(s.baseline ? [[`${s.key} (baseline)`, s.baseline] as [string, Measurement]] : [])]),
    ['graphql', report.graphql.graphql],
    ['graphqlRest', report.graphql.rest],
    ...(report.scaling?.scenarios ?? []).map((s): [string, Measurement] => [`${s.key} (${report.scaling!.processes} procs)`, s.two]),
  ];
}

export function formatReport(report: Report): string {
  const { scenarios, targets: met } = summary(report);
  const withBaseline = hasBaseline(report);
  const withDatabaseCpu = report.database.provider !== 'sqlite';
  const s = report.settings;
  const cold = report.coldStart;
  const measurements = allMeasurements(report);
  const noisy = measurements.filter(([, m]) => m.otherCpuPercent > 10).map(([name]) => name);
  const failing = measurements.filter(([, m]) => m.non2xx + m.errors + m.timeouts > 0).map(([name, m]) => `${name} (${m.non2xx} non-2xx, ${m.errors} errors)`);
  const lines = [
    `contentgen bench on ${report.database.label}${report.database.serverVersion ? ` ${report.database.serverVersion}` : ''}: ${s.connections} connections,` +
      ` ${s.durationSeconds} s per run (+${s.warmupSeconds} s warm-up), node ${process.version}, ${os.cpus().length} cpus, generated output ${report.emittedSha256.slice(0, 12)}`,
    `data: ${report.seed.articles} articles (${report.seed.published} published), ${report.seed.authors} authors, ${report.seed.categories} categories, ${report.seed.tags} tags, seeded through REST in ${report.seed.seconds} s`,
    withBaseline
      ? `"base" = hand-written node:http + better-sqlite3 server on the same data; "ratio" = generated / base;`
      : `no baseline: the hand-written baseline reads the SQLite file only, so on ${report.database.label} the generated server's figures stand alone (targets on req/s: n/a);`,
    `"other CPU" = CPU used by other processes on the machine during the ${withBaseline ? 'generated/base ' : ''}run (% of all cores; noise if high)` +
      (withDatabaseCpu ? `; "DB CPU" = the ${report.database.label} server's processes` : ''),
    '',
    columnTable(scenarioColumns(withBaseline, withDatabaseCpu), scenarios),
    '',
    ...formatGraphql(report.graphql, withDatabaseCpu),
    ...(report.scaling ? ['', ...formatScaling(report.scaling, scalingNote(report, report.scaling), withDatabaseCpu)] : []),
    '',
    `cold start (spawn -> first answered request, best of ${cold.runsMs.length}): ${fmt(Math.min(...cold.runsMs))} ms` +
      ` (runs ${cold.runsMs.map((m) => fmt(m)).join(', ')} ms; listening after ${cold.listeningMs.map((m) => fmt(m)).join(', ')} ms)`,
    ...(noisy.length ? [`WARNING: other processes used over 10% of the machine during ${noisy.join(', ')}: those figures are noisy; rerun on a quiet machine`] : []),
    ...(failing.length ? [`WARNING: not every request succeeded: ${failing.join('; ')}`] : []),
    withBaseline
      ? `JSON checked against the baseline: ${scenarios.map((x) => `${x.key} ${x.json}`).join('; ')}`
      : `JSON not compared to a baseline (none on ${report.database.label}); status, entry count and total checked`,
    '',
    'targets:',
    ...table(
      [
        ['target', 'result', 'figure'],
        [
          `req/s >= ${targets.minRpsRatio * 100}% of baseline, every scenario`,
          metText(met.rpsAtLeastRatioOfBaseline.met),
          met.rpsAtLeastRatioOfBaseline.worstRatio === null ? 'no baseline' : `worst ${fmtRatio(met.rpsAtLeastRatioOfBaseline.worstRatio)}`,
        ],
        [
          `GraphQL req/s >= ${targets.minGraphqlRatio * 100}% of REST`,
          metText(met.graphqlAtLeastRatioOfRest.met),
          `${fmtRatio(met.graphqlAtLeastRatioOfRest.ratio)} (CPU per request ${fmtRatio(met.graphqlAtLeastRatioOfRest.cpuRatio)})`,
        ],
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
            fmt(x.baselineMs ?? Number.NaN, 2),
            fmtRatio(x.baselineMs === null ? null : ratio(x.generatedMs, x.baselineMs)),
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
