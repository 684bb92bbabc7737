/**
 * Query-string parsing with the exact `qs` options Strapi v4 uses, so bracket notation
 * (`filters[title][$eq]=x`, `sort[0]=title`) produces the same nested values.
 */
import qs from 'qs';

/** Strapi's `query` middleware defaults, plus qs's own parameter cap made explicit. */
export const queryStringOptions = {
  // A key written without `=` (`filters[x][$null]`) parses as null, not ''.
  strictNullHandling: true,
  arrayLimit: 100,
  depth: 20,
  parameterLimit: 1000,
  ignoreQueryPrefix: true,
} as const;

export function parseQueryString(querystring: string): Record<string, unknown> {
  return qs.parse(querystring, queryStringOptions) as Record<string, unknown>;
}
