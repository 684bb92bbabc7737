/**
 * Strapi 5 refuses an update that names a component instance the document does not hold (an
 * id of another entry's instance, or of none): its `updateComponents` compares the ids given
 * for each component field with the field's stored ones before writing, 400 ApplicationError
 * `Some of the provided components in <field> are not related to the entity` (a dynamic zone:
 * the same text as a 400 BadRequestError, a plain error with status 400 there). The v4 service
 * here takes such an instance as a new one (test/behaviour/component-ids.test.ts), so the v5
 * dialect checks first; it reads the stored instances only when the body names ids.
 * Top-level instances of each field are checked (Strapi also checks nested components).
 */
import type { EntityService } from '../entity/service.js';
import { ApplicationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta } from '../meta.js';

type Bag = Record<string, unknown>;

export async function assertOwnComponents(service: EntityService, meta: ContentTypeMeta, id: number, body: unknown): Promise<void> {
  const data = isBag(body) && isBag(body.data) ? body.data : undefined;
  if (!data) return;
  const named = Object.keys(data).filter((name) => isNested(meta.fields[name]) && instancesOf(data[name]).some((item) => item.id !== undefined && item.id !== null));
  if (named.length === 0) return;
  const query = { filters: { id: { $eq: id } }, fields: ['id'], populate: Object.fromEntries(named.map((name) => [name, true])), publicationState: 'preview', pagination: { page: 1, pageSize: 1, withCount: false } };
  const found = await service.find(meta.localized ? { ...query, locale: 'all' } : query);
  const stored = found.data[0]?.attributes ?? {};
  for (const name of named) {
    const zone = meta.fields[name]!.kind === 'dynamiczone';
    const key = (item: Bag) => `${String(item.id)}${zone ? `\0${String(item.__component)}` : ''}`;
    const held = new Set(instancesOf(stored[name]).map(key));
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
