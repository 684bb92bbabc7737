/**
 * Drafts saved before a draft had links of its own (docs/strapi5.md "Drafts") read their live
 * row's relations and media. The migration that creates `<table>_drafts_lnk` fills it with each
 * pending draft's live links, in their order, as the server does when it makes a draft: a draft
 * without link rows would otherwise publish its relations and media as empty.
 */
import { draftLinksTableOf, draftTableOf } from '../emit/prisma/schema.js';
import type { Provider, Schema } from '../ir/types.js';

export function draftLinksBackfill(ir: Schema, previousSchema: string, provider: Provider): string {
  const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const statements: string[] = [];
  for (const ct of ir.contentTypes) {
    if (!ct.draftAndPublish) continue;
    const drafts = draftTableOf(ct.names.table);
    const links = draftLinksTableOf(ct.names.table);
    if (!previousSchema.includes(`@@map("${drafts}")`) || previousSchema.includes(`@@map("${links}")`)) continue;
    for (const a of ct.attributes) {
      if ((a.kind !== 'relation' && a.kind !== 'media') || !a.link) continue;
      if (ct.localized && a.name === 'localizations') continue; // i18n's, kept for live rows only (runtime entity/drafts.ts draftLinkFields)
      const { table, ownerColumn, targetColumn, orderColumn } = a.link;
      const field = `'${a.name.replace(/'/g, "''")}'`;
      statements.push(
        `-- ${ct.uid}.${a.name}: the pending drafts keep their live links\n` +
          `INSERT INTO ${q(links)} (${q('live_id')}, ${q('field')}, ${q('target_id')}, ${q('position')}) ` +
          `SELECT l.${q(ownerColumn)}, ${field}, l.${q(targetColumn)}, ROW_NUMBER() OVER (PARTITION BY l.${q(ownerColumn)} ORDER BY l.${q(orderColumn)}, l.${q('id')}) ` +
          `FROM ${q(table)} AS l WHERE l.${q(ownerColumn)} IN (SELECT d.${q('live_id')} FROM ${q(drafts)} AS d);\n`,
      );
    }
  }
  return statements.length ? `\n${statements.join('\n')}` : '';
}
