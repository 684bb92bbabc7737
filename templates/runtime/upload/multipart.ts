/**
 * A bounded `multipart/form-data` reader. File parts stream to temporary files (never
 * into memory) with a per-file size limit; field values, their number and the number of
 * files are capped. On any failure every temporary file is removed before the promise
 * rejects, so a refused request leaves nothing on disk.
 *
 * Errors: 413 PayloadTooLargeError past a limit, 400 ValidationError for a malformed body
 * or an aborted request.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Context } from 'koa';
import { PayloadTooLargeError, ValidationError } from '../errors.js';
import { humanSize } from './filename.js';

export interface MultipartLimits {
  /** Largest file, in bytes. */
  readonly fileSize: number;
  /** Most file parts. */
  readonly files: number;
  /** Most non-file fields. */
  readonly fields: number;
  /** Largest field value, in bytes. */
  readonly fieldSize: number;
}

export interface ReceivedFile {
  /** The form field the file came in (`files`, `files.cover`...). */
  readonly field: string;
  /** The client's file name, without any directory part. */
  readonly filename: string;
  /** The part's Content-Type as the client sent it (busboy's default: text/plain). */
  readonly mimeType: string;
  /** Temporary file holding the content. */
  readonly path: string;
  /** Bytes received. */
  readonly size: number;
}

export interface MultipartBody {
  /** Field values by name, in the order received (a repeated field has several). */
  readonly fields: ReadonlyMap<string, readonly string[]>;
  readonly files: readonly ReceivedFile[];
  /** Removes the temporary files that are still there; safe to call more than once. */
  cleanup(): Promise<void>;
}

export interface ReadMultipartOptions {
  readonly limits: MultipartLimits;
  /** Folder for temporary files (created if missing). */
  readonly tmpDir: string;
  /** Which file fields to keep; the others are read and discarded. Default: all. */
  readonly acceptFile?: (field: string) => boolean;
}

/** Parts that are not files or fields (empty ones, headers only) are capped too. */
const extraParts = 10;
/** Room for boundaries and part headers when checking a declared Content-Length. */
const overheadPerPart = 16 * 1024;

/**
 * Reads the request body. Files larger than `fileSize` fail with
 * `<file name> exceeds size limit of <size>.` (Strapi's wording) while streaming.
 * A declared Content-Length that no acceptable body could reach is refused before reading.
 */
export async function readMultipart(req: IncomingMessage, options: ReadMultipartOptions): Promise<MultipartBody> {
  const { limits, tmpDir } = options;
  const acceptFile = options.acceptFile ?? (() => true);
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  const ceiling = limits.files * limits.fileSize + limits.fields * limits.fieldSize + (limits.files + limits.fields + extraParts) * overheadPerPart;
  if (Number.isFinite(declared) && declared > ceiling) {
    throw new PayloadTooLargeError(`The request body exceeds the upload limits (${limits.files} files of at most ${humanSize(limits.fileSize)} each).`);
  }

  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      preservePath: false,
      limits: {
        // busboy signals a file that reaches its limit: one byte more lets exactly fileSize through.
        fileSize: limits.fileSize + 1,
        files: limits.files,
        fields: limits.fields,
        fieldSize: limits.fieldSize,
        parts: limits.files + limits.fields + extraParts,
        fieldNameSize: 200,
        headerPairs: 100,
      },
    });
  } catch (err) {
    throw new ValidationError(`Invalid multipart/form-data request: ${(err as Error).message}`);
  }
  await mkdir(tmpDir, { recursive: true });

  const fields = new Map<string, string[]>();
  const files: ReceivedFile[] = [];
  const tempPaths: string[] = [];
  const open = new Set<WriteStream>();
  const writes: Promise<void>[] = [];
  // A file stream destroyed before its file is open still creates the file, then closes it:
  // removal waits for every 'close', or it could run first and leave that file behind.
  const closed: Promise<void>[] = [];
  const cleanup = async () => {
    await Promise.all(tempPaths.map((p) => rm(p, { force: true })));
  };

  return new Promise<MultipartBody>((resolve, reject) => {
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      for (const stream of open) stream.destroy();
      // Wait for every writer to stop, and its file to be closed, before removing what it wrote.
      void Promise.allSettled([...writes, ...closed])
        .then(cleanup)
        .finally(() => reject(error));
    };

    parser.on('file', (field, stream, info) => {
      const filename = info.filename ?? '';
      if (failed || !acceptFile(field)) {
        // A body that ends inside this part makes busboy emit 'error' on the part too (the
        // parser's own 'error' reports it): without a listener, that would end the process.
        stream.on('error', () => undefined);
        stream.resume();
        return;
      }
      const tempPath = path.join(tmpDir, `upload-${randomBytes(16).toString('hex')}`);
      tempPaths.push(tempPath);
      const out = createWriteStream(tempPath, { flags: 'wx' });
      closed.push(new Promise<void>((resolve) => out.once('close', () => resolve())));
      open.add(out);
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
      });
      stream.once('limit', () => fail(new PayloadTooLargeError(`${filename || field} exceeds size limit of ${humanSize(limits.fileSize)}.`)));
      writes.push(
        pipeline(stream, out).then(
          () => {
            open.delete(out);
            // A browser sends an empty part with no file name when no file was chosen.
            if (filename === '' && size === 0) return;
            files.push({ field, filename, mimeType: info.mimeType, path: tempPath, size });
          },
          (err: unknown) => {
            open.delete(out);
            fail(err instanceof Error ? err : new Error(String(err)));
          },
        ),
      );
    });
    parser.on('field', (name, value, info) => {
      if (failed) return;
      if (info.valueTruncated) return fail(new PayloadTooLargeError(`Form field "${name}" exceeds the limit of ${humanSize(limits.fieldSize)}.`));
      if (info.nameTruncated) return fail(new ValidationError('Form field name is too long.'));
      const values = fields.get(name);
      if (values) values.push(value);
      else fields.set(name, [value]);
    });
    parser.on('filesLimit', () => fail(new PayloadTooLargeError(`Too many files: at most ${limits.files} can be uploaded at once.`)));
    parser.on('fieldsLimit', () => fail(new PayloadTooLargeError(`Too many form fields: at most ${limits.fields} are accepted.`)));
    parser.on('partsLimit', () => fail(new PayloadTooLargeError('Too many parts in the multipart/form-data body.')));
    parser.on('error', (err: Error) => fail(new ValidationError(`Invalid multipart/form-data request: ${err.message}`)));
    parser.on('close', () => {
      void Promise.allSettled(writes).then(() => {
        if (failed) return;
        // Files in the order their parts arrived.
        files.sort((a, b) => tempPaths.indexOf(a.path) - tempPaths.indexOf(b.path));
        resolve({ fields, files, cleanup });
      });
    });
    req.on('aborted', () => fail(new ValidationError('The request was aborted before the upload completed.')));
    req.on('error', (err) => fail(new ValidationError(`The upload failed: ${err.message}`)));
    req.pipe(parser);
  });
}

/**
 * readMultipart for a Koa request: when the body is refused before it was read to its end,
 * the connection is closed instead of reading the rest.
 */
export async function readMultipartRequest(ctx: Pick<Context, 'req' | 'set'>, options: ReadMultipartOptions): Promise<MultipartBody> {
  try {
    return await readMultipart(ctx.req, options);
  } catch (err) {
    if (!ctx.req.complete) ctx.set('Connection', 'close');
    throw err;
  }
}
