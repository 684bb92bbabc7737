/**
 * Errors as GraphQL answers them (Strapi's formatGraphqlError on Apollo Server 3):
 *  - Forbidden and Unauthorized errors → code `FORBIDDEN`;
 *  - ValidationError → `BAD_USER_INPUT`;
 *  - other application errors → `STRAPI_<UPPER_SNAKE_NAME>` (`STRAPI_NOT_FOUND_ERROR`);
 *  - the database cannot be reached → `SERVICE_UNAVAILABLE` (graphql/http.ts answers 503 with
 *    `Retry-After`, as REST does);
 *  - anything else → "Internal Server Error", `INTERNAL_SERVER_ERROR` (and logged);
 *  - GraphQL's own errors keep their message with the code of the phase that raised them
 *    (`GRAPHQL_PARSE_FAILED`, `GRAPHQL_VALIDATION_FAILED`, `BAD_USER_INPUT`, …).
 * `extensions.error` carries `{ name, message, details }` of application errors.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ApplicationError, ForbiddenError, PlainStatusError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '../errors.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';

export const codes = {
  parseFailed: 'GRAPHQL_PARSE_FAILED',
  validationFailed: 'GRAPHQL_VALIDATION_FAILED',
  badUserInput: 'BAD_USER_INPUT',
  badRequest: 'BAD_REQUEST',
  forbidden: 'FORBIDDEN',
  internal: 'INTERNAL_SERVER_ERROR',
  operationResolution: 'OPERATION_RESOLUTION_FAILURE',
  persistedQueryNotSupported: 'PERSISTED_QUERY_NOT_SUPPORTED',
  responseTooLarge: 'RESPONSE_TOO_LARGE',
  serviceUnavailable: 'SERVICE_UNAVAILABLE',
} as const;

/** `NotFoundError` → `STRAPI_NOT_FOUND_ERROR`. */
export function strapiCode(name: string): string {
  return `STRAPI_${name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
}

/** The first application error behind a GraphQL error (resolvers and scalars wrap them). */
function applicationErrorOf(error: GraphQLError): ApplicationError | undefined {
  let cause: unknown = error.originalError;
  for (let depth = 0; depth < 5 && cause; depth++) {
    if (cause instanceof ApplicationError) return cause;
    cause = cause instanceof GraphQLError ? cause.originalError : undefined;
  }
  return undefined;
}

/**
 * Formats one error. `fallbackCode` is the code of errors graphql-js raised itself in
 * this phase. During execution an unknown error behind a resolver is an internal error
 * (logged with `log`, its message hidden); before execution (parsing, validation, variable
 * coercion) it explains the client's input and keeps its message.
 */
export function formatError(error: GraphQLError, fallbackCode: string, log: (err: unknown) => void, phase: 'request' | 'execution' = 'execution'): GraphQLFormattedError {
  const where = {
    ...(error.locations ? { locations: error.locations } : {}),
    ...(error.path ? { path: error.path } : {}),
  };
  const original = error.originalError;
  const unavailable = !applicationErrorOf(error) && original && isDatabaseUnavailable(original);
  if (unavailable) log(original); // told, not printed: the server logs an outage once (server.ts)
  const found = unavailable ? new ServiceUnavailableError() : applicationErrorOf(error);
  // A plain Error with a status in Strapi (a dynamic zone's unrelated component ids): its GraphQL
  // answers "Internal Server Error" for it; here it is the application error it is (docs/graphql.md).
  const app = found instanceof PlainStatusError ? new ApplicationError(found.message) : found;
  if (app) {
    const code =
      app instanceof ForbiddenError || app instanceof UnauthorizedError
        ? codes.forbidden
        : app instanceof ValidationError
          ? codes.badUserInput
          : app instanceof ServiceUnavailableError
            ? codes.serviceUnavailable
            : strapiCode(app.name);
    return { message: app.message, ...where, extensions: { error: { name: app.name, message: app.message, details: app.details }, code } };
  }
  if (phase === 'execution' && original && !(original instanceof GraphQLError)) {
    log(original);
    return { message: 'Internal Server Error', ...where, extensions: { code: codes.internal } };
  }
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : fallbackCode;
  return { message: error.message, ...where, extensions: { ...error.extensions, code } };
}

/** An error of the request itself (before execution), as `{ errors: [...] }`. */
export function requestError(message: string, code: string): { errors: GraphQLFormattedError[] } {
  return { errors: [{ message, extensions: { code } }] };
}
