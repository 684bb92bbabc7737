/**
 * The v4 service's errors in Strapi 5's words, where they differ: yup issues carry the `value`
 * that failed, a missing required attribute of a draft-and-publish type is a `null` of its type
 * (Strapi 5 validates the draft it wrote, absent attributes as null), and page-and-offset is a
 * PaginationError.
 */
import { ApplicationError, PaginationError, ValidationError } from '../errors.js';
import type { ContentTypeMeta, FieldMeta, Registry } from '../meta.js';
import { mixedPaginationMessage } from '../query/pagination.js';

const yupTypes: Record<string, string> = {
  string: 'string', text: 'string', richtext: 'string', email: 'string', uid: 'string', enumeration: 'string', password: 'string',
  integer: 'number', float: 'number', decimal: 'number', boolean: 'boolean',
};

interface Issue {
  path: (string | number)[];
  message: string;
  name: string;
  value?: unknown;
}

export function v5Error(err: unknown, registry: Registry, meta: ContentTypeMeta, body: unknown): unknown {
  if (!(err instanceof ApplicationError)) return err;
  if (err instanceof ValidationError && err.message === mixedPaginationMessage) return new PaginationError('Cannot use both page & offset pagination in the same query');
  const issues = err.details.errors;
  if (!(err instanceof ValidationError) || !Array.isArray(issues)) return err;
  const data = (body as { data?: unknown } | undefined)?.data;
  const rewritten = (issues as Issue[]).map((issue) => {
    const value = valueAt(data, issue.path);
    const type = yupTypeAt(registry, meta.fields, issue.path);
    // Strapi 5 writes a draft-and-publish document's draft first, absent attributes as null, then validates it.
    const message = meta.draftAndPublish && type && value === undefined && issue.message === `${issue.path.join('.')} must be defined.`
      ? `${issue.path.join('.')} must be a \`${type}\` type, but the final value was: \`null\`.`
      : issue.message;
    // The value that failed; a draft-and-publish type's absent attribute was null in the draft.
    const failed = value === undefined && meta.draftAndPublish ? null : value;
    return { path: issue.path, message, name: issue.name, ...(failed === undefined ? {} : { value: failed }) };
  });
  const out = new ValidationError(rewritten.length === 1 ? rewritten[0]!.message : err.message, { ...err.details, errors: rewritten });
  return out;
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let at: unknown = data;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string, unknown>)[key as string];
  }
  return at;
}

function yupTypeAt(registry: Registry, fields: Readonly<Record<string, FieldMeta>>, path: readonly (string | number)[]): string | undefined {
  let current: Readonly<Record<string, FieldMeta>> | undefined = fields;
  let field: FieldMeta | undefined;
  for (const key of path) {
    if (typeof key === 'number' || /^\d+$/.test(String(key))) continue;
    field = current?.[key];
    if (!field) return undefined;
    current = field.kind === 'component' ? registry.components.get(field.component)?.fields : undefined;
  }
  return field?.kind === 'scalar' ? yupTypes[field.type] : undefined;
}

/** A plugin route's yup issues with the values that failed (its body is not wrapped in `data`). */
export function withFailedValues(err: unknown, body: unknown): unknown {
  if (!(err instanceof ValidationError) || !Array.isArray(err.details.errors)) return err;
  const errors = (err.details.errors as Issue[]).map((issue) => {
    const value = valueAt(body, issue.path);
    return value === undefined || 'value' in issue ? issue : { ...issue, value };
  });
  return new ValidationError(err.message, { ...err.details, errors });
}
