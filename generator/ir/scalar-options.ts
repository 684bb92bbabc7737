/**
 * The length, bound and regex options Strapi's entity validator applies, each only when it
 * has the shape Strapi tests (`_.isInteger(minLength)`, `_.isNumber(min)`, a regex that
 * compiles): any other value is ignored by Strapi, so validation warns and buildIr leaves it
 * out.
 */
export function isLength(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

export function isBound(value: unknown, type: string): value is number | string {
  if (type === 'biginteger') return typeof value === 'string' ? /^-?\d+$/.test(value) : Number.isInteger(value);
  return typeof value === 'number' && Number.isFinite(value);
}

export function regexProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'it is not a string';
  try {
    new RegExp(value);
    return undefined;
  } catch (err) {
    return `it does not compile: ${(err as Error).message}`;
  }
}
