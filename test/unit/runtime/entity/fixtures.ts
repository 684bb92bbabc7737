import type { ContentTypeMeta, FieldMeta, ScalarFieldMeta, ScalarType } from '../../../../templates/runtime/meta.js';
import { ValidationError } from '../../../../templates/runtime/errors.js';
import { prepareWriteData, type WriteOptions } from '../../../../templates/runtime/entity/input.js';

export const NOW = new Date('2024-05-06T07:08:09.010Z');

/** A fake for the injected bcrypt hasher. */
export const fakeHash = async (plain: string) => `hashed:${plain}`;

export function scalar(name: string, type: ScalarType, extra: Partial<ScalarFieldMeta> = {}): ScalarFieldMeta {
  const column = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return { kind: 'scalar', name, type, column, prismaField: name, writable: true, ...extra };
}

/** A content type with the built-in fields Strapi adds around the given attributes. */
export function contentType(attributes: FieldMeta[], options: { draftAndPublish?: boolean } = {}): ContentTypeMeta {
  const draftAndPublish = options.draftAndPublish ?? false;
  const fields: FieldMeta[] = [
    scalar('id', 'integer', { writable: false }),
    ...attributes,
    scalar('createdAt', 'datetime', { writable: false }),
    scalar('updatedAt', 'datetime', { writable: false }),
    ...(draftAndPublish ? [scalar('publishedAt', 'datetime')] : []),
  ];
  return {
    uid: 'api::article.article',
    kind: 'collectionType',
    singularName: 'article',
    pluralName: 'articles',
    table: 'articles',
    delegate: 'article',
    draftAndPublish,
    populateCreatorFields: false,
    fields: Object.fromEntries(fields.map((f) => [f.name, f])),
  };
}

export function create(meta: ContentTypeMeta, data: unknown, extra: Partial<WriteOptions> = {}) {
  return prepareWriteData(meta, data, { mode: 'create', hashPassword: fakeHash, now: NOW, ...extra });
}

export function update(meta: ContentTypeMeta, data: unknown, extra: Partial<WriteOptions> = {}) {
  return prepareWriteData(meta, data, { mode: 'update', hashPassword: fakeHash, now: NOW, ...extra });
}

/** The ValidationError a write throws (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError, but the write succeeded');
}

/** The messages of a failed write, in order. */
export async function messagesOf(promise: Promise<unknown>): Promise<string[]> {
  const err = await rejection(promise);
  const errors = (err.details as { errors?: Array<{ message: string }> }).errors ?? [];
  return errors.map((e) => e.message);
}

/** Shorthand: the single-field content type `{ <name>: <type> }`. */
export function single(name: string, type: ScalarType, extra: Partial<ScalarFieldMeta> = {}): ContentTypeMeta {
  return contentType([scalar(name, type, extra)]);
}
