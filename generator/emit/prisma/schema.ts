/** Emits prisma/schema.prisma: one model per content type, columns named like Strapi's. */
import { scalarTypes } from '../../ir/scalars.js';
import type { ScalarAttribute, Schema } from '../../ir/types.js';
import { FileMap } from '../file-map.js';
import { render } from '../templates.js';

export const prismaSchemaPath = 'prisma/schema.prisma';

export function emitPrismaSchema(ir: Schema): FileMap {
  const models = ir.contentTypes.map((ct) => ({
    comment: `${ct.displayName} (${ct.uid})`,
    name: ct.names.pascal,
    table: ct.names.table,
    fields: alignColumns(ct.attributes.filter((a): a is ScalarAttribute => a.kind === 'scalar').map((a) => fieldColumns(a, ir))),
  }));
  return new FileMap().add(prismaSchemaPath, render('prisma/schema.prisma.hbs', { provider: ir.provider, models }));
}

function fieldColumns(attribute: ScalarAttribute, ir: Schema): [string, string, string] {
  const mapping = scalarTypes[attribute.type];
  const attrs: string[] = [];
  let type = mapping.prisma;
  if (attribute.name === 'id') {
    attrs.push('@id @default(autoincrement())');
  } else {
    // Only the timestamps Strapi always sets are NOT NULL; see the header comment.
    if (!(attribute.builtIn && attribute.name !== 'publishedAt')) type += '?';
    if (attribute.unique) attrs.push('@unique');
  }
  if (attribute.column !== attribute.name) attrs.push(`@map("${attribute.column}")`);
  const native = mapping.nativeType?.[ir.provider];
  if (native && attribute.name !== 'id') attrs.push(native);
  return [attribute.name, type, attrs.join(' ')];
}

/** Lines laid out like `prisma format` does: name, type and attributes in columns. */
function alignColumns(rows: [string, string, string][]): { line: string }[] {
  const nameWidth = Math.max(...rows.map((r) => r[0].length));
  const typeWidth = Math.max(...rows.map((r) => r[1].length));
  return rows.map(([name, type, attrs]) => ({
    line: attrs ? `${name.padEnd(nameWidth)} ${type.padEnd(typeWidth)} ${attrs}` : `${name.padEnd(nameWidth)} ${type}`,
  }));
}
