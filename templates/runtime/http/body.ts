/**
 * Reads a JSON request body with a size limit. Strapi answers an oversized body with 413
 * and malformed JSON with 400 SyntaxError (JSON.parse's message, no `details`); both go
 * through the error middleware.
 *
 * A body may nest at most `maxBodyDepth` (100) arrays and objects deep: anything deeper is a
 * 400 before any handler sees it, so no code that walks a value recursively (validation
 * messages print values, relation and component input is read level by level) can run out
 * of stack on a crafted body. Entries need far less: a JSON attribute holds at most 20 levels.
 */
import type { Context, Next } from 'koa';
import { BodySyntaxError, PayloadTooLargeError, ValidationError } from '../errors.js';

export interface BodyOptions {
  /** Largest accepted body in bytes. */
  readonly limit: number;
  /** Deepest nesting of arrays and objects accepted. Default `maxBodyDepth`. */
  readonly maxDepth?: number;
}

/** Arrays and objects a JSON body (or a JSON form field) may nest. */
export const maxBodyDepth = 100;

export function jsonBody(options: BodyOptions) {
  const maxDepth = options.maxDepth ?? maxBodyDepth;
  return function readJsonBody(ctx: Context, next: Next): Promise<void> {
    // Most requests have no body to read: passed on without one more promise.
    if (ctx.method !== 'POST' && ctx.method !== 'PUT' && ctx.method !== 'PATCH') return next();
    return readBody(ctx, next);
  };

  async function readBody(ctx: Context, next: Next): Promise<void> {
    // Multipart bodies (uploads) are streamed by the route that accepts them, with its own limits.
    if (!isMultipart(ctx)) {
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
        if (!isJson(ctx) && ctx.get('content-type') !== '') {
          throw new ValidationError('Unsupported content type: send the body as application/json');
        }
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (err) {
          // Strapi's answer: JSON.parse's message, as a SyntaxError without details.
          throw new BodySyntaxError(err instanceof Error ? err.message : 'Unexpected end of JSON input');
        }
        assertJsonDepth(value, maxDepth, 'the request body');
        (ctx.request as { body?: unknown }).body = value;
      }
    }
    await next();
  }
}

/**
 * `ctx.is('multipart/form-data')`, without type-is parsing the media type of every request
 * that cannot be one (it costs a few µs each time).
 */
export function isMultipart(ctx: Context): boolean {
  const type = ctx.get('content-type');
  return type.length >= 10 && type.slice(0, 10).toLowerCase() === 'multipart/' && !!ctx.is('multipart/form-data');
}

/** `ctx.is('json')` of a request with a body: `application/json` itself without type-is. */
function isJson(ctx: Context): boolean {
  const type = ctx.get('content-type');
  if (type === 'application/json' || type.startsWith('application/json;')) return true;
  return !!ctx.is('json');
}

/**
 * JSON text of a request (a body, a multipart field): 400 `Invalid JSON in <what>` when it
 * does not parse, 400 when it nests deeper than `maxDepth`.
 */
export function parseJsonText(text: string, maxDepth: number = maxBodyDepth, what = 'the request body'): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ValidationError(`Invalid JSON in ${what}`);
  }
  assertJsonDepth(value, maxDepth, what);
  return value;
}

/** 400 when `value` nests more than `maxDepth` arrays and objects (walked without recursion). */
export function assertJsonDepth(value: unknown, maxDepth: number = maxBodyDepth, what = 'the request body'): void {
  if (value === null || typeof value !== 'object') return;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > maxDepth) throw new ValidationError(`${capitalize(what)} is nested too deeply: at most ${maxDepth} levels of arrays and objects`);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
