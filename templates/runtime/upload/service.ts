/**
 * The upload service: turns received files into stored files and `files` rows, and reads
 * and removes them. An upload runs in three steps so a failure anywhere leaves nothing:
 *
 * 1. prepare: names, MIME type, and (for images) dimensions, size optimization and the
 *    responsive formats, all written to temporary files;
 * 2. store: the provider takes every prepared file; on a failure the ones stored go again;
 * 3. persist: every row in one transaction; on a failure the stored files go again.
 */
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { DbNull } from '@prisma/client/runtime/client';
import type { Database } from '../db/database.js';
import { assertLinkTypes, checkMediaLink, writeMediaLink, type MediaLink } from './link.js';
import { parseId } from '../entity/service.js';
import { ApplicationError, NotFoundError, PayloadTooLargeError, ValidationError, validationErrors } from '../errors.js';
import type { ContentTypeMeta, Registry, ScalarFieldMeta } from '../meta.js';
import { buildFindOneQuery, buildFindQuery } from '../query/list.js';
import { isPlainObject } from '../query/is-plain-object.js';
import { toEntry } from '../rest/transform.js';
import type { UploadConfig } from './config.js';
import { bytesToKbytes, displayName, fileExtension, generateHash, storedMime } from './filename.js';
import { formatEntry, optimizedImageFormats, planFormats, processedImageFormats, resizedImageFormats, type FileFormat } from './formats.js';
import { probeImage, Semaphore, writeOptimized, writeResized } from './image.js';
import type { ReceivedFile } from './multipart.js';
import type { StoredName, UploadProvider } from './provider-local.js';
import { recordMediaEvent, type Outbox } from '../webhooks/index.js';
import { newDocumentId } from '../entity/document-id.js';

/** A file as the upload API answers it: `{ id, name, alternativeText, ..., createdAt, updatedAt }`. */
export type FileObject = { id: number } & Record<string, unknown>;

/** `fileInfo` of an upload: what the client may set. Absent keys keep defaults (or stored values). */
export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
}

export interface UploadServiceOptions {
  readonly db: Database;
  /** Metadata of `plugin::upload.file`. */
  readonly meta: ContentTypeMeta;
  /** Lets `filters` on the file list reach through relations. */
  readonly registry?: Registry;
  readonly config: UploadConfig;
  readonly provider: UploadProvider;
  /** Folder for temporary files. */
  readonly tmpDir: string;
  /** Where failures that do not fail the request (a stored file that could not be removed) go. */
  readonly log?: (err: unknown) => void;
  /** Where file writes record their `media.*` webhook events, in their transaction (webhooks/). */
  readonly events?: Outbox;
}

/** MIME types whose files must be readable images: anything else claiming to be one is refused. */
const claimedImageMimes = new Set(['image/jpeg', 'image/jpg', 'image/pjpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff', 'image/avif', 'image/svg+xml']);

interface PreparedOutput {
  /** `null` for the file itself, else the `formats` key. */
  readonly key: string | null;
  readonly stored: StoredName;
  readonly temp: string;
  readonly width: number;
  readonly height: number;
  readonly sizeInBytes: number;
}

interface PreparedFile {
  readonly name: string;
  readonly alternativeText: string | null | undefined;
  readonly caption: string | null | undefined;
  readonly hash: string;
  readonly ext: string;
  readonly mime: string;
  readonly sizeInBytes: number;
  readonly width: number | null;
  readonly height: number | null;
  /** The file (key null), then its formats in order. */
  readonly main: { readonly temp: string };
  readonly formats: readonly PreparedOutput[];
  /** Temporary files made while preparing, removed in any case. */
  readonly temps: readonly string[];
}

interface StoredFile {
  readonly prepared: PreparedFile;
  readonly url: string;
  readonly formats: Record<string, FileFormat> | null;
}

/** Files handed to the provider whose rows are not written yet (see UploadService.stage). */
export interface StagedUpload {
  readonly files: readonly StoredFile[];
  /** createdAt and updatedAt of the rows. */
  readonly now: Date;
}

export class UploadService {
  readonly meta: ContentTypeMeta;
  private readonly delegate: string;
  /** Images processed at once (`imageConcurrency`): decoding is what takes memory. */
  readonly #images: Semaphore;

  constructor(private readonly options: UploadServiceOptions) {
    this.meta = options.meta;
    this.delegate = options.meta.delegate;
    this.#images = new Semaphore(options.config.imageConcurrency);
  }

  get provider(): UploadProvider {
    return this.options.provider;
  }

  /**
   * Stores `files` (with `infos[i]` for the i-th) and inserts their rows in one transaction,
   * linked to an entry's media field when `link` says so (link.ts). Answers the file objects in order.
   */
  async upload(files: readonly ReceivedFile[], infos: readonly FileInfo[] = [], link?: MediaLink): Promise<FileObject[]> {
    if (link) await checkMediaLink(this.options.db, link);
    const staged = await this.stage(files, infos);
    try {
      if (link) assertLinkTypes(link, staged.files.map((f) => f.prepared));
      const files = await this.options.db.transaction(async (tx) => {
        const inserted = await this.insert(staged, tx);
        if (link) await writeMediaLink(tx, link, inserted.map((f) => f.id as number));
        return inserted;
      });
      this.options.events?.committed();
      return files;
    } catch (err) {
      await this.discard(staged);
      throw err;
    }
  }

  /**
   * Steps 1 and 2 of an upload, for a caller that writes the rows in its own transaction
   * (an entry created with its files): the files are prepared and stored, their rows not
   * written yet. The caller then calls `insert` in its transaction, and `discard` if that
   * transaction fails. Image work happens here, so the transaction stays short.
   */
  async stage(files: readonly ReceivedFile[], infos: readonly FileInfo[] = []): Promise<StagedUpload> {
    if (files.length === 0) throw new ValidationError('Files are empty');
    const prepared: PreparedFile[] = [];
    const stored: StoredFile[] = [];
    try {
      // One file at a time: image work is CPU- and memory-heavy.
      for (const [i, file] of files.entries()) prepared.push(await this.prepare(file, infos[i] ?? {}));
      for (const file of prepared) stored.push(await this.store(file, false));
      return { files: stored, now: new Date() };
    } catch (err) {
      await Promise.all(stored.map((file) => this.removeStoredFiles(file.prepared)));
      throw err;
    } finally {
      await removeTemps(prepared.flatMap((file) => file.temps));
    }
  }

  /** Step 3: the rows of staged files, through `db` (the caller's transaction); answers the file objects in order. */
  async insert(staged: StagedUpload, db: Database): Promise<FileObject[]> {
    const ids: number[] = [];
    for (const file of staged.files) {
      const created = await db.prisma[this.delegate].create({ data: { ...this.rowData(file, staged.now, 'create'), documentId: newDocumentId() }, select: { id: true } });
      ids.push(created.id as number);
    }
    const files = await Promise.all(ids.map(async (id) => (await this.findOne(id, {}, db))!));
    for (const file of files) await recordMediaEvent(this.options.events, db, 'media.create', file);
    return files;
  }

  /** Removes what `stage` stored, when its rows were never written (or rolled back). Never throws. */
  async discard(staged: StagedUpload): Promise<void> {
    await Promise.all(staged.files.map((file) => this.removeStoredFiles(file.prepared)));
  }

  /**
   * Strapi's `POST /api/upload?id=`: the file's content replaced, keeping its id, hash and
   * extension (so its URL); alternativeText and caption change only when given.
   */
  async replace(id: unknown, file: ReceivedFile, info: FileInfo = {}): Promise<FileObject> {
    const current = await this.findStored(id);
    if (!current) throw new NotFoundError();
    const prepared = await this.prepare(file, info, { hash: current.hash, ext: current.ext });
    try {
      const stored = await this.store(prepared, true);
      await this.writeRow(current.id, this.rowData(stored, new Date(), 'update'));
      // Formats the new content did not get again.
      const kept = new Set(Object.keys(stored.formats ?? {}));
      if (current.provider === this.provider.name) {
        await Promise.all(
          Object.entries(current.formats)
            .filter(([key]) => !kept.has(key))
            .map(([, format]) => this.deleteQuietly(format)),
        );
      }
      return (await this.findOne(current.id, {}))!;
    } finally {
      await removeTemps(prepared.temps);
    }
  }

  /** Strapi's `POST /api/upload?id=` without a file: name, alternativeText, caption; null or absent keeps the stored value. */
  async updateFileInfo(id: unknown, info: FileInfo): Promise<FileObject> {
    const current = await this.findStored(id);
    if (!current) throw new NotFoundError();
    const data: Record<string, unknown> = { [this.prisma('updatedAt')]: new Date() };
    for (const key of ['name', 'alternativeText', 'caption'] as const) {
      const value = info[key];
      if (value !== undefined && value !== null) data[this.prisma(key)] = value;
    }
    await this.writeRow(current.id, data);
    return (await this.findOne(current.id, {}))!;
  }

  /**
   * The file list, through the query layer: `filters`, `sort`, `fields`, `_q`. Like Strapi's
   * entity service, every file is returned unless pagination is asked for, either as
   * `pagination[...]` or as top-level `page`/`pageSize`/`start`/`limit`.
   */
  async findMany(query: Record<string, unknown>): Promise<FileObject[]> {
    const pagination = isPlainObject(query['pagination']) ? query['pagination'] : pickPagination(query);
    const plan = buildFindQuery(
      this.meta,
      { ...query, pagination: { ...(pagination ?? { start: 0, limit: -1 }), withCount: false } },
      { dialect: this.options.db.dialect, defaultLimit: 25, maxLimit: 0, withCount: false, ...(this.options.registry ? { registry: this.options.registry } : {}) },
    );
    const rows = await this.options.db.query(plan.select.sql, plan.select.params);
    return rows.map((row) => flatten(toEntry(this.meta, row, plan.fields)));
  }

  /** One file by id (`fields` applies), or null; ids that are not positive integers find nothing. */
  async findOne(id: unknown, query: Record<string, unknown> = {}, db: Database = this.options.db): Promise<FileObject | null> {
    const fileId = parseId(id);
    if (fileId === null) return null;
    const plan = buildFindOneQuery(this.meta, fileId, { fields: query['fields'] }, { dialect: db.dialect });
    const [row] = await db.query(plan.select.sql, plan.select.params);
    return row ? flatten(toEntry(this.meta, row, plan.fields)) : null;
  }

  /** Deletes the row (its links go with it), then the stored files. Answers the file as it was, or null. */
  async remove(id: unknown): Promise<FileObject | null> {
    const file = await this.findOne(id);
    if (!file) return null;
    try {
      await this.options.db.transaction(async (tx) => {
        await tx.prisma[this.delegate].delete({ where: { id: file.id }, select: { id: true } });
        await recordMediaEvent(this.options.events, tx, 'media.delete', file);
      });
      this.options.events?.committed();
    } catch (err) {
      if ((err as { code?: string }).code === 'P2025') return null; // deleted meanwhile
      throw err;
    }
    await this.removeStored(file);
    return file;
  }

  /** Removes a file's stored content and formats (when this provider stored them). Never throws. */
  async removeStored(file: Record<string, unknown>): Promise<void> {
    if (file['provider'] !== undefined && file['provider'] !== this.provider.name) return;
    const names: StoredName[] = [];
    if (typeof file['hash'] === 'string' && typeof file['ext'] === 'string') names.push({ hash: file['hash'], ext: file['ext'] });
    names.push(...storedFormats(file['formats']));
    await Promise.all(names.map((name) => this.deleteQuietly(name)));
  }

  /** Updates a file's row and records `media.update` with the file as it then is, in one transaction. */
  private async writeRow(id: number, data: Record<string, unknown>): Promise<void> {
    await this.options.db.transaction(async (tx) => {
      await tx.prisma[this.delegate].update({ where: { id }, data, select: { id: true } });
      if (this.options.events?.wants('media.update')) await recordMediaEvent(this.options.events, tx, 'media.update', (await this.findOne(id, {}, tx))!);
    });
    this.options.events?.committed();
  }

  // --- steps -----------------------------------------------------------------------------

  private async prepare(file: ReceivedFile, info: FileInfo, fixed?: { hash: string; ext: string }): Promise<PreparedFile> {
    const clientExt = fileExtension(file.filename, file.mimeType);
    const ext = fixed?.ext ?? clientExt;
    const mime = storedMime(file.filename, file.mimeType);
    const name = displayName(file.filename, info.name);
    const hash = fixed?.hash ?? generateHash(path.basename(name, clientExt));
    const temps: string[] = [];
    const base = { name, alternativeText: info.alternativeText, caption: info.caption, hash, ext, mime, temps };

    if (!mime.startsWith('image/')) return { ...base, sizeInBytes: file.size, width: null, height: null, main: { temp: file.path }, formats: [] };
    return this.#images.run(() => this.prepareImage(file, base));
  }

  /** `prepare` for a file whose MIME type says image: one of at most `imageConcurrency` at once. */
  private async prepareImage(file: ReceivedFile, base: Omit<PreparedFile, 'sizeInBytes' | 'width' | 'height' | 'main' | 'formats'> & { temps: string[] }): Promise<PreparedFile> {
    const { config } = this.options;
    const { name, hash, ext, mime, temps } = base;
    const probe = await probeImage(file.path);
    if (!probe || !processedImageFormats.includes(probe.format)) {
      if (!probe && claimedImageMimes.has(mime)) throw new ApplicationError('File is not a valid image', { file: name });
      return { ...base, sizeInBytes: file.size, width: null, height: null, main: { temp: file.path }, formats: [] };
    }
    // Checked from the header, before anything decodes (formats that are only measured, like SVG, never are).
    const decoded = resizedImageFormats.includes(probe.format) || optimizedImageFormats.includes(probe.format);
    if (decoded && probe.width * probe.height > config.maxImagePixels) throw tooManyPixels(name, probe, config.maxImagePixels);
    const maxPixels = config.maxImagePixels;

    try {
      let source = file.path;
      let sizeInBytes = file.size;
      let width = probe.width;
      let height = probe.height;
      let orientation = probe.orientation;
      if ((config.sizeOptimization || config.autoOrientation) && optimizedImageFormats.includes(probe.format)) {
        const target = this.tempPath(temps);
        const written = await writeOptimized(source, target, {
          format: probe.format,
          maxPixels,
          quality: config.sizeOptimization ? 80 : 100,
          autoOrient: config.autoOrientation,
          ...(orientation ? { orientation } : {}),
        });
        // Kept even when larger, as Strapi (4.26.2 and 5.54.0) keeps it: its `optimize` skips a
        // larger result by comparing with the `size` of sharp's metadata, which a file read from
        // disk (every upload) does not have, so the check never holds (a 94-byte PNG is stored
        // as sharp's 104-byte one there).
        source = target;
        sizeInBytes = written.size;
        width = written.width;
        height = written.height;
        if (config.autoOrientation) orientation = undefined;
      }
      const formats: PreparedOutput[] = [];
      if (resizedImageFormats.includes(probe.format)) {
        const planned = planFormats({ width, height }, config.responsiveDimensions ? config.breakpoints : {});
        for (const { key, box } of planned) {
          const target = this.tempPath(temps);
          const written = await writeResized(source, target, box, { format: probe.format, maxPixels, ...(orientation ? { orientation } : {}) });
          formats.push({ key, stored: { hash: `${key}_${hash}`, ext }, temp: target, width: written.width, height: written.height, sizeInBytes: written.size });
        }
      }
      return { ...base, sizeInBytes, width, height, main: { temp: source }, formats };
    } catch (err) {
      await removeTemps(temps);
      if (err instanceof ApplicationError) throw err;
      const reason = String((err as Error)?.message ?? err);
      if (/pixel limit/i.test(reason)) throw tooManyPixels(name, probe, config.maxImagePixels);
      throw new ApplicationError('File is not a valid image', { file: name });
    }
  }

  /** Gives the prepared files to the provider; on a failure removes what it stored. */
  private async store(file: PreparedFile, replace: boolean): Promise<StoredFile> {
    const done: StoredName[] = [];
    try {
      const formats: Record<string, FileFormat> = {};
      for (const output of file.formats) {
        const { url } = await this.provider.upload(output.stored, output.temp, { replace, mime: file.mime });
        done.push(output.stored);
        formats[output.key!] = formatEntry(output.key!, file, { width: output.width, height: output.height, sizeInBytes: output.sizeInBytes, url });
      }
      const main = { hash: file.hash, ext: file.ext };
      const { url } = await this.provider.upload(main, file.main.temp, { replace, mime: file.mime });
      done.push(main);
      return { prepared: file, url, formats: file.formats.length ? formats : null };
    } catch (err) {
      // A replace overwrote in place: removing would lose the file the row still names.
      if (!replace) await Promise.all(done.map((name) => this.deleteQuietly(name)));
      throw err;
    }
  }

  /** Prisma data of a row, by attribute name mapped to the model's field names. */
  private rowData(file: StoredFile, now: Date, mode: 'create' | 'update'): Record<string, unknown> {
    const { prepared } = file;
    const values: Record<string, unknown> = {
      name: prepared.name,
      width: prepared.width,
      height: prepared.height,
      formats: file.formats ?? (mode === 'update' ? DbNull : undefined),
      hash: prepared.hash,
      ext: prepared.ext,
      mime: prepared.mime,
      size: bytesToKbytes(prepared.sizeInBytes),
      url: file.url,
      provider: this.provider.name,
      updatedAt: now,
    };
    if (mode === 'create') {
      values['alternativeText'] = prepared.alternativeText ?? null;
      values['caption'] = prepared.caption ?? null;
      values['createdAt'] = now;
      // The media library's root folder, as Strapi files uploads through the APIs.
      if (this.options.meta.fields['folderPath']) values['folderPath'] = '/';
    } else {
      if (prepared.alternativeText !== undefined) values['alternativeText'] = prepared.alternativeText;
      if (prepared.caption !== undefined) values['caption'] = prepared.caption;
    }
    const data: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(values)) if (value !== undefined) data[this.prisma(key)] = value;
    return data;
  }

  private async removeStoredFiles(file: PreparedFile): Promise<void> {
    await Promise.all([{ hash: file.hash, ext: file.ext }, ...file.formats.map((f) => f.stored)].map((name) => this.deleteQuietly(name)));
  }

  private async deleteQuietly(name: StoredName): Promise<void> {
    try {
      await this.provider.delete(name);
    } catch (err) {
      (this.options.log ?? console.error)(err);
    }
  }

  /** The stored row's id, hash, ext, provider and formats, read straight from the table. */
  private async findStored(id: unknown): Promise<{ id: number; hash: string; ext: string; provider: unknown; formats: Record<string, StoredName> } | null> {
    const file = await this.findOne(id);
    if (!file) return null;
    const formats: Record<string, StoredName> = {};
    if (isPlainObject(file['formats'])) {
      for (const [key, value] of Object.entries(file['formats'])) {
        const [name] = storedFormats({ [key]: value });
        if (name) formats[key] = name;
      }
    }
    return { id: file.id, hash: String(file['hash']), ext: String(file['ext'] ?? ''), provider: file['provider'], formats };
  }

  private prisma(attribute: string): string {
    const field = this.meta.fields[attribute] as ScalarFieldMeta | undefined;
    return field?.prismaField ?? attribute;
  }

  private tempPath(temps: string[]): string {
    const temp = path.join(this.options.tmpDir, `image-${randomBytes(16).toString('hex')}`);
    temps.push(temp);
    return temp;
  }
}

/** 413: an image whose pixels (its header says) are over `maxImagePixels`. */
function tooManyPixels(name: string, size: { width: number; height: number }, max: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`${name} is too large an image to process: ${size.width} × ${size.height} pixels, more than ${max}`, {
    file: name,
    width: size.width,
    height: size.height,
    maxImagePixels: max,
  });
}

function flatten(entry: { id: number; attributes: Record<string, unknown> }): FileObject {
  return { id: entry.id, ...entry.attributes };
}

function storedFormats(formats: unknown): StoredName[] {
  if (!isPlainObject(formats)) return [];
  return Object.values(formats).flatMap((format) =>
    isPlainObject(format) && typeof format['hash'] === 'string' && typeof format['ext'] === 'string' ? [{ hash: format['hash'], ext: format['ext'] }] : [],
  );
}

/** Strapi's entity service reads pagination from top-level `page`, `pageSize`, `start`, `limit`. */
function pickPagination(query: Record<string, unknown>): Record<string, unknown> | undefined {
  const keys = ['page', 'pageSize', 'start', 'limit'].filter((key) => query[key] !== undefined);
  return keys.length ? Object.fromEntries(keys.map((key) => [key, query[key]])) : undefined;
}

async function removeTemps(paths: readonly string[]): Promise<void> {
  await Promise.all(paths.map((p) => rm(p, { force: true })));
}

/**
 * `fileInfo` as sent: multipart field values (JSON strings; one holding an array, or one
 * per file) or an already parsed value. Answers one FileInfo per file; a missing one is `{}`.
 * Throws 400 ValidationError for invalid JSON or wrongly typed keys.
 */
export function parseFileInfo(raw: unknown): FileInfo[] {
  if (raw === undefined || raw === null) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  const parsed = values.map((value) => (typeof value === 'string' ? parseJson(value) : value));
  const items = parsed.length === 1 && Array.isArray(parsed[0]) ? (parsed[0] as unknown[]) : parsed;
  const many = items.length > 1 || (parsed.length === 1 && Array.isArray(parsed[0]));
  return items.map((item, i) => checkFileInfo(item, many ? ['fileInfo', String(i)] : ['fileInfo']));
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ValidationError('Invalid JSON in fileInfo');
  }
}

function checkFileInfo(item: unknown, path: string[]): FileInfo {
  if (item === null || item === undefined) return {};
  if (!isPlainObject(item)) {
    throw validationErrors([{ path, message: `${path.join('.')} must be a \`object\` type`, name: 'ValidationError' }]);
  }
  const info: { name?: string | null; alternativeText?: string | null; caption?: string | null } = {};
  const issues = [];
  for (const key of ['name', 'alternativeText', 'caption'] as const) {
    const value = item[key];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string') {
      issues.push({ path: [...path, key], message: `${[...path, key].join('.')} must be a \`string\` type`, name: 'ValidationError' as const });
      continue;
    }
    if (value?.includes('\u0000')) {
      issues.push({ path: [...path, key], message: `${[...path, key].join('.')} must not contain the NUL character (\\u0000)`, name: 'ValidationError' as const });
      continue;
    }
    info[key] = value;
  }
  if (issues.length) throw validationErrors(issues);
  return info;
}
