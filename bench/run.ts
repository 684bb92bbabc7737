/**
 * `npm run bench` (issues 3, 5 and 6, "Benchmark"): builds the blog fixture into
 * .tmp/bench-*, seeds it through the REST API, and measures with autocannon five REST
 * requests against the generated server and, on SQLite, a hand-written baseline on the same
 * SQLite file; a GraphQL list against the same list through REST; optionally every scenario
 * again with the load split across two server processes; cold start. Writes
 * bench/results.json (bench/results-<db>.json on PostgreSQL/MariaDB) and prints tables.
 * Missed targets are reported, not failures.
 *
 *   npm run bench                       SQLite, 10 s per run (+2 s warm-up), ~3-4 minutes
 *   npm run bench -- --quick            2 s per run: checks that everything works
 *   npm run bench -- --db postgresql    on a throwaway PostgreSQL database, one then two processes
 *   options: --duration <s> --warmup <s> --connections <n>
 *            --db <sqlite|postgresql|mysql>   database of the generated server (mariadb = mysql). On
 *                               PostgreSQL/MariaDB a database is created for the run on the
 *                               server of CG_TEST_POSTGRES_URL / CG_TEST_MARIADB_URL (as the
 *                               tests do, test/helpers/databases.ts) and dropped at the end;
 *                               there is no baseline (it reads SQLite only)
 *            --processes <1|2>  2: also measure every scenario with the load split across two
 *                               server processes (default: 2 on PostgreSQL/MariaDB, 1 on SQLite)
 *            --quiet-wait <s>   before each run, wait up to this long (30; 0 with --quick) for
 *                               other processes to leave the CPU (this machine may be shared)
 *            --no-diagnostics   skip the sequential SERVER_TIMING=1 pass
 *            --profile[=<key>]  also CPU-profile the generated server under one scenario
 *                               (list, populateAll (default), deep, one, list100, graphql, graphqlRest)
 *            --keep             keep .tmp/bench-* (the built server and its database) and the
 *                               PostgreSQL/MariaDB database
 *   env: BENCH_DURATION, BENCH_WARMUP, BENCH_QUIET_WAIT (seconds)
 *
 * Every server is stopped, the temporary folder removed and the database dropped at the end,
 * on failure and on Ctrl-C; a watchdog aborts a run that takes far longer than it should.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { createTestDatabase, probe, providerLabel, providers, type TestDatabase, type TestProvider } from '../test/helpers/databases.js';
import { authHeaders, buildGenerated, createToken, startGenerated, type GeneratedServer } from './generated.js';
import { measure, measureSplit, sequential, splitConnections, waitForQuiet, type LoadOptions, type Measurement } from './measure.js';
import { assertRunning, killAllNow, rssSampler, startNode, stopAll, type ServerProcess } from './processes.js';
import { profileScenario, type ProfileSummary } from './profile.js';
import { formatReport, writeResults, type DatabaseInfo, type Diagnostic, type GraphqlResult, type Report, type ScalingResult, type ScenarioResult } from './report.js';
import {
  checkAnswer,
  checkGraphqlAgainstRest,
  compareAnswers,
  fetchText,
  graphqlPair,
  scenarioKeys,
  scenarioRequest,
  scenarios as scenariosFor,
  type GraphqlPair,
  type Sameness,
  type Scenario,
} from './scenarios.js';
import { defaultSeed, restApi, seed, type SeedResult } from './seed.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));

/** SQLite keeps results.json (with the baseline); other databases write beside it. */
const resultsFile = (provider: TestProvider) => path.join(benchDir, provider === 'sqlite' ? 'results.json' : `results-${provider}.json`);

interface Settings extends LoadOptions {
  readonly quick: boolean;
  readonly db: TestProvider;
  /** Server processes the load is split across in the scaling measurement (1: none). */
  readonly processes: number;
  readonly diagnostics: boolean;
  /** Scenario key to CPU-profile, or null. */
  readonly profile: string | null;
  readonly keep: boolean;
}

/** Wrong options or a database server that does not answer: reported without a stack trace, exit code 2. */
class SetupError extends Error {}

const valueFlags = ['--duration', '--warmup', '--quiet-wait', '--connections', '--db', '--processes'];

function parseArgs(argv: readonly string[]): Settings {
  const quick = argv.includes('--quick');
  const raw = (flag: string): string | undefined => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const text = argv[i + 1];
    if (text === undefined || text.startsWith('--')) throw new SetupError(`${flag} needs a value`);
    return text;
  };
  const value = (flag: string, env: string | undefined, fallback: number): number => {
    const text = raw(flag) ?? env;
    if (text === undefined || text === '') return fallback;
    const n = Number(text);
    if (!Number.isFinite(n) || n < 0 || n > 120) throw new SetupError(`${flag} must be a number of seconds (0-120), got "${text}"`);
    return n;
  };
  const known = new Set(['--quick', ...valueFlags, '--no-diagnostics', '--keep', '--profile']);
  argv.forEach((arg, i) => {
    if (arg.startsWith('--') && !known.has(arg.split('=')[0]!)) throw new SetupError(`unknown option ${arg} (known: ${[...known].join(' ')})`);
    if (!arg.startsWith('--') && !valueFlags.includes(argv[i - 1] ?? '')) throw new SetupError(`unexpected argument ${arg}`);
  });
  const profile = argv.filter((a) => a === '--profile' || a.startsWith('--profile=')).map((a) => a.split('=')[1] ?? 'populateAll')[0] ?? null;
  if (profile !== null && !(scenarioKeys as readonly string[]).includes(profile)) {
    throw new SetupError(`--profile=${profile}: no such scenario (${scenarioKeys.join(', ')})`);
  }
  const db = parseDatabase(raw('--db'));
  const processes = Number(raw('--processes') ?? (db === 'sqlite' ? 1 : 2));
  if (processes !== 1 && processes !== 2) throw new SetupError(`--processes must be 1 or 2, got "${raw('--processes')}"`);
  const duration = value('--duration', process.env.BENCH_DURATION, quick ? 2 : 10);
  const connections = value('--connections', undefined, 10);
  if (duration < 1 || !Number.isInteger(connections) || connections < processes) {
    throw new SetupError('--duration must be >= 1 and --connections a positive integer (at least one per process)');
  }
  return {
    quick,
    db,
    processes,
    duration,
    warmup: value('--warmup', process.env.BENCH_WARMUP, quick ? 0.5 : 2),
    quietWait: value('--quiet-wait', process.env.BENCH_QUIET_WAIT, quick ? 0 : 30),
    connections,
    diagnostics: !argv.includes('--no-diagnostics'),
    profile,
    keep: argv.includes('--keep'),
  };
}

function parseDatabase(text: string | undefined): TestProvider {
  const provider = text === 'mariadb' ? 'mysql' : (text ?? 'sqlite');
  if (!(providers as readonly string[]).includes(provider)) throw new SetupError(`--db must be sqlite, postgresql or mysql (mariadb), got "${text}"`);
  return provider as TestProvider;
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const seconds = (ms: number) => Math.round(ms / 100) / 10;

// ---- cleanup: servers, temporary folders and databases, whatever happens ---------------

const tempDirs = new Set<string>();
const databases = new Set<TestDatabase>();
let keep = false;

function removeTemp(): void {
  if (keep) {
    for (const dir of tempDirs) log(`kept ${dir}`);
    tempDirs.clear();
    return;
  }
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** After the servers are stopped (MariaDB would wait for their connections). */
async function dropDatabases(): Promise<void> {
  for (const database of databases) {
    if (keep) log(`kept database ${database.url}`);
    else await database.drop().catch((err: unknown) => log(`could not drop database ${database.name}: ${String(err)}`));
  }
  databases.clear();
}

async function cleanup(): Promise<void> {
  await stopAll();
  await dropDatabases();
  removeTemp();
}

// A database cannot be dropped synchronously: one left by a killed run is named cg_bench_*.
process.on('exit', () => {
  killAllNow();
  removeTemp();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping servers, removing temporary files, dropping the database`);
    void cleanup().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  });
}

// ---- steps ------------------------------------------------------------------------------

/** Bounds the whole run: generous (build, seeding, the runs, diagnostics), but bounded. */
function startWatchdog(settings: Settings): void {
  // REST on the generated server (and the baseline on SQLite), the GraphQL pair, the split runs.
  const runs = 5 * (settings.db === 'sqlite' ? 2 : 1) + 2 + (settings.processes > 1 ? 6 : 0);
  const runSeconds = settings.duration + settings.warmup + (settings.quietWait ?? 0) + 1;
  const watchdog = setTimeout(() => {
    log('watchdog: the benchmark took far too long; aborting');
    void cleanup().finally(() => process.exit(1));
  }, (runs * runSeconds + 600) * 1000);
  watchdog.unref();
}

/** Command names of a local database server's processes, for its CPU figure. */
const databaseCommandNames: Record<TestProvider, readonly string[] | undefined> = {
  sqlite: undefined, // in the server process
  postgresql: ['postgres'],
  mysql: ['mariadbd', 'mysqld'],
};

/** The short form (`15.20 (Debian …)`, `10.11.6-MariaDB-…`), not PostgreSQL's version() paragraph. */
const serverVersionQuery = {
  postgresql: "SELECT current_setting('server_version') AS version",
  mysql: 'SELECT VERSION() AS version',
} as const;

interface OpenedDatabase {
  readonly info: DatabaseInfo;
  /** PostgreSQL/MariaDB: the throwaway database's URL; SQLite: none (a file of the build). */
  readonly url?: string;
}

/** SQLite needs nothing yet; PostgreSQL/MariaDB: a new database, dropped by cleanup(). */
async function openDatabase(provider: TestProvider): Promise<OpenedDatabase> {
  const label = providerLabel[provider];
  if (provider === 'sqlite') return { info: { provider, label, serverVersion: null } };
  const available = await probe(provider);
  if (!available.ok) {
    const variable = provider === 'postgresql' ? 'CG_TEST_POSTGRES_URL' : 'CG_TEST_MARIADB_URL';
    throw new SetupError(`${available.reason}\nStart it, or set ${variable} to an account that may create databases.`);
  }
  // createTestDatabase names it cg_<CG_TEST_RUN>_<random>: cg_bench_…, never a test run's prefix.
  process.env.CG_TEST_RUN = 'bench';
  const database = await createTestDatabase(provider, '');
  databases.add(database);
  const [row] = await database.query<{ version: string }>(serverVersionQuery[provider]);
  const serverVersion = row ? String(row.version) : null;
  log(`created database ${database.name} on ${label} ${serverVersion ?? ''}`);
  return { info: { provider, label, serverVersion }, url: database.url };
}

async function seedThroughRest(server: GeneratedServer, headers: Record<string, string>): Promise<SeedResult> {
  log(`seeding ${defaultSeed.articles} articles through the REST API`);
  const seeder = await startGenerated(server, { name: 'generated server (seeding)' });
  try {
    const seeded = await seed(restApi(seeder.url, headers));
    log(`seeded in ${seconds(seeded.ms)} s`);
    return seeded;
  } finally {
    await seeder.stop();
  }
}

/** The baseline is one self-contained file: transpiled next to the server, run by plain node. */
function startBaseline(server: GeneratedServer, databaseFile: string): Promise<ServerProcess> {
  const source = readFileSync(path.join(benchDir, 'baseline.ts'), 'utf8');
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
  });
  // Under .tmp/ in the repository, so better-sqlite3 resolves from its node_modules.
  const file = path.join(server.tempRoot, 'baseline.mjs');
  writeFileSync(file, outputText);
  return startNode({
    name: 'baseline',
    args: [file, databaseFile],
    cwd: server.tempRoot,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', NODE_ENV: 'production' },
  });
}

/** Spawn → first answered request, with migrations already applied; one run. */
async function coldStart(server: GeneratedServer, scenario: Scenario, headers: Record<string, string>) {
  const started = performance.now();
  const proc = await startGenerated(server, { name: 'generated server (cold start)' });
  try {
    const answer = await fetchText(scenarioRequest(scenario, proc.url, headers));
    const answeredMs = performance.now() - started;
    if (answer.status !== 200) throw new Error(`cold start: first request answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    return { answeredMs, listeningMs: proc.listeningAfterMs };
  } finally {
    await proc.stop();
  }
}

/**
 * Before measuring: every REST scenario answers as expected (and, with a baseline, the same
 * JSON from both servers), and GraphQL lists the same articles as its REST equivalent.
 */
async function checkScenarios(
  scenarios: readonly Scenario[],
  pair: GraphqlPair,
  generated: ServerProcess,
  baseline: ServerProcess | null,
  headers: Record<string, string>,
): Promise<Map<string, Sameness>> {
  log(`checking every scenario: status, entries${baseline ? ', the same JSON from both servers' : ''}, GraphQL against REST`);
  const sameness = new Map<string, Sameness>();
  for (const scenario of scenarios) {
    const fromGenerated = await fetchText(scenarioRequest(scenario, generated.url, headers));
    checkAnswer(scenario, fromGenerated);
    if (!baseline) continue;
    const fromBaseline = await fetchText(scenarioRequest(scenario, baseline.url, headers));
    sameness.set(scenario.key, compareAnswers(scenario, fromGenerated, fromBaseline));
  }
  const rest = await fetchText(scenarioRequest(pair.rest, generated.url, headers));
  checkAnswer(pair.rest, rest);
  checkGraphqlAgainstRest(pair, await fetchText(scenarioRequest(pair.graphql, generated.url, headers)), rest);
  return sameness;
}

/** `scenario` under load on one server, which must survive it. */
async function measureOn(server: ServerProcess, scenario: Scenario, headers: Record<string, string>, load: LoadOptions): Promise<Measurement> {
  const measured = await measure(scenarioRequest(scenario, server.url, headers), server.pid, load, log);
  assertRunning(server);
  return measured;
}

async function measureRest(
  scenarios: readonly Scenario[],
  generated: ServerProcess,
  baseline: ServerProcess | null,
  sameness: ReadonlyMap<string, Sameness>,
  headers: Record<string, string>,
  load: LoadOptions,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    log(`measuring "${scenario.title}": generated${baseline ? ', then baseline' : ''} (${load.duration} s each)`);
    const g = await measureOn(generated, scenario, headers, load);
    // The same headers (the baseline ignores the token), so both parse the same request.
    const b = baseline ? await measureOn(baseline, scenario, headers, load) : undefined;
    const { key, title, path: scenarioPath, expectedEntries } = scenario;
    results.push({ key, title, path: scenarioPath, expectedEntries, json: sameness.get(key) ?? null, generated: g, ...(b ? { baseline: b } : {}) });
  }
  return results;
}

async function measureGraphql(pair: GraphqlPair, generated: ServerProcess, headers: Record<string, string>, load: LoadOptions): Promise<GraphqlResult> {
  log(`measuring "${pair.graphql.title}", then "${pair.rest.title}" (${load.duration} s each)`);
  const graphql = await measureOn(generated, pair.graphql, headers, load);
  const rest = await measureOn(generated, pair.rest, headers, load);
  return { query: pair.query, restPath: pair.rest.path, entries: pair.graphql.expectedEntries, graphql, rest };
}

/**
 * Issue 6: each scenario again with the load split across `processes` server processes on
 * the same database, set up alike (same DATABASE_URL, JWT_SECRET, API_TOKEN_SALT), as behind
 * a load balancer. The one-process figures are those already measured, with the same settings.
 */
async function measureScaling(
  server: GeneratedServer,
  first: ServerProcess,
  scenarios: readonly Scenario[],
  oneProcess: ReadonlyMap<string, Measurement>,
  headers: Record<string, string>,
  load: LoadOptions & { processes: number },
): Promise<ScalingResult> {
  const others = await Promise.all(
    Array.from({ length: load.processes - 1 }, (_, i) => startGenerated(server, { name: `generated server (process ${i + 2})` })),
  );
  const all = [first, ...others];
  const shares = splitConnections(load.connections, all.length);
  try {
    // Same build, same data: every process must answer every scenario with the same bytes.
    for (const scenario of scenarios) {
      const expected = await fetchText(scenarioRequest(scenario, first.url, headers));
      for (const other of others) {
        const answer = await fetchText(scenarioRequest(scenario, other.url, headers));
        if (answer.status !== expected.status || answer.text !== expected.text) {
          throw new Error(`${other.name} answers "${scenario.title}" differently (${answer.status}): ${answer.text.slice(0, 300)}`);
        }
      }
    }
    const rows: ScalingResult['scenarios'][number][] = [];
    for (const scenario of scenarios) {
      log(`measuring "${scenario.title}" across ${all.length} processes (${shares.join(' + ')} connections, ${load.duration} s)`);
      const two = await measureSplit(all.map((p) => ({ request: scenarioRequest(scenario, p.url, headers), pid: p.pid })), load, log);
      assertRunning(...all);
      rows.push({ key: scenario.key, title: scenario.title, one: oneProcess.get(scenario.key)!, two });
    }
    return { processes: all.length, connectionsPerProcess: shares, scenarios: rows };
  } finally {
    await Promise.all(others.map((p) => p.stop()));
  }
}

/**
 * Sequential requests to a server started with SERVER_TIMING=1: latency without
 * concurrency, SQL statements and SQL time per scenario; the baseline for the scenarios it
 * serves (REST, on SQLite).
 */
async function diagnose(
  server: GeneratedServer,
  scenarios: readonly Scenario[],
  pair: GraphqlPair,
  baseline: ServerProcess | null,
  headers: Record<string, string>,
  count: number,
): Promise<NonNullable<Report['diagnostics']>> {
  log(`diagnostics: ${count} sequential requests per scenario with SERVER_TIMING=1`);
  const timed = await startGenerated(server, { name: 'generated server (SERVER_TIMING=1)', serverTiming: true });
  try {
    const perScenario: Diagnostic[] = [];
    const baselineStatements: Record<string, number> = {};
    const comparedTo = (scenario: Scenario) => (scenarios.includes(scenario) ? baseline : null);
    for (const scenario of [...scenarios, pair.graphql, pair.rest]) {
      const request = scenarioRequest(scenario, timed.url, headers);
      await sequential(request, 50); // warm-up
      const g = await sequential(request, count);
      const other = comparedTo(scenario);
      const b = other ? await sequential(scenarioRequest(scenario, other.url, headers), count) : null;
      perScenario.push({ key: scenario.key, generatedMs: g.ms, baselineMs: b?.ms ?? null, dbMs: g.dbMs ?? Number.NaN, queries: g.queries ?? Number.NaN });
      if (b?.queries != null) baselineStatements[scenario.key] = b.queries;
    }
    let auth: NonNullable<Report['diagnostics']>['auth'];
    if (server.token) {
      const list = scenarios[0]!;
      const publicList = await fetchText(scenarioRequest(list, timed.url, {}));
      if (publicList.status === 200) {
        const withToken = await sequential(scenarioRequest(list, timed.url, headers), count);
        const asPublic = await sequential(scenarioRequest(list, timed.url, {}), count);
        auth = { withTokenMs: withToken.ms, publicMs: asPublic.ms, withTokenStatements: withToken.queries, publicStatements: asPublic.queries };
      }
    }
    return { sequentialRequests: count, baselineStatements, perScenario, ...(auth ? { auth } : {}) };
  } finally {
    await timed.stop();
  }
}

async function main(): Promise<void> {
  const settings = parseArgs(process.argv.slice(2));
  keep = settings.keep;
  startWatchdog(settings);
  const database = await openDatabase(settings.db);
  const load: LoadOptions = { ...settings, databaseProcesses: databaseCommandNames[settings.db] };

  log(`building the blog fixture for ${database.info.label} (generate, prisma client, tsc)`);
  const t = performance.now();
  const server = await buildGenerated({ provider: settings.db, databaseUrl: database.url, onTempDir: (dir) => tempDirs.add(dir) });
  log(`built into ${server.dir} in ${seconds(performance.now() - t)} s`);

  server.token = createToken(server);
  log(server.token ? 'created a full-access API token (npm run token; it applied the migrations)' : 'the server has no token script: sending no token');
  const headers = authHeaders(server.token);
  const seeded = await seedThroughRest(server, headers);
  const scenarios = scenariosFor(seeded);
  const pair = graphqlPair(seeded);

  log('cold start, 3 runs');
  if (settings.quietWait) await waitForQuiet([], settings.quietWait, log);
  const cold = [];
  for (let i = 0; i < 3; i++) cold.push(await coldStart(server, scenarios[0]!, headers));

  const generated = await startGenerated(server);
  const generatedRss = rssSampler(generated.pid);
  const baseline = server.databaseFile ? await startBaseline(server, server.databaseFile) : null;
  if (!baseline) log(`no baseline on ${database.info.label}: it reads the SQLite file only`);

  const sameness = await checkScenarios(scenarios, pair, generated, baseline, headers);
  const results = await measureRest(scenarios, generated, baseline, sameness, headers, load);
  const graphql = await measureGraphql(pair, generated, headers, load);
  let scaling: ScalingResult | undefined;
  if (settings.processes > 1) {
    const oneProcess = new Map([...results.map((r): [string, Measurement] => [r.key, r.generated]), [pair.graphql.key, graphql.graphql]]);
    scaling = await measureScaling(server, generated, [...scenarios, pair.graphql], oneProcess, headers, { ...load, processes: settings.processes });
  }
  const generatedMaxRssMb = Math.round(generatedRss.overallMax() * 10) / 10;
  generatedRss.stop();
  await generated.stop();

  const diagnostics = settings.diagnostics ? await diagnose(server, scenarios, pair, baseline, headers, settings.quick ? 30 : 200) : undefined;
  await baseline?.stop();

  let profile: ProfileSummary | undefined;
  if (settings.profile !== null) {
    const scenario = [...scenarios, pair.graphql, pair.rest].find((x) => x.key === settings.profile)!;
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
      processes: settings.processes,
    },
    database: database.info,
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
    graphql,
    ...(scaling ? { scaling } : {}),
    coldStart: { runsMs: cold.map((c) => Math.round(c.answeredMs)), listeningMs: cold.map((c) => Math.round(c.listeningMs)) },
    generatedMaxRssMb,
    ...(diagnostics ? { diagnostics } : {}),
    ...(profile ? { profile } : {}),
  };
  const file = resultsFile(settings.db);
  writeResults(file, report);
  process.stdout.write(`\n${formatReport(report)}\n\nwrote ${path.relative(process.cwd(), file)}\n`);
}

try {
  await main();
  await cleanup();
} catch (err) {
  log(err instanceof SetupError ? err.message : `failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await cleanup();
  process.exitCode = err instanceof SetupError ? 2 : 1;
}
