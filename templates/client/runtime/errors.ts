/**
 * Strapi's error object (`{ data: null, error: { status, name, message, details } }`), thrown
 * as a typed error by every call the server answers with a status other than 2xx.
 */

/** One invalid value of a ValidationError: where (the path in the body or query) and why. */
export interface ValidationIssue {
  path: string[];
  message: string;
  name: string;
}

/** The `error` of Strapi's envelope, by name; `details` is what that error carries. */
export type StrapiErrorObject =
  | { status: 400; name: 'ValidationError'; message: string; details: { errors?: ValidationIssue[] } & Record<string, unknown> }
  | { status: number; name: 'ApplicationError' | 'PayloadTooLargeError' | 'RateLimitError' | 'PolicyError'; message: string; details: Record<string, unknown> }
  | { status: 401; name: 'UnauthorizedError'; message: string; details: Record<string, unknown> }
  | { status: 403; name: 'ForbiddenError'; message: string; details: Record<string, unknown> }
  | { status: 404; name: 'NotFoundError'; message: string; details: Record<string, unknown> }
  | { status: number; name: 'InternalServerError' | 'HttpError'; message: string; details: Record<string, unknown> };

/** Thrown by the client when the server answers an error; `error` is Strapi's error object. */
export class StrapiError extends Error {
  override readonly name = 'StrapiError';
  /** The HTTP status of the answer. */
  readonly status: number;
  /** Strapi's error object, as the server sent it (or built from the status when the body had none). */
  readonly error: StrapiErrorObject;

  constructor(status: number, error: StrapiErrorObject) {
    super(error.message);
    this.status = status;
    this.error = error;
  }
}

/** Whether a thrown value is the error of a server answer. */
export function isStrapiError(value: unknown): value is StrapiError {
  return value instanceof StrapiError;
}

/** The error object of an answer's body; a body without one (a proxy's page, say) gives an `HttpError`. */
export function errorObjectOf(status: number, statusText: string, body: unknown): StrapiErrorObject {
  const error = body !== null && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  if (error !== null && typeof error === 'object' && typeof (error as { name?: unknown }).name === 'string') {
    return error as StrapiErrorObject;
  }
  return { status, name: 'HttpError', message: statusText || `HTTP ${status}`, details: {} };
}
