/**
 * Attribute renames (`--rename <uid>.<old>=<new>`): a model change that would otherwise be a
 * dropped column and an added one, losing the column's data. The previous Prisma schema is
 * rewritten as if the attribute had always had its new name, so the schema diff sees no change
 * for it, and the migration starts with the statements that rename the column (and the index
 * of a unique one) in place, keeping every row's value.
 *
 * Scalar attributes of content types. Renaming a relation, media, component or dynamic-zone
 * attribute, a content type or a component moves link tables or JSON keys: refused with a
 * message that says so, rather than done halfway.
 */
import type { Provider } from '../ir/scalars.js';
import type { Schema } from '../ir/types.js';
import type { ModelSummary } from '../changes/summary.js';
import { parsePrismaSchema } from './prisma-schema.js';

export interface AttributeRename {
  /** Content type uid: `api::article.article`. */
  readonly uid: string;
  readonly from: string;
  readonly to: string;
}

/** `api::article.article.subtitle=subheading` → the rename, or an error message. */
export function parseRename(spec: string): AttributeRename | string {
  const match = /^((?:api|plugin)::[\w-]+\.[\w-]+)\.([\w-]+)=([\w-]+)$/.exec(spec.trim());
  if (!match) {
    if (/^[\w-]+::[\w-]+\.[\w-]+=/.test(spec) || /^[\w-]+\.[\w-]+=[\w-]+\.[\w-]+$/.test(spec)) {
      return `--rename ${spec}: renaming a content type or a component is not supported yet; only attributes (<uid>.<old>=<new>)`;
    }
    return `--rename ${spec}: expected <content type uid>.<old attribute>=<new attribute>, e.g. api::article.article.subtitle=subheading`;
  }
  return { uid: match[1]!, from: match[2]!, to: match[3]! };
}

/** Checks renames against the previous and the new models; returns error messages. */
export function checkRenames(renames: readonly AttributeRename[], ir: Schema, previous: ModelSummary | undefined): string[] {
  const errors: string[] = [];
  for (const rename of renames) {
    const label = `--rename ${rename.uid}.${rename.from}=${rename.to}`;
    const ct = ir.contentTypes.find((c) => c.uid === rename.uid);
    const before = previous?.contentTypes[rename.uid]?.attributes[rename.from];
    const now = ct?.attributes.find((a) => a.name === rename.to);
    if (!ct) errors.push(`${label}: no content type ${rename.uid} in the models`);
    else if (!previous) errors.push(`${label}: the previous build kept no model summary (.contentgen/model.json) to rename from; build once without the rename first`);
    else if (!before) errors.push(`${label}: the previous build has no attribute ${rename.from} in ${rename.uid}`);
    else if (ct.attributes.some((a) => a.name === rename.from)) errors.push(`${label}: ${rename.from} is still in the models`);
    else if (!now) errors.push(`${label}: the models have no attribute ${rename.to} in ${rename.uid}`);
    else if (now.kind !== 'scalar') errors.push(`${label}: renaming a ${now.kind} attribute is not supported yet (it moves a link table or JSON keys); only scalar attributes`);
    else if (before.type !== now.type) errors.push(`${label}: ${rename.from} was a ${before.type}, ${rename.to} is a ${now.type}; a rename keeps the type`);
    else if (previous.contentTypes[rename.uid]!.attributes[rename.to]) errors.push(`${label}: the previous build already has an attribute ${rename.to}`);
  }
  return errors;
}

/**
 * `--rename` flags for the attributes that disappeared from a type while one of the same kind
 * appeared in it: the likely renames, offered when a build refuses to drop a column.
 */
export function suggestRenames(previous: ModelSummary | undefined, ir: Schema): string[] {
  if (!previous) return [];
  const out: string[] = [];
  for (const ct of ir.contentTypes) {
    const before = previous.contentTypes[ct.uid]?.attributes;
    if (!before) continue;
    const names = new Set(ct.attributes.map((a) => a.name));
    const gone = Object.entries(before).filter(([name]) => !names.has(name));
    const added = ct.attributes.filter((a) => a.kind === 'scalar' && !a.builtIn && !(a.name in before));
    for (const [name, summary] of gone) {
      const index = added.findIndex((a) => a.kind === 'scalar' && a.type === summary.type);
      if (index < 0) continue;
      out.push(`--rename ${ct.uid}.${name}=${added[index]!.name}`);
      added.splice(index, 1);
    }
  }
  return out;
}

export interface RenamePlan {
  /** The previous Prisma schema as if the attributes had always had their new names. */
  readonly previousSchema: string;
  /** Statements that rename the columns (and unique indexes) in the database, in order. */
  readonly sql: string;
  /** One line per rename, for the build's output and the change report. */
  readonly described: readonly string[];
}

export function planRenames(renames: readonly AttributeRename[], ir: Schema, previousSchema: string, provider: Provider): RenamePlan {
  let text = previousSchema;
  const statements: string[] = [];
  const described: string[] = [];
  const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
  for (const rename of renames) {
    const ct = ir.contentTypes.find((c) => c.uid === rename.uid)!;
    const attribute = ct.attributes.find((a) => a.name === rename.to);
    if (attribute?.kind !== 'scalar') continue;
    const table = ct.names.table;
    const model = parsePrismaSchema(text).models.find((m) => m.table === table);
    const field = model?.fields.find((f) => f.name === rename.from);
    if (!model || !field) continue;
    const oldColumn = field.column;
    const newColumn = attribute.column;
    text = rewriteField(text, model.name, rename.from, rename.to, oldColumn, newColumn);
    described.push(`renames column "${oldColumn}" of table "${table}" to "${newColumn}" (${rename.uid} ${rename.from} → ${rename.to}), keeping its values`);
    if (oldColumn === newColumn) continue;
    statements.push(`ALTER TABLE ${q(table)} RENAME COLUMN ${q(oldColumn)} TO ${q(newColumn)};`);
    if (field.attributes.some((a) => a.name === 'unique')) {
      // Prisma names a unique index <table>_<column>_key: the index follows its column's name.
      const [oldIndex, newIndex] = [`${table}_${oldColumn}_key`, `${table}_${newColumn}_key`];
      if (provider === 'postgresql') statements.push(`ALTER INDEX ${q(oldIndex)} RENAME TO ${q(newIndex)};`);
      else if (provider === 'mysql') statements.push(`ALTER TABLE ${q(table)} RENAME INDEX ${q(oldIndex)} TO ${q(newIndex)};`);
      else statements.push(`DROP INDEX ${q(oldIndex)};`, `CREATE UNIQUE INDEX ${q(newIndex)} ON ${q(table)}(${q(newColumn)});`);
    }
  }
  const sql = statements.length ? `-- Renamed attributes (--rename): the columns keep their values\n${statements.join('\n')}\n` : '';
  return { previousSchema: text, sql, described };
}

/** The field line of `model` named `from`, renamed to `to` and mapped to `newColumn`. */
function rewriteField(schema: string, model: string, from: string, to: string, oldColumn: string, newColumn: string): string {
  const block = new RegExp(`^model ${model} \\{[\\s\\S]*?^\\}`, 'm');
  return schema.replace(block, (text) =>
    text.replace(new RegExp(`^(\\s+)${from}(\\s+)(.*)$`, 'm'), (_line, indent: string, gap: string, rest: string) => {
      const withoutMap = rest.replace(new RegExp(`\\s*@map\\("${oldColumn}"\\)`), '');
      const mapped = newColumn === to ? withoutMap : `${withoutMap} @map("${newColumn}")`;
      return `${indent}${to}${gap}${mapped.trim()}`;
    }),
  );
}
