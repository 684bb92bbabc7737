/**
 * Unique attributes, as Strapi checks them: before writing, a 400 "This attribute must be
 * unique" per clashing field; the database constraint stays the final guard against races,
 * and its violation (Prisma P2002) is answered the same way, never as a 500.
 */
import type { Database } from '../db/database.js';
import { validationErrors, type ValidationIssue } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta } from '../meta.js';

function uniqueIssue(field: ScalarFieldMeta | undefined): ValidationIssue {
  return { path: field ? [field.name] : [], message: 'This attribute must be unique', name: 'ValidationError' };
}

/** Throws one ValidationError listing every unique attribute of `data` another entry already has. */
export async function assertUniqueAttributes(db: Database, meta: ContentTypeMeta, data: Record<string, unknown>, exceptId: number | null): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const field of Object.values(meta.fields) as FieldMeta[]) {
    if (field.kind !== 'scalar' || !field.unique || field.name === 'id') continue;
    const value = data[field.prismaField];
    if (value === undefined || value === null) continue;
    const clash = await db.prisma[meta.delegate].findFirst({
      where: { [field.prismaField]: value, ...(exceptId === null ? {} : { NOT: { id: exceptId } }) },
      select: { id: true },
    });
    if (clash) issues.push(uniqueIssue(field));
  }
  if (issues.length) throw validationErrors(issues);
}

/** Rethrows a unique violation that slipped past the check (a concurrent write) as that 400; other errors as they are. */
export function rethrowUniqueViolation(meta: ContentTypeMeta, err: unknown): never {
  const e = err as { code?: string; meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[] } } } } };
  if (e?.code !== 'P2002') throw err;
  const targets = [e.meta?.target, e.meta?.driverAdapterError?.cause?.constraint?.fields].flat().filter((t): t is string => typeof t === 'string');
  const field = (Object.values(meta.fields) as FieldMeta[]).find(
    (f): f is ScalarFieldMeta => f.kind === 'scalar' && (targets.includes(f.column) || targets.includes(f.prismaField)),
  );
  throw validationErrors([uniqueIssue(field)]);
}
