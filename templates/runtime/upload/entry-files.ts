/**
 * Entries written together with their files, Strapi v4's multipart form: the field `data`
 * holds, as JSON, what `data` holds in a JSON body, and each file part named
 * `files.<path>` goes to the media field at that path: `files.cover`, or inside components
 * `files.seo.image`, `files.links.0.icon`, `files.blocks[1].image`.
 *
 * The files are uploaded as `POST /api/upload` uploads them (same service: names, formats,
 * size limits) and their rows are written in the entry's transaction: when the entry write
 * fails, the rows roll back with it and the stored files are removed, so a refused request
 * leaves nothing behind. Temporary files are removed in every case.
 *
 * Files and what `data` says of the same field:
 * - a single media field takes one file, and `data` may not name another one (400);
 * - a multiple one gets the files after those `data` gives it, or, when `data` leaves it
 *   out, after those it has (appended on update, as Strapi's upload appends them).
 *
 * The route's own action (create or update) is the only permission needed: Strapi does not
 * ask for the upload plugin's for files sent with an entry.
 */
import type { Context } from 'koa';
import type { EntityService } from '../entity/service.js';
import { assertDataPayload } from '../entity/input.js';
import { validationErrors, type ValidationError } from '../errors.js';
import { assertJsonDepth, maxBodyDepth } from '../http/body.js';
import type { ComponentFieldMeta, ContentTypeMeta, DynamicZoneFieldMeta, FieldMeta, MediaFieldMeta, Registry } from '../meta.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { assertAllowedTypes } from './allowed-types.js';
import { multipartLimits, type UploadConfig } from './config.js';
import { storedMime } from './filename.js';
import { readMultipartRequest, type ReceivedFile } from './multipart.js';
import type { UploadService } from './service.js';

/** Strapi's messages (its `parseMultipartData`). */
export const missingDataMessage = "When using multipart/form-data you need to provide your data in a JSON 'data' field.";
export const invalidDataMessage = "Invalid 'data' field. 'data' should be a valid JSON.";
export const unprefixedFileMessage =
  "When using multipart/form-data you need to provide your files by prefixing them with the 'files'.\n" +
  'For example, when a media file is named "avatar", make sure the form key name is "files.avatar"';

export interface EntryFilesOptions {
  readonly service: UploadService;
  readonly config: UploadConfig;
  /** Folder for temporary files. */
  readonly tmpDir: string;
  /** Components, for files inside them; without it only the entry's own media fields take files. */
  readonly registry?: Registry;
}

/**
 * Writes one entry through `service` (create, update or a single type's upsert) with the
 * request's `{ data }` body, which the entity service checks.
 */
export type EntryWrite<T> = (service: EntityService, body: unknown) => Promise<T>;

/** The files of one media field: where the field is in `data`, and the files in the order received. */
interface MediaUpload {
  readonly path: readonly string[];
  readonly field: MediaFieldMeta;
  readonly files: readonly ReceivedFile[];
}

type Fields = Readonly<Record<string, FieldMeta>>;

export class EntryFiles {
  constructor(private readonly options: EntryFilesOptions) {}

  /**
   * Reads the multipart body of `ctx` and runs `write` with its data, its files uploaded
   * and linked, in one transaction of `entries`. Without files, `write` runs as for JSON.
   */
  async write<T>(ctx: Pick<Context, 'req' | 'set'>, entries: EntityService, write: EntryWrite<T>): Promise<T> {
    const { service: uploadService, config, tmpDir } = this.options;
    const form = await readMultipartRequest(ctx, { tmpDir, limits: multipartLimits(config) });
    try {
      const data = parseDataField(form.fields.get('data'));
      const uploads = this.mediaUploads(entries.meta, data, form.files);
      if (uploads.length === 0) return await write(entries, { data });
      const staged = await uploadService.stage(uploads.flatMap((upload) => upload.files));
      try {
        return await entries.transaction(async (txEntries, tx) => {
          const files = await uploadService.insert(staged, tx);
          return write(txEntries, { data: linkFiles(data, uploads, files.map((file) => file.id)) });
        });
      } catch (err) {
        await uploadService.discard(staged);
        throw err;
      }
    } finally {
      await form.cleanup();
    }
  }

  /**
   * The received files grouped by the media field they go to, each group checked (path,
   * count, allowedTypes) before anything is stored.
   */
  private mediaUploads(meta: ContentTypeMeta, data: Record<string, unknown>, files: readonly ReceivedFile[]): MediaUpload[] {
    const byPath = new Map<string, { path: string[]; files: ReceivedFile[] }>();
    for (const file of files) {
      const path = filePath(file.field);
      const key = path.join('.');
      const group = byPath.get(key) ?? { path, files: [] };
      group.files.push(file);
      byPath.set(key, group);
    }
    return [...byPath.values()].map(({ path, files: group }) => {
      const field = this.mediaFieldAt(meta.fields, data, path, 0);
      assertFilesFit(field, path, group, valueAt(data, path));
      return { path, field, files: group };
    });
  }

  /**
   * The media field `path` names from `path[at]` on, walking components and dynamic zones
   * through `value` (the part of `data` at that level): a repeatable component or a zone
   * takes an index (`links.0.icon`). Components are written whole, so the instance a file
   * goes into must be in `data`.
   */
  private mediaFieldAt(fields: Fields, value: unknown, path: readonly string[], at: number): MediaFieldMeta {
    const name = path[at]!;
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const remaining = path.length - at - 1;
    if (field?.kind === 'media' && remaining === 0) return field;
    const nested = isPlainObject(value) ? value[name] : undefined;
    if (field?.kind === 'component' && !field.repeatable && remaining >= 1) {
      const instance = componentInstance(nested, path, at + 1);
      return this.mediaFieldAt(this.componentFields(field.component, path), instance, path, at + 1);
    }
    if ((field?.kind === 'component' || field?.kind === 'dynamiczone') && remaining >= 2) {
      const index = path[at + 1]!;
      const instance = componentInstance(Array.isArray(nested) && /^\d+$/.test(index) ? nested[Number(index)] : undefined, path, at + 2);
      return this.mediaFieldAt(this.componentFields(componentOf(field, instance), path), instance, path, at + 2);
    }
    throw notMediaField(path);
  }

  private componentFields(uid: string, path: readonly string[]): Fields {
    const component = this.options.registry?.components.get(uid);
    if (!component) throw notMediaField(path);
    return component.fields;
  }
}

/** The component instance in `data` that `path.slice(0, end)` names; a 400 when it is not there. */
function componentInstance(value: unknown, path: readonly string[], end: number): Record<string, unknown> {
  if (isPlainObject(value)) return value;
  const where = path.slice(0, end).join('.');
  throw fieldError(path, `files.${path.join('.')} goes into ${where}, which data does not give: a file inside a component needs the component in data`);
}

/** The component of a list item: the field's, or for a dynamic zone the item's `__component` if the zone takes it. */
function componentOf(field: ComponentFieldMeta | DynamicZoneFieldMeta, item: Record<string, unknown>): string {
  if (field.kind === 'component') return field.component;
  const uid = item['__component'];
  return typeof uid === 'string' && field.components.includes(uid) ? uid : '';
}

/** The `data` field as the entry's data; Strapi's 400s when it is missing or not JSON. */
function parseDataField(values: readonly string[] | undefined): Record<string, unknown> {
  if (!values || values.length === 0 || values[0] === '') throw badRequest(missingDataMessage);
  if (values.length > 1) throw badRequest(invalidDataMessage);
  let data: unknown;
  try {
    data = JSON.parse(values[0]!);
  } catch {
    throw badRequest(invalidDataMessage);
  }
  assertJsonDepth(data, maxBodyDepth, 'the data field');
  // Anything but an object is the same 400 as a JSON body without an object `data`.
  return assertDataPayload({ data });
}

/** `files.seo.image` or `files[seo][image]` → `['seo', 'image']` (lodash's toPath, as Strapi reads it). */
function filePath(field: string): string[] {
  const parts = field.replace(/\[([^\]]*)\]/g, '.$1').split('.');
  if (parts.length <= 1 || parts[0] !== 'files') throw badRequest(unprefixedFileMessage);
  return parts.slice(1);
}

/** A single media field takes one file, not also one named in `data`; every file must be of its allowedTypes. */
function assertFilesFit(field: MediaFieldMeta, path: readonly string[], files: readonly ReceivedFile[], given: unknown): void {
  const label = path.join('.');
  if (!field.multiple && files.length > 1) {
    throw fieldError(path, `${label} takes a single file, but files.${label} holds ${files.length}`);
  }
  if (!field.multiple && given !== undefined && given !== null) {
    throw fieldError(path, `${label} takes a single file: send it in files.${label} or name it in data, not both`);
  }
  for (const file of files) assertAllowedTypes(field, { mime: storedMime(file.filename, file.mimeType), name: file.filename }, path);
}

/**
 * `data` with every upload's file ids at its path (`ids` in upload order). A copy: a
 * transaction run again after a conflict links the ids of its own rows to the original.
 */
function linkFiles(data: Record<string, unknown>, uploads: readonly MediaUpload[], ids: readonly number[]): Record<string, unknown> {
  let linked = data;
  let next = 0;
  for (const upload of uploads) {
    const own = ids.slice(next, (next += upload.files.length));
    linked = updateAt(linked, upload.path, (given) => withFiles(upload.field, given, own)) as Record<string, unknown>;
  }
  return linked;
}

/** What `data` says of a media field once its uploaded files are added, in the relation syntax the entity service reads. */
function withFiles(field: MediaFieldMeta, given: unknown, ids: readonly number[]): unknown {
  if (!field.multiple) return ids[0];
  if (given === undefined) return { connect: ids };
  if (given === null) return [...ids];
  if (isPlainObject(given) && !('set' in given) && ('connect' in given || 'disconnect' in given)) {
    return { ...given, connect: [...listOf(given['connect']), ...ids] };
  }
  const listed = isPlainObject(given) && 'set' in given ? given['set'] : given;
  return { set: [...listOf(listed), ...ids] };
}

function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>((current, key) => (isPlainObject(current) || Array.isArray(current) ? (current as Record<string, unknown>)[key] : undefined), value);
}

/** A copy of `value` with the value at `path` replaced by `update(current)`; the containers on the way are copied, not changed. */
function updateAt(value: unknown, path: readonly string[], update: (current: unknown) => unknown): unknown {
  if (path.length === 0) return update(value);
  const [key, ...rest] = path as [string, ...string[]];
  if (Array.isArray(value)) {
    const copy = [...value];
    copy[Number(key)] = updateAt(copy[Number(key)], rest, update);
    return copy;
  }
  const object = isPlainObject(value) ? value : {};
  return { ...object, [key]: updateAt(object[key], rest, update) };
}

function fieldError(path: readonly string[], message: string): ValidationError {
  return validationErrors([{ path: [...path], message, name: 'ValidationError' }]);
}

function notMediaField(path: readonly string[]): ValidationError {
  return fieldError(path, `files.${path.join('.')} does not name a media field`);
}

/**
 * Strapi answers a malformed form with `ctx.badRequest`: an http-errors 400, which the error
 * middleware names BadRequestError (see errors.ts, toErrorBody).
 */
function badRequest(message: string): Error {
  return Object.assign(new Error(message), { status: 400, expose: true });
}
