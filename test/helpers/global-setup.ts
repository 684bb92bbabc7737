/**
 * Global setup of the postgresql and mariadb projects (vitest.config.ts): at the end of the
 * run, drops whatever databases of this run are left (`cg_<run>_…`: files that crashed or
 * were interrupted before their cleanup).
 */
import type { TestProject } from 'vitest/node';
import { dropDatabasesWithPrefix, runPrefix, type TestProvider } from './databases.js';

export default function setup(project: TestProject) {
  const provider = project.config.env?.CG_TEST_DB as TestProvider | undefined;
  return async function teardown() {
    if (provider !== 'postgresql' && provider !== 'mysql') return;
    const dropped = await dropDatabasesWithPrefix(provider, runPrefix());
    if (dropped.length) console.warn(`dropped ${dropped.length} leftover test database(s) on ${provider}: ${dropped.join(', ')}`);
  };
}
