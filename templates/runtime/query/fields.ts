/**
 * `fields`: which scalar attributes a response carries.
 *
 *   fields=title,slug     fields[0]=title&fields[1]=slug     fields=*     (absent: all)
 */
import { invalidParameter, ValidationError } from '../errors.js';
import { type ContentTypeMeta, isSelectableScalar } from '../meta.js';
import { findField } from './field-lookup.js';

/** Every attribute `fields=*` selects, in declaration order (id first). */
export function allSelectableFields(meta: ContentTypeMeta): string[] {
  const names = Object.values(meta.fields)
    .filter(isSelectableScalar)
    .map((field) => field.name);
  return ['id', ...names.filter((name) => name !== 'id')];
}

/**
 * Selected attribute names: `id` first, then the requested ones in request order
 * (duplicates dropped). Unknown, private, password and non-scalar names are a 400.
 */
export function parseFields(meta: ContentTypeMeta, raw: unknown): string[] {
  // `?fields` without a value (null) selects the default, like an absent parameter.
  if (raw === undefined || raw === null || raw === '*') return allSelectableFields(meta);
  const names = requestedNames(raw);
  for (const name of names) {
    const field = findField(meta, name);
    if (field === undefined || !isSelectableScalar(field)) throw invalidParameter(name);
  }
  return [...new Set(['id', ...names])];
}

/**
 * Names from a comma list or an array of comma lists. As in Strapi, `*` means "all" only
 * as the whole parameter; inside a list it is an unknown name. Blank names are skipped.
 */
function requestedNames(raw: unknown): string[] {
  const items = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(items) || !items.every((item): item is string => typeof item === 'string')) {
    throw new ValidationError('Invalid fields parameter. Expected a string or an array of strings');
  }
  return items
    .flatMap((item) => item.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
