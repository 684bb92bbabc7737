/**
 * Write input of the REST API: the `data` of POST/PUT bodies.
 *
 * Reproduces Strapi v4's path for scalar attributes: sanitizeInput drops what may not be
 * written, the core service sets `publishedAt`, the entity validator (yup) casts and checks
 * every attribute and reports all failures at once. The result is keyed by Prisma field and
 * already converted to the Prisma client's types. Relations, media, components and dynamic
 * zones are handed on untouched through `pickNonScalarInput`.
 *
 * Also `toResponseValue`, the inverse used when rendering stored rows.
 */
import { ValidationError, validationErrors, type ValidationIssue } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta } from '../meta.js';
import { checkScalarField, isPlainObject, type RuleContext } from './scalar-rules.js';

export { MAX_JSON_DEPTH, MAX_STRING_LENGTH } from './scalar-rules.js';

export const MISSING_DATA_MESSAGE = 'Missing "data" payload in the request body';

/** Removed by Strapi's sanitizeInput whatever the schema says (besides `writable: false`). */
const NEVER_WRITABLE = new Set(['id', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

const PUBLISHED_AT = 'publishedAt';

export interface WriteOptions {
  readonly mode: 'create' | 'update';
  /** bcrypt in the emitted server; injected so this module has no dependency. */
  readonly hashPassword: (plain: string) => Promise<string>;
  /** `publishedAt` of entries created without one (they are published). */
  readonly now: Date;
  /**
   * Create only: whether an entry created without `publishedAt` is published (`now`), as
   * Strapi's core service does for REST; false leaves it a draft, as its entity service does
   * for GraphQL, validated as a published entry all the same. Default true.
   */
  readonly publish?: boolean;
  /**
   * Update only: whether the stored entry is a draft. Strapi decides from the entry being
   * updated, not from the body; drafts skip `required` and `minLength`. Default false.
   */
  readonly isDraft?: boolean;
  /**
   * Stored for `null` in json/array fields. Prisma refuses a bare null there; pass
   * `Prisma.DbNull` (or `Prisma.JsonNull`). Default null.
   */
  readonly jsonNull?: unknown;
  /**
   * How a non-null json/array value is handed on: `prismaJson` for the Prisma client. Default:
   * as is (component values embed it in their own JSON).
   */
  readonly jsonValue?: (value: unknown) => unknown;
}

/**
 * A JSON value as the Prisma client must get it: its text, tagged as JSON. Given the value as
 * an object tree, Prisma's serializer copies it key by key (`result[key] = …`), so a `__proto__`
 * key (an own property after JSON.parse) becomes the copy's prototype: the key vanishes, or
 * Prisma fails on the result (a 500). It also decodes objects shaped like its own tagged values
 * (`{"$type": "BigInt", "value": "1"}`) instead of storing them. The text is stored as written.
 */
export function prismaJson(value: unknown): unknown {
  const text = JSON.stringify(value);
  return { toJSON: () => ({ $type: 'Json', value: text }) };
}

/** The REST handler's first check: the body must carry an object `data`. */
export function assertDataPayload(body: unknown): Record<string, unknown> {
  const data = isPlainObject(body) ? body.data : undefined;
  if (!isPlainObject(data)) throw new ValidationError(MISSING_DATA_MESSAGE);
  return data;
}

/**
 * Validates and converts the scalar part of `data`. Throws one ValidationError listing every
 * failing rule of every field; otherwise returns Prisma data keyed by `prismaField`, holding
 * only the fields to write (absent keys stay absent, so a PUT is partial).
 */
export async function prepareWriteData(
  meta: ContentTypeMeta,
  data: unknown,
  options: WriteOptions,
): Promise<Record<string, unknown>> {
  if (!isPlainObject(data)) throw new ValidationError(MISSING_DATA_MESSAGE);
  const ctx: RuleContext = { mode: options.mode, isDraft: isDraftWrite(meta, data, options) };

  const issues: ValidationIssue[] = [];
  const output: Record<string, unknown> = {};
  const passwords: ScalarFieldMeta[] = [];

  for (const field of writableScalarFields(meta)) {
    const outcome = checkScalarField(field, rawInput(meta, field, data, options), ctx);
    if (!outcome.ok) {
      for (const message of outcome.messages) issues.push({ path: [field.name], message, name: 'ValidationError' });
      continue;
    }
    if (outcome.value === undefined) continue;
    output[field.prismaField] = storedValue(field, outcome.value, options);
    if (field.type === 'password' && typeof outcome.value === 'string') passwords.push(field);
  }
  if (issues.length > 0) throw validationErrors(issues);

  // Hash only once everything is valid: bcrypt is deliberately slow.
  for (const field of passwords) {
    output[field.prismaField] = await options.hashPassword(output[field.prismaField] as string);
  }
  return output;
}

/**
 * Relation, media, component and dynamic-zone values present in `data`, keyed by field name
 * and untouched, for the module that writes them.
 */
export function pickNonScalarInput(meta: ContentTypeMeta, data: Record<string, unknown>): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of Object.values(meta.fields)) {
    if (field.kind === 'scalar' || NEVER_WRITABLE.has(field.name)) continue;
    const value = ownValue(data, field.name);
    if (value !== undefined) picked[field.name] = value;
  }
  return picked;
}

/**
 * Strapi's isDraft: on create, a D&P type whose data says `publishedAt: null`; on update the
 * stored entry decides, which only the caller knows.
 */
function isDraftWrite(meta: ContentTypeMeta, data: Record<string, unknown>, options: WriteOptions): boolean {
  if (!meta.draftAndPublish) return false;
  if (options.mode === 'update') return options.isDraft ?? false;
  return Object.hasOwn(data, PUBLISHED_AT) && data[PUBLISHED_AT] === null;
}

/** What sanitizeInput keeps: scalar, not `writable: false`, not id/timestamps/creator fields. */
function writableScalarFields(meta: ContentTypeMeta): ScalarFieldMeta[] {
  return Object.values(meta.fields).filter(
    (field: FieldMeta): field is ScalarFieldMeta =>
      field.kind === 'scalar' && field.writable !== false && !NEVER_WRITABLE.has(field.name),
  );
}

/** The value to validate: what the client sent, or on create `publishedAt`/the default. */
function rawInput(
  meta: ContentTypeMeta,
  field: ScalarFieldMeta,
  data: Record<string, unknown>,
  options: WriteOptions,
): unknown {
  const sent = ownValue(data, field.name);
  if (sent !== undefined || options.mode !== 'create') return sent;
  // Strapi's core service: `data.publishedAt ?? new Date()` when the type has D&P.
  if (field.name === PUBLISHED_AT && meta.draftAndPublish) return options.publish === false ? undefined : options.now;
  // yup's `.default(attr.default)` on creation; cloned so a request cannot alter the meta.
  return field.default === undefined ? undefined : structuredClone(field.default);
}

/** Own properties only: a body key such as `constructor` must not reach Object.prototype. */
function ownValue(data: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(data, key) ? data[key] : undefined;
}

function storedValue(field: ScalarFieldMeta, value: unknown, options: WriteOptions): unknown {
  if (field.type !== 'json' && field.type !== 'array') return value;
  if (value === null) return options.jsonNull ?? null;
  return options.jsonValue ? options.jsonValue(value) : value;
}

/** Rendering stored values lives with the REST answer's shaping; kept importable from here. */
export { toResponseValue } from '../rest/response-values.js';
