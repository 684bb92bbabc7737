/**
 * Reads a JSON request body with a size limit. Strapi answers an oversized body with 413
 * and malformed JSON with 400; both go through the error middleware.
 */
import type { Context, Next } from 'koa';
import { PayloadTooLargeError, ValidationError } from '../errors.js';

export interface BodyOptions {
  /** Largest accepted body in bytes. */
  readonly limit: number;
}

export function jsonBody(options: BodyOptions) {
  return async function readJsonBody(ctx: Context, next: Next): Promise<void> {
    // Multipart bodies (uploads) are streamed by the route that accepts them, with its own limits.
    if ((ctx.method === 'POST' || ctx.method === 'PUT' || ctx.method === 'PATCH') && !ctx.is('multipart/form-data')) {
      const declared = Number(ctx.get('content-length') || 0);
      if (declared > options.limit) throw new PayloadTooLargeError();
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.limit) throw new PayloadTooLargeError();
        chunks.push(chunk);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() !== '') {
        if (!ctx.is('json') && ctx.get('content-type') !== '') {
          throw new ValidationError('Unsupported content type: send the body as application/json');
        }
        try {
          (ctx.request as { body?: unknown }).body = JSON.parse(text);
        } catch {
          throw new ValidationError('Invalid JSON in the request body');
        }
      }
    }
    await next();
  };
}
