/**
 * Checks the documentIds (docs/strapi5.md "Identity") of every row of every content type of a
 * built server's database: Strapi 5's shape, one per entry, shared by an entry's localizations
 * (the entries its localizations links name) and unique per locale.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { Registry } from '../../templates/runtime/meta.js';
import type { BuiltServer } from './server.js';

/** Strapi 5's shape (cuid2 `createId()`): 24 characters of [a-z0-9], a letter first. */
export const documentIdShape = /^[a-z][a-z0-9]{23}$/;

/** Checks every table; answers how many rows it checked, by table. */
export async function expectDocumentIds(built: BuiltServer): Promise<Map<string, number>> {
  const { registry } = (await import(pathToFileURL(path.join(built.dir, 'src', 'generated', 'index.ts')).href)) as { registry: Registry };
  const checked = new Map<string, number>();
  for (const meta of registry.contentTypes.values()) {
    const rows = await built.database.query<{ id: number; document_id: string; locale?: string }>(
      `SELECT id, document_id${meta.localized ? ', locale' : ''} FROM "${meta.table}" ORDER BY id`,
    );
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    for (const row of rows) expect(row.document_id, `${meta.table} ${row.id}`).toMatch(documentIdShape);
    const keys = rows.map((r) => `${r.document_id}#${meta.localized ? r.locale : ''}`);
    expect(new Set(keys).size, `${meta.table}: one entry per documentId${meta.localized ? ' and locale' : ''}`).toBe(keys.length);
    const link = meta.localized ? meta.fields['localizations'] : undefined;
    if (link?.kind === 'relation' && link.link) {
      const { table, ownerColumn, targetColumn } = link.link;
      const pairs = await built.database.query<{ o: number; t: number }>(`SELECT "${ownerColumn}" AS o, "${targetColumn}" AS t FROM "${table}"`);
      const groups = new Map<number, number[]>();
      for (const { o, t } of pairs) groups.set(Number(o), [...(groups.get(Number(o)) ?? [Number(o)]), Number(t)]);
      for (const [owner, members] of groups) {
        const locales = members.map((id) => byId.get(id)?.locale);
        // A group with a locale twice (kept by the import, with a notice) holds two documents.
        if (new Set(locales).size !== locales.length) continue;
        for (const id of members) expect(byId.get(id)?.document_id, `${meta.table} ${owner} and its localization ${id}`).toBe(byId.get(owner)!.document_id);
      }
    }
    checked.set(meta.table, rows.length);
  }
  return checked;
}
