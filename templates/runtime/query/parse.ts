/**
 * Query-string parsing with the exact `qs` options Strapi v4 uses, so bracket notation
 * (`filters[title][$eq]=x`, `sort[0]=title`) produces the same nested values.
 *
 * Limits (as Strapi's qs options): 1,000 parameters, lists of 100 elements (a longer indexed
 * list becomes an object, which every parameter then refuses with a 400), 20 levels of
 * brackets (deeper brackets stay one literal key: 400 `Invalid parameter`). Unlike Strapi,
 * a query string over the parameter limit is a 400, not silently cut after the 1,000th
 * parameter (a dropped filter would widen the answer).
 */
import qs from 'qs';
import { ValidationError } from '../errors.js';

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
  if (countParameters(querystring, queryStringOptions.parameterLimit + 1) > queryStringOptions.parameterLimit) {
    throw new ValidationError(`Too many query parameters: at most ${queryStringOptions.parameterLimit}`);
  }
  if (querystring.length > longestCached) return qs.parse(querystring, queryStringOptions) as Record<string, unknown>;
  let parsed = parsedQueries.get(querystring);
  if (parsed === undefined) {
    parsed = qs.parse(querystring, queryStringOptions) as Record<string, unknown>;
    if (parsedQueries.size >= maxCached) parsedQueries.delete(parsedQueries.keys().next().value!);
    parsedQueries.set(querystring, parsed);
  }
  // A copy: handlers and lifecycle hooks may change the query they are given.
  return copy(parsed) as Record<string, unknown>;
}

/**
 * Clients repeat the same few query strings, and qs costs more than copying its answer:
 * answers are kept per query string (bounded, oldest dropped first).
 */
const parsedQueries = new Map<string, Record<string, unknown>>();
const maxCached = 500;
const longestCached = 2000;

/** qs's answer is plain objects, arrays, strings and nulls. */
function copy(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key]);
    // An own `__proto__` key stays a key; assigning it would set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/** `&`-separated parts, as qs counts them (empty ones included), counting no further than `stop`. */
function countParameters(querystring: string, stop: number): number {
  let count = 1;
  for (let at = querystring.indexOf('&'); at !== -1 && count < stop; at = querystring.indexOf('&', at + 1)) count += 1;
  return count;
}
