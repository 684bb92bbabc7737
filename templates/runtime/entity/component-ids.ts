/**
 * Component instance ids, unique per component across all entries, as Strapi's (each
 * instance is a row of its component's table there). Clients that cache objects by type and
 * id (Apollo's InMemoryCache, urql's graphcache) rely on it: two articles' `seo` must not
 * share an id.
 *
 * Instances are stored as JSON in their entry, so the ids come from a counter per component
 * (contentgen_component_ids), advanced in a short transaction of its own (`db.independent`),
 * as a sequence is: concurrent writes get disjoint ranges, and a write's rollback leaves its
 * ids unused (as Strapi's auto-increment ids on PostgreSQL and MySQL). Advanced inside the
 * write's transaction, the counter's row stayed locked until that write committed, so every
 * write giving an instance of the same component waited for the one before: on PostgreSQL and
 * MariaDB ten concurrent creates ran one at a time. (On SQLite, one writer, it still runs in
 * the write's transaction.) A component's counter starts above the ids of its instances
 * already stored, found once by a scan, for databases written before the counter existed.
 */
import type { Database } from '../db/database.js';
import type { Registry } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import { findInstance, holdersOf, parseStoredJson } from './component-holders.js';

export const componentIdsTable = 'contentgen_component_ids';

/** Reserves `count` new ids for instances of `component`; answers the first. */
export async function reserveComponentIds(db: Database, registry: Registry, component: string, count: number): Promise<number> {
  return (await reserveIds(db, registry, new Map([[component, count]]))).get(component)!;
}

/**
 * Gives every instance in `fresh` (by component uid) a new id, for all components at once:
 * three statements whatever the number of components (read the counters, advance them in one
 * upsert, read them again), and the counters' rows locked in one order (by uid) by every
 * writer, so that two writes of different components never wait for each other in a cycle.
 */
export async function assignComponentIds(db: Database, registry: Registry, fresh: ReadonlyMap<string, readonly Record<string, unknown>[]>): Promise<void> {
  const counts = new Map([...fresh].filter(([, instances]) => instances.length > 0).map(([uid, instances]) => [uid, instances.length]));
  if (counts.size === 0) return;
  const first = await reserveIds(db, registry, counts);
  for (const [uid, instances] of fresh) instances.forEach((instance, i) => (instance.id = first.get(uid)! + i));
}

/**
 * The id the next new instance of each component would get, reserving nothing (an answer
 * that shows the ids a failed write would have given, as Strapi 5's validation errors do).
 */
export async function nextComponentIds(db: Database, registry: Registry, uids: readonly string[]): Promise<Map<string, number>> {
  const sorted = [...new Set(uids)].sort();
  if (sorted.length === 0) return new Map();
  const counters = await readCounters(db, sorted);
  const next = new Map<string, number>();
  for (const uid of sorted) next.set(uid, (counters.get(uid) ?? (await highestStoredId(db, registry, uid))) + 1);
  return next;
}

/** The last id given of each component that has a counter. */
async function readCounters(db: Database, uids: readonly string[]): Promise<Map<string, number>> {
  const sql = new SqlBuilder(db.dialect);
  const compiled = sql.finish(
    `SELECT ${sql.ident('component')} AS ${sql.ident('component')}, ${sql.ident('last_id')} AS ${sql.ident('last')} FROM ${sql.ident(componentIdsTable)} ` +
      `WHERE ${sql.ident('component')} IN (${uids.map((uid) => sql.param(uid)).join(', ')})`,
  );
  return new Map((await db.query<{ component: string; last: unknown }>(compiled.sql, compiled.params)).map((row) => [row.component, Number(row.last)]));
}

/** Advances the counters of `counts` (uid → ids wanted); answers each component's first new id. */
function reserveIds(db: Database, registry: Registry, counts: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  return db.independent((own) => reserveIdsIn(own, registry, counts));
}

async function reserveIdsIn(db: Database, registry: Registry, counts: ReadonlyMap<string, number>): Promise<Map<string, number>> {
  const uids = [...counts.keys()].sort();
  const read = () => readCounters(db, uids);
  const existing = await read();
  const upsert = new SqlBuilder(db.dialect);
  const table = upsert.ident(componentIdsTable);
  const [key, last] = [upsert.ident('component'), upsert.ident('last_id')];
  const values: string[] = [];
  for (const uid of uids) {
    // A counter that does not exist yet starts above the ids already stored; an existing one
    // is advanced by the count (the inserted value, as nobody else's seed can be above it).
    const seed = existing.has(uid) ? 0 : await highestStoredId(db, registry, uid);
    values.push(`(${upsert.param(uid)}, ${upsert.param(seed + counts.get(uid)!)})`);
  }
  const statement =
    db.dialect === 'mysql'
      ? `INSERT INTO ${table} (${key}, ${last}) VALUES ${values.join(', ')} ON DUPLICATE KEY UPDATE ${last} = ${last} + VALUES(${last})`
      : `INSERT INTO ${table} (${key}, ${last}) VALUES ${values.join(', ')} ON CONFLICT (${key}) DO UPDATE SET ${last} = ${table}.${last} + ${db.dialect === 'postgresql' ? 'EXCLUDED' : 'excluded'}.${last}`;
  const written = upsert.finish(statement);
  await db.execute(written.sql, written.params);
  const advanced = await read();
  return new Map(uids.map((uid) => [uid, advanced.get(uid)! - counts.get(uid)! + 1]));
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
