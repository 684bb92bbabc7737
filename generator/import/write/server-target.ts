/**
 * The server's database as the emitted server finds it (templates/runtime/config.ts):
 * `DATABASE_URL` from the environment, else `databaseUrl` of its src/config.ts, else
 * `file:./data/data.db`; a relative SQLite path is relative to the server's folder.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { applyMigrations } from '../../../templates/runtime/db/migrate.js';
import { providerFromUrl, sqliteFilePath } from '../../../templates/runtime/db/provider.js';
import type { Provider } from '../../ir/scalars.js';

export interface ServerDatabase {
  readonly url: string;
  readonly provider: Provider;
  /** Where the URL came from, for messages. */
  readonly from: string;
}

export async function serverDatabase(serverDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerDatabase> {
  let url = env.DATABASE_URL;
  let from = 'DATABASE_URL';
  if (!url) {
    const config = path.join(serverDir, 'src', 'config.ts');
    if (existsSync(config)) {
      const loaded = (await import(pathToFileURL(config).href)) as { default?: { databaseUrl?: unknown } };
      if (typeof loaded.default?.databaseUrl === 'string' && loaded.default.databaseUrl) {
        url = loaded.default.databaseUrl;
        from = 'src/config.ts databaseUrl';
      }
    }
  }
  if (!url) {
    url = 'file:./data/data.db';
    from = 'the default (file:./data/data.db)';
  }
  const provider = providerFromUrl(url);
  // Absolute, so that nothing depends on the working directory.
  if (provider === 'sqlite') url = `file:${sqliteFilePath(url, serverDir)}`;
  return { url, provider, from };
}

/** The server's migrations, applied as its start applies them. */
export async function migrateServerDatabase(serverDir: string, database: ServerDatabase): Promise<string[]> {
  return applyMigrations({
    databaseUrl: database.url,
    migrationsDir: path.join(serverDir, 'prisma', 'migrations'),
    schemaPath: path.join(serverDir, 'prisma', 'schema.prisma'),
  });
}
