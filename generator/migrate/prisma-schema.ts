/**
 * A small reader for the Prisma schemas contentgen emits: `model` and `enum` blocks, one field
 * per line (`name Type? @attr(args) …`), block attributes (`@@map`, `@@unique`, …), and the
 * datasource provider. It reads structure, not semantics: Prisma itself validates the schema.
 *
 * Names are resolved to database identity here (`@map`, `@@map`) because migrations compare
 * tables and columns, not model and field names.
 */

export interface PrismaAttribute {
  /** Without the `@`/`@@`: `id`, `default`, `map`, `db.VarChar`, `relation`, `unique`… */
  name: string;
  /** Text between the parentheses, untouched; `''` when there are none. */
  args: string;
}

export interface PrismaField {
  name: string;
  /** Base type: `String`, `Int`, a model name, an enum name… */
  type: string;
  optional: boolean;
  list: boolean;
  attributes: PrismaAttribute[];
  /** `@map` name or the field name. */
  column: string;
}

export interface PrismaModel {
  name: string;
  /** `@@map` name or the model name. */
  table: string;
  fields: PrismaField[];
  blockAttributes: PrismaAttribute[];
}

export interface PrismaEnum {
  name: string;
  /** `@@map` name or the enum name. */
  dbName: string;
  /** Database values (`@map` of each value, or its name), in declared order. */
  values: string[];
  /** Prisma value names, parallel to `values`. */
  valueNames: string[];
}

export interface PrismaSchema {
  provider: string | undefined;
  models: PrismaModel[];
  enums: PrismaEnum[];
}

export function parsePrismaSchema(text: string): PrismaSchema {
  const schema: PrismaSchema = { provider: undefined, models: [], enums: [] };
  const lines = text.split(/\r?\n/).map(stripComment);
  for (let i = 0; i < lines.length; i++) {
    const header = /^\s*(model|enum|datasource|generator|view|type)\s+(\w+)\s*\{\s*$/.exec(lines[i] ?? '');
    if (!header) continue;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*\}\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const kind = header[1];
    const name = header[2] ?? '';
    if (kind === 'model') schema.models.push(parseModel(name, body));
    else if (kind === 'enum') schema.enums.push(parseEnum(name, body));
    else if (kind === 'datasource') {
      for (const line of body) {
        const provider = /^\s*provider\s*=\s*"([^"]*)"/.exec(line)?.[1];
        if (provider !== undefined) schema.provider = provider;
      }
    }
  }
  return schema;
}

function parseModel(name: string, body: string[]): PrismaModel {
  const fields: PrismaField[] = [];
  const blockAttributes: PrismaAttribute[] = [];
  for (const raw of body) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('@@')) {
      blockAttributes.push(...parseAttributes(line));
      continue;
    }
    const match = /^(\w+)\s+(\w+(?:\([^)]*\))?)(\[\])?(\?)?\s*(.*)$/.exec(line);
    if (!match) throw new Error(`Cannot read the field line "${line}" of model ${name}.`);
    const [, fieldName = '', type = '', list, optional, rest = ''] = match;
    const attributes = parseAttributes(rest);
    const mapped = attributes.find((a) => a.name === 'map');
    fields.push({
      name: fieldName,
      type: type.replace(/\(.*$/, ''),
      optional: optional === '?',
      list: list === '[]',
      attributes,
      column: (mapped && firstString(mapped.args)) ?? fieldName,
    });
  }
  const mapped = blockAttributes.find((a) => a.name === 'map');
  return { name, table: (mapped && firstString(mapped.args)) ?? name, fields, blockAttributes };
}

function parseEnum(name: string, body: string[]): PrismaEnum {
  const values: string[] = [];
  const valueNames: string[] = [];
  let dbName = name;
  for (const raw of body) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('@@')) {
      const mapped = parseAttributes(line).find((a) => a.name === 'map');
      dbName = (mapped && firstString(mapped.args)) ?? dbName;
      continue;
    }
    const match = /^(\w+)\s*(.*)$/.exec(line);
    if (!match) continue;
    const valueName = match[1] ?? '';
    const mapped = parseAttributes(match[2] ?? '').find((a) => a.name === 'map');
    valueNames.push(valueName);
    values.push((mapped && firstString(mapped.args)) ?? valueName);
  }
  return { name, dbName, values, valueNames };
}

/** `@id @default(autoincrement()) @map("x")` → attributes, honouring nested parens and strings. */
export function parseAttributes(text: string): PrismaAttribute[] {
  const attributes: PrismaAttribute[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '@') {
      i++;
      continue;
    }
    while (text[i] === '@') i++;
    const name = /^[\w.]+/.exec(text.slice(i))?.[0] ?? '';
    i += name.length;
    let args = '';
    if (text[i] === '(') {
      const end = matchingParen(text, i);
      args = text.slice(i + 1, end).trim();
      i = end + 1;
    }
    attributes.push({ name, args });
  }
  return attributes;
}

/** Index of the `)` closing the `(` at `open`, skipping strings. */
function matchingParen(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') i = endOfString(text, i);
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return i;
  }
  throw new Error(`Unbalanced parentheses in "${text}".`);
}

function endOfString(text: string, quote: number): number {
  for (let i = quote + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}

/** Drops a `//` comment (also `///` doc comments) unless it sits inside a string. */
function stripComment(line: string): string {
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '"') i = endOfString(line, i);
    else if (line[i] === '/' && line[i + 1] === '/') return line.slice(0, i);
  }
  return line;
}

/** Splits attribute arguments at top-level commas: `fields: [a, b], references: [id]` → 2 parts. */
export function splitArgs(args: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i];
    if (ch === '"') i = endOfString(args, i);
    else if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(args.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = args.slice(start).trim();
  if (last !== '') parts.push(last);
  return parts;
}

/** The value of a named argument (`map: "x"` → `"x"`), or the first positional one for `''`. */
export function argValue(args: string, name = ''): string | undefined {
  for (const part of splitArgs(args)) {
    const named = /^(\w+)\s*:\s*([\s\S]*)$/.exec(part);
    if (name === '' && !named) return part;
    if (named && named[1] === name) return named[2];
  }
  return undefined;
}

/** `"text"` → `text` (with `\"` and `\\` unescaped); undefined when not a string literal. */
export function unquote(value: string | undefined): string | undefined {
  if (value === undefined || !/^"[\s\S]*"$/.test(value)) return undefined;
  return value.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** `[a, b(sort: Desc)]` → `['a', 'b']` (field names only). */
export function listValue(value: string | undefined): string[] {
  if (value === undefined) return [];
  const inner = value.trim().replace(/^\[/, '').replace(/\]$/, '');
  return splitArgs(inner).map((item) => item.replace(/\(.*$/s, '').trim());
}

/** First positional string argument (`@map("x")`, `@@map(name: "x")` both give `x`). */
function firstString(args: string): string | undefined {
  return unquote(argValue(args)) ?? unquote(argValue(args, 'name'));
}

export function attribute(field: { attributes: PrismaAttribute[] }, name: string): PrismaAttribute | undefined {
  return field.attributes.find((a) => a.name === name);
}

/** Fields that are columns: everything but relation fields (whose type is a model). */
export function columnFields(model: PrismaModel, schema: PrismaSchema): PrismaField[] {
  const modelNames = new Set(schema.models.map((m) => m.name));
  return model.fields.filter((f) => !modelNames.has(f.type));
}
