/**
 * Image decompression bombs against the emitted blog server: a 250 KB PNG of 16000 × 16000
 * pixels (1 GB once decoded) is refused with 413 from its header, before anything decodes it,
 * five at once too, through `POST /api/upload` and through an entry written as a multipart
 * form; the server's peak memory barely moves. `maxImagePixels` and `imageConcurrency` come
 * from `plugins.upload.config`, as Strapi's upload settings do.
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createDeflate } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer | undefined;
let token: string;
let bomb: Buffer;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid greyscale PNG of `width` × `height` black pixels: a few hundred KB that decode to width × height bytes and more. */
async function pngBomb(width: number, height: number): Promise<Buffer> {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (part: Buffer) => parts.push(part));
  const ended = new Promise((resolve) => deflate.on('end', resolve));
  const row = Buffer.alloc(width + 1); // filter byte 0, then the row
  for (let y = 0; y < height; y++) if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  deflate.end();
  await ended;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, pngChunk('IHDR', header), pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** The server process's peak resident memory in MB (Linux), or undefined. */
function peakMemoryMb(pid: number): number | undefined {
  const file = `/proc/${pid}/status`;
  if (!existsSync(file)) return undefined;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) / 1024 : undefined;
}

async function upload(bytes: Buffer, name = 'bomb.png', type = 'image/png'): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${server!.url}/api/upload`, { method: 'POST', headers: bearer(token), body: form });
  return { status: res.status, body: await res.json() };
}

async function restart(uploadConfig?: Record<string, unknown>): Promise<void> {
  await server?.stop();
  const config = uploadConfig ? { plugins: { upload: { config: uploadConfig } } } : {};
  await writeFile(
    path.join(built.dir, 'src/config.ts'),
    ["import type { UserConfig } from './runtime/config.js';", '', `export default ${JSON.stringify(config, null, 2)} satisfies UserConfig;`, ''].join('\n'),
  );
  server = await startServer(built.dir);
}

beforeAll(async () => {
  built = await buildFixture('blog');
  [bomb, token] = await Promise.all([pngBomb(16_000, 16_000), createApiToken(built.dir, { type: 'full-access' })]);
  await restart();
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('default limits (50 megapixels, 2 images at once)', () => {
  it('a 16000 × 16000 PNG is refused with 413 from its header, five at once too, without the memory decoding takes', async () => {
    expect(bomb.length).toBeLessThan(400_000);
    const before = peakMemoryMb(server!.pid);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 5 }, () => upload(bomb)));
    const elapsed = performance.now() - started;
    for (const answer of answers) {
      expect(answer).toEqual({
        status: 413,
        body: {
          data: null,
          error: {
            status: 413,
            name: 'PayloadTooLargeError',
            message: 'bomb.png is too large an image to process: 16000 × 16000 pixels, more than 50000000',
            details: { file: 'bomb.png', width: 16000, height: 16000, maxImagePixels: 50_000_000 },
          },
        },
      });
    }
    expect(elapsed).toBeLessThan(20_000); // decoding them took 41 s (and 1.5 GB each)
    const after = peakMemoryMb(server!.pid);
    if (before !== undefined && after !== undefined) expect(after - before).toBeLessThan(300);
    const files = await client(server!.url, bearer(token)).get('/api/upload/files');
    expect(files.body).toEqual([]);
  }, 120_000);

  it('an entry written as a form with a bomb as its cover: 413, nothing created', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({ title: 'bombed cover' }));
    form.append('files.cover', new Blob([new Uint8Array(bomb)], { type: 'image/png' }), 'cover.png');
    const res = await fetch(`${server!.url}/api/articles`, { method: 'POST', headers: bearer(token), body: form });
    expect(res.status).toBe(413);
    expect((await res.json()).error.name).toBe('PayloadTooLargeError');
    const articles = await client(server!.url, bearer(token)).get('/api/articles?filters[title][$eq]=bombed cover');
    expect(articles.body.data).toEqual([]);
  }, 60_000);

  it('an ordinary image is processed as before', async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 10, g: 120, b: 200 } } }).png().toBuffer();
    const res = await upload(photo, 'photo.png');
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ width: 1200, height: 800 });
    expect(Object.keys(res.body[0].formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
  });
});

describe('configured limits (plugins.upload.config)', () => {
  beforeAll(() => restart({ maxImagePixels: 1_000_000, imageConcurrency: 1 }), 120_000);

  it('maxImagePixels: an image of exactly the limit is processed, one pixel row more is a 413', async () => {
    const at = await sharp({ create: { width: 1000, height: 1000, channels: 3, background: '#888' } }).png().toBuffer();
    const over = await sharp({ create: { width: 1000, height: 1001, channels: 3, background: '#888' } }).png().toBuffer();
    expect((await upload(at, 'at.png')).status).toBe(200);
    const refused = await upload(over, 'over.png');
    expect(refused.status).toBe(413);
    expect(refused.body.error.message).toBe('over.png is too large an image to process: 1000 × 1001 pixels, more than 1000000');
  });

  it('imageConcurrency 1: concurrent uploads wait their turn and all succeed', async () => {
    const images = await Promise.all(
      Array.from({ length: 4 }, (_, i) => sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 40 * i, g: 90, b: 10 } } }).jpeg().toBuffer()),
    );
    const answers = await Promise.all(images.map((bytes, i) => upload(bytes, `queued-${i}.jpg`, 'image/jpeg')));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((a) => a.body[0].name)).toEqual(['queued-0.jpg', 'queued-1.jpg', 'queued-2.jpg', 'queued-3.jpg']);
  });
});
