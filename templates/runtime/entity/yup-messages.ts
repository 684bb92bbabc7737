/**
 * The exact texts Strapi v4's entity validator produces. Strapi validates with yup 0.32 and
 * overrides its `notType` message; clients sometimes match on these strings, so they are
 * reproduced here character for character, quirks included.
 */

/** yup's `printValue`, as vendored by @strapi/utils: how a value appears inside a message. */
export function printValue(value: unknown, quoteStrings: boolean): string {
  const simple = printSimpleValue(value, quoteStrings);
  if (simple !== null) return simple;
  // yup's replacer also rewrites nested primitives, so `{a:1}` prints as `{\n  "a": "1"\n}`.
  return guardedPrint(() =>
    JSON.stringify(
      value,
      function replacer(this: Record<string, unknown>, key: string, nested: unknown) {
        const printed = printSimpleValue(this[key], quoteStrings);
        return printed !== null ? printed : nested;
      },
      2,
    ),
  );
}

/** `JSON.stringify(value)` for a message; a value too deep to print (a crafted input) prints as `[too deep]`. */
export function printJson(value: unknown): string {
  return guardedPrint(() => JSON.stringify(value));
}

/** Printing a value nested thousands deep exhausts the stack: a message must never cost a 500. */
export function guardedPrint(print: () => string): string {
  try {
    return print();
  } catch (err) {
    if (err instanceof RangeError) return '[too deep]';
    throw err;
  }
}

function printSimpleValue(value: unknown, quoteStrings: boolean): string | null {
  if (value == null || value === true || value === false) return `${value}`;
  if (typeof value === 'number') return printNumber(value);
  if (typeof value === 'bigint') return `${value}`; // not in yup, which would throw on JSON.stringify
  if (typeof value === 'string') return quoteStrings ? `"${value}"` : value;
  if (typeof value === 'function') return `[Function ${value.name || 'anonymous'}]`;
  if (typeof value === 'symbol') return value.toString().replace(/^Symbol\((.*)\)(.*)$/, 'Symbol($1)');
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? `${value}` : value.toISOString();
  if (value instanceof Error) return `[${Error.prototype.toString.call(value)}]`;
  if (value instanceof RegExp) return RegExp.prototype.toString.call(value);
  return null;
}

function printNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return value === 0 && 1 / value < 0 ? '-0' : `${value}`;
}

/**
 * Strapi's override of yup's `mixed.notType` (packages/core/utils/src/yup.ts). `value` is the
 * cast value, `originalValue` what the client sent; a cast adds the "(cast from …)" tail.
 */
export function notTypeMessage(path: string, type: string, value: unknown, originalValue: unknown): string {
  const isCast = originalValue != null && originalValue !== value;
  return (
    `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value, true)}\`` +
    (isCast ? ` (cast from the value \`${printValue(originalValue, true)}\`).` : '.')
  );
}

/** yup locale texts (0.32) and Strapi's own `notNil` / `notNull` / email-empty additions. */
export const messages = {
  notNil: (path: string) => `${path} must be defined.`,
  notNull: (path: string) => `${path} cannot be null.`,
  minLength: (path: string, min: number) => `${path} must be at least ${printValue(min, false)} characters`,
  maxLength: (path: string, max: number) => `${path} must be at most ${printValue(max, false)} characters`,
  matches: (path: string, regex: RegExp) => `${path} must match the following: "${printValue(regex, false)}"`,
  email: (path: string) => `${path} must be a valid email`,
  emptyEmail: (path: string) => `${path} cannot be empty`,
  /** Not Strapi's (its PostgreSQL answers a 500): text may not hold U+0000, which PostgreSQL cannot store. */
  nul: (path: string) => `${path} must not contain the NUL character (\\u0000)`,
  min: (path: string, min: number | bigint) => `${path} must be greater than or equal to ${printValue(min, false)}`,
  max: (path: string, max: number | bigint) => `${path} must be less than or equal to ${printValue(max, false)}`,
  integer: (path: string) => `${path} must be an integer`,
  /**
   * yup joins the whitelist, and Strapi adds `null` to every enum's whitelist, so the list
   * ends with ", " (null joins as ''). Reproduced as is.
   */
  oneOf: (path: string, values: readonly (string | null)[]) =>
    `${path} must be one of the following values: ${values.map((v) => v ?? '').join(', ')}`,

  // Not yup: Strapi leaves these to the database layer (500s or bare ValidationErrors there).
  safeInteger: (path: string) => `${path} must be a safe integer; send larger values as a string`,
  date: (path: string) => `${path} must be a valid date (YYYY-MM-DD)`,
  time: (path: string) => `${path} must be a valid time (HH:mm:ss.SSS)`,
  datetime: (path: string) => `${path} must be a valid datetime (ISO 8601 or epoch milliseconds)`,
  json: (path: string) => `${path} must be a valid JSON value`,
  jsonDepth: (path: string, depth: number) => `${path} must not be nested more than ${depth} levels deep`,
};
