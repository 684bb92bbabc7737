/**
 * The migration SQL between two Prisma schemas, computed offline.
 *
 * SQLite and PostgreSQL go through Prisma's WebAssembly schema engine (`diff` between two
 * `schemaDatamodel` targets) with an adapter that connects to nothing (see offline-adapter.ts).
 * The wasm engine has no MySQL connector, so MySQL uses contentgen's own differ (mysql-diff.ts).
 */
import { datasourceProvider } from '../../templates/runtime/db/migration-files.js';
import type { Provider } from '../../templates/runtime/db/provider.js';
import {
  closeSchemaEngine,
  engineErrorMessage,
  openSchemaEngine,
  type SchemaEngine,
} from '../../templates/runtime/db/schema-engine.js';
import { diffMysqlSchemas } from './mysql-diff.js';
import { offlineAdapterFactory } from './offline-adapter.js';

export interface DiffSchemasInput {
  provider: Provider;
  /** The schema the database currently has; null for an empty database. */
  from: string | null;
  /** The schema to migrate to. */
  to: string;
}

/** What the engine prints when two schemas give no migration steps. */
const EMPTY_MIGRATION = '-- This is an empty migration.';

/** Returns the migration SQL from `from` to `to`, or `''` when nothing changes. */
export async function diffSchemas({ provider, from, to }: DiffSchemasInput): Promise<string> {
  for (const [which, text] of [['from', from], ['to', to]] as const) {
    const declared = text === null ? undefined : datasourceProvider(text);
    if (declared !== undefined && declared !== provider) {
      throw new Error(`diffSchemas: the "${which}" schema's datasource is "${declared}", expected "${provider}".`);
    }
  }
  if (provider === 'mysql') return diffMysqlSchemas(from, to);

  const target = (text: string) => ({ tag: 'schemaDatamodel' as const, files: [{ path: 'schema.prisma', content: text }] });
  let engine: SchemaEngine | undefined;
  try {
    engine = await openSchemaEngine(to, offlineAdapterFactory(provider === 'sqlite' ? 'sqlite' : 'postgres'));
    const result = await engine.diff({
      from: from === null ? { tag: 'empty' } : target(from),
      to: target(to),
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? '';
    return sql.trim() === '' || sql.trim() === EMPTY_MIGRATION ? '' : sql;
  } catch (error) {
    throw new Error(`Could not compute the ${provider} migration: ${engineErrorMessage(engine, error)}`, {
      cause: error,
    });
  } finally {
    if (engine) await closeSchemaEngine(engine);
  }
}
