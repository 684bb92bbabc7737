/**
 * Strapi v4's error classes and the one middleware that turns them into the REST envelope
 * `{ data: null, error: { status, name, message, details } }`.
 *
 * Handlers and services throw; only `errorMiddleware` writes error bodies.
 */
import type { Context, Next } from 'koa';
import { isDatabaseUnavailable } from './db/unavailable.js';

export interface ValidationIssue {
  path: string[];
  message: string;
  name: 'ValidationError';
}

/** Base of every operational error: 400 unless a subclass says otherwise. */
export class ApplicationError extends Error {
  status = 400;
  override name = 'ApplicationError';
  details: Record<string, unknown>;
  constructor(message = 'An application error occured', details: Record<string, unknown> = {}) {
    super(message);
    this.details = details;
  }
}

export class ValidationError extends ApplicationError {
  override name = 'ValidationError';
}

export class PaginationError extends ApplicationError {
  override name = 'PaginationError';
}

export class NotFoundError extends ApplicationError {
  override status = 404;
  override name = 'NotFoundError';
  constructor(message = 'Not Found', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class UnauthorizedError extends ApplicationError {
  override status = 401;
  override name = 'UnauthorizedError';
  constructor(message = 'Unauthorized', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class ForbiddenError extends ApplicationError {
  override status = 403;
  override name = 'ForbiddenError';
  constructor(message = 'Forbidden', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class PolicyError extends ForbiddenError {
  override name = 'PolicyError';
  constructor(message = 'Policy Failed', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class PayloadTooLargeError extends ApplicationError {
  override status = 413;
  override name = 'PayloadTooLargeError';
  constructor(message = 'Entity too large', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

export class RateLimitError extends ApplicationError {
  override status = 429;
  override name = 'RateLimitError';
  constructor(message = 'Too many requests, please try again later.', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** Seconds a client is asked to wait (`Retry-After`) before it tries again after a 503. */
export const retryAfterSeconds = 5;

/**
 * The database cannot be reached (db/unavailable.ts): 503 with `Retry-After`, since the
 * request itself is fine and the server recovers when the database returns.
 */
export class ServiceUnavailableError extends ApplicationError {
  override status = 503;
  override name = 'ServiceUnavailableError';
  constructor(message = 'The database is unavailable, please try again later.', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/** A method the path's routes do not answer (the `Allow` header lists theirs). */
export class MethodNotAllowedError extends ApplicationError {
  override status = 405;
  override name = 'MethodNotAllowedError';
  constructor(message = 'Method Not Allowed', details: Record<string, unknown> = {}) {
    super(message, details);
  }
}

/**
 * A request body that is not JSON: Strapi (koa-body) answers 400 with JSON.parse's own error,
 * `{status: 400, name: 'SyntaxError', message}` and no `details`.
 */
export class BodySyntaxError extends ApplicationError {
  override name = 'SyntaxError';
}

/**
 * A plain `Error` given a status, as some Strapi v4 code throws one (its entity service's
 * dynamic-zone id check): Strapi's errors middleware answers `{status, name: 'Error', message}`,
 * no `details`.
 */
export class PlainStatusError extends ApplicationError {
  override name = 'Error';
}

/** `Invalid parameter <key>`: the error Strapi's validateQuery raises for unknown or private keys. */
export function invalidParameter(key: string): ValidationError {
  return new ValidationError(`Invalid parameter ${key}`);
}

/**
 * A ValidationError in yup's shape: one issue gives its own message, several give
 * "<n> errors occurred"; `details.errors` lists each.
 */
export function validationErrors(issues: ValidationIssue[]): ValidationError {
  const message = issues.length === 1 ? issues[0]!.message : `${issues.length} errors occurred`;
  return new ValidationError(message, { errors: issues });
}

/** Names http-errors gives to the statuses Koa itself may raise (body parser, router). */
const httpErrorNames: Record<number, string> = {
  400: 'BadRequestError',
  401: 'UnauthorizedError',
  403: 'ForbiddenError',
  404: 'NotFoundError',
  405: 'MethodNotAllowedError',
  413: 'PayloadTooLargeError',
  415: 'UnsupportedMediaTypeError',
  429: 'TooManyRequestsError',
  501: 'NotImplementedError',
};

interface ErrorBody {
  status: number;
  name: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * Maps any thrown value to the envelope's `error` member. Unknown errors hide their message;
 * a database that cannot be reached is a ServiceUnavailableError.
 */
export function toErrorBody(err: unknown): ErrorBody {
  if (!(err instanceof ApplicationError) && isDatabaseUnavailable(err)) return toErrorBody(new ServiceUnavailableError());
  if (err instanceof BodySyntaxError || err instanceof PlainStatusError) return { status: err.status, name: err.name, message: err.message };
  if (err instanceof ApplicationError) {
    return { status: err.status, name: err.name, message: err.message, details: err.details };
  }
  const e = err as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown; details?: unknown };
  const status = typeof e?.status === 'number' ? e.status : typeof e?.statusCode === 'number' ? e.statusCode : 500;
  if (status >= 400 && status < 500 && e.expose !== false) {
    return {
      status,
      name: httpErrorNames[status] ?? 'BadRequestError',
      message: typeof e.message === 'string' ? e.message : 'Bad Request',
      details: (e.details as Record<string, unknown> | undefined) ?? {},
    };
  }
  return { status: 500, name: 'InternalServerError', message: 'Internal Server Error' };
}

/**
 * Installed first: formats every failure as Strapi's envelope, and turns a request that
 * nothing answered into 404 NotFoundError (Strapi's behaviour for a null body). Failures of
 * 500 and up go to `log` (which tells a database outage from a bug: see server.ts); a 503
 * says when to try again.
 */
export function errorMiddleware(log: (err: unknown) => void = (err) => console.error(err)) {
  return async function errors(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.body === undefined && ctx.status === 404) throw new NotFoundError();
    } catch (err) {
      const error = toErrorBody(err);
      if (error.status >= 500) log(err);
      ctx.status = error.status;
      if (error.status === 503) ctx.set('Retry-After', String(retryAfterSeconds));
      ctx.body = { data: null, error };
    }
  };
}
