/**
 * Request-body validation of the users-permissions routes, with the messages and the error
 * shape of Strapi's yup schemas (strict mode, every error reported): `identifier is a
 * required field`, `email must be a valid email`, `Passwords do not match`, … One failure
 * gives its own message, several give "<n> errors occurred"; `details.errors` lists each.
 */
import { isValidEmail } from '../entity/email.js';
import { guardedPrint } from '../entity/yup-messages.js';
import { ValidationError, validationErrors, type ValidationIssue } from '../errors.js';
import { isTooLong, passwordTooLongMessage } from './passwords.js';

export interface StringRule {
  readonly required?: boolean;
  readonly email?: boolean;
  readonly min?: number;
  /** yup's `oneOf([ref(field)], message)`. */
  readonly sameAs?: { readonly field: string; readonly message: string };
  /** The 72-byte test Strapi puts on new passwords (bcrypt reads no further). */
  readonly passwordBytes?: boolean;
}

export interface BodySchema {
  /** Field rules in declaration order: errors are listed in this order. */
  readonly fields: Readonly<Record<string, StringRule>>;
  /** yup's `.noUnknown()`: keys beyond `fields` are an error. */
  readonly noUnknown?: boolean;
}

export type ValidBody<S extends BodySchema> = { [K in keyof S['fields']]: string | undefined };

/** Validates `body` against `schema`; returns the body as an object of strings (or undefined). */
export function validateBody<S extends BodySchema>(schema: S, body: unknown): ValidBody<S> {
  const object = asObject(body);
  const issues: ValidationIssue[] = [];
  if (schema.noUnknown) {
    const unknown = Object.keys(object).filter((key) => !Object.hasOwn(schema.fields, key));
    if (unknown.length) issues.push({ path: [], message: `this field has unspecified keys: ${unknown.join(', ')}`, name: 'ValidationError' });
  }
  const out: Record<string, string | undefined> = {};
  for (const [name, rule] of Object.entries(schema.fields)) {
    const value = Object.hasOwn(object, name) ? object[name] : undefined;
    const messages = checkString(name, value, rule, object);
    for (const message of messages) issues.push({ path: [name], message, name: 'ValidationError' });
    if (typeof value === 'string') out[name] = value;
  }
  if (issues.length) throw validationErrors(issues);
  return out as ValidBody<S>;
}

function checkString(name: string, value: unknown, rule: StringRule, object: Record<string, unknown>): string[] {
  if (value === undefined) return rule.required ? [`${name} is a required field`] : [];
  if (typeof value !== 'string') return [notType(name, 'string', value)];
  const messages: string[] = [];
  if (rule.email && value !== '' && !isValidEmail(value)) messages.push(`${name} must be a valid email`);
  if (rule.min !== undefined && value.length < rule.min) messages.push(`${name} must be at least ${rule.min} characters`);
  if (rule.required && value === '') messages.push(`${name} is a required field`);
  if (rule.sameAs && value !== object[rule.sameAs.field]) messages.push(rule.sameAs.message);
  if (rule.passwordBytes && isTooLong(value)) messages.push(passwordTooLongMessage);
  // Not Strapi's (a 500 on PostgreSQL, which cannot store or compare U+0000).
  if (value.includes('\u0000')) messages.push(`${name} must not contain the NUL character (\\u0000)`);
  return messages;
}

/** A missing body validates as `{}`; anything but an object is yup's type error. */
export function asObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new ValidationError(notType('this', 'object', body));
  return body as Record<string, unknown>;
}

/** yup's notType message in strict mode. */
export function notType(path: string, type: string, value: unknown): string {
  return `${path} must be a \`${type}\` type, but the final value was: \`${printValue(value)}\`.`;
}

/** yup's printValue with quoted strings. */
function printValue(value: unknown): string {
  const simple = printSimple(value);
  if (simple !== null) return simple;
  return guardedPrint(() =>
    JSON.stringify(
      value,
      function replacer(this: Record<string, unknown>, key: string, v: unknown) {
        const printed = printSimple(this[key]);
        return printed !== null ? printed : v;
      },
      2,
    ),
  );
}

function printSimple(value: unknown): string | null {
  if (value === null || value === undefined || value === true || value === false) return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return `"${value}"`;
  return null;
}
