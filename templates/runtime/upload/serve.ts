/**
 * Serves stored files at `/uploads/<name>` (GET and HEAD), like Strapi's public folder.
 *
 * - Only a single path segment is served: no `/`, `\`, NUL or leading dot after decoding,
 *   so `..`, `%2e%2e%2f`, dot files and sub-folders answer 404; the resolved path is checked
 *   to be inside the uploads folder and to be a regular file (symbolic links are not followed).
 * - Content-Type from the extension (application/octet-stream when unknown), Content-Length,
 *   Last-Modified, ETag, `Cache-Control: public, max-age=<maxAge>`, conditional requests (304)
 *   and single byte ranges (206/416), which browsers need to seek in audio and video.
 * - `X-Content-Type-Options: nosniff` and a sandboxing Content-Security-Policy, so an
 *   uploaded HTML or SVG file opened directly cannot run script in the API's origin.
 */
import { createReadStream } from 'node:fs';
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { Context, Next } from 'koa';
import mimeTypes from 'mime-types';
import { NotFoundError } from '../errors.js';

export interface ServeUploadsOptions {
  /** Absolute path of the uploads folder. */
  readonly dir: string;
  /** URL prefix, `/uploads`. */
  readonly prefix?: string;
  /** Seconds for `Cache-Control: public, max-age`. */
  readonly maxAge: number;
}

const contentSecurityPolicy = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

/** The file name a request path names under the prefix, or null when it is not one servable name. */
export function uploadNameOf(requestPath: string, prefix = '/uploads'): string | null {
  if (!requestPath.startsWith(`${prefix}/`)) return null;
  let name: string;
  try {
    name = decodeURIComponent(requestPath.slice(prefix.length + 1));
  } catch {
    return null;
  }
  if (name === '' || name.startsWith('.') || /[/\\\0]/.test(name) || name.length > 255) return null;
  return name;
}

export function serveUploads(options: ServeUploadsOptions) {
  const prefix = options.prefix ?? '/uploads';
  const dir = path.resolve(options.dir);
  return function uploads(ctx: Context, next: Next): Promise<void> {
    if (ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    return serve(ctx);
  };

  async function serve(ctx: Context): Promise<void> {
    const name = uploadNameOf(ctx.path, prefix);
    if (name === null) throw new NotFoundError();
    const file = path.join(dir, name);
    if (path.dirname(file) !== dir) throw new NotFoundError();
    const stats = await lstat(file).catch(() => null);
    if (!stats?.isFile()) throw new NotFoundError();

    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Cache-Control', `public, max-age=${options.maxAge}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', contentSecurityPolicy);
    ctx.lastModified = stats.mtime;
    ctx.etag = `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}"`;
    ctx.type = mimeTypes.contentType(path.extname(name)) || 'application/octet-stream';

    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }

    const range = parseRange(ctx.get('Range'), stats.size, ctx.get('If-Range'), ctx.response.get('ETag'), stats.mtime);
    if (range === 'unsatisfiable') {
      ctx.status = 416;
      ctx.set('Content-Range', `bytes */${stats.size}`);
      ctx.body = '';
      return;
    }
    const { start, end } = range ?? { start: 0, end: stats.size - 1 };
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${end}/${stats.size}`);
    }
    ctx.length = Math.max(0, end - start + 1);
    if (ctx.method === 'HEAD') return;
    ctx.body = stats.size === 0 ? '' : createReadStream(file, { start, end });
  }
}

/**
 * One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null to send the whole file (no header,
 * several ranges, another unit, a malformed value, or an If-Range that no longer matches).
 */
export function parseRange(
  header: string,
  size: number,
  ifRange = '',
  etag = '',
  mtime?: Date,
): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  if (ifRange) {
    const matches = ifRange.startsWith('"') || ifRange.startsWith('W/') ? ifRange === etag : mtime !== undefined && Date.parse(ifRange) >= Math.floor(mtime.getTime() / 1000) * 1000;
    if (!matches) return null;
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || !Number.isSafeInteger(start)) return 'unsatisfiable';
  return { start, end };
}
