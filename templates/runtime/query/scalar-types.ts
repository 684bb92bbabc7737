/**
 * How each scalar type behaves in a query: which ones are text, which ones can be
 * compared or sorted at all.
 */
import type { ScalarType } from '../meta.js';

const stringTypes: ReadonlySet<ScalarType> = new Set<ScalarType>([
  'string',
  'text',
  'richtext',
  'enumeration',
  'email',
  'password',
  'uid',
]);

/** Types stored as text; they get code-point (binary) comparison on every database. */
export function isStringType(type: ScalarType): boolean {
  return stringTypes.has(type);
}

/**
 * Types the text operators ($contains, $eqi, ...) and `_q` accept: strings, plus integers
 * whose text form ('42') is the same on every database. Floats, decimals, booleans and
 * dates render differently per database, so matching their text would not be portable.
 */
export function isTextMatchableType(type: ScalarType): boolean {
  return isStringType(type) || type === 'integer' || type === 'biginteger';
}

/** JSON columns have no portable ordering or equality; only $null/$notNull apply. */
export function isComparableType(type: ScalarType): boolean {
  return type !== 'json' && type !== 'array';
}
