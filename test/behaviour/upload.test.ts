/**
 * The upload plugin over real HTTP, mounted in a Koa app made of the real runtime pieces
 * (error middleware, the plugin's middleware and routes on @koa/router), against the
 * emitted blog server's Prisma client on the run's database, with real images made by
 * sharp. Files land in the built server's public/uploads/.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '../../templates/runtime/db/database.js';
import { applyMigrations } from '../../templates/runtime/db/migrate.js';
import { createAdapterFactory } from '../../templates/runtime/db/provider.js';
import { errorMiddleware } from '../../templates/runtime/errors.js';
import type { Registry } from '../../templates/runtime/meta.js';
import type { RouteState } from '../../templates/runtime/rest/routes.js';
import { uploadPlugin, type UploadUserConfig } from '../../templates/runtime/upload/index.js';
import { buildFixture, type BuiltServer } from '../helpers/server.js';
import { newDocumentId } from '../../templates/runtime/entity/document-id.js';

let built: BuiltServer;
let prisma: any;
let db: Database;
let registry: Registry;
let uploadsDir: string;
let tmpDir: string;
const servers: http.Server[] = [];
const logged: unknown[] = [];
/** The default server, and one with small limits (2000-byte files, 2 files a request). */
let base: string;
let small: string;
/** Auto orientation on, size optimization off. */
let oriented: string;

async function serve(config: UploadUserConfig): Promise<string> {
  const plugin = uploadPlugin({ db, root: built.dir, registry, config: { tmpDir, ...config }, log: (err) => logged.push(err) });
  uploadsDir = plugin.uploadsDir;
  const app = new Koa<RouteState>();
  app.silent = true;
  app.use(errorMiddleware((err) => logged.push(err)));
  for (const middleware of plugin.middleware) app.use(middleware);
  const router = new Router<RouteState>({ prefix: '/api' });
  for (const route of plugin.routes) router.register(route.path, [route.method], (ctx) => route.handler(ctx));
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: true }));
  const server = http.createServer(app.callback());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  const databaseUrl = built.database.url;
  await applyMigrations({ databaseUrl, migrationsDir: path.join(built.dir, 'prisma', 'migrations') });
  const { PrismaClient } = await import(pathToFileURL(path.join(built.dir, 'src', 'prisma-client', 'client.ts')).href);
  prisma = new PrismaClient({ adapter: await createAdapterFactory(databaseUrl) });
  db = createDatabase(prisma, built.provider);
  ({ registry } = await import(pathToFileURL(path.join(built.dir, 'src', 'generated', 'index.ts')).href));
  tmpDir = path.join(built.dir, '.upload-tmp');
  base = await serve({});
  small = await serve({ sizeLimit: 2000, maxFiles: 2 });
  oriented = await serve({ autoOrientation: true, sizeOptimization: false });
});

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await prisma?.$disconnect();
  await built?.cleanup();
});

// --- helpers -------------------------------------------------------------------------------

interface Upload {
  name: string;
  data: Buffer | string;
  type?: string;
}

function form(files: Upload[], fields: Record<string, string | string[]> = {}): FormData {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  for (const file of files) body.append('files', new Blob([typeof file.data === 'string' ? file.data : new Uint8Array(file.data)], file.type ? { type: file.type } : {}), file.name);
  return body;
}

async function send(method: string, url: string, body?: FormData | string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { method, body: body ?? null, headers });
  const text = await res.text();
  let json: any;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const upload = (files: Upload[], fields?: Record<string, string | string[]>, server = base, query = '') =>
  send('POST', `${server}/api/upload${query}`, form(files, fields));

/** A photo-like PNG: a gradient with noise, so it neither compresses to nothing nor is trivial. */
async function png(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  let seed = 42;
  for (let i = 0; i < raw.length; i += 3) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const x = (i / 3) % width;
    const y = Math.floor(i / 3 / width);
    raw[i] = (x * 255) / width;
    raw[i + 1] = (y * 255) / height;
    raw[i + 2] = seed & 0x3f;
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/** A GET with the path and headers sent exactly as written (fetch would normalize `..` and add cache headers). */
function rawGet(
  server: string,
  rawPath: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; type: string | undefined; headers: http.IncomingHttpHeaders }> {
  const { hostname, port } = new URL(server);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: 'GET', headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'], headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A multipart upload of `size` bytes streamed in 64 KB chunks, as a client that keeps
 * sending would; answers the response, which may arrive before the body is all sent.
 */
function streamUpload(server: string, size: number, declareLength: boolean): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; sent: number }> {
  const { hostname, port } = new URL(server);
  const boundary = 'stream-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    let sent = 0;
    const req = http.request(
      {
        host: hostname,
        port,
        path: '/api/upload',
        method: 'POST',
        agent: false,
        headers: {
          'content-type': `multipart/form-data; boundary=${boundary}`,
          // Without a length the body is sent chunked and only streaming can tell its size.
          ...(declareLength ? { 'content-length': String(head.length + size + tail.length) } : {}),
        },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, sent }));
      },
    );
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'EPIPE' || (err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
    const chunk = Buffer.alloc(64 * 1024, 1);
    req.write(head);
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

const storedFiles = async () => (existsSync(uploadsDir) ? (await readdir(uploadsDir)).sort() : []);
const tempFiles = async () => (existsSync(tmpDir) ? await readdir(tmpDir) : []);
const rowCount = (): Promise<number> => prisma.uploadFile.count();
const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const fileKeys = ['id', 'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'];

function notFound(message: string) {
  return { data: null, error: { status: 404, name: 'NotFoundError', message, details: {} } };
}

// --- tests ---------------------------------------------------------------------------------

describe('POST /api/upload', () => {
  let photo: any;

  it('stores an image with its dimensions and every responsive format', async () => {
    const res = await upload([{ name: 'photo.png', data: await png(1200, 900), type: 'image/png' }]);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json).toHaveLength(1);
    photo = res.json[0];
    expect(Object.keys(photo)).toEqual(fileKeys);
    expect(photo).toMatchObject({
      name: 'photo.png',
      alternativeText: null,
      caption: null,
      width: 1200,
      height: 900,
      ext: '.png',
      mime: 'image/png',
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
    });
    expect(typeof photo.id).toBe('number');
    expect(photo.hash).toMatch(/^photo_[0-9a-f]{10}$/);
    expect(photo.url).toBe(`/uploads/${photo.hash}.png`);
    expect(photo.createdAt).toMatch(isoDateTime);
    expect(photo.updatedAt).toBe(photo.createdAt);

    const stored = await stat(path.join(uploadsDir, `${photo.hash}.png`));
    expect(photo.size).toBe(Math.round(stored.size / 10) / 100); // kilobytes, two decimals

    expect(Object.keys(photo.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    const dims = Object.fromEntries(Object.entries(photo.formats).map(([k, f]: [string, any]) => [k, [f.width, f.height]]));
    expect(dims).toEqual({ thumbnail: [208, 156], large: [1000, 750], medium: [750, 563], small: [500, 375] });
    for (const [key, format] of Object.entries<any>(photo.formats)) {
      expect(Object.keys(format)).toEqual(['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url']);
      expect(format).toMatchObject({ name: `${key}_photo.png`, hash: `${key}_${photo.hash}`, ext: '.png', mime: 'image/png', path: null, url: `/uploads/${key}_${photo.hash}.png` });
      const onDisk = await stat(path.join(uploadsDir, `${key}_${photo.hash}.png`));
      expect(format.sizeInBytes).toBe(onDisk.size);
      expect(format.size).toBe(Math.round(onDisk.size / 10) / 100);
      // What is served is that image.
      const served = await fetch(base + format.url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['png', format.width, format.height]);
    }
    expect(await tempFiles()).toEqual([]);
  });

  it('is readable back, identical, at GET /api/upload/files/:id', async () => {
    const res = await send('GET', `${base}/api/upload/files/${photo.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(photo);
  });

  it('applies fileInfo: name, alternativeText, caption', async () => {
    const fileInfo = JSON.stringify({ name: 'Sunset over the Sea.png', alternativeText: 'A sunset', caption: 'Evening' });
    const res = await upload([{ name: 'IMG_0001.png', data: await png(300, 200), type: 'image/png' }], { fileInfo });
    expect(res.status).toBe(200);
    const [file] = res.json;
    expect(file).toMatchObject({ name: 'Sunset over the Sea.png', alternativeText: 'A sunset', caption: 'Evening', width: 300, height: 200 });
    expect(file.hash).toMatch(/^Sunset_over_the_Sea_[0-9a-f]{10}$/);
    expect(Object.keys(file.formats)).toEqual(['thumbnail']); // smaller than every breakpoint
    expect(file.formats.thumbnail).toMatchObject({ name: 'thumbnail_Sunset over the Sea.png', width: 234, height: 156 });
  });

  it('stores a text file without dimensions or formats, and serves it back', async () => {
    const content = 'hello, uploads\n'.repeat(100);
    const res = await upload([{ name: 'notes.txt', data: content, type: 'text/plain' }]);
    expect(res.status).toBe(200);
    const [file] = res.json;
    expect(file).toMatchObject({ name: 'notes.txt', width: null, height: null, formats: null, ext: '.txt', mime: 'text/plain', size: 1.5, provider: 'local' });
    expect(file.url).toBe(`/uploads/${file.hash}.txt`);
    const served = await send('GET', base + file.url);
    expect(served.status).toBe(200);
    expect(served.text).toBe(content);
    expect(served.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('uploads several files at once, in order, with one fileInfo field per file', async () => {
    const res = await upload(
      [
        { name: 'tiny.png', data: await png(100, 80), type: 'image/png' },
        { name: 'doc.pdf', data: '%PDF-1.4 not really', type: 'application/pdf' },
        { name: 'data.bin', data: Buffer.from([0, 1, 2, 3]) },
      ],
      { fileInfo: [JSON.stringify({ alternativeText: 'tiny' }), JSON.stringify({ caption: 'doc' })] },
    );
    expect(res.status).toBe(200);
    expect(res.json.map((f: any) => [f.name, f.mime, f.ext, f.alternativeText, f.caption, f.width, f.formats])).toEqual([
      ['tiny.png', 'image/png', '.png', 'tiny', null, 100, null],
      ['doc.pdf', 'application/pdf', '.pdf', null, 'doc', null, null],
      ['data.bin', 'application/octet-stream', '.bin', null, null, null, null],
    ]);
    const ids = res.json.map((f: any) => f.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
  });

  it('takes fileInfo for several files as one JSON array too', async () => {
    const res = await upload(
      [{ name: 'a.txt', data: 'a', type: 'text/plain' }, { name: 'b.txt', data: 'b', type: 'text/plain' }],
      { fileInfo: JSON.stringify([{ name: 'first.txt' }, { name: 'second.txt' }]) },
    );
    expect(res.json.map((f: any) => f.name)).toEqual(['first.txt', 'second.txt']);
  });

  it('answers 400 "Files are empty" without files', async () => {
    const res = await send('POST', `${base}/api/upload`, form([], { fileInfo: '{}' }));
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Files are empty' });
    const json = await send('POST', `${base}/api/upload`, JSON.stringify({}), { 'content-type': 'application/json' });
    expect(json.json.error.message).toBe('Files are empty');
  });

  it('answers 400 for malformed fileInfo, storing nothing', async () => {
    const before = [await rowCount(), await storedFiles()];
    const res = await upload([{ name: 'x.txt', data: 'x', type: 'text/plain' }], { fileInfo: '{not json' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe('Invalid JSON in fileInfo');
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a file that claims to be an image but is not, leaving nothing behind', async () => {
    const before = [await rowCount(), await storedFiles()];
    const res = await upload([
      { name: 'good.png', data: await png(400, 300), type: 'image/png' },
      { name: 'bad.png', data: 'this is not a png', type: 'image/png' },
    ]);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ name: 'ApplicationError', message: 'File is not a valid image', details: { file: 'bad.png' } });
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });
});

describe('EXIF orientation', () => {
  /** A 400×300 JPEG whose EXIF says to turn it a quarter clockwise (orientation 6). */
  const rotatedJpeg = async () => sharp(await png(400, 300)).jpeg({ quality: 95 }).withMetadata({ orientation: 6 }).toBuffer();

  it('keeps the stored dimensions and the orientation tag without autoOrientation', async () => {
    const [file] = (await upload([{ name: 'turned.jpg', data: await rotatedJpeg(), type: 'image/jpeg' }])).json;
    expect([file.width, file.height]).toEqual([400, 300]);
    for (const name of [`${file.hash}.jpg`, `thumbnail_${file.hash}.jpg`]) {
      const meta = await sharp(path.join(uploadsDir, name)).metadata();
      expect(meta.orientation, name).toBe(6);
    }
  });

  it('turns the image upright with autoOrientation', async () => {
    const [file] = (await upload([{ name: 'turned.jpg', data: await rotatedJpeg(), type: 'image/jpeg' }], undefined, oriented)).json;
    expect([file.width, file.height]).toEqual([300, 400]);
    expect([file.formats.thumbnail.width, file.formats.thumbnail.height]).toEqual([117, 156]);
    const meta = await sharp(path.join(uploadsDir, `${file.hash}.jpg`)).metadata();
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([300, 400, 1]);
  });
});

describe('limits', () => {
  it('refuses a file over sizeLimit with 413', async () => {
    const before = [await rowCount(), await storedFiles()];
    const res = await upload([{ name: 'big.bin', data: Buffer.alloc(5000, 1) }], undefined, small);
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'big.bin exceeds size limit of 1.95 KB.', details: {} } });
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('answers a large upload over the limit before it is all sent, and closes the connection', async () => {
    const before = [await rowCount(), await storedFiles()];
    const size = 64 * 1024 * 1024;
    const res = await streamUpload(small, size, false);
    expect(res.status).toBe(413);
    expect(res.headers['connection']).toBe('close');
    expect(JSON.parse(res.body).error.message).toBe('huge.bin exceeds size limit of 1.95 KB.');
    expect(res.sent).toBeLessThan(size);
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses a declared Content-Length beyond any acceptable body without reading it', async () => {
    const size = 64 * 1024 * 1024;
    const res = await streamUpload(small, size, true);
    expect(res.status).toBe(413);
    expect(res.headers['connection']).toBe('close');
    expect(JSON.parse(res.body).error).toMatchObject({ name: 'PayloadTooLargeError', message: 'The request body exceeds the upload limits (2 files of at most 1.95 KB each).' });
    expect(res.sent).toBeLessThan(size);
  });

  it('accepts a file of exactly sizeLimit bytes', async () => {
    const res = await upload([{ name: 'edge.bin', data: Buffer.alloc(2000, 1) }], undefined, small);
    expect(res.status).toBe(200);
    expect(res.json[0].size).toBe(2);
  });

  it('a file over the limit fails the whole request: the files before it leave nothing', async () => {
    const before = [await rowCount(), await storedFiles()];
    const res = await upload([{ name: 'ok.txt', data: 'fine', type: 'text/plain' }, { name: 'big.txt', data: 'x'.repeat(3000), type: 'text/plain' }], undefined, small);
    expect(res.status).toBe(413);
    expect(res.json.error.message).toBe('big.txt exceeds size limit of 1.95 KB.');
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('refuses more files than maxFiles with 413', async () => {
    const before = [await rowCount(), await storedFiles()];
    const res = await upload(['1', '2', '3'].map((n) => ({ name: `${n}.txt`, data: n, type: 'text/plain' })), undefined, small);
    expect(res.status).toBe(413);
    expect(res.json.error).toMatchObject({ name: 'PayloadTooLargeError', message: 'Too many files: at most 2 can be uploaded at once.' });
    expect([await rowCount(), await storedFiles()]).toEqual(before);
    expect(await tempFiles()).toEqual([]);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const res = await send('POST', `${base}/api/upload`, '--nope\r\n', { 'content-type': 'multipart/form-data' });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/^Invalid multipart\/form-data request/);
  });
});

describe('GET /api/upload/files', () => {
  it('lists every file as a bare array, in id order', async () => {
    const res = await send('GET', `${base}/api/upload/files`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(true);
    expect(res.json).toHaveLength(await rowCount());
    expect(Object.keys(res.json[0])).toEqual(fileKeys);
  });

  it('supports filters, sort, fields and pagination through the query layer', async () => {
    const texts = await send('GET', `${base}/api/upload/files?filters[mime][$eq]=text/plain&sort=id:desc&fields[0]=name&fields[1]=mime`);
    expect(texts.status).toBe(200);
    expect(texts.json.length).toBeGreaterThanOrEqual(3);
    expect(texts.json.every((f: any) => f.mime === 'text/plain' && Object.keys(f).join() === 'id,name,mime')).toBe(true);
    const ids = texts.json.map((f: any) => f.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));

    const page = await send('GET', `${base}/api/upload/files?sort=id:asc&pagination[page]=2&pagination[pageSize]=2`);
    const all = await send('GET', `${base}/api/upload/files?sort=id:asc`);
    expect(page.json).toEqual(all.json.slice(2, 4));
    const offset = await send('GET', `${base}/api/upload/files?sort=id:asc&start=1&limit=1`);
    expect(offset.json).toEqual(all.json.slice(1, 2));

    const bad = await send('GET', `${base}/api/upload/files?fields=nope`);
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toBe('Invalid parameter nope');
  });

  it('answers 404 file.notFound for a missing or malformed id', async () => {
    for (const id of ['999999', 'abc', '0', '-1']) {
      const res = await send('GET', `${base}/api/upload/files/${id}`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual(notFound('file.notFound'));
    }
  });
});

describe('DELETE /api/upload/files/:id', () => {
  it('deletes the row and every stored file, answering the file', async () => {
    const [file] = (await upload([{ name: 'doomed.png', data: await png(800, 600), type: 'image/png' }])).json;
    const names = [`${file.hash}.png`, ...Object.keys(file.formats).map((k) => `${k}_${file.hash}.png`)];
    expect(names).toHaveLength(4); // thumbnail, medium, small
    for (const name of names) expect(existsSync(path.join(uploadsDir, name))).toBe(true);

    const res = await send('DELETE', `${base}/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual(file);
    for (const name of names) expect(existsSync(path.join(uploadsDir, name))).toBe(false);
    expect((await send('GET', `${base}/api/upload/files/${file.id}`)).status).toBe(404);
    expect((await send('GET', base + file.url)).status).toBe(404);
    expect(await send('DELETE', `${base}/api/upload/files/${file.id}`)).toMatchObject({ status: 404, json: notFound('file.notFound') });
  });

  it('removes the links of media fields to the file, not the entries', async () => {
    const [file] = (await upload([{ name: 'cover.png', data: await png(50, 50), type: 'image/png' }])).json;
    const now = new Date();
    const article = await prisma.article.create({ data: { title: 'With cover', documentId: newDocumentId(), createdAt: now, updatedAt: now }, select: { id: true } });
    await prisma.articleCoverLink.create({ data: { articleId: article.id, fileId: file.id, fileOrder: 1 } });
    expect((await send('DELETE', `${base}/api/upload/files/${file.id}`)).status).toBe(200);
    expect(await prisma.articleCoverLink.count({ where: { articleId: article.id } })).toBe(0);
    expect(await prisma.article.count({ where: { id: article.id } })).toBe(1);
  });
});

describe('POST /api/upload?id= (replace, update fileInfo)', () => {
  it('replaces the content, keeping id, hash and url; formats no longer made are removed', async () => {
    const [file] = (await upload([{ name: 'v1.png', data: await png(1100, 800), type: 'image/png' }], { fileInfo: JSON.stringify({ alternativeText: 'kept' }) })).json;
    expect(Object.keys(file.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    const res = await upload([{ name: 'v2.png', data: await png(600, 400), type: 'image/png' }], undefined, base, `?id=${file.id}`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.json)).toBe(false);
    expect(res.json).toMatchObject({ id: file.id, hash: file.hash, url: file.url, name: 'v2.png', width: 600, height: 400, alternativeText: 'kept' });
    expect(Object.keys(res.json.formats)).toEqual(['thumbnail', 'small']);
    expect(existsSync(path.join(uploadsDir, `large_${file.hash}.png`))).toBe(false);
    expect(existsSync(path.join(uploadsDir, `medium_${file.hash}.png`))).toBe(false);
    const served = await fetch(base + file.url);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(600);
  });

  it('updates name, alternativeText and caption without a file', async () => {
    const [file] = (await upload([{ name: 'info.txt', data: 'i', type: 'text/plain' }])).json;
    const res = await send('POST', `${base}/api/upload?id=${file.id}`, form([], { fileInfo: JSON.stringify({ alternativeText: 'alt', caption: null }) }));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: file.id, name: 'info.txt', alternativeText: 'alt', caption: null, url: file.url });
    const json = await send('POST', `${base}/api/upload?id=${file.id}`, JSON.stringify({ fileInfo: { name: 'renamed.txt' } }), { 'content-type': 'application/json' });
    expect(json.json).toMatchObject({ name: 'renamed.txt', alternativeText: 'alt' });
  });

  it('answers 404 for a missing id and 400 for several replacement files', async () => {
    expect((await upload([{ name: 'x.txt', data: 'x', type: 'text/plain' }], undefined, base, '?id=999999')).status).toBe(404);
    const [file] = (await upload([{ name: 'one.txt', data: '1', type: 'text/plain' }])).json;
    const two = await upload([{ name: 'a.txt', data: 'a' }, { name: 'b.txt', data: 'b' }], undefined, base, `?id=${file.id}`);
    expect(two.status).toBe(400);
    expect(two.json.error.message).toBe('Cannot replace a file with multiple ones');
  });
});

describe('GET /uploads/<name>', () => {
  let file: any;
  beforeAll(async () => {
    [file] = (await upload([{ name: 'served.txt', data: '0123456789abcdefghij', type: 'text/plain' }])).json;
  });

  it('serves with content type, length, validators and cache headers', async () => {
    const res = await fetch(base + file.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('20');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('last-modified')).toBeTruthy();
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(await res.text()).toBe('0123456789abcdefghij');

    const cached = await rawGet(base, file.url, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.body).toBe('');
    const modified = await rawGet(base, file.url, { 'if-modified-since': res.headers.get('last-modified')! });
    expect(modified.status).toBe(304);
  });

  it('answers HEAD without a body, and single byte ranges', async () => {
    const head = await fetch(base + file.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('20');
    expect(await head.text()).toBe('');

    const range = await fetch(base + file.url, { headers: { range: 'bytes=10-14' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 10-14/20');
    expect(await range.text()).toBe('abcde');

    const beyond = await fetch(base + file.url, { headers: { range: 'bytes=50-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */20');
  });

  it('answers 404 for missing files', async () => {
    const res = await send('GET', `${base}/uploads/nothing_here.png`);
    expect(res.status).toBe(404);
    expect(res.json).toEqual(notFound('Not Found'));
  });

  it('never serves anything outside the uploads folder', async () => {
    const secret = 'TOP-SECRET-CONTENT';
    await writeFile(path.join(built.dir, 'public', 'secret.txt'), secret);
    await writeFile(path.join(uploadsDir, '.hidden'), secret);
    await mkdir(path.join(uploadsDir, 'sub'), { recursive: true });
    await writeFile(path.join(uploadsDir, 'sub', 'nested.txt'), secret);
    await symlink(path.join(built.dir, 'public', 'secret.txt'), path.join(uploadsDir, 'link.txt'));
    const attempts = [
      '/uploads/../secret.txt',
      '/uploads/../../package.json',
      '/uploads/..%2fsecret.txt',
      '/uploads/..%2Fsecret.txt',
      '/uploads/%2e%2e%2fsecret.txt',
      '/uploads/%2e%2e/secret.txt',
      '/uploads/..%5csecret.txt',
      '/uploads/....//secret.txt',
      '/uploads/%2e%2e%2f%2e%2e%2fpackage.json',
      '/uploads/..%252fsecret.txt',
      '/uploads//etc/passwd',
      '/uploads/%2fetc%2fpasswd',
      '/uploads/.hidden',
      '/uploads/sub/nested.txt',
      '/uploads/sub%2fnested.txt',
      '/uploads/link.txt',
      '/uploads/secret.txt%00.png',
      '/uploads/',
      '/uploads/..',
      '/uploads/%',
    ];
    for (const attempt of attempts) {
      const res = await rawGet(base, attempt);
      expect(res.status, attempt).toBe(404);
      expect(res.body, attempt).not.toContain(secret);
      expect(res.body, attempt).not.toContain('"name": "');
      expect(JSON.parse(res.body), attempt).toEqual(notFound('Not Found'));
    }
    expect(logged).toEqual([]);
  });

  it('lets other methods through to the router', async () => {
    const res = await send('POST', base + file.url, 'x');
    expect(res.status).toBe(404);
    expect(await readFile(path.join(uploadsDir, `${file.hash}.txt`), 'utf8')).toBe('0123456789abcdefghij');
  });
});

describe('a database failure while saving', () => {
  it('removes every file already stored, answering 500', async () => {
    const before = await storedFiles();
    logged.length = 0;
    await built.database.query('ALTER TABLE "files" RENAME TO "files_away"');
    try {
      const res = await upload([
        { name: 'lost.png', data: await png(900, 700), type: 'image/png' },
        { name: 'lost.txt', data: 'lost', type: 'text/plain' },
      ]);
      expect(res.status).toBe(500);
      expect(res.json.error).toEqual({ status: 500, name: 'InternalServerError', message: 'Internal Server Error' });
    } finally {
      await built.database.query('ALTER TABLE "files_away" RENAME TO "files"');
    }
    expect(logged).toHaveLength(1);
    expect(await storedFiles()).toEqual(before);
    expect(await tempFiles()).toEqual([]);
    logged.length = 0;
  });
});
