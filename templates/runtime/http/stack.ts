/**
 * The global middleware stack, configured like Strapi v4's config/middlewares.js: an ordered
 * list of built-in middlewares (`strapi::<name>`, with `{ name, config }` for settings), your
 * own (`global::<name>` from src/middlewares/, or a function), run on every request before
 * the GraphQL endpoint and the REST routes. Set it as `middlewares` in src/config.ts.
 */
import type Koa from 'koa';
import { errorMiddleware } from '../errors.js';
import { resolveMiddlewares, type MiddlewareFactory, type MiddlewareReference, type MiddlewareTools } from '../extend/middlewares.js';
import { jsonBody } from './body.js';
import { corsHeaders, securityHeaders, type CorsConfig } from './security.js';

export type StackEntry = MiddlewareReference;

/**
 * Strapi 4's default stack (config/middlewares.js of a new project), less `strapi::logger`:
 * a line per request costs throughput and fills logs; add it to log requests as Strapi does.
 */
export const defaultStack: readonly StackEntry[] = [
  'strapi::errors',
  'strapi::security',
  'strapi::cors',
  'strapi::poweredBy',
  'strapi::query',
  'strapi::body',
  'strapi::session',
  'strapi::favicon',
  'strapi::public',
];

export interface BuiltIns {
  readonly errors: Koa.Middleware<any, any>;
  /** The JSON body reader, for a body limit (bytes) given by the config or the server's default. */
  readonly body: (limit: number) => Koa.Middleware<any, any>;
  readonly bodyLimit: number;
  /** What `strapi::public` serves (uploaded files of the local provider). */
  readonly public: readonly Koa.Middleware<any, any>[];
  readonly log: (line: string) => void;
}

/**
 * Built-ins with nothing to do here, accepted so that a Strapi project's stack can be pasted:
 * sessions serve Strapi's admin panel (the APIs authenticate with JWTs and API tokens), and
 * there is no favicon to serve. `strapi::query` is always on: every route parses its own
 * query string with Strapi's qs settings and limits.
 */
const nothingToDo = new Set(['strapi::query', 'strapi::session', 'strapi::favicon']);

export function buildStack(entries: readonly StackEntry[], builtIns: BuiltIns, named: ReadonlyMap<string, MiddlewareFactory>, tools: MiddlewareTools): Koa.Middleware<any, any>[] {
  const stack: Koa.Middleware<any, any>[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const name = typeof entry === 'string' ? entry : typeof entry === 'function' ? undefined : entry.name;
    const config = (typeof entry === 'object' && entry !== null ? entry.config : undefined) as Record<string, unknown> | undefined;
    if (name === undefined || !name.startsWith('strapi::')) {
      stack.push(...resolveMiddlewares([entry], named, tools, `config middlewares[${i}]`));
      return;
    }
    seen.add(name);
    switch (name) {
      case 'strapi::errors':
        stack.push(builtIns.errors);
        return;
      case 'strapi::body':
        stack.push(builtIns.body(bodyLimit(config?.jsonLimit, builtIns.bodyLimit, i)));
        return;
      case 'strapi::public':
        stack.push(...builtIns.public);
        return;
      case 'strapi::poweredBy': {
        const value = typeof config?.poweredBy === 'string' ? config.poweredBy : 'Strapi <strapi.io>';
        stack.push((ctx, next) => {
          ctx.set('X-Powered-By', value);
          return next();
        });
        return;
      }
      case 'strapi::security':
        stack.push(securityHeaders(config));
        return;
      case 'strapi::cors': {
        const middleware = corsHeaders(config as CorsConfig | undefined);
        if (middleware) stack.push(middleware);
        return;
      }
      case 'strapi::logger':
        stack.push(requestLogger(builtIns.log));
        return;
      default:
        if (nothingToDo.has(name)) return;
        throw new Error(`config middlewares[${i}]: unknown built-in middleware ${JSON.stringify(name)} (known: strapi::logger, ${[...defaultStack].join(', ')})`);
    }
  });
  for (const required of ['strapi::errors', 'strapi::body']) {
    if (!seen.has(required)) throw new Error(`config middlewares: ${required} must be in the stack (Strapi's stack has it too)`);
  }
  return stack;
}

/** Strapi's `jsonLimit`: bytes, or a size such as '1mb' or '512kb'. */
function bodyLimit(value: unknown, fallback: number, index: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value;
  const match = typeof value === 'string' ? /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(value.trim()) : null;
  if (!match) throw new Error(`config middlewares[${index}] strapi::body: jsonLimit must be a number of bytes or a size such as '1mb'`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(match[2] ?? 'b').toLowerCase() as 'b'];
  return Math.floor(Number(match[1]) * unit);
}

/** One line per request, as Strapi's logger: `[2024-05-01 10:00:00.000] http: GET /api/articles (3 ms) 200`. */
function requestLogger(log: (line: string) => void): Koa.Middleware {
  return async (ctx, next) => {
    const start = Date.now();
    try {
      await next();
    } finally {
      const time = new Date().toISOString().replace('T', ' ').replace('Z', '');
      log(`[${time}] http: ${ctx.method} ${ctx.url} (${Date.now() - start} ms) ${ctx.status}`);
    }
  };
}
