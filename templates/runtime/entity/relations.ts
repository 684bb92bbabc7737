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
import { batches, maxBoundParameters, SqlBuilder } from '../query/sql.js';
import { printJson } from './yup-messages.js';

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
  if (!/^[1-9]\d{0,15}$/.test(text)) throw invalid(field, `must be an id, a list of ids, or {connect, disconnect, set}; got ${printJson(value)}`);
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
  const found = new Set<number>();
  for (const batch of batches(unique)) {
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(
      `SELECT ${sql.ident('id')} FROM ${sql.ident(target.table)} WHERE ${sql.ident('id')} IN (${batch.map((id) => sql.param(id)).join(', ')})`,
    );
    for (const row of await db.query(compiled.sql, compiled.params)) found.add(Number(row.id));
  }
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length > 0) {
    throw new ValidationError(`${missing.length} relation(s) of type ${target.uid} associated with this entity do not exist`, {
      errors: [{ path: [], message: `${missing.length} relation(s) of type ${target.uid} associated with this entity do not exist`, name: 'ValidationError' }],
    });
  }
}

/**
 * Applies connect/disconnect (with positions) to the current ordered list of ids.
 *
 * Connect items are placed in passes, in request order: an item positioned next to an id
 * connected later in the same array waits for the next pass (Strapi's order). The passes are
 * computed up front (one walk along each chain of such references) and the list is a linked
 * list, so a connect array of any length costs time linear in it, not quadratic.
 */
export function applyEdit(field: string, current: readonly number[], input: Extract<RelationInput, { kind: 'edit' }>): number[] {
  const connect = input.connect;
  const index = new Map<number, number>();
  for (const [i, { id }] of connect.entries()) {
    if (index.has(id)) throw fieldError(field, `The relation with id ${id} is already connected. You cannot connect the same relation twice.`);
    index.set(id, i);
  }
  // Connect wins over disconnect for the same id.
  const disconnect = new Set(input.disconnect.filter((id) => !index.has(id)));
  const list = new LinkedIds(current.filter((id) => !disconnect.has(id) && !index.has(id)));

  const anchorOf = (item: ConnectItem): number | undefined =>
    item.position && ('before' in item.position ? item.position.before : 'after' in item.position ? item.position.after : undefined);
  // The connect item (index) an item waits for: its anchor, when another item of the array connects it.
  const waitsFor = (i: number): number | undefined => {
    const anchor = anchorOf(connect[i]!);
    if (anchor === undefined || list.has(anchor)) return undefined;
    const j = index.get(anchor);
    return j === undefined || j === i ? undefined : j;
  };
  // pass(i) = 0 without a wait; pass(j), or pass(j) + 1 when j comes later in the array (it is
  // placed after i in j's pass). A cycle never resolves: Infinity.
  const pass = new Array<number>(connect.length).fill(-1);
  for (let start = 0; start < connect.length; start++) {
    const chain: number[] = [];
    const onChain = new Set<number>();
    let at: number | undefined = start;
    let base = 0;
    while (at !== undefined && pass[at] === -1) {
      if (onChain.has(at)) {
        base = Infinity;
        break;
      }
      chain.push(at);
      onChain.add(at);
      at = waitsFor(at);
    }
    if (at !== undefined && pass[at] !== -1) base = pass[at]!;
    for (let k = chain.length - 1; k >= 0; k--) {
      const i = chain[k]!;
      const j = k + 1 < chain.length ? chain[k + 1]! : at;
      pass[i] = base === Infinity ? Infinity : j === undefined ? 0 : base + (j > i ? 1 : 0);
      base = pass[i]!;
    }
  }
  const byPass = new Map<number, number[]>();
  for (let i = 0; i < connect.length; i++) {
    if (pass[i] === Infinity) continue;
    const group = byPass.get(pass[i]!) ?? [];
    group.push(i);
    byPass.set(pass[i]!, group);
  }
  for (const p of [...byPass.keys()].sort((a, b) => a - b)) {
    for (const i of byPass.get(p)!) {
      const item = connect[i]!;
      const anchor = anchorOf(item);
      if (anchor !== undefined && !list.has(anchor)) {
        if (input.strict) {
          throw fieldError(
            field,
            `There was a problem connecting relation with id ${item.id} at position ${JSON.stringify(item.position)}. The relation with id ${anchor} needs to be connected first.`,
          );
        }
        list.append(item.id);
        continue;
      }
      insertAt(list, item);
    }
  }
  if (pass.includes(Infinity)) {
    throw fieldError(field, 'A circular reference was found in the connect array. Relations cannot be positioned before or after each other.');
  }
  return list.toArray();
}

function insertAt(list: LinkedIds, item: ConnectItem): void {
  const position = item.position;
  if (!position || 'end' in position) list.append(item.id);
  else if ('start' in position) list.prepend(item.id);
  else if ('before' in position) list.insertBefore(position.before, item.id);
  else list.insertAfter(position.after, item.id);
}

/** An ordered list of distinct ids with constant-time lookup and insertion next to an id. */
class LinkedIds {
  readonly #next = new Map<number, number | null>();
  readonly #prev = new Map<number, number | null>();
  #head: number | null = null;
  #tail: number | null = null;

  constructor(ids: readonly number[]) {
    for (const id of ids) this.append(id);
  }

  has(id: number): boolean {
    return this.#next.has(id);
  }

  append(id: number): void {
    this.#link(id, this.#tail, null);
  }

  prepend(id: number): void {
    this.#link(id, null, this.#head);
  }

  insertBefore(anchor: number, id: number): void {
    this.#link(id, this.#prev.get(anchor) ?? null, anchor);
  }

  insertAfter(anchor: number, id: number): void {
    this.#link(id, anchor, this.#next.get(anchor) ?? null);
  }

  toArray(): number[] {
    const out: number[] = [];
    for (let at = this.#head; at !== null; at = this.#next.get(at) ?? null) out.push(at);
    return out;
  }

  #link(id: number, prev: number | null, next: number | null): void {
    this.#prev.set(id, prev);
    this.#next.set(id, next);
    if (prev === null) this.#head = id;
    else this.#next.set(prev, id);
    if (next === null) this.#tail = id;
    else this.#prev.set(next, id);
  }
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
  const compile = (build: (sql: SqlBuilder) => string) => {
    const sql = new SqlBuilder(db.dialect);
    return sql.finish(build(sql));
  };
  const run = async (build: (sql: SqlBuilder) => string) => {
    const compiled = compile(build);
    await db.execute(compiled.sql, compiled.params);
  };
  if (!created) await run((sql) => `DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.ownerColumn)} = ${sql.param(entryId)}`);
  if (ids.length === 0) return;
  // Lists of any length: every statement binds at most `maxBoundParameters` values (SQLite
  // allows 32,766 in one statement, PostgreSQL and MySQL 65,535).
  if (link.targetExclusive) {
    for (const batch of batches(ids)) {
      await run((sql) => `DELETE FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} IN (${batch.map((id) => sql.param(id)).join(', ')})`);
    }
  }
  // New links go to the end of each target's own list.
  const fresh = ids.filter((id) => kept.get(id) === undefined || kept.get(id) === null);
  const lastInverse = new Map<number, number>();
  for (const batch of batches(fresh)) {
    const compiled = compile(
      (sql) =>
        `SELECT ${sql.ident(link.targetColumn)} AS ${sql.ident('target')}, MAX(${sql.ident(link.inverseOrderColumn)}) AS ${sql.ident('last')} ` +
        `FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} IN (${batch.map((id) => sql.param(id)).join(', ')}) ` +
        `GROUP BY ${sql.ident(link.targetColumn)}`,
    );
    for (const row of await db.query(compiled.sql, compiled.params)) lastInverse.set(Number(row.target), Number(row.last ?? 0));
  }
  const columns = [link.ownerColumn, link.targetColumn, link.orderColumn, link.inverseOrderColumn];
  const rows = ids.map((id, index) => [entryId, id, index + 1, kept.get(id) ?? (lastInverse.get(id) ?? 0) + 1]);
  for (const batch of batches(rows, Math.floor(maxBoundParameters / columns.length))) {
    await run(
      (sql) =>
        `INSERT INTO ${sql.ident(link.table)} (${columns.map((c) => sql.ident(c)).join(', ')}) ` +
        `VALUES ${batch.map((row) => `(${row.map((value) => sql.param(value)).join(', ')})`).join(', ')}`,
    );
  }
}
