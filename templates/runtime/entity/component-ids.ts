/**
 * Component instance ids, unique per component across all entries, as Strapi's (each
 * instance is a row of its component's table there). Clients that cache objects by type and
 * id (Apollo's InMemoryCache, urql's graphcache) rely on it: two articles' `seo` must not
 * share an id.
 *
 * Instances are stored as JSON in their entry, so the ids come from a counter per component
 * (contentgen_component_ids), advanced inside the write's transaction: concurrent writes get
 * disjoint ranges (the counter's row is locked until commit). A component's counter starts
 * above the ids of its instances already stored, found once by a scan, for databases written
 * before the counter existed.
 */
import type { Database } from '../db/database.js';
import type { Registry } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { findInstance, holdersOf, parseStoredJson } from './component-holders.js';

export const componentIdsTable = 'contentgen_component_ids';

/** Reserves `count` new ids for instances of `component`; answers the first. */
export async function reserveComponentIds(db: Database, registry: Registry, component: string, count: number): Promise<number> {
  const sql = new SqlBuilder(db.dialect);
  const table = sql.ident(componentIdsTable);
  const [key, last] = [sql.ident('component'), sql.ident('last_id')];
  const current = sql.finish(`SELECT ${last} AS last FROM ${table} WHERE ${key} = ${sql.param(component)}`);
  const existing = await db.query<{ last: unknown }>(current.sql, current.params);
  const seed = existing.length > 0 ? 0 : await highestStoredId(db, registry, component);

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

/**
 * The highest id of the instances of `component` already stored (0 for none), in the columns
 * that can hold it: another component's ids do not count, so each component's ids start at 1
 * as in Strapi, where each has its own table.
 */
async function highestStoredId(db: Database, registry: Registry, component: string): Promise<number> {
  let highest = 0;
  for (const [type, fields] of holdersOf(registry, component)) {
    const sql = new SqlBuilder(db.dialect);
    const compiled = sql.finish(`SELECT ${fields.map((f) => sql.ident(f.column)).join(', ')} FROM ${sql.ident(type.table)}`);
    for (const row of await db.query<Record<string, unknown>>(compiled.sql, compiled.params)) {
      for (const field of fields) {
        findInstance(registry, field, parseStoredJson(row[field.column]), (uid, instance) => {
          if (uid === component && typeof instance.id === 'number') highest = Math.max(highest, instance.id);
          return false;
        });
      }
    }
  }
  return highest;
}
