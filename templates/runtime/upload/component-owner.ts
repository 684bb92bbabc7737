/**
 * The entry that holds a component instance. Strapi keeps each instance as a row of its
 * component's table, so `POST /api/upload` with `ref` a component uid and `refId` an instance
 * id names it directly; here instances are JSON in their entry's component and dynamic-zone
 * columns (entity/components.ts), so the entry is found by looking through every column that
 * can hold that component — directly, repeatable, in a dynamic zone or nested in another
 * component. Instance ids are unique per component across all entries (component-ids.ts), so
 * at most one entry matches.
 *
 * The search reads those columns of every entry of the types concerned: a link to a component
 * is an occasional write, and no index can find an id inside JSON on all three databases.
 */
import type { Database } from '../db/database.js';
import { findInstance as walkInstances, holdersOf, parseStoredJson, type NestedField } from '../entity/component-holders.js';
import { prismaFieldOf, type ContentTypeMeta, type Registry } from '../meta.js';

type Json = Record<string, unknown>;

const ownerPageSize = 500;

export interface InstanceOwner {
  readonly meta: ContentTypeMeta;
  readonly entryId: number;
  /** The column (Prisma field) holding the instance. */
  readonly field: NestedField;
}

/** The entry holding instance `instanceId` of `component`, or undefined. */
export async function findInstanceOwner(db: Database, registry: Registry, component: string, instanceId: number): Promise<InstanceOwner | undefined> {
  for (const [meta, fields] of holdersOf(registry, component)) {
    const select = Object.fromEntries([['id', true], ...fields.map((f) => [prismaFieldOf(f), true])]);
    // A page of entries at a time: memory stays bounded whatever the number of entries.
    for (let after = 0; ; ) {
      const rows: Json[] = await db.prisma[meta.delegate].findMany({ select, where: { id: { gt: after } }, orderBy: { id: 'asc' }, take: ownerPageSize });
      for (const row of rows) {
        const field = fields.find((f) => findInstance(registry, f, parseStoredJson(row[prismaFieldOf(f)]), component, instanceId));
        if (field) return { meta, entryId: Number(row.id), field };
      }
      if (rows.length < ownerPageSize) break;
      after = Number(rows.at(-1)!.id);
    }
  }
  return undefined;
}

/** The owner's column value, parsed, and the instance object inside it (to be changed in place). */
export async function readInstance(db: Database, registry: Registry, owner: InstanceOwner, component: string, instanceId: number): Promise<{ value: unknown; instance: Json } | undefined> {
  const row: Json | null = await db.prisma[owner.meta.delegate].findUnique({ where: { id: owner.entryId }, select: { [prismaFieldOf(owner.field)]: true } });
  const value = parseStoredJson(row?.[prismaFieldOf(owner.field)]);
  const instance = findInstance(registry, owner.field, value, component, instanceId);
  return instance ? { value, instance } : undefined;
}

/** The instance of `component` with id `instanceId` in a stored value, at any depth. */
function findInstance(registry: Registry, field: NestedField, value: unknown, component: string, instanceId: number): Json | undefined {
  return walkInstances(registry, field, value, (uid, instance) => uid === component && instance.id === instanceId);
}
