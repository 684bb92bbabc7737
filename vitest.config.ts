/**
 * The suite as one vitest project per database:
 *
 *   sqlite      every test file (unit, generator, golden, behaviour, parity) but
 *               test/multiprocess: SQLite serves one process (see README, "Databases")
 *   postgresql  the files that run servers on a database: test/behaviour, test/parity,
 *   mariadb     test/multiprocess, test/standalone, each against that database (CG_TEST_DB)
 *
 * Test files do not name a database: helpers/server.ts builds for the project's provider and
 * gives each build its own database. `npm test` runs all three, files of every project in
 * parallel; `npx vitest run --project postgresql` (or `CG_TEST_DATABASES=postgresql,mysql`)
 * runs a choice.
 *
 * A database server that does not answer is reported here and its project is replaced by one
 * skipped test naming the reason; when it is required (`CG_TEST_REQUIRE_DATABASES=1` for all,
 * or a list such as `postgresql,mariadb`, as .ci/run sets it) the run fails instead.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { probe, providerLabel, providers, type TestProvider } from './test/helpers/databases.js';

const projectName: Record<TestProvider, string> = { sqlite: 'sqlite', postgresql: 'postgresql', mysql: 'mariadb' };
const serverTests = ['test/behaviour/**/*.test.ts', 'test/import/**/*.test.ts', 'test/parity/**/*.test.ts', 'test/multiprocess/**/*.test.ts', 'test/standalone/**/*.test.ts', 'test/v5/rest-*.test.ts', 'test/v5/graphql-*.test.ts'];
const skippedProjectFile = 'test/helpers/skipped-database.test.ts';

/** `sqlite,postgresql,mariadb` → providers (`mariadb` and `mysql` are the same). */
function parseProviders(variable: string, raw: string): TestProvider[] {
  return raw
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter(Boolean)
    .map((name) => {
      const provider = name === 'mariadb' ? 'mysql' : name;
      if (!(providers as readonly string[]).includes(provider)) throw new Error(`${variable}: unknown database ${JSON.stringify(name)} (sqlite, postgresql, mysql/mariadb)`);
      return provider as TestProvider;
    });
}

function selectedProviders(): TestProvider[] {
  const raw = process.env.CG_TEST_DATABASES;
  return raw ? parseProviders('CG_TEST_DATABASES', raw) : [...providers];
}

function requiredProviders(): TestProvider[] {
  const raw = process.env.CG_TEST_REQUIRE_DATABASES;
  if (!raw || raw === '0') return [];
  return raw === '1' ? [...providers] : parseProviders('CG_TEST_REQUIRE_DATABASES', raw);
}

export default defineConfig(async () => {
  // One id per run: databases made by this run are named cg_<run>_…, and dropped at its end.
  process.env.CG_TEST_RUN ||= randomBytes(3).toString('hex');
  const required = requiredProviders();
  const projects: TestProjectInlineConfiguration[] = [];
  for (const provider of selectedProviders()) {
    const name = projectName[provider];
    const env = { CG_TEST_DB: provider, CG_TEST_RUN: process.env.CG_TEST_RUN };
    if (provider === 'sqlite') {
      projects.push({ extends: true, test: { name, include: ['test/**/*.test.ts'], exclude: [skippedProjectFile, 'test/multiprocess/**'], env } });
      continue;
    }
    const availability = await probe(provider);
    if (!availability.ok) {
      if (required.includes(provider)) throw new Error(`CG_TEST_REQUIRE_DATABASES=${process.env.CG_TEST_REQUIRE_DATABASES}: ${availability.reason}`);
      const message = `${availability.reason}. The ${providerLabel[provider]} tests are skipped (start it: see README, "Databases").`;
      // vitest may load this file more than once per run: say it once.
      const said = `CG_TEST_WARNED_${provider.toUpperCase()}`;
      if (!process.env[said]) console.warn(`\n⚠ ${message}\n`);
      process.env[said] = '1';
      projects.push({ extends: true, test: { name, include: [skippedProjectFile], env: { ...env, CG_TEST_SKIP_REASON: message } } });
      continue;
    }
    projects.push({ extends: true, test: { name, include: serverTests, env, globalSetup: ['test/helpers/global-setup.ts'] } });
  }
  return {
    // One graphql-js instance: Vite would pick graphql's `module` entry (index.mjs) for our
    // sources while externalized packages (@graphql-tools/*) load its `main` (index.js), and
    // graphql refuses types from "another module or realm". Resolve it as Node does.
    resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
    test: {
      testTimeout: 60_000,
      hookTimeout: 180_000,
      pool: 'forks',
      // Test files mostly wait on servers and databases: more workers than cores pays off.
      maxWorkers: Number(process.env.CG_TEST_WORKERS) || Math.max(2, Math.min(4, os.availableParallelism() * 2)),
      projects,
    },
  };
});
