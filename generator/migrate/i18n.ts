/**
 * A type that becomes localized gets a `locale` column: its existing entries are given the
 * default locale by the migration (Strapi's i18n `enable` migration does the same), so that
 * lists, which read the default locale, still find them. The way back (a type no longer
 * localized) drops the column and the localizations table: data loss, refused without
 * --accept-data-loss like any other.
 */
import type { Provider, Schema } from '../ir/types.js';

export function localeBackfill(ir: Schema, previousSchema: string, provider: Provider): string {
  const quote = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  const literal = `'${ir.i18n.defaultLocale.replace(/'/g, "''")}'`;
  const statements: string[] = [];
  for (const ct of ir.contentTypes) {
    if (!ct.localized) continue;
    const block = new RegExp(`^model ${ct.names.model} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(previousSchema)?.[1];
    if (block === undefined || /^\s+locale\s/m.test(block)) continue;
    statements.push(`-- ${ct.uid} is now localized: its entries are in the default locale\nUPDATE ${quote(ct.names.table)} SET ${quote('locale')} = ${literal} WHERE ${quote('locale')} IS NULL;\n`);
  }
  return statements.length ? `\n${statements.join('\n')}` : '';
}
