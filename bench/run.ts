/**
 * `npm run bench` (issue 3, "Benchmark"): builds the blog fixture into .tmp/bench-*, seeds
 * it through the REST API, measures five requests with autocannon against the generated
 * server and a hand-written baseline on the same SQLite file, measures cold start, writes
 * bench/results.json and prints a table. Missed targets are reported, not failures.
 *
 *   npm run bench                 10 s per run (+2 s warm-up), ~2-3 minutes
 *   npm run bench -- --quick      2 s per run: checks that everything works
 *   options: --duration <s> --warmup <s> --connections <n>
 *            --quiet-wait <s>   before each run, wait up to this long (30; 0 with --quick) for
 *                               other processes to leave the CPU (this machine may be shared)
 *            --no-diagnostics   skip the sequential SERVER_TIMING=1 pass
 *            --profile[=<key>]  also CPU-profile the generated server under one scenario
 *                               (list, populateAll (default), deep, one, list100)
 *            --keep             keep .tmp/bench-* (the built server and its database)
 *   env: BENCH_DURATION, BENCH_WARMUP, BENCH_QUIET_WAIT (seconds)
 *
 * Every server is stopped and the temporary folder removed at the end, on failure and on
 * Ctrl-C; a watchdog aborts a run that takes far longer than it should.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { authHeaders, buildGenerated, createToken, startGenerated, type GeneratedServer } from './generated.js';
import { measure, sequential, waitForQuiet, type LoadOptions } from './measure.js';
import { killAllNow, rssSampler, startNode, stopAll, type ServerProcess } from './processes.js';
import { profileScenario, type ProfileSummary } from './profile.js';
import { formatReport, writeResults, type Diagnostic, type Report, type ScenarioResult } from './report.js';
import { checkAnswer, compareAnswers, fetchText, scenarioKeys, scenarios as scenariosFor } from './scenarios.js';
import { defaultSeed, restApi, seed } from './seed.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsFile = path.join(benchDir, 'results.json');

interface Settings extends LoadOptions {
  readonly quick: boolean;
  readonly diagnostics: boolean;
  /** Scenario key to CPU-profile, or null. */
  readonly profile: string | null;
  readonly keep: boolean;
}

/** Wrong options: reported without a stack trace, exit code 2. */
class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Settings {
  const quick = argv.includes('--quick');
  const value = (flag: string, env: string | undefined, fallback: number): number => {
    const i = argv.indexOf(flag);
    const raw = i >= 0 ? argv[i + 1] : env;
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < 0 || n > 120) throw new UsageError(`${flag} must be a number of seconds (0-120), got "${raw}"`);
    return n;
  };
  const known = new Set(['--quick', '--duration', '--warmup', '--quiet-wait', '--connections', '--no-diagnostics', '--keep', '--profile']);
  argv.forEach((arg, i) => {
    if (arg.startsWith('--') && !known.has(arg.split('=')[0]!)) throw new UsageError(`unknown option ${arg} (known: ${[...known].join(' ')})`);
    if (!arg.startsWith('--') && !['--duration', '--warmup', '--quiet-wait', '--connections'].includes(argv[i - 1] ?? '')) throw new UsageError(`unexpected argument ${arg}`);
  });
  const profile = argv.filter((a) => a === '--profile' || a.startsWith('--profile=')).map((a) => a.split('=')[1] ?? 'populateAll')[0] ?? null;
  if (profile !== null && !(scenarioKeys as readonly string[]).includes(profile)) {
    throw new UsageError(`--profile=${profile}: no such scenario (${scenarioKeys.join(', ')})`);
  }
  const duration = value('--duration', process.env.BENCH_DURATION, quick ? 2 : 10);
  const connections = value('--connections', undefined, 10);
  if (duration < 1 || !Number.isInteger(connections) || connections < 1) throw new UsageError('--duration must be >= 1 and --connections a positive integer');
  return {
    quick,
    duration,
    warmup: value('--warmup', process.env.BENCH_WARMUP, quick ? 0.5 : 2),
    quietWait: value('--quiet-wait', process.env.BENCH_QUIET_WAIT, quick ? 0 : 30),
    connections,
    diagnostics: !argv.includes('--no-diagnostics'),
    profile,
    keep: argv.includes('--keep'),
  };
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

// ---- cleanup: servers and temporary folders, whatever happens --------------------------

const tempDirs = new Set<string>();
let keepTemp = false;

function removeTemp(): void {
  if (keepTemp) {
    for (const dir of tempDirs) log(`kept ${dir}`);
    tempDirs.clear();
    return;
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

async function cleanup(): Promise<void> {
  await stopAll();
  removeTemp();
}

process.on('exit', () => {
  killAllNow();
  removeTemp();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping servers and removing temporary files`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// ---- steps ------------------------------------------------------------------------------

/** The baseline is one self-contained file: transpiled next to the server, run by plain node. */
function startBaseline(server: GeneratedServer): Promise<ServerProcess> {
  const source = readFileSync(path.join(benchDir, 'baseline.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  // Under .tmp/ in the repository, so better-sqlite3 resolves from its node_modules.
  const file = path.join(server.tempRoot, 'baseline.mjs');
  writeFileSync(file, outputText);
  return startNode({
    name: 'baseline',
    args: [file, server.databaseFile],
    cwd: server.tempRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'production' },
  });
}

/** Spawn → first answered request, with migrations already applied; one run. */
async function coldStart(server: GeneratedServer, pathAndQuery: string, headers: Record<string, string>) {
  const started = performance.now();
  const proc = await startGenerated(server, { name: 'generated server (cold start)' });
  try {
    const answer = await fetchText(proc.url + pathAndQuery, headers);
    const answeredMs = performance.now() - started;
    if (answer.status !== 200) throw new Error(`cold start: first request answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return { answeredMs, listeningMs: proc.listeningAfterMs };
  } finally {
    await proc.stop();
  }
}

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  keepTemp = settings.keep;
  const runs = 5 * 2 * (settings.duration + settings.warmup + (settings.quietWait ?? 0) + 1);
  // Build ~15 s, seeding ~30 s, runs, cold starts and diagnostics: generous, but bounded.
  const watchdog = setTimeout(() => {
    log('watchdog: the benchmark took far too long; aborting');
    void cleanup().finally(() => process.exit(1));
  }, (runs + 600) * 1000);
  watchdog.unref();

  log('building the blog fixture (generate, prisma client, tsc)');
  let t = performance.now();
  const server = await buildGenerated((dir) => tempDirs.add(dir));
  log(`built into ${server.dir} in ${seconds(performance.now() - t)} s`);

  server.token = createToken(server);
  log(server.token ? 'created a full-access API token (npm run token)' : 'the server has no token script: sending no token');
  const headers = authHeaders(server.token);

  log(`seeding ${defaultSeed.articles} articles through the REST API`);
  t = performance.now();
  const seeder = await startGenerated(server, { name: 'generated server (seeding)' });
  const seeded = await seed(restApi(seeder.url, headers));
  await seeder.stop();
  log(`seeded in ${seconds(seeded.ms)} s`);
  const scenarios = scenariosFor(seeded);

  log('cold start, 3 runs');
  if (settings.quietWait) await waitForQuiet(process.pid, settings.quietWait, log);
  const cold = [];
  for (let i = 0; i < 3; i++) cold.push(await coldStart(server, scenarios[0]!.path, headers));

  const generated = await startGenerated(server);
  const generatedRss = rssSampler(generated.pid);
  const baseline = await startBaseline(server);

  log('checking every scenario: status, entries, and the same JSON from both servers');
  const sameness = new Map<string, ReturnType<typeof compareAnswers>>();
  for (const scenario of scenarios) {
    const fromGenerated = await fetchText(generated.url + scenario.path, headers);
    checkAnswer(scenario, fromGenerated);
    const fromBaseline = await fetchText(baseline.url + scenario.path, headers);
    sameness.set(scenario.key, compareAnswers(scenario, fromGenerated, fromBaseline));
  }

  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    log(`measuring "${scenario.title}": generated, then baseline (${settings.duration} s each)`);
    const g = await measure(generated.url + scenario.path, headers, generated.pid, settings, log);
    // The same headers (the baseline ignores the token), so both parse the same request.
    const b = await measure(baseline.url + scenario.path, headers, baseline.pid, settings, log);
    results.push({ key: scenario.key, title: scenario.title, path: scenario.path, expectedEntries: scenario.expectedEntries, json: sameness.get(scenario.key)!, generated: g, baseline: b });
  }
  const generatedMaxRssMb = Math.round(generatedRss.overallMax() * 10) / 10;
  generatedRss.stop();
  await generated.stop();

  let diagnostics: Report['diagnostics'];
  if (settings.diagnostics) {
    const count = settings.quick ? 30 : 200;
    log(`diagnostics: ${count} sequential requests per scenario with SERVER_TIMING=1`);
    const timed = await startGenerated(server, { name: 'generated server (SERVER_TIMING=1)', serverTiming: true });
    const perScenario: Diagnostic[] = [];
    const baselineStatements: Record<string, number> = {};
    for (const scenario of scenarios) {
      await sequential(timed.url + scenario.path, headers, 50); // warm-up
      const g = await sequential(timed.url + scenario.path, headers, count);
      const b = await sequential(baseline.url + scenario.path, headers, count);
      perScenario.push({ key: scenario.key, generatedMs: g.ms, baselineMs: b.ms, dbMs: g.dbMs ?? Number.NaN, queries: g.queries ?? Number.NaN });
      if (b.queries !== null) baselineStatements[scenario.key] = b.queries;
    }
    let auth: NonNullable<Report['diagnostics']>['auth'];
    if (server.token) {
      const publicList = await fetchText(timed.url + scenarios[0]!.path, {});
      if (publicList.status === 200) {
        const withToken = await sequential(timed.url + scenarios[0]!.path, headers, count);
        const asPublic = await sequential(timed.url + scenarios[0]!.path, {}, count);
        auth = { withTokenMs: withToken.ms, publicMs: asPublic.ms, withTokenStatements: withToken.queries, publicStatements: asPublic.queries };
      }
    }
    await timed.stop();
    diagnostics = { sequentialRequests: count, baselineStatements, perScenario, ...(auth ? { auth } : {}) };
  }
  await baseline.stop();

  let profile: ProfileSummary | undefined;
  if (settings.profile !== null) {
    const scenario = scenarios.find((x) => x.key === settings.profile)!;
    log(`CPU profile of the generated server under "${scenario.title}"`);
    profile = await profileScenario(server, scenario, headers, { connections: settings.connections, seconds: Math.max(3, settings.duration) });
  }

  const report: Report = {
    settings: {
      connections: settings.connections,
      durationSeconds: settings.duration,
      warmupSeconds: settings.warmup,
      quietWaitSeconds: settings.quietWait ?? 0,
      quick: settings.quick,
    },
    seed: {
      articles: seeded.articles,
      published: seeded.published,
      authors: seeded.authors,
      categories: seeded.categories,
      tags: seeded.tags,
      seconds: seconds(seeded.ms),
    },
    emittedSha256: server.emittedSha256,
    scenarios: results,
    coldStart: { runsMs: cold.map((c) => Math.round(c.answeredMs)), listeningMs: cold.map((c) => Math.round(c.listeningMs)) },
    generatedMaxRssMb,
    ...(diagnostics ? { diagnostics } : {}),
    ...(profile ? { profile } : {}),
  };
  writeResults(resultsFile, report);
  process.stdout.write(`\n${formatReport(report)}\n\nwrote ${path.relative(process.cwd(), resultsFile)}\n`);
}

try {
  await main();
  await cleanup();
} catch (err) {
  log(err instanceof UsageError ? err.message : `failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await cleanup();
  process.exitCode = err instanceof UsageError ? 2 : 1;
}
