/**
 * The upload plugin's Content API routes (under the REST prefix), as Strapi v4 answers them:
 * bare file objects and arrays, no `{data, meta}` envelope.
 *
 *   POST   /upload              plugin::upload.content-api.upload    multipart `files` (+ `fileInfo`, `ref`/`refId`/`field`: link.ts) → [file, ...]
 *   POST   /upload?id=<id>      plugin::upload.content-api.upload    one file: replace it; no file: update its fileInfo → file
 *   GET    /upload/files        plugin::upload.content-api.find      → [file, ...]
 *   GET    /upload/files/:id    plugin::upload.content-api.findOne   → file | 404 file.notFound
 *   DELETE /upload/files/:id    plugin::upload.content-api.destroy   → the deleted file | 404 file.notFound
 */
import type { ContentTypeMeta, Registry } from '../meta.js';
import { mediaLinkOf } from './link.js';
import { ApplicationError, NotFoundError, PayloadTooLargeError, ValidationError } from '../errors.js';
import { isMultipart, parseJsonText } from '../http/body.js';
import { parseQueryString } from '../query/parse.js';
import type { Route, RouteContext } from '../rest/routes.js';
import { multipartLimits, type UploadConfig } from './config.js';
import { readMultipartRequest, type MultipartBody } from './multipart.js';
import { parseFileInfo, type UploadService } from './service.js';

export const uploadActions = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

/** The multipart field that carries the files. */
export const filesField = 'files';

export function uploadRoutes(meta: ContentTypeMeta, service: UploadService, config: UploadConfig, tmpDir: string, registry?: Registry): Route[] {
  const route = (method: Route['method'], path: string, action: keyof typeof uploadActions, handler: Route['handler']): Route => ({
    method,
    path,
    meta,
    action: uploadActions[action],
    handler,
  });
  return [
    route('POST', '/upload', 'upload', async (ctx) => {
      const query = parseQueryString(ctx.querystring);
      const id = query['id'];
      const body = await readUploadBody(ctx, config, tmpDir);
      try {
        const infos = parseFileInfo(body.fileInfo);
        const files = body.multipart?.files ?? [];
        if (files.length === 0) {
          if (id === undefined) throw new ValidationError('Files are empty');
          ctx.body = await service.updateFileInfo(id, infos[0] ?? {});
        } else if (id !== undefined) {
          if (files.length > 1) throw new ApplicationError('Cannot replace a file with multiple ones');
          ctx.body = await service.replace(id, files[0]!, infos[0] ?? {});
        } else {
          const auth = (ctx.state as { auth?: { can(action: string): boolean } }).auth;
          const link = mediaLinkOf(body.multipart?.fields ?? new Map(), registry, (action) => auth?.can(action) ?? false);
          ctx.body = await service.upload(files, infos, link);
        }
        ctx.status = 200;
      } finally {
        await body.multipart?.cleanup();
      }
    }),
    route('GET', '/upload/files', 'find', async (ctx) => {
      ctx.body = await service.findMany(parseQueryString(ctx.querystring));
    }),
    route('GET', '/upload/files/:id', 'findOne', async (ctx) => {
      const file = await service.findOne(ctx.params.id, parseQueryString(ctx.querystring));
      if (!file) throw new NotFoundError('file.notFound');
      ctx.body = file;
    }),
    route('DELETE', '/upload/files/:id', 'destroy', async (ctx) => {
      const file = await service.remove(ctx.params.id);
      if (!file) throw new NotFoundError('file.notFound');
      ctx.body = file;
    }),
  ];
}

interface UploadBody {
  readonly multipart?: MultipartBody;
  /** `fileInfo` as sent: multipart field values or a parsed JSON value. */
  readonly fileInfo?: unknown;
}

/**
 * A multipart body is streamed (files to temporary files); any other body can only carry
 * `fileInfo` (for `?id=`), read as JSON: the one a body parser already read, or read here
 * with the field size limit.
 */
async function readUploadBody(ctx: RouteContext, config: UploadConfig, tmpDir: string): Promise<UploadBody> {
  if (isMultipart(ctx)) {
    const multipart = await readMultipartRequest(ctx, { tmpDir, limits: multipartLimits(config), acceptFile: (field) => field === filesField });
    return { multipart, fileInfo: multipart.fields.get('fileInfo') };
  }
  const parsed = (ctx.request as { body?: unknown }).body;
  if (parsed !== undefined) return { fileInfo: (parsed as Record<string, unknown> | null)?.['fileInfo'] };
  if (ctx.is('json') && !ctx.req.readableEnded) {
    const text = await readText(ctx, config.fieldSizeLimit);
    if (text.trim() === '') return {};
    const json = parseJsonText(text);
    return { fileInfo: typeof json === 'object' && json !== null ? (json as Record<string, unknown>)['fileInfo'] : undefined };
  }
  return {};
}

async function readText(ctx: RouteContext, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.set('Connection', 'close');
      throw new PayloadTooLargeError();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
