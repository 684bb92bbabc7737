/**
 * Writes of relation and media fields, Strapi v4's syntax (reference §4):
 *  - a shorthand replaces the whole set: `5`, `"5"`, `[1, 2]`, `{ id: 5 }`, `[{ id: 1 }]`, `null`;
 *  - `{ set: [...] }` replaces the whole set, in order;
 *  - `{ connect: [...], disconnect: [...], options: { strict } }` edits it, with connect
 *    positions `{ before }`, `{ after }`, `{ start }`, `{ end }` (default end).
 * The link table keeps the order of each entry's targets (`orderColumn`) and of each
 * target's entries (`inverseOrderColumn`). Runs inside the caller's transaction.
 */
import type { Database } from '../db/database.js';
import { ValidationError } from '../errors.js';
import type { ContentTypeMeta, LinkMeta, MediaFieldMeta, RelationFieldMeta } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { SqlBuilder } from '../query/sql.js';

export type LinkField = RelationFieldMeta | MediaFieldMeta;

type Position = { before: number } | { after: number } | { start: true } | { end: true };

interface ConnectItem {
  readonly id: number;
  readonly position?: Position;
}

/** What the request asks for one field, before any database work. */
export type RelationInput =
  | { readonly kind: 'set'; readonly ids: readonly number[] }
  | { readonly kind: 'edit'; readonly connect: readonly ConnectItem[]; readonly disconnect: readonly number[]; readonly strict: boolean };

/** A 400 about one field, in yup's shape. */
function fieldError(field: string, message: string): ValidationError {
  return new ValidationError(message, { errors: [{ path: [field], message, name: 'ValidationError' }] });
}

const invalid = (field: string, what: string) => fieldError(field, `${field} ${what}`);

function toId(field: string, value: unknown): number {
  const raw = isPlainObject(value) ? value.id : value;
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  if (!/^[1-9]\d{0,15}$/.test(text)) throw invalid(field, `must be an id, a list of ids, or {connect, disconnect, set}; got ${JSON.stringify(value)}`);
  return Number(text);
}

function toIdList(field: string, value: unknown): number[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((item) => toId(field, item));
}

export function parseRelationInput(field: string, value: unknown): RelationInput {
  if (value === null) return { kind: 'set', ids: [] };
  if (isPlainObject(value) && ('set' in value || 'connect' in value || 'disconnect' in value)) {
    if ('set' in value) return { kind: 'set', ids: toIdList(field, value.set) };
    const connect = (value.connect === undefined ? [] : Array.isArray(value.connect) ? value.connect : [value.connect]).map(
      (item): ConnectItem => {
        const id = toId(field, item);
        const position = isPlainObject(item) ? parsePosition(field, item.position) : undefined;
        return position ? { id, position } : { id };
      },
    );
    const options = isPlainObject(value.options) ? value.options : {};
    return { kind: 'edit', connect, disconnect: toIdList(field, value.disconnect), strict: options.strict !== false };
  }
  return { kind: 'set', ids: toIdList(field, value) };
}

function parsePosition(field: string, raw: unknown): Position | undefined {
  if (raw === undefined) return undefined;
  if (!isPlainObject(raw)) throw invalid(field, 'has an invalid connect position');
  if ('before' in raw) return { before: toId(field, raw.before) };
  if ('after' in raw) return { after: toId(field, raw.after) };
  if (raw.start) return { start: true };
  if (raw.end) return { end: true };
  throw invalid(field, 'has an invalid connect position');
}

/** Every id the input refers to that must exist in the target table. */
export function referencedIds(input: RelationInput): number[] {
  return input.kind === 'set' ? [...input.ids] : input.connect.map((c) => c.id);
}

/** 400 `N relation(s) of type <uid> associated with this entity do not exist`. */
export async function assertTargetsExist(db: Database, target: ContentTypeMeta, ids: readonly number[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(
    `SELECT ${sql.ident('id')} FROM ${sql.ident(target.table)} WHERE ${sql.ident('id')} IN (${unique.map((id) => sql.param(id)).join(', ')})`,
  );
  const found = new Set((await db.query(compiled.sql, compiled.params)).map((row) => Number(row.id)));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new ValidationError(`${missing.length} relation(s) of type ${target.uid} associated with this entity do not exist`, {
      errors: [{ path: [], message: `${missing.length} relation(s) of type ${target.uid} associated with this entity do not exist`, name: 'ValidationError' }],
    });
  }
}

/** Applies connect/disconnect (with positions) to the current ordered list of ids. */
export function applyEdit(field: string, current: readonly number[], input: Extract<RelationInput, { kind: 'edit' }>): number[] {
  const seen = new Set<number>();
  for (const { id } of input.connect) {
    if (seen.has(id)) throw fieldError(field, `The relation with id ${id} is already connected. You cannot connect the same relation twice.`);
    seen.add(id);
  }
  // Connect wins over disconnect for the same id.
  const disconnect = new Set(input.disconnect.filter((id) => !seen.has(id)));
  const list = current.filter((id) => !disconnect.has(id) && !seen.has(id));

  // Items may refer to ids connected later in the same array: place them once those are in.
  let pending = [...input.connect];
  while (pending.length > 0) {
    const deferred: ConnectItem[] = [];
    for (const item of pending) {
      const anchor = item.position && ('before' in item.position ? item.position.before : 'after' in item.position ? item.position.after : undefined);
      if (anchor !== undefined && !list.includes(anchor)) {
        if (pending.some((other) => other.id === anchor && other !== item)) {
          deferred.push(item);
          continue;
        }
        if (input.strict) {
          throw fieldError(
            field,
            `There was a problem connecting relation with id ${item.id} at position ${JSON.stringify(item.position)}. The relation with id ${anchor} needs to be connected first.`,
          );
        }
        list.push(item.id);
        continue;
      }
      insertAt(list, item);
    }
    if (deferred.length === pending.length) {
      throw fieldError(field, 'A circular reference was found in the connect array. Relations cannot be positioned before or after each other.');
    }
    pending = deferred;
  }
  return list;
}

function insertAt(list: number[], item: ConnectItem): void {
  const position = item.position;
  if (!position || 'end' in position) list.push(item.id);
  else if ('start' in position) list.unshift(item.id);
  else if ('before' in position) list.splice(list.indexOf(position.before), 0, item.id);
  else list.splice(list.indexOf(position.after) + 1, 0, item.id);
}

interface LinkRow {
  target: number;
  inverseOrder: number | null;
}

/** The entry's current links, in order. */
async function currentLinks(db: Database, link: LinkMeta, entryId: number): Promise<LinkRow[]> {
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(
    `SELECT ${sql.ident(link.targetColumn)} AS ${sql.ident('target')}, ${sql.ident(link.inverseOrderColumn)} AS ${sql.ident('inverseOrder')} ` +
      `FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(entryId)} ` +
      `ORDER BY ${sql.ident(link.orderColumn)} ASC, ${sql.ident('id')} ASC`,
  );
  return (await db.query(compiled.sql, compiled.params)).map((row) => ({
    target: Number(row.target),
    inverseOrder: row.inverseOrder === null ? null : Number(row.inverseOrder),
  }));
}

/**
 * Replaces the entry's links of one field with `input` applied. To-one fields keep the
 * last id given. A target that may belong to one entry only is moved away from its
 * previous entry. `created`: the entry was just inserted, so it has no links to read or
 * delete (on MySQL/MariaDB that DELETE would take gap locks that deadlock concurrent creates).
 */
export async function writeLinks(db: Database, field: LinkField, entryId: number, input: RelationInput, created = false): Promise<void> {
  const link = field.link!;
  const current = created ? [] : await currentLinks(db, link, entryId);
  let ids = input.kind === 'set' ? [...new Set(input.ids)] : applyEdit(field.name, current.map((c) => c.target), input);
  const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
  if (!toMany) ids = ids.slice(-1);

  const kept = new Map(current.map((c) => [c.target, c.inverseOrder]));
  const sql = new SqlBuilder(db.dialect);
  const run = async (text: string) => {
    const compiled = sql.finish(text);
    await db.execute(compiled.sql, compiled.params);
    sql.params.length = 0;
  };
  if (!created) await run(`DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(entryId)}`);
  if (ids.length === 0) return;
  if (link.targetExclusive) {
    await run(`DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} IN (${ids.map((id) => sql.param(id)).join(', ')})`);
  }
  // New links go to the end of each target's own list.
  const fresh = ids.filter((id) => kept.get(id) === undefined || kept.get(id) === null);
  const lastInverse = new Map<number, number>();
  if (fresh.length > 0) {
    const compiled = sql.finish(
      `SELECT ${sql.ident(link.targetColumn)} AS ${sql.ident('target')}, MAX(${sql.ident(link.inverseOrderColumn)}) AS ${sql.ident('last')} ` +
        `FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} IN (${fresh.map((id) => sql.param(id)).join(', ')}) ` +
        `GROUP BY ${sql.ident(link.targetColumn)}`,
    );
    for (const row of await db.query(compiled.sql, compiled.params)) lastInverse.set(Number(row.target), Number(row.last ?? 0));
    sql.params.length = 0;
  }
  const values = ids.map((id, index) => {
    const inverse = kept.get(id) ?? (lastInverse.get(id) ?? 0) + 1;
    return `(${sql.param(entryId)}, ${sql.param(id)}, ${sql.param(index + 1)}, ${sql.param(inverse)})`;
  });
  await run(
    `INSERT INTO ${sql.ident(link.table)} (${[link.ownerColumn, link.targetColumn, link.orderColumn, link.inverseOrderColumn].map((c) => sql.ident(c)).join(', ')}) ` +
      `VALUES ${values.join(', ')}`,
  );
}
