/**
 * `_q`: Strapi's quick search, a case-insensitive "contains" over `id` (as text) and
 * every string-like attribute. Private and password attributes are never searched, so
 * a search cannot probe values the API does not show.
 */
import type { ContentTypeMeta, ScalarFieldMeta } from '../meta.js';
import { or } from './conditions.js';
import { idField, isHiddenField } from './field-lookup.js';
import { isStringType } from './scalar-types.js';
import type { SqlBuilder } from './sql.js';
import { compileTextMatch } from './text-match.js';

const containsInsensitive = { kind: 'contains', caseSensitive: false, negated: false } as const;

export function searchableFields(meta: ContentTypeMeta): ScalarFieldMeta[] {
  const strings = Object.values(meta.fields).filter(
    (field): field is ScalarFieldMeta =>
      field.kind === 'scalar' && field.name !== 'id' && isStringType(field.type) && !isHiddenField(field),
  );
  return [idField(meta), ...strings];
}

/** The search condition, or undefined for an empty search. */
export function compileSearch(meta: ContentTypeMeta, q: string, sql: SqlBuilder, alias?: string): string | undefined {
  if (q === '') return undefined;
  return or(
    searchableFields(meta).map((field) =>
      compileTextMatch(sql, field, sql.column(field.column, alias), containsInsensitive, q),
    ),
  );
}
