/**
 * One scalar field of write input: cast, validate and convert, as Strapi v4's entity
 * validator does (packages/core/strapi/src/services/entity-validator), then turn the value
 * into what the Prisma client expects.
 *
 * yup's order of evaluation is kept because it decides which messages a client sees:
 * 1. cast the value (number strings become numbers, 'true' becomes true, …);
 * 2. "initial" checks: the type check (typeError) and the enum whitelist. If any fails, only
 *    those are reported;
 * 3. every other rule of the field, all reported (Strapi validates with abortEarly: false),
 *    then the required rule (`notNil` on create, `notNull` on update).
 * A field that passes is then converted; conversion failures (dates, bigintegers, JSON depth)
 * are this module's own checks, since Strapi only catches those in its database layer.
 */
import { Decimal } from '@prisma/client/runtime/client';
import type { ScalarFieldMeta, ScalarType } from '../meta.js';
import { blocksIssues } from './blocks.js';
import { isValidEmail } from './email.js';
import { parseDateInput, parseDateTimeInput, parseTimeInput } from '../temporal.js';
import { messages, notTypeMessage } from './yup-messages.js';

/** Cap on a string value's length when the attribute sets no maxLength (reported as maxLength). */
export const MAX_STRING_LENGTH = 1_000_000;
/** Deepest nesting of arrays/objects accepted in json and array values. */
export const MAX_JSON_DEPTH = 20;

/** The uid attribute pattern Strapi enforces (validators.ts). */
export const UID_PATTERN = /^[A-Za-z0-9-_.~]*$/;

/** Prisma `Int` is a signed 32-bit integer, `BigInt` a signed 64-bit one. */
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** What decimal.js (Prisma's Decimal) parses; such strings are kept digit for digit. */
const DECIMAL_LITERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;
/** What Strapi's BigIntegerField accepts as a string. */
const BIG_INTEGER_LITERAL = /^[+-]?\d+$/;

export interface RuleContext {
  readonly mode: 'create' | 'update';
  /** Drafts skip `required` and `minLength` (Strapi's isDraft). */
  readonly isDraft: boolean;
}

export type FieldOutcome = { ok: true; value: unknown } | { ok: false; messages: string[] };

/** How yup sees one Strapi type: its cast, its type check and the name in typeError messages. */
interface YupSchema {
  readonly typeName: string;
  cast(raw: unknown, nullable: boolean): unknown;
  isType(value: unknown): boolean;
}

const identity = (raw: unknown) => raw;

/** Strapi's string validators undo yup's cast (`transform((v, original) => original)`). */
const strictString: YupSchema = {
  typeName: 'string',
  cast: identity,
  isType: (v) => typeof v === 'string',
};

/** Enumerations use a plain `yup.string()`, which does cast: 1 → "1", true → "true". */
const castingString: YupSchema = {
  typeName: 'string',
  cast(raw) {
    if (typeof raw === 'string' || Array.isArray(raw) || raw == null) return raw;
    const text = String(raw);
    return text === '[object Object]' ? raw : text;
  },
  isType: (v) => typeof v === 'string',
};

const number: YupSchema = {
  typeName: 'number',
  cast(raw, nullable) {
    if (raw === null && nullable) return null;
    let parsed: unknown = raw;
    if (typeof parsed === 'string') {
      parsed = parsed.replace(/\s/g, '');
      if (parsed === '') return NaN;
      parsed = Number(parsed);
    }
    if (typeof parsed === 'number') return parsed;
    // yup falls back to parseFloat, which turns [5] or [5, 6] into 5; only primitives here.
    return typeof parsed === 'boolean' || parsed === null ? Number.parseFloat(String(parsed)) : NaN;
  },
  // yup accepts Infinity; no column can store it, so it fails the type check here.
  isType: (v) => typeof v === 'number' && Number.isFinite(v),
};

const boolean: YupSchema = {
  typeName: 'boolean',
  cast(raw) {
    // yup tests String(value) of anything; only strings and numbers are cast here.
    if (typeof raw !== 'string' && typeof raw !== 'number') return raw;
    if (/^(true|1)$/i.test(String(raw))) return true;
    if (/^(false|0)$/i.test(String(raw))) return false;
    return raw;
  },
  isType: (v) => typeof v === 'boolean',
};

const array: YupSchema = { typeName: 'array', cast: identity, isType: Array.isArray };

/** `yup.mixed()`: json, biginteger and the date types. Anything passes the type check. */
const mixed: YupSchema = { typeName: 'mixed', cast: identity, isType: () => true };

const schemas: Record<ScalarType, YupSchema> = {
  string: strictString,
  text: strictString,
  richtext: strictString,
  email: strictString,
  password: strictString,
  uid: strictString,
  enumeration: castingString,
  integer: number,
  float: number,
  decimal: number,
  boolean,
  array,
  json: mixed,
  biginteger: mixed,
  date: mixed,
  time: mixed,
  datetime: mixed,
  timestamp: mixed,
};

/**
 * Validates and converts one field's raw input (`undefined` when absent, after defaults).
 * A successful outcome's value is `undefined` (leave out), `null` (clear) or the Prisma value.
 */
export function checkScalarField(field: ScalarFieldMeta, raw: unknown, ctx: RuleContext): FieldOutcome {
  const required = Boolean(field.required) && !ctx.isDraft;
  const schema = field.blocks ? array : schemas[field.type];
  const value = raw === undefined ? undefined : schema.cast(raw, !required);

  const initial = initialChecks(field, schema, value, raw, required);
  if (initial.length > 0) return { ok: false, messages: initial };

  const failures = value == null ? [] : ruleChecks(field, value, ctx);
  const requiredFailure = requiredCheck(field, value, ctx.mode, required);
  if (requiredFailure) failures.push(requiredFailure);
  if (failures.length > 0) return { ok: false, messages: failures };

  if (value === undefined || value === null) return { ok: true, value };
  return convert(field, value, raw);
}

/** yup's typeError and whitelist tests: they run before, and instead of, every other rule. */
function initialChecks(
  field: ScalarFieldMeta,
  schema: YupSchema,
  value: unknown,
  raw: unknown,
  required: boolean,
): string[] {
  if (value === undefined) return [];
  const failures: string[] = [];
  // Only optional fields are `.nullable()` in Strapi: null on a required field is a type error.
  const nullAccepted = value === null && !required;
  if (!nullAccepted && !schema.isType(value)) {
    failures.push(notTypeMessage(field.name, schema.typeName, value, raw));
  }
  if (field.type === 'enumeration') {
    // Strapi appends null to the whitelist, so null passes this test on any enum.
    const allowed: readonly (string | null)[] = [...new Set([...(field.enum ?? []), null])];
    if (!allowed.includes(value as string | null)) failures.push(messages.oneOf(field.name, allowed));
  }
  return failures;
}

function requiredCheck(
  field: ScalarFieldMeta,
  value: unknown,
  mode: RuleContext['mode'],
  required: boolean,
): string | null {
  if (!required) return null;
  if (mode === 'create') return value == null ? messages.notNil(field.name) : null;
  return value === null ? messages.notNull(field.name) : null;
}

/** The type's own rules, in the order Strapi's validators.ts adds them. */
function ruleChecks(field: ScalarFieldMeta, value: unknown, ctx: RuleContext): string[] {
  switch (field.type) {
    case 'string':
    case 'text':
    case 'richtext':
    case 'email':
    case 'password':
    case 'uid':
      return stringRules(field, value as string, ctx);
    case 'integer':
      return integerRules(field, value as number);
    case 'float':
    case 'decimal':
      return rangeRules(field.name, value as number, field.min, field.max);
    case 'json':
      return field.blocks ? blocksIssues(field.name, value as unknown[], MAX_JSON_DEPTH) : [];
    default:
      return [];
  }
}

function stringRules(field: ScalarFieldMeta, value: string, ctx: RuleContext): string[] {
  const failures: string[] = [];
  const { minLength, maxLength } = field;
  if (isPositiveInteger(minLength) && !ctx.isDraft && value.length < minLength) {
    failures.push(messages.minLength(field.name, minLength));
  }
  const cap = isPositiveInteger(maxLength) ? maxLength : MAX_STRING_LENGTH;
  if (value.length > cap) failures.push(messages.maxLength(field.name, cap));
  if (value.includes('\u0000')) failures.push(messages.nul(field.name));
  // Pattern checks on megabytes of text are pointless and risk slow user regexes.
  if (value.length > MAX_STRING_LENGTH) return failures;

  if (field.regex !== undefined) {
    const regex = compileRegex(field.regex);
    const skipEmpty = !field.required; // Strapi: matches(…, { excludeEmptyString: !required })
    if (!(value === '' && skipEmpty) && value.search(regex) === -1) {
      failures.push(messages.matches(field.name, regex));
    }
  }
  if (field.type === 'email') {
    if (value !== '' && !isValidEmail(value)) failures.push(messages.email(field.name));
    if (value.length < 1) failures.push(messages.emptyEmail(field.name));
  }
  if (field.type === 'uid' && !UID_PATTERN.test(value)) {
    failures.push(messages.matches(field.name, UID_PATTERN));
  }
  return failures;
}

function integerRules(field: ScalarFieldMeta, value: number): string[] {
  const failures: string[] = [];
  if (!Number.isInteger(value)) failures.push(messages.integer(field.name));
  // Strapi truncates integer bounds (`_.toInteger(attr.min)`).
  const min = typeof field.min === 'number' ? Math.trunc(field.min) : undefined;
  const max = typeof field.max === 'number' ? Math.trunc(field.max) : undefined;
  const range = rangeRules(field.name, value, min, max);
  failures.push(...range);
  // Beyond 32 bits Prisma rejects the value with a 500; say so in the bound's own words.
  if (range.length === 0 && value < INT32_MIN) failures.push(messages.min(field.name, INT32_MIN));
  if (range.length === 0 && value > INT32_MAX) failures.push(messages.max(field.name, INT32_MAX));
  return failures;
}

function rangeRules(name: string, value: number, min: unknown, max: unknown): string[] {
  const failures: string[] = [];
  if (typeof min === 'number' && value < min) failures.push(messages.min(name, min));
  if (typeof max === 'number' && value > max) failures.push(messages.max(name, max));
  return failures;
}

function isPositiveInteger(n: unknown): n is number {
  return typeof n === 'number' && Number.isInteger(n) && n > 0;
}

const regexCache = new Map<string, RegExp>();

/** Attribute regexes come from the schema; an invalid one is a model bug, hence a plain Error. */
function compileRegex(source: string): RegExp {
  let regex = regexCache.get(source);
  if (!regex) {
    regex = new RegExp(source);
    regexCache.set(source, regex);
  }
  return regex;
}

/** From a validated, non-null value to the Prisma client's representation. */
function convert(field: ScalarFieldMeta, value: unknown, raw: unknown): FieldOutcome {
  switch (field.type) {
    case 'decimal':
      return decimalValue(field.name, value as number, raw);
    case 'biginteger':
      return toBigInt(field, value);
    case 'date':
      return orFail(parseDateInput(value), messages.date(field.name));
    case 'time':
      return orFail(parseTimeInput(value), messages.time(field.name));
    case 'datetime':
    case 'timestamp':
      return orFail(parseDateTimeInput(value), messages.datetime(field.name));
    case 'json':
    case 'array':
      return checkJson(field.name, value);
    default:
      return ok(value);
  }
}

const ok = (value: unknown): FieldOutcome => ({ ok: true, value });

function orFail(value: unknown, message: string): FieldOutcome {
  return value === null ? { ok: false, messages: [message] } : ok(value);
}

/**
 * Decimals are DECIMAL(65,30) on PostgreSQL and MySQL: at most 35 digits before the point
 * (more is a database error there) and 30 after (more are rounded there). The same limits
 * apply on SQLite, whose REAL column would take anything, so every database stores and
 * answers the same value: past 30 digits the value is rounded half away from zero, like
 * those databases do, and from 1e35 on it is a 400.
 */
const DECIMAL_SCALE = 30;
const DECIMAL_LIMIT = new Decimal('1e35');

function decimalValue(name: string, value: number, raw: unknown): FieldOutcome {
  const text = decimalString(value, raw);
  const exact = new Decimal(text);
  const rounded = exact.toDecimalPlaces(DECIMAL_SCALE, Decimal.ROUND_HALF_UP);
  if (rounded.abs().gte(DECIMAL_LIMIT)) {
    return { ok: false, messages: [`${name} must be greater than -1e+35 and less than 1e+35`] };
  }
  return ok(rounded.eq(exact) ? text : rounded.toString());
}

/** A decimal as a string, keeping the digits the client sent (`"12.50"` stays `"12.50"`). */
function decimalString(value: number, raw: unknown): string {
  if (typeof raw === 'string') {
    const compact = raw.replace(/\s/g, ''); // the same whitespace yup's number cast drops
    if (DECIMAL_LITERAL.test(compact)) return compact;
  }
  return String(value);
}

/**
 * Strapi validates bigintegers as `yup.mixed()` and converts in the database layer; here the
 * conversion is exact (strings never go through a double) and bounds compare as BigInt.
 */
function toBigInt(field: ScalarFieldMeta, value: unknown): FieldOutcome {
  const name = field.name;
  let big: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return fail(messages.integer(name));
    if (!Number.isSafeInteger(value)) return fail(messages.safeInteger(name));
    big = BigInt(value);
  } else if (typeof value === 'string' && BIG_INTEGER_LITERAL.test(value.trim())) {
    big = BigInt(value.trim());
  } else if (typeof value === 'bigint') {
    big = value;
  } else {
    return fail(messages.integer(name));
  }
  const min = bigBound(field.min);
  const max = bigBound(field.max);
  const failures: string[] = [];
  if (min !== undefined && big < min) failures.push(messages.min(name, min));
  if (max !== undefined && big > max) failures.push(messages.max(name, max));
  if (failures.length === 0 && big < INT64_MIN) failures.push(messages.min(name, INT64_MIN));
  if (failures.length === 0 && big > INT64_MAX) failures.push(messages.max(name, INT64_MAX));
  return failures.length > 0 ? { ok: false, messages: failures } : ok(big);
}

function bigBound(bound: unknown): bigint | undefined {
  if (typeof bound === 'number' && Number.isInteger(bound)) return BigInt(bound);
  if (typeof bound === 'string' && BIG_INTEGER_LITERAL.test(bound.trim())) return BigInt(bound.trim());
  return undefined;
}

const fail = (message: string): FieldOutcome => ({ ok: false, messages: [message] });

/**
 * json and array values are stored as given, but must be JSON (no undefined, functions,
 * Infinity…) and at most MAX_JSON_DEPTH containers deep. Walked with an explicit stack so a
 * hostile value cannot overflow the call stack.
 */
function checkJson(name: string, value: unknown): FieldOutcome {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node === 'string' || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return fail(messages.json(name));
      continue;
    }
    if (!Array.isArray(node) && !isPlainObject(node)) return fail(messages.json(name));
    if (depth + 1 > MAX_JSON_DEPTH) return fail(messages.jsonDepth(name, MAX_JSON_DEPTH));
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) stack.push([child, depth + 1]);
  }
  return ok(value);
}

/** An object literal or JSON.parse result (prototype Object.prototype or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
