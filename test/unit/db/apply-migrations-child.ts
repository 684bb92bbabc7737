/**
 * One "server start" for the concurrency tests: waits until the shared start time, applies the
 * migrations and prints the names it applied as JSON.
 * Usage: node --import tsx apply-migrations-child.ts <databaseUrl> <migrationsDir> <startAtMs>
 */
import { applyMigrations } from '../../../templates/runtime/db/migrate.js';

const [databaseUrl = '', migrationsDir = '', startAt = '0'] = process.argv.slice(2);
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(startAt) - Date.now())));
const applied = await applyMigrations({ databaseUrl, migrationsDir });
process.stdout.write(JSON.stringify(applied));
