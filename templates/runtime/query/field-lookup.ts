/**
 * Resolving a request's attribute name against a content type's metadata.
 */
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta } from '../meta.js';

/** Used when metadata omits `id`, which every Strapi table has and every query may name. */
const defaultIdField: ScalarFieldMeta = {
  kind: 'scalar',
  name: 'id',
  type: 'integer',
  column: 'id',
  prismaField: 'id',
  writable: false,
};

export function idField(meta: ContentTypeMeta): ScalarFieldMeta {
  const field = meta.fields['id'];
  return field?.kind === 'scalar' ? field : defaultIdField;
}

/**
 * The field a request names, matched case-sensitively. Own properties only, so that
 * `constructor` or `toString` never resolve to something.
 */
export function findField(meta: ContentTypeMeta, name: string): FieldMeta | undefined {
  if (name === 'id') return idField(meta);
  return Object.hasOwn(meta.fields, name) ? meta.fields[name] : undefined;
}

/** Private and password attributes may not appear in filters, sort or fields. */
export function isHiddenField(field: FieldMeta): boolean {
  return field.private === true || (field.kind === 'scalar' && field.type === 'password');
}
