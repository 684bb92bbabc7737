/**
 * Classifies a schema change as data-losing before any SQL is written, so the generator can
 * refuse it unless the user passes --accept-data-loss.
 *
 * Tables and columns are matched by their database names (`@@map`, `@map`), since that is what
 * the migration acts on: renaming a model while keeping its `@@map` loses nothing, while changing
 * a field's `@map` drops the old column and adds a new one.
 */
import { columnFields, parsePrismaSchema, type PrismaField, type PrismaSchema } from './prisma-schema.js';

export type DataLossKind = 'dropTable' | 'dropColumn' | 'retypeColumn' | 'requireColumn';

export interface DataLossChange {
  kind: DataLossKind;
  /** Model name in the old schema. */
  model: string;
  /** Field name in the old schema (column changes only). */
  field?: string;
  table: string;
  column?: string;
  /** Old and new column type, as written in the schema (`retypeColumn` only). */
  from?: string;
  to?: string;
}

export function findDataLoss(fromSchemaText: string, toSchemaText: string): DataLossChange[] {
  const before = parsePrismaSchema(fromSchemaText);
  const after = parsePrismaSchema(toSchemaText);
  const afterTables = new Map(after.models.map((model) => [model.table, model]));
  const changes: DataLossChange[] = [];
  for (const oldModel of before.models) {
    const { name: model, table } = oldModel;
    const newModel = afterTables.get(table);
    if (!newModel) {
      changes.push({ kind: 'dropTable', model, table });
      continue;
    }
    const newColumns = new Map(columnFields(newModel, after).map((field) => [field.column, field]));
    for (const oldField of columnFields(oldModel, before)) {
      const where = { model, field: oldField.name, table, column: oldField.column };
      const newField = newColumns.get(oldField.column);
      if (!newField) {
        changes.push({ kind: 'dropColumn', ...where });
        continue;
      }
      const from = columnType(oldField, before);
      const to = columnType(newField, after);
      if (from.type !== to.type || from.values.some((value) => !to.values.includes(value))) {
        changes.push({ kind: 'retypeColumn', ...where, from: from.text, to: to.text });
      }
      else if (oldField.optional && !newField.optional) changes.push({ kind: 'requireColumn', ...where });
    }
  }
  return changes;
}

/**
 * A column's stored type: base type, list marker and native type (`String @db.Text`). For enum
 * columns `values` lists the enum's database values: dropping one loses the rows that hold it,
 * adding one loses nothing.
 */
function columnType(field: PrismaField, schema: PrismaSchema): { type: string; values: string[]; text: string } {
  const native = field.attributes.find((a) => a.name.startsWith('db.'));
  // `@db.Decimal(10,2)` and `@db.Decimal(10, 2)` are the same type.
  const nativeArgs = native?.args.replace(/\s+/g, '') ?? '';
  const nativeText = native ? ` @${native.name}${nativeArgs === '' ? '' : `(${nativeArgs})`}` : '';
  const type = `${field.type}${field.list ? '[]' : ''}${nativeText}`;
  const values = schema.enums.find((e) => e.name === field.type)?.values ?? [];
  const text = values.length === 0 ? type : `${type} (${values.join(' | ')})`;
  return { type, values, text };
}

/** One line for the user, e.g. `drops column "summary" of table "articles" (model Article)`. */
export function describe(change: DataLossChange): string {
  const table = `table "${change.table}" (model ${change.model})`;
  const column = `column "${change.column ?? ''}" of ${table}`;
  switch (change.kind) {
    case 'dropTable':
      return `drops ${table}`;
    case 'dropColumn':
      return `drops ${column}`;
    case 'retypeColumn':
      return `changes the type of ${column} from ${change.from ?? '?'} to ${change.to ?? '?'}`;
    case 'requireColumn':
      return `makes ${column} required (fails or loses data if any row holds NULL)`;
  }
}
