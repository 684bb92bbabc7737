/**
 * `fields`: which scalar attributes a response carries.
 *
 *   fields=title     fields[0]=title&fields[1]=slug     fields=*     (absent: all)
 *
 * As in Strapi v4.26, a comma is not a separator: `fields=title,slug` names one attribute
 * `title,slug` and is 400 `Invalid parameter title,slug`.
 */
import { invalidParameter, ValidationError } from '../errors.js';
import { type ContentTypeMeta, isSelectableScalar } from '../meta.js';
import { findField } from './field-lookup.js';

/** Every attribute `fields=*` selects, in declaration order (id first). */
export function allSelectableFields(meta: ContentTypeMeta): string[] {
  let all = allFields.get(meta);
  if (!all) {
    const names = Object.values(meta.fields)
      .filter(isSelectableScalar)
      .map((field) => field.name);
    all = ['id', ...names.filter((name) => name !== 'id')];
    allFields.set(meta, all);
  }
  return [...all];
}

/** Metadata never changes: each type's list is computed once. */
const allFields = new WeakMap<ContentTypeMeta, readonly string[]>();

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
 * Names from a string or an array of strings, each one name (commas do not split). As in
 * Strapi, `*` means "all" only as the whole parameter; inside a list it is an unknown name.
 * Blank names are skipped.
 */
function requestedNames(raw: unknown): string[] {
  const items = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(items) || !items.every((item): item is string => typeof item === 'string')) {
    throw new ValidationError('Invalid fields parameter. Expected a string or an array of strings');
  }
  return items
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
