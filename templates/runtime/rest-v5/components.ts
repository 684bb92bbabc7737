/**
 * Strapi 5 refuses an update that names a component instance the document does not hold (an
 * id of another entry's instance, or of none): its `updateComponents` compares the ids given
 * for each component field with the field's stored ones before writing, 400 ApplicationError
 * `Some of the provided components in <field> are not related to the entity` (a dynamic zone:
 * the same text as a 400 BadRequestError, a plain error with status 400 there). The service
 * refuses them too, with Strapi 4.26.2's v4 envelopes (entity/components.ts), after validating
 * the input; this check comes first, so the v5 dialect answers Strapi 5's. It reads the stored
 * JSON of those fields only when the body names ids. Top-level instances of each field are
 * checked here; nested ones by the service.
 */
import type { Database } from '../db/database.js';
import { parseStoredJson } from '../entity/component-holders.js';
import { ApplicationError } from '../errors.js';
import { prismaFieldOf, type ContentTypeMeta, type FieldMeta } from '../meta.js';

type Bag = Record<string, unknown>;

export async function assertOwnComponents(db: Database, meta: ContentTypeMeta, id: number, body: unknown): Promise<void> {
  const data = isBag(body) && isBag(body.data) ? body.data : undefined;
  if (!data) return;
  const named = Object.keys(data).filter((name) => isNested(meta.fields[name]) && instancesOf(data[name]).some((item) => item.id !== undefined && item.id !== null));
  if (named.length === 0) return;
  // The stored JSON of those fields (instances keep their ids there: entity/component-ids.ts).
  const stored: Bag = (await db.prisma[meta.delegate].findUnique({ where: { id }, select: Object.fromEntries(named.map((name) => [prismaFieldOf(meta.fields[name]!), true])) })) ?? {};
  for (const name of named) {
    const zone = meta.fields[name]!.kind === 'dynamiczone';
    const key = (item: Bag) => `${String(item.id)}${zone ? `\0${String(item.__component)}` : ''}`;
    const held = new Set(instancesOf(parseStoredJson(stored[prismaFieldOf(meta.fields[name]!)])).map(key));
    const foreign = instancesOf(data[name]).some((item) => item.id !== undefined && item.id !== null && !held.has(key(item)));
    if (!foreign) continue;
    const message = `Some of the provided components in ${name} are not related to the entity`;
    if (zone) throw Object.assign(new Error(message), { status: 400 });
    throw new ApplicationError(message);
  }
}

function isNested(field: FieldMeta | undefined): boolean {
  return field?.kind === 'component' || field?.kind === 'dynamiczone';
}

function instancesOf(value: unknown): Bag[] {
  return (Array.isArray(value) ? value : [value]).filter(isBag);
}

function isBag(value: unknown): value is Bag {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
