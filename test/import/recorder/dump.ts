/**
 * SQL dumps of the database Strapi wrote, small and restorable by the drivers tests use:
 * SQLite by better-sqlite3's exec, PostgreSQL by node-pg in one simple query, MariaDB by the
 * `mariadb` driver with multipleStatements.
 */
import { execFileSync } from 'node:child_process';
import BetterSqlite3 from 'better-sqlite3';

/** Schema, rows in id order, indexes and sqlite_sequence, in one transaction; output is stable. */
export function dumpSqlite(file: string): string {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const objects = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type DESC, name").all() as {
      type: string;
      name: string;
      sql: string;
    }[];
    const lines = ['PRAGMA foreign_keys=OFF;', 'BEGIN TRANSACTION;'];
    const tables = objects.filter((o) => o.type === 'table');
    for (const table of tables) {
      lines.push(`${table.sql};`);
      const statement = db.prepare(`SELECT * FROM "${table.name}" ORDER BY rowid`).safeIntegers(true);
      const columns = statement.columns().map((c) => `"${c.name}"`).join(',');
      for (const row of statement.raw(true).all() as unknown[][]) {
        lines.push(`INSERT INTO "${table.name}" (${columns}) VALUES(${row.map(sqliteLiteral).join(',')});`);
      }
    }
    for (const other of objects.filter((o) => o.type !== 'table')) lines.push(`${other.sql};`);
    const hasSequence = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
    if (hasSequence) {
      lines.push('DELETE FROM sqlite_sequence;');
      for (const { name, seq } of db.prepare('SELECT name, seq FROM sqlite_sequence ORDER BY name').safeIntegers(true).all() as { name: string; seq: bigint }[]) {
        lines.push(`INSERT INTO sqlite_sequence (name, seq) VALUES(${sqliteLiteral(name)},${seq});`);
      }
    }
    lines.push('COMMIT;', '');
    return lines.join('\n');
  } finally {
    db.close();
  }
}

function sqliteLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    // A REAL stays a REAL: 1.0 must not come back as the integer 1 (order columns, floats).
    const text = String(value);
    return /[.eE]/.test(text) || !Number.isFinite(value) ? text : `${text}.0`;
  }
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** `pg_dump --inserts`, without what node-pg's simple query cannot run (psql meta-commands). */
export function dumpPostgres(database: string): string {
  const text = execFileSync('pg_dump', ['-h', '127.0.0.1', '-U', 'postgres', '--inserts', '--no-owner', '--no-privileges', '--no-comments', database], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return text
    .split('\n')
    .filter((line) => !line.startsWith('\\') && !/^SET transaction_timeout/.test(line))
    .join('\n');
}

export function dumpMariadb(database: string): string {
  return execFileSync(
    'mariadb-dump',
    ['-h', '127.0.0.1', '-u', 'root', '--skip-dump-date', '--skip-comments', '--single-transaction', '--no-tablespaces', '--skip-add-locks', database],
    { encoding: 'utf8', maxBuffer: 64 << 20 },
  );
}
