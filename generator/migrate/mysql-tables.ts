/**
 * A Prisma schema as the MySQL tables Prisma would create for it: column types, defaults, keys,
 * indexes and foreign keys, with Prisma's default constraint names. mysql-diff.ts compares two
 * of these.
 *
 * Covers what contentgen emits (scalar fields, enums, `@id`/`@@id`, `@unique`/`@@unique`,
 * `@@index`, `@relation(fields, references)`, `@db.*` native types, `@map`/`@@map`); anything
 * else (implicit many-to-many tables, scalar lists, views) raises an error instead of producing
 * a wrong migration.
 */
import {
  argValue,
  attribute,
  columnFields,
  listValue,
  parsePrismaSchema,
  splitArgs,
  unquote,
  type PrismaField,
  type PrismaModel,
  type PrismaSchema,
} from './prisma-schema.js';

export interface MysqlColumn {
  name: string;
  /** Full type as rendered: `VARCHAR(191)`, `ENUM('a', 'b')`, `DATETIME(3)`… */
  type: string;
  notNull: boolean;
  /** Rendered default expression, or undefined for none. */
  default: string | undefined;
  autoIncrement: boolean;
}

export interface MysqlIndex {
  name: string;
  unique: boolean;
  columns: string[];
}

export interface MysqlForeignKey {
  name: string;
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

export interface MysqlTable {
  name: string;
  columns: MysqlColumn[];
  primaryKey: string[];
  indexes: MysqlIndex[];
  foreignKeys: MysqlForeignKey[];
}

/** MySQL's identifier length limit, which Prisma's default constraint names respect. */
const MAX_IDENTIFIER_LENGTH = 64;

export function mysqlTablesFromSchema(text: string): MysqlTable[] {
  const schema = parsePrismaSchema(text);
  return schema.models.map((model) => tableOf(model, schema));
}

function tableOf(model: PrismaModel, schema: PrismaSchema): MysqlTable {
  const fail = (what: string): never => {
    throw new Error(`MySQL migrations: model ${model.name} uses ${what}, which contentgen's MySQL differ does not support.`);
  };
  const fields = columnFields(model, schema);
  const columnOf = (fieldName: string): string => {
    const field = model.fields.find((f) => f.name === fieldName);
    if (!field) return fail(`an unknown field "${fieldName}" in a block attribute`);
    return field.column;
  };

  const columns = fields.map((field) => {
    if (field.list) fail(`the scalar list field ${field.name}`);
    return columnFor(field, schema, fail);
  });

  let primaryKey: string[] = fields.filter((f) => attribute(f, 'id')).map((f) => f.column);
  const indexes: MysqlIndex[] = [];
  for (const field of fields) {
    const unique = attribute(field, 'unique');
    if (unique) {
      const name = unquote(argValue(unique.args, 'map')) ?? constraintName(model.table, [field.column], 'key');
      indexes.push({ name, unique: true, columns: [field.column] });
    }
  }
  for (const block of model.blockAttributes) {
    if (block.name === 'map') continue;
    const fieldNames = listValue(argValue(block.args, 'fields') ?? argValue(block.args));
    const cols = fieldNames.map(columnOf);
    if (block.name === 'id') primaryKey = cols;
    else if (block.name === 'unique' || block.name === 'index') {
      const unique = block.name === 'unique';
      const name = unquote(argValue(block.args, 'map')) ?? constraintName(model.table, cols, unique ? 'key' : 'idx');
      indexes.push({ name, unique, columns: cols });
    } else fail(`@@${block.name}`);
  }

  const foreignKeys: MysqlForeignKey[] = [];
  const modelsByName = new Map(schema.models.map((m) => [m.name, m]));
  for (const field of model.fields) {
    const target = modelsByName.get(field.type);
    if (!target) continue;
    const relation = attribute(field, 'relation');
    const fkFields = listValue(relation ? argValue(relation.args, 'fields') : undefined);
    if (fkFields.length === 0) {
      // The other side holds the foreign key — unless both sides are lists, which is Prisma's
      // implicit many-to-many table (`_AToB`), not supported here.
      const backRelation = target.fields.find((f) => f.type === model.name && f.list);
      if (field.list && backRelation) fail(`an implicit many-to-many relation (${field.name})`);
      continue;
    }
    const refFields = listValue(relation ? argValue(relation.args, 'references') : undefined);
    const cols = fkFields.map(columnOf);
    const refCols = refFields.map((name) => {
      const ref = target.fields.find((f) => f.name === name);
      return ref ? ref.column : fail(`a relation referencing unknown field ${target.name}.${name}`);
    });
    const allOptional = fkFields.every((name) => model.fields.find((f) => f.name === name)?.optional);
    foreignKeys.push({
      name: unquote(argValue(relation?.args ?? '', 'map')) ?? constraintName(model.table, cols, 'fkey'),
      columns: cols,
      referencedTable: target.table,
      referencedColumns: refCols,
      onDelete: referentialAction(argValue(relation?.args ?? '', 'onDelete') ?? (allOptional ? 'SetNull' : 'Restrict')),
      onUpdate: referentialAction(argValue(relation?.args ?? '', 'onUpdate') ?? 'Cascade'),
    });
  }
  return { name: model.table, columns, primaryKey, indexes, foreignKeys };
}

function columnFor(field: PrismaField, schema: PrismaSchema, fail: (what: string) => never): MysqlColumn {
  const type = columnType(field, schema, fail);
  const defaultAttr = attribute(field, 'default');
  const defaultValue = defaultAttr ? argValue(defaultAttr.args) ?? '' : undefined;
  const autoIncrement = defaultValue === 'autoincrement()';
  return {
    name: field.column,
    type,
    notNull: !field.optional,
    default: defaultValue === undefined || autoIncrement ? undefined : renderDefault(defaultValue, field, type, schema),
    autoIncrement,
  };
}

/** Prisma's MySQL types for each scalar, and for `@db.*` native types. */
function columnType(field: PrismaField, schema: PrismaSchema, fail: (what: string) => never): string {
  const enumDef = schema.enums.find((e) => e.name === field.type);
  if (enumDef) return `ENUM(${enumDef.values.map(quoteString).join(', ')})`;
  if (field.type === 'Unsupported') return fail(`an Unsupported field (${field.name})`);
  const native = field.attributes.find((a) => a.name.startsWith('db.'));
  if (native) {
    const name = native.name.slice(3);
    const args = splitArgs(native.args);
    const paren = args.length > 0 ? `(${args.join(', ')})` : '';
    const nativeTypes: Record<string, string> = {
      Int: 'INTEGER',
      UnsignedInt: 'INTEGER UNSIGNED',
      SmallInt: 'SMALLINT',
      UnsignedSmallInt: 'SMALLINT UNSIGNED',
      TinyInt: field.type === 'Boolean' ? 'BOOLEAN' : 'TINYINT',
      UnsignedTinyInt: 'TINYINT UNSIGNED',
      MediumInt: 'MEDIUMINT',
      UnsignedMediumInt: 'MEDIUMINT UNSIGNED',
      BigInt: 'BIGINT',
      UnsignedBigInt: 'BIGINT UNSIGNED',
      Decimal: `DECIMAL${paren}`,
      Float: 'FLOAT',
      Double: 'DOUBLE',
      Bit: `BIT${paren}`,
      Char: `CHAR${paren}`,
      VarChar: `VARCHAR${paren}`,
      Binary: `BINARY${paren}`,
      VarBinary: `VARBINARY${paren}`,
      TinyBlob: 'TINYBLOB',
      Blob: 'BLOB',
      MediumBlob: 'MEDIUMBLOB',
      LongBlob: 'LONGBLOB',
      TinyText: 'TINYTEXT',
      Text: 'TEXT',
      MediumText: 'MEDIUMTEXT',
      LongText: 'LONGTEXT',
      Date: 'DATE',
      Time: `TIME${paren}`,
      DateTime: `DATETIME${paren}`,
      Timestamp: `TIMESTAMP${paren}`,
      Year: 'YEAR',
      Json: 'JSON',
    };
    return nativeTypes[name] ?? fail(`the native type @db.${name}`);
  }
  const scalarTypes: Record<string, string> = {
    String: 'VARCHAR(191)',
    Int: 'INTEGER',
    BigInt: 'BIGINT',
    Float: 'DOUBLE',
    Decimal: 'DECIMAL(65, 30)',
    Boolean: 'BOOLEAN',
    DateTime: 'DATETIME(3)',
    Json: 'JSON',
    Bytes: 'LONGBLOB',
  };
  return scalarTypes[field.type] ?? fail(`the type ${field.type} (field ${field.name})`);
}

/** A `@default(…)` argument as MySQL DDL, or undefined where Prisma sets the value itself. */
function renderDefault(value: string, field: PrismaField, type: string, schema: PrismaSchema): string | undefined {
  // MySQL accepts no literal defaults on JSON and BLOB columns; Prisma Client fills them in.
  if (type === 'JSON' || /BLOB|BINARY/.test(type)) return undefined;
  if (value === 'now()') {
    const precision = /^(?:DATETIME|TIMESTAMP)\((\d+)\)$/.exec(type)?.[1] ?? (/^(DATETIME|TIMESTAMP)$/.test(type) ? '0' : '3');
    return `CURRENT_TIMESTAMP(${precision})`;
  }
  const generated = /^dbgenerated\(([\s\S]*)\)$/.exec(value);
  if (generated) return unquote(generated[1]?.trim()) || undefined;
  if (/^\w+\(.*\)$/.test(value)) return undefined; // uuid(), cuid(), nanoid(), ulid(): client-side
  const text = unquote(value);
  if (text !== undefined) return quoteString(text);
  const enumDef = schema.enums.find((e) => e.name === field.type);
  if (enumDef) {
    // Enum defaults name the Prisma value; the column stores its database value (`@map`).
    return quoteString(enumDef.values[enumDef.valueNames.indexOf(value)] ?? value);
  }
  return value; // numbers, true, false
}

function referentialAction(action: string): string {
  const actions: Record<string, string> = {
    Cascade: 'CASCADE',
    Restrict: 'RESTRICT',
    NoAction: 'NO ACTION',
    SetNull: 'SET NULL',
    SetDefault: 'SET DEFAULT',
  };
  const rendered = actions[action.trim()];
  if (!rendered) throw new Error(`MySQL migrations: unknown referential action "${action}".`);
  return rendered;
}

/**
 * Prisma's default constraint names: `<table>_<columns>_<suffix>`, with the table-and-columns
 * part cut so the whole fits MySQL's 64 characters.
 */
/** Prisma's default name of a key, index or constraint: the table and columns, cut to fit `limit` with the suffix. */
export function constraintName(table: string, columns: readonly string[], suffix: 'key' | 'idx' | 'fkey' | 'pkey', limit = MAX_IDENTIFIER_LENGTH): string {
  const base = [table, ...columns].join('_');
  return `${base.slice(0, limit - suffix.length - 1)}_${suffix}`;
}

export function quoteString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
