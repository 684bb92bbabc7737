/**
 * A driver adapter factory that connects to nothing, for diffing two schemas with the schema
 * engine without a database.
 *
 * What the WebAssembly engine needs (measured with 8.1.0-2.59be4fda…): `SchemaEngine.new`
 * always calls `connect()` and fails if it throws. On SQLite that is all. On PostgreSQL it then
 * runs one probe,
 *   SELECT EXISTS(SELECT 1 FROM pg_namespace WHERE nspname = $1), version(),
 *          current_setting('server_version_num')::integer as numeric_version;
 * and fails unless the schema exists (`true`) and a version comes back. After that a diff between
 * two `schemaDatamodel` targets (or `empty`) issues no query at all. So this adapter answers the
 * probe and refuses everything else with an error naming the query, which would show at once if
 * a later engine started to depend on the database.
 */
import {
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
} from '@prisma/driver-adapter-utils';

/**
 * The server version reported to the engine. It only matters for version-dependent DDL; this is
 * the oldest PostgreSQL still supported upstream, so generated SQL runs on it and anything newer.
 */
export const OFFLINE_POSTGRES_VERSION = { text: 'PostgreSQL 14.0', number: 140000 };

type AdapterProvider = 'sqlite' | 'postgres';

export function offlineAdapterFactory(provider: AdapterProvider): SqlMigrationAwareDriverAdapterFactory {
  const adapterName = 'contentgen-offline';
  const refuse = (what: string): never => {
    throw new Error(`The offline diff adapter has no database; the schema engine tried to ${what}.`);
  };
  const connect = async (): Promise<SqlDriverAdapter> => ({
    provider,
    adapterName,
    queryRaw: async (query: SqlQuery): Promise<SqlResultSet> => {
      if (provider === 'postgres' && query.sql.includes('FROM pg_namespace') && query.sql.includes('version()')) {
        return {
          columnNames: ['exists', 'version', 'numeric_version'],
          columnTypes: [ColumnTypeEnum.Boolean, ColumnTypeEnum.Text, ColumnTypeEnum.Int32],
          rows: [[true, OFFLINE_POSTGRES_VERSION.text, OFFLINE_POSTGRES_VERSION.number]],
        };
      }
      return refuse(`run a query: ${query.sql}`);
    },
    executeRaw: async (query: SqlQuery) => refuse(`run a statement: ${query.sql}`),
    executeScript: async (script: string) => refuse(`run a script: ${script.slice(0, 200)}`),
    startTransaction: async () => refuse('start a transaction'),
    dispose: async () => {},
  });
  return { provider, adapterName, connect, connectToShadowDb: connect };
}
