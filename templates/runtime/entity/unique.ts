/**
 * Unique attributes, as Strapi checks them: before writing, a 400 "This attribute must be
 * unique" per clashing field; the database constraint stays the final guard against races,
 * and its violation (Prisma's P2002, or the driver's own error) is answered the same way, never as a 500.
 */
import type { Database } from '../db/database.js';
import { validationErrors, type ValidationIssue } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { storedColumnValue } from './entry-row.js';

function uniqueIssue(field: ScalarFieldMeta | undefined): ValidationIssue {
  return { path: field ? [field.name] : [], message: 'This attribute must be unique', name: 'ValidationError' };
}

/** Throws one ValidationError listing every unique attribute of `data` (a write's values, entity/entry-row.ts) another entry already has. */
export async function assertUniqueAttributes(db: Database, meta: ContentTypeMeta, data: Record<string, unknown>, exceptId: number | null): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const field of Object.values(meta.fields) as FieldMeta[]) {
    if (field.kind !== 'scalar' || !field.unique || field.name === 'id') continue;
    const value = data[field.prismaField];
    if (value === undefined || value === null) continue;
    const sql = new SqlBuilder(db.dialect);
    const except = exceptId === null ? '' : ` AND ${sql.ident('id')} <> ${sql.param(exceptId)}`;
    const compiled = sql.finish(
      `SELECT ${sql.ident('id')} FROM ${sql.ident(meta.table)} WHERE ${sql.ident(field.column)} = ${sql.param(storedColumnValue(meta, db.dialect, field.prismaField, value))}${except} LIMIT 1`,
    );
    if ((await db.query(compiled.sql, compiled.params)).length > 0) issues.push(uniqueIssue(field));
  }
  if (issues.length) throw validationErrors(issues);
}

/** Rethrows a unique violation that slipped past the check (a concurrent write) as that 400; other errors as they are. */
export function rethrowUniqueViolation(meta: ContentTypeMeta, err: unknown): never {
  const targets = uniqueViolationTargets(meta, err);
  if (!targets) throw err;
  const field = (Object.values(meta.fields) as FieldMeta[]).find(
    (f): f is ScalarFieldMeta => f.kind === 'scalar' && (targets.includes(f.column) || targets.includes(f.prismaField)),
  );
  throw validationErrors([uniqueIssue(field)]);
}

/**
 * The columns (or Prisma fields) a unique violation names, or undefined for another error:
 * Prisma's P2002, or the drivers' own errors of a statement run on a transaction's
 * connection directly (better-sqlite3, node-postgres, mariadb).
 */
function uniqueViolationTargets(meta: ContentTypeMeta, err: unknown): string[] | undefined {
  const e = err as {
    code?: unknown; errno?: unknown; message?: unknown; detail?: unknown; severity?: unknown; sqlMessage?: unknown;
    meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } };
  } | null;
  if (!e || typeof e !== 'object') return undefined;
  if (e.code === 'P2002') {
    return [e.meta?.target, e.meta?.driverAdapterError?.cause?.constraint?.fields].flat().filter((t): t is string => typeof t === 'string');
  }
  // SQLite: "UNIQUE constraint failed: articles.slug[, articles.other]"
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' && typeof e.message === 'string') {
    return (e.message.split('constraint failed: ')[1] ?? '').split(', ').map((name) => name.split('.').pop()!);
  }
  // PostgreSQL: unique_violation, detail "Key (slug)=(x) already exists."
  if (e.code === '23505' && e.severity !== undefined) {
    return (/^Key \(([^)]*)\)=/.exec(String(e.detail ?? ''))?.[1] ?? '').split(', ').map((name) => name.replace(/^"|"$/g, ''));
  }
  // MySQL/MariaDB: ER_DUP_ENTRY, "Duplicate entry 'x' for key '[table.]<table>_<column>_key'" (Prisma's index names).
  if (e.errno === 1062) {
    const key = /for key '([^']*)'/.exec(String(e.sqlMessage ?? e.message ?? ''))?.[1]?.split('.').pop() ?? '';
    const prefix = `${meta.table}_`;
    return key.startsWith(prefix) && key.endsWith('_key') ? [key.slice(prefix.length, -'_key'.length)] : [];
  }
  return undefined;
}
