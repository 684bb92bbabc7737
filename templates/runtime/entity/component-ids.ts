/**
 * Component instance ids, unique per component across all entries, as Strapi's (each
 * instance is a row of its component's table there). Clients that cache objects by type and
 * id (Apollo's InMemoryCache, urql's graphcache) rely on it: two articles' `seo` must not
 * share an id.
 *
 * Instances are stored as JSON in their entry, so the ids come from a counter per component
 * (contentgen_component_ids), advanced inside the write's transaction: concurrent writes get
 * disjoint ranges (the counter's row is locked until commit). A component's counter starts
 * above every instance id already stored, found once by a scan, for databases written before
 * the counter existed.
 */
import type { Database } from '../db/database.js';
import type { FieldMeta, Registry } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { isPlainObject } from '../query/is-plain-object.js';

export const componentIdsTable = 'contentgen_component_ids';

/** Reserves `count` new ids for instances of `component`; answers the first. */
export async function reserveComponentIds(db: Database, registry: Registry, component: string, count: number): Promise<number> {
  const sql = new SqlBuilder(db.dialect);
  const table = sql.ident(componentIdsTable);
  const [key, last] = [sql.ident('component'), sql.ident('last_id')];
  const current = sql.finish(`SELECT ${last} AS last FROM ${table} WHERE ${key} = ${sql.param(component)}`);
  const existing = await db.query<{ last: unknown }>(current.sql, current.params);
  const seed = existing.length > 0 ? 0 : await highestStoredId(db, registry);

  const upsert = new SqlBuilder(db.dialect);
  const values = `(${upsert.param(component)}, ${upsert.param(seed + count)})`;
  const statement =
    db.dialect === 'mysql'
      ? `INSERT INTO ${table} (${key}, ${last}) VALUES ${values} ON DUPLICATE KEY UPDATE ${last} = ${last} + ${upsert.param(count)}`
      : `INSERT INTO ${table} (${key}, ${last}) VALUES ${values} ON CONFLICT (${key}) DO UPDATE SET ${last} = ${table}.${last} + ${upsert.param(count)}`;
  const written = upsert.finish(statement);
  await db.execute(written.sql, written.params);
  const [row] = await db.query<{ last: unknown }>(current.sql, current.params);
  return Number(row!.last) - count + 1;
}

/** The highest instance id stored in any component or dynamic-zone column (0 for none). */
async function highestStoredId(db: Database, registry: Registry): Promise<number> {
  let highest = 0;
  for (const type of registry.contentTypes.values()) {
    const columns = (Object.values(type.fields) as FieldMeta[]).filter((f) => f.kind === 'component' || f.kind === 'dynamiczone').map((f) => (f as { column: string }).column);
    if (columns.length === 0) continue;
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(`SELECT ${columns.map((c) => sql.ident(c)).join(', ')} FROM ${sql.ident(type.table)}`);
    for (const row of await db.query<Record<string, unknown>>(compiled.sql, compiled.params)) {
      for (const value of Object.values(row)) highest = Math.max(highest, highestId(typeof value === 'string' ? safeParse(value) : value));
    }
  }
  return highest;
}

function highestId(value: unknown): number {
  let highest = 0;
  if (Array.isArray(value)) for (const item of value) highest = Math.max(highest, highestId(item));
  else if (isPlainObject(value)) {
    if (typeof value.id === 'number') highest = value.id;
    for (const [key, child] of Object.entries(value)) if (key !== 'id') highest = Math.max(highest, highestId(child));
  }
  return highest;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
