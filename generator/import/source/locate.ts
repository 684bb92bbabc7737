/**
 * Which Strapi database to read: `--from` (a database URL, an SQLite file or a `strapi export`
 * archive), else the one the project's `config/database.js` names, evaluated as Strapi
 * evaluates it (the environment and `.env`, `config/env/<NODE_ENV>/database.js` over it).
 */
import path from 'node:path';
import { evaluateProjectConfigFile, isPlainObject } from '../../load/project-config.js';
import { looksLikeArchive } from './archive/format.js';
import { openMysqlSource } from './mysql.js';
import { openPostgresSource } from './postgres.js';
import { openSqliteSource } from './sqlite.js';
import type { StrapiSource } from './types.js';

export type DatabaseLocation =
  | { readonly dialect: 'sqlite'; readonly file: string }
  | { readonly dialect: 'postgresql' | 'mysql'; readonly url: string };

/** A database, or a `strapi export` archive (`.tar`, `.tar.gz`, `.tgz`; told by name or first bytes). */
export type SourceLocation = DatabaseLocation | { readonly dialect: 'archive'; readonly file: string };

/** Where the database is, or a sentence saying why it cannot be told. */
export function locateSource(project: string, from: string | undefined, env: NodeJS.ProcessEnv = process.env): SourceLocation | string {
  if (from !== undefined) return fromArgument(from);
  const config = evaluateProjectConfigFile(project, 'database', { env });
  if (!isPlainObject(config)) return `${path.join(project, 'config/database.js')} not found or exports no object: say where the Strapi database is with --from <database URL or SQLite file>`;
  const connection = (isPlainObject(config.connection) ? config.connection : {}) as Record<string, unknown>;
  const client = String(connection.client ?? '');
  const settings = (isPlainObject(connection.connection) ? connection.connection : {}) as Record<string, unknown>;
  if (client === 'sqlite' || client === 'sqlite3' || client === 'better-sqlite3') {
    if (typeof settings.filename !== 'string') return `config/database.js: client "${client}" without connection.filename: use --from <SQLite file>`;
    return { dialect: 'sqlite', file: path.resolve(project, settings.filename) };
  }
  const dialect = client === 'postgres' || client === 'pg' || client === 'postgresql' ? 'postgresql' : client === 'mysql' || client === 'mysql2' || client === 'mariadb' ? 'mysql' : undefined;
  if (!dialect) return `config/database.js: database client "${client}" is not one contentgen reads (sqlite, postgres, mysql): use --from`;
  if (typeof settings.connectionString === 'string' && settings.connectionString) return { dialect, url: settings.connectionString };
  const scheme = dialect === 'postgresql' ? 'postgresql' : 'mysql';
  const user = encodeURIComponent(String(settings.user ?? settings.username ?? ''));
  const password = settings.password ? `:${encodeURIComponent(String(settings.password))}` : '';
  const host = String(settings.host ?? '127.0.0.1');
  const port = settings.port ? `:${String(settings.port)}` : '';
  const database = encodeURIComponent(String(settings.database ?? ''));
  const schema = dialect === 'postgresql' && settings.schema && settings.schema !== 'public' ? `?options=${encodeURIComponent(`-c search_path=${String(settings.schema)}`)}` : '';
  return { dialect, url: `${scheme}://${user}${password}${user || password ? '@' : ''}${host}${port}/${database}${schema}` };
}

function fromArgument(from: string): SourceLocation {
  const lower = from.toLowerCase();
  if (lower.startsWith('postgres://') || lower.startsWith('postgresql://')) return { dialect: 'postgresql', url: from };
  if (lower.startsWith('mysql://') || lower.startsWith('mariadb://')) return { dialect: 'mysql', url: from.replace(/^mariadb:/i, 'mysql:') };
  if (lower.startsWith('file:')) return { dialect: 'sqlite', file: path.resolve(from.slice('file:'.length).replace(/\?.*$/, '')) };
  if (looksLikeArchive(from)) return { dialect: 'archive', file: path.resolve(from) };
  return { dialect: 'sqlite', file: path.resolve(from) };
}

export function openSource(location: DatabaseLocation, timeZone: string): StrapiSource {
  if (location.dialect === 'sqlite') return openSqliteSource(location.file, timeZone);
  if (location.dialect === 'postgresql') return openPostgresSource(location.url, timeZone);
  return openMysqlSource(location.url, timeZone);
}
