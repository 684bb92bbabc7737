/**
 * The i18n plugin's locales: written into its table (`i18n_locale`) at start from
 * locales.json, as the policy table is, and listed by `GET /api/i18n/locales` as Strapi
 * answers it: a bare array of `{ id, name, code, createdAt, updatedAt, isDefault }`.
 */
import type { Database } from '../db/database.js';
import { toResponseValue } from '../entity/input.js';
import type { ContentTypeMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import type { Route } from '../rest/routes.js';
import { i18nOf } from './service.js';
import { newDocumentId } from '../entity/document-id.js';

export const localeUid = 'plugin::i18n.locale';

interface LocaleRow {
  id: number;
  name: string | null;
  code: string | null;
  /** As answered (`2024-03-05T10:30:00.120Z`). */
  createdAt: unknown;
  updatedAt: unknown;
}

const localeFields = ['id', 'name', 'code', 'createdAt', 'updatedAt'] as const;

/**
 * Every stored locale, by id. Read with SQL, not Prisma: a start that finds the locales in
 * sync, and a server that only serves reads, then never load Prisma's query compiler (~30 MB,
 * ~0.3 s), as for the policy sync (auth/sync.ts).
 */
async function storedLocales(db: Database, meta: ContentTypeMeta): Promise<LocaleRow[]> {
  const sql = new SqlBuilder(db.dialect);
  const field = (name: string) => meta.fields[name] as ScalarFieldMeta;
  const list = localeFields.map((name) => `${sql.ident(field(name).column)} AS ${sql.ident(name)}`).join(', ');
  const rows = await db.query(`SELECT ${list} FROM ${sql.ident(meta.table)} ORDER BY ${sql.ident(field('id').column)}`, sql.params);
  return rows.map((row) => ({
    id: Number(row.id),
    name: (row.name as string | null) ?? null,
    code: (row.code as string | null) ?? null,
    createdAt: toResponseValue(field('createdAt'), row.createdAt),
    updatedAt: toResponseValue(field('updatedAt'), row.updatedAt),
  }));
}

/** Adds the locales of the build, renames those whose name changed, removes the others. Answers what changed. */
export async function syncLocales(db: Database, registry: Registry): Promise<{ added: string[]; removed: string[] }> {
  const meta = registry.contentTypes.get(localeUid);
  if (!meta) return { added: [], removed: [] };
  const { locales } = i18nOf(registry);
  // No transaction: each statement stands alone, so that a row another process wrote first
  // (a unique violation) is skipped rather than aborting the rest.
  const delegate = db.prisma[meta.delegate];
  const stored = await storedLocales(db, meta);
  const wanted = new Map(locales.map((l) => [l.code, l.name]));
  const removed = stored.filter((row) => !wanted.has(row.code ?? ''));
  if (removed.length) await delegate.deleteMany({ where: { id: { in: removed.map((r) => r.id) } } });
  const now = new Date();
  const added: string[] = [];
  for (const locale of locales) {
    const row = stored.find((r) => r.code === locale.code);
    if (!row) {
      // Another process starting on the same database may have written it first.
      const written = await delegate
        .create({ data: { code: locale.code, name: locale.name, documentId: newDocumentId(), createdAt: now, updatedAt: now }, select: { id: true } })
        .then(() => true)
        .catch((err: { code?: string }) => {
          if (err?.code === 'P2002') return false;
          throw err;
        });
      if (written) added.push(locale.code);
    } else if (row.name !== locale.name) {
      await delegate.update({ where: { id: row.id }, data: { name: locale.name, updatedAt: now } });
    }
  }
  return { added, removed: removed.map((r) => r.code ?? '') };
}

/** `GET /api/i18n/locales` (action `plugin::i18n.locales.listLocales`). */
export function i18nRoutes(registry: Registry, db: Database): Route[] {
  const meta = registry.contentTypes.get(localeUid);
  if (!meta) return [];
  return [{ method: 'GET', path: '/i18n/locales', meta, action: 'plugin::i18n.locales.listLocales', handler: () => listLocales(db, meta, registry) }];
}

async function listLocales(db: Database, meta: ContentTypeMeta, registry: Registry): Promise<unknown[]> {
  const rows = await storedLocales(db, meta);
  const { defaultLocale } = i18nOf(registry);
  return rows.map((row) => ({ id: row.id, name: row.name, code: row.code, createdAt: row.createdAt, updatedAt: row.updatedAt, isDefault: row.code === defaultLocale }));
}
