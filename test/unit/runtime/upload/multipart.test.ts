/**
 * The bounded multipart reader on real byte streams: files land in temporary files, limits
 * answer 413, malformed bodies 400, and a refused body leaves no temporary file.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ValidationError } from '../../../../templates/runtime/errors.js';
import { readMultipart, type MultipartLimits } from '../../../../templates/runtime/upload/multipart.js';

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

const boundary = '----contentgen-test-boundary';

function body(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** A request stream as Node's http server gives it: bytes in chunks, plus headers. */
function request(data: Buffer, headers: Record<string, string> = {}): IncomingMessage {
  const chunks: Buffer[] = [];
  for (let i = 0; i < data.length; i += 1000) chunks.push(data.subarray(i, i + 1000));
  return Object.assign(Readable.from(chunks), {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(data.length), ...headers },
  }) as unknown as IncomingMessage;
}

const limits: MultipartLimits = { fileSize: 10_000, files: 3, fields: 5, fieldSize: 1000 };
let tmpDir: string;

beforeEach(async () => {
  tmpDir = await mkdtemp(path.join(os.tmpdir(), 'multipart-test-'));
});
afterEach(async () => {
  await rm(tmpDir, { recursive: true, force: true });
});

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected a failure');
}

describe('readMultipart', () => {
  it('streams files to temporary files and collects fields', async () => {
    const png = Buffer.alloc(5000, 7);
    const parsed = await readMultipart(
      request(body([
        { name: 'fileInfo', value: '{"name":"a"}' },
        { name: 'files', value: png, filename: 'a.png', type: 'image/png' },
        { name: 'files', value: 'hello', filename: 'notes.txt', type: 'text/plain' },
        { name: 'fileInfo', value: '{"name":"b"}' },
      ])),
      { limits, tmpDir },
    );
    expect(parsed.fields.get('fileInfo')).toEqual(['{"name":"a"}', '{"name":"b"}']);
    expect(parsed.files.map(({ field, filename, mimeType, size }) => ({ field, filename, mimeType, size }))).toEqual([
      { field: 'files', filename: 'a.png', mimeType: 'image/png', size: 5000 },
      { field: 'files', filename: 'notes.txt', mimeType: 'text/plain', size: 5 },
    ]);
    expect(await readFile(parsed.files[0]!.path)).toEqual(png);
    expect(await readFile(parsed.files[1]!.path, 'utf8')).toBe('hello');
    expect(path.dirname(parsed.files[0]!.path)).toBe(tmpDir);
    await parsed.cleanup();
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('keeps only accepted file fields, and skips an empty part without a file name', async () => {
    const parsed = await readMultipart(
      request(body([
        { name: 'other', value: 'ignored', filename: 'x.txt', type: 'text/plain' },
        { name: 'files', value: '', filename: '', type: 'application/octet-stream' },
        { name: 'files', value: 'kept', filename: 'k.txt', type: 'text/plain' },
      ])),
      { limits, tmpDir, acceptFile: (field) => field === 'files' },
    );
    expect(parsed.files.map((f) => f.filename)).toEqual(['k.txt']);
    await parsed.cleanup();
  });

  it('keeps UTF-8 file names and strips directories from them', async () => {
    const parsed = await readMultipart(request(body([{ name: 'files', value: 'x', filename: '../../Crème.txt', type: 'text/plain' }])), { limits, tmpDir });
    expect(parsed.files[0]!.filename).toBe('Crème.txt');
    await parsed.cleanup();
  });

  it('refuses a file over the size limit with 413 and removes every temporary file', async () => {
    const err = await failure(
      readMultipart(
        request(body([
          { name: 'files', value: 'first', filename: 'ok.txt', type: 'text/plain' },
          { name: 'files', value: Buffer.alloc(10_001), filename: 'big.bin', type: 'application/octet-stream' },
        ])),
        { limits, tmpDir },
      ),
    );
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err.message).toBe('big.bin exceeds size limit of 9.77 KB.');
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('accepts a file of exactly the size limit', async () => {
    const parsed = await readMultipart(request(body([{ name: 'files', value: Buffer.alloc(10_000), filename: 'edge.bin' }])), { limits, tmpDir });
    expect(parsed.files[0]!.size).toBe(10_000);
    await parsed.cleanup();
  });

  it('refuses too many files, too many fields and too large fields with 413', async () => {
    const files = [1, 2, 3, 4].map((i) => ({ name: 'files', value: `f${i}`, filename: `${i}.txt`, type: 'text/plain' }));
    const tooMany = await failure(readMultipart(request(body(files)), { limits, tmpDir }));
    expect(tooMany).toBeInstanceOf(PayloadTooLargeError);
    expect(tooMany.message).toBe('Too many files: at most 3 can be uploaded at once.');

    const fields = [1, 2, 3, 4, 5, 6].map((i) => ({ name: `f${i}`, value: 'v' }));
    expect((await failure(readMultipart(request(body(fields)), { limits, tmpDir }))).message).toBe('Too many form fields: at most 5 are accepted.');

    const bigField = await failure(readMultipart(request(body([{ name: 'fileInfo', value: 'x'.repeat(1001) }])), { limits, tmpDir }));
    expect(bigField).toBeInstanceOf(PayloadTooLargeError);
    expect(bigField.message).toBe('Form field "fileInfo" exceeds the limit of 1000 bytes.');
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('refuses a declared Content-Length no acceptable body reaches, before reading', async () => {
    const stream = request(Buffer.from('never read'), { 'content-length': String(10 ** 9) });
    const err = await failure(readMultipart(stream, { limits, tmpDir }));
    expect(err).toBeInstanceOf(PayloadTooLargeError);
    expect(err.message).toMatch(/exceeds the upload limits/);
    expect((stream as unknown as Readable).readableDidRead).toBe(false);
  });

  it('answers 400 for a missing boundary or a truncated body, leaving no file', async () => {
    const noBoundary = await failure(readMultipart(request(Buffer.from('x'), { 'content-type': 'multipart/form-data' }), { limits, tmpDir }));
    expect(noBoundary).toBeInstanceOf(ValidationError);
    expect(noBoundary.message).toMatch(/^Invalid multipart\/form-data request/);

    const full = body([{ name: 'files', value: Buffer.alloc(5000, 1), filename: 'cut.bin' }]);
    const truncated = await failure(readMultipart(request(full.subarray(0, 3000), { 'content-length': String(full.length) }), { limits, tmpDir }));
    expect(truncated).toBeInstanceOf(ValidationError);
    expect(await readdir(tmpDir)).toEqual([]);
  });

  it('a body that ends inside a file part it discards: 400, and no unhandled error (it ended the process)', async () => {
    const full = body([{ name: 'not-a-file-field', value: Buffer.alloc(5000, 1), filename: 'cut.bin' }]);
    const errors: unknown[] = [];
    const onError = (err: unknown) => errors.push(err);
    process.on('uncaughtException', onError);
    try {
      const truncated = await failure(
        readMultipart(request(full.subarray(0, 3000), { 'content-length': String(full.length) }), { limits, tmpDir, acceptFile: (field) => field === 'files' }),
      );
      expect(truncated).toBeInstanceOf(ValidationError);
      expect(truncated.message).toBe('Invalid multipart/form-data request: Unexpected end of form');
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(errors).toEqual([]);
  });
});
