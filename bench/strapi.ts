/**
 * `npm run bench:strapi` (issue 29): contentgen side by side with Strapi 4.26.2 on the same
 * models (the blog fixture) and the same data, as the issue's table was measured. Both run on
 * SQLite in production mode, both are seeded through their REST API the same way (bench/seed.ts,
 * one request at a time, so the seeding time is the cost of 1,000 creates each with an author, a
 * category, three tags, a component, a repeatable component and a two-item zone), then every
 * scenario of `npm run bench` and the GraphQL list runs on Strapi, then on contentgen, back to
 * back, with the same full-access API token kind. Writes bench/results-strapi.json.
 *
 * It installs nothing: it needs a Strapi 4.26.2 install at /tmp/strapi-ref (STRAPI_REF to change
 * it) made as /work/shared/notes/environment.md says, finished (a READY file in it). Without one
 * it says so and exits 0. The Strapi project is written into a folder of that install (so its
 * node_modules resolve) and removed at the end.
 *
 *   npm run bench:strapi                 10 s per run (+2 s warm-up), ~8 minutes
 *   npm run bench:strapi -- --quick      2 s per run, 100 articles: checks that everything works
 *   options: --duration <s> --warmup <s> --connections <n> --articles <n>
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, startStrapi, stopStrapi } from '../test/import/recorder/process.js';
import { secrets, strapiVersion, writeStrapiProject } from '../test/import/recorder/app.js';
import { modelsOf } from '../test/helpers/paths.js';
import { authHeaders, buildGenerated, createToken, startGenerated } from './generated.js';
import { measure, type LoadOptions, type Measurement } from './measure.js';
import { stopAll } from './processes.js';
import { checkAnswer, checkGraphqlAgainstRest, fetchText, graphqlPair, scenarioRequest, scenarios as scenariosFor, type GraphqlPair, type Scenario } from './scenarios.js';
import { defaultSeed, restApi, seed, type SeedOptions, type SeedResult } from './seed.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const resultsFile = path.join(benchDir, 'results-strapi.json');
const strapiRef = process.env.STRAPI_REF || '/tmp/strapi-ref';
const log = (message: string) => process.stderr.write(`[bench:strapi] ${message}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

interface Settings extends LoadOptions {
  readonly quick: boolean;
  readonly articles: number;
}

function parseArgs(argv: readonly string[]): Settings {
  const quick = argv.includes('--quick');
  const value = (flag: string, fallback: number) => {
    const i = argv.indexOf(flag);
    if (i < 0) return fallback;
    const n = Number(argv[i + 1]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
    return n;
  };
  return {
    quick,
    duration: value('--duration', quick ? 2 : 10),
    warmup: value('--warmup', quick ? 0.5 : 2),
    connections: value('--connections', 10),
    articles: value('--articles', quick ? 100 : defaultSeed.articles),
  };
}

interface Side {
  readonly url: string;
  readonly pid: number;
  readonly headers: Record<string, string>;
  readonly seeded: SeedResult;
}

/** One request at a time, as the issue's "seeding 1,000 articles through REST, one at a time". */
const seedOptions = (articles: number): SeedOptions => ({ ...defaultSeed, articles, concurrency: 1 });

/**
 * The recorder's bootstrap also makes webhooks (one on entry.create, to a closed port) and
 * other rows a recording needs: here only the roles' permissions and one full-access token,
 * so Strapi does no work contentgen does not.
 */
const benchBootstrap = `'use strict';
const fs = require('fs');
const path = require('path');
module.exports = {
  register() {},
  async bootstrap({ strapi }) {
    const permissions = JSON.parse(fs.readFileSync(path.join(__dirname, 'permissions.json'), 'utf8'));
    const roles = strapi.query('plugin::users-permissions.role');
    const perms = strapi.query('plugin::users-permissions.permission');
    for (const [type, actions] of Object.entries(permissions)) {
      let role = await roles.findOne({ where: { type } });
      if (!role) role = await roles.create({ data: { type, name: type, description: type } });
      for (const action of actions) {
        if (!(await perms.findOne({ where: { action, role: role.id } }))) await perms.create({ data: { action, role: role.id } });
      }
    }
    if ((await strapi.query('admin::api-token').count()) > 0) return;
    const created = await strapi.service('admin::api-token').create({ name: 'bench', description: '', type: 'full-access', lifespan: null });
    fs.writeFileSync(process.env.RECORD_TOKENS_FILE, JSON.stringify([{ type: created.type, accessKey: created.accessKey, expiresAt: null }]));
  },
};
`;

/** Strapi's project from the blog models, with a full-access token made by its bootstrap. */
async function startStrapiSide(appDir: string, articles: number): Promise<{ side: Side; stop: () => Promise<void> }> {
  writeStrapiProject(appDir, 'contentgen-bench', { dir: modelsOf('blog'), customTokenPermissions: [] }, true);
  writeFileSync(path.join(appDir, 'src', 'index.js'), benchBootstrap);
  const tokensFile = path.join(appDir, 'tokens.json');
  const port = await freePort();
  const started = performance.now();
  const child = await startStrapi(appDir, 'start.js', { ...secrets, DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '.tmp/data.db', RECORD_TOKENS_FILE: tokensFile, NODE_ENV: 'production' }, port);
  log(`Strapi ${strapiVersion} answering after ${round((performance.now() - started) / 1000)} s (pid ${child.pid})`);
  const stop = () => stopStrapi(child);
  try {
    const tokens = JSON.parse(readFileSync(tokensFile, 'utf8')) as { type: string; accessKey: string; expiresAt: string | null }[];
    const token = tokens.find((t) => t.type === 'full-access' && t.expiresAt === null)!.accessKey;
    const headers = authHeaders(token);
    const url = `http://127.0.0.1:${port}`;
    log(`seeding Strapi: ${articles} articles through REST, one request at a time`);
    const seeded = await seed(restApi(url, headers, 60_000), seedOptions(articles));
    log(`seeded Strapi in ${round(seeded.ms / 1000)} s (articles ${round(seeded.articlesMs / 1000)} s)`);
    return { side: { url, pid: child.pid!, headers, seeded }, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function startContentgenSide(tempDirs: string[], articles: number): Promise<Side> {
  log('building the blog fixture for SQLite (generate, prisma client, tsc)');
  const server = await buildGenerated({ provider: 'sqlite', onTempDir: (dir) => tempDirs.push(dir) });
  server.token = createToken(server);
  const headers = authHeaders(server.token);
  const proc = await startGenerated(server);
  log(`seeding contentgen: ${articles} articles through REST, one request at a time`);
  const seeded = await seed(restApi(proc.url, headers), seedOptions(articles));
  log(`seeded contentgen in ${round(seeded.ms / 1000)} s (articles ${round(seeded.articlesMs / 1000)} s)`);
  return { url: proc.url, pid: proc.pid, headers, seeded };
}

/**
 * Whether `side` answers `scenario` as expected (status, entries, total; GraphQL: the same page
 * as its REST equivalent): what is measured must be a real answer. Null when it does.
 */
async function check(side: Side, scenario: Scenario, pair: GraphqlPair): Promise<string | null> {
  try {
    const answer = await fetchText(scenarioRequest(scenario, side.url, side.headers), 60_000);
    if (scenario.key !== pair.graphql.key) checkAnswer(scenario, answer);
    else checkGraphqlAgainstRest(pair, answer, await fetchText(scenarioRequest(pair.rest, side.url, side.headers), 60_000));
    return null;
  } catch (err) {
    return err instanceof Error ? err.message.slice(0, 300) : String(err);
  }
}

interface Row {
  readonly key: string;
  readonly title: string;
  readonly path: string;
  readonly body?: unknown;
  readonly checked: { strapi: string | null; contentgen: string | null };
  readonly strapi: ReturnType<typeof summaryOf>;
  readonly contentgen: ReturnType<typeof summaryOf>;
  readonly ratio: { rps: number; p99: number; cpuMsPerRequest: number };
}

const summaryOf = (m: Measurement) => ({
  rps: m.rps,
  p50: m.p50,
  p99: m.p99,
  maxRssMb: m.maxRssMb,
  cpuMsPerRequest: m.cpuMsPerRequest,
  non2xx: m.non2xx,
  errors: m.errors,
  timeouts: m.timeouts,
  otherCpuPercent: m.otherCpuPercent,
});

async function main(): Promise<void> {
  if (!existsSync(path.join(strapiRef, 'READY')) || !existsSync(path.join(strapiRef, 'node_modules/@strapi/strapi'))) {
    log(`no finished Strapi ${strapiVersion} install at ${strapiRef} (no READY file): nothing measured. Install one as /work/shared/notes/environment.md says, or set STRAPI_REF.`);
    return;
  }
  const settings = parseArgs(process.argv.slice(2));
  const tempDirs: string[] = [];
  const appDir = mkdtempSync(path.join(strapiRef, 'bench-'));
  let stopStrapiSide: (() => Promise<void>) | undefined;
  const cleanup = async () => {
    await stopStrapiSide?.();
    await stopAll();
    for (const dir of [appDir, ...tempDirs]) rmSync(dir, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));
  try {
    const strapi = await startStrapiSide(appDir, settings.articles);
    stopStrapiSide = strapi.stop;
    const contentgen = await startContentgenSide(tempDirs, settings.articles);
    // Both seeded alike (same ids, the same published entries): the same scenarios fit both.
    const pair = graphqlPair(contentgen.seeded);
    const all = [...scenariosFor(contentgen.seeded), pair.graphql];
    const rows: Row[] = [];
    for (const scenario of all) {
      const problems = { strapi: await check(strapi.side, scenario, pair), contentgen: await check(contentgen, scenario, pair) };
      log(`measuring "${scenario.title}": Strapi, then contentgen (${settings.duration} s each)`);
      const s = await measure(scenarioRequest(scenario, strapi.side.url, strapi.side.headers), strapi.side.pid, settings, log);
      const c = await measure(scenarioRequest(scenario, contentgen.url, contentgen.headers), contentgen.pid, settings, log);
      rows.push({
        key: scenario.key,
        title: scenario.title,
        path: scenario.path,
        ...(scenario.body ? { body: JSON.parse(scenario.body) as unknown } : {}),
        checked: problems,
        strapi: summaryOf(s),
        contentgen: summaryOf(c),
        ratio: { rps: round(c.rps / s.rps, 2), p99: round(s.p99 / c.p99, 2), cpuMsPerRequest: round(s.cpuMsPerRequest / c.cpuMsPerRequest, 2) },
      });
    }
    const seeding = {
      articles: settings.articles,
      strapiSeconds: round(strapi.side.seeded.articlesMs / 1000),
      contentgenSeconds: round(contentgen.seeded.articlesMs / 1000),
      ratio: round(strapi.side.seeded.articlesMs / contentgen.seeded.articlesMs, 2),
    };
    const cpus = os.cpus();
    const report = {
      node: process.version,
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? null,
      date: new Date().toISOString(),
      strapiVersion,
      database: 'SQLite (both)',
      settings: { connections: settings.connections, durationSeconds: settings.duration, warmupSeconds: settings.warmup, quick: settings.quick },
      note: 'ratio.rps = contentgen / Strapi requests/s; ratio.p99 and ratio.cpuMsPerRequest = Strapi / contentgen. otherCpuPercent: CPU other processes used during the run (% of all cores): the machine load.',
      seeding,
      scenarios: rows,
    };
    writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
    const line = (r: Row) =>
      `${r.title.padEnd(28)} ${`${r.strapi.rps} (${r.strapi.p99} ms)`.padStart(18)} ${`${r.contentgen.rps} (${r.contentgen.p99} ms)`.padStart(18)} ${`${r.ratio.rps}x`.padStart(7)}  other CPU ${r.strapi.otherCpuPercent}% / ${r.contentgen.otherCpuPercent}%`;
    process.stdout.write(
      [
        `\nStrapi ${strapiVersion} vs contentgen, SQLite, ${settings.connections} connections, ${settings.duration} s per run`,
        `${'scenario'.padEnd(28)} ${'Strapi req/s (p99)'.padStart(18)} ${'contentgen'.padStart(18)} ${'ratio'.padStart(7)}`,
        ...rows.map(line),
        `seeding ${seeding.articles} articles one at a time: Strapi ${seeding.strapiSeconds} s, contentgen ${seeding.contentgenSeconds} s (${seeding.ratio}x)`,
        ...rows.flatMap((r) => Object.entries(r.checked).filter(([, p]) => p).map(([who, p]) => `WARNING: ${who} answered "${r.title}" unexpectedly: ${p}`)),
        `wrote ${path.relative(process.cwd(), resultsFile)}\n`,
      ].join('\n'),
    );
  } finally {
    await cleanup();
  }
}

try {
  await main();
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
}
