/**
 * Stands in for a database project whose server is not reachable (vitest.config.ts): one
 * skipped test whose name is the reason, so the run's summary shows it.
 */
import { it } from 'vitest';

it.skip(process.env.CG_TEST_SKIP_REASON ?? 'database not reachable', () => {});
