/**
 * `strapi::security` and `strapi::cors`: Strapi v4's two header middlewares, on the same
 * maintained libraries (koa-helmet over helmet, @koa/cors) and with Strapi's defaults, so
 * a browser sees the headers it saw from Strapi. Each takes Strapi's config shape: a
 * project's `{ name: 'strapi::security', config: {...} }` entry can be pasted as it is.
 */
import cors from '@koa/cors';
import type Koa from 'koa';
import helmetMiddleware, { contentSecurityPolicy } from 'helmet';
import helmet from 'koa-helmet';

type HelmetOptions = Parameters<typeof helmet>[0];

/** Strapi 4's helmet settings (its security middleware's defaults). */
export const securityDefaults = {
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  contentSecurityPolicy: {
    useDefaults: true,
    directives: {
      'connect-src': ["'self'", 'https:'],
      'img-src': ["'self'", 'data:', 'blob:', 'https://market-assets.strapi.io'],
      'media-src': ["'self'", 'data:', 'blob:'],
      upgradeInsecureRequests: null,
    },
  },
  xssFilter: false,
  hsts: { maxAge: 31536000, includeSubDomains: true },
  frameguard: { action: 'sameorigin' },
} as const;

/**
 * Helmet's headers on every answer. Pages that need their own policy (the GraphQL
 * playground, uploaded files) set it after this runs, and theirs is the one sent.
 *
 * Unless a policy directive is a function of the request (a nonce), helmet writes the same
 * headers on every answer: they are recorded from it once, at start, and then set as a list,
 * instead of running helmet's dozen middlewares behind a promise on every request.
 */
export function securityHeaders(config: Record<string, unknown> = {}): Koa.Middleware {
  const options = mergeConfig(securityDefaults, config);
  let restore = (header: string) => header;
  if (isPlainObject(options.contentSecurityPolicy)) ({ csp: options.contentSecurityPolicy, restore } = withVerbatimKeywords(options.contentSecurityPolicy));
  const csp = options.contentSecurityPolicy;
  if (isPlainObject(csp) && csp.useDefaults !== false) options.contentSecurityPolicy = withDefaultsAfter(csp);
  const recorded = hasFunctionDirective(options.contentSecurityPolicy) ? null : recordHeaders(options as HelmetOptions)?.map(([name, value]) => [name, value === null ? null : restore(value)] as const);
  if (!recorded) {
    const perRequest = helmet(options as HelmetOptions) as unknown as Koa.Middleware;
    return (ctx, next) =>
      perRequest(ctx, () => {
        for (const name of ['Content-Security-Policy', 'Content-Security-Policy-Report-Only']) {
          const value = ctx.res.getHeader(name);
          if (typeof value === 'string') ctx.res.setHeader(name, restore(value));
        }
        return next();
      });
  }
  return function constantSecurityHeaders(ctx, next) {
    const res = ctx.res;
    for (const [name, value] of recorded) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    return next();
  };
}

/** A header helmet sets (its value) or removes (null), in helmet's order. */
type HeaderWrite = readonly [name: string, value: string | null];

/** What helmet writes to a response, or null if it did not finish at once and without error. */
function recordHeaders(options: HelmetOptions): HeaderWrite[] | null {
  const writes: HeaderWrite[] = [];
  const res = {
    setHeader: (name: string, value: unknown) => writes.push([name, String(value)]),
    removeHeader: (name: string) => writes.push([name, null]),
  };
  let finished = false;
  helmetMiddleware(options)({} as never, res as never, (err?: unknown) => {
    finished = err === undefined || err === null;
  });
  return finished ? writes : null;
}

function hasFunctionDirective(csp: unknown): boolean {
  if (!isPlainObject(csp) || !isPlainObject(csp.directives)) return false;
  return Object.values(csp.directives).some((value) => typeof value === 'function' || (Array.isArray(value) && value.some((v) => typeof v === 'function')));
}

/**
 * Keywords written without their quotes (`unsafe-inline`, `self`, `nonce-…`): helmet 8 refuses
 * them ("should be quoted", at start, and in what a directive function answers); the helmet 6
 * of Strapi 4.26.2 and 5.54.0 writes them as they are, so Strapi starts and sends them unquoted
 * (a browser reads such an entry as a host name, not as the keyword: the policy is the
 * project's). They go to helmet as placeholders it takes, put back in the headers it writes
 * (real project: skin93/fleszevents-strapi5, `script-src: [..., "unsafe-inline"]`).
 */
const quotedKeywords = new Set(['none', 'self', 'strict-dynamic', 'report-sample', 'inline-speculation-rules', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'wasm-unsafe-eval']);
const needsQuotes = (entry: string) => quotedKeywords.has(entry) || /^(nonce|sha256|sha384|sha512)-/.test(entry);
const placeholderPattern = /contentgen-verbatim-(\d+)/g;

function withVerbatimKeywords(csp: Record<string, unknown>): { csp: Record<string, unknown>; restore: (header: string) => string } {
  const entries: string[] = [];
  const restore = (header: string) => (entries.length === 0 ? header : header.replace(placeholderPattern, (whole, i: string) => entries[Number(i)] ?? whole));
  if (!isPlainObject(csp.directives)) return { csp, restore };
  const placeholder = (entry: string) => `contentgen-verbatim-${entries.push(entry) - 1}`;
  const entry = (v: unknown) => (typeof v === 'string' && needsQuotes(v) ? placeholder(v) : v);
  const directives = Object.fromEntries(Object.entries(csp.directives).map(([name, value]) => [name, Array.isArray(value) ? value.map(entry) : entry(value)]));
  return { csp: { ...csp, directives }, restore };
}

/**
 * The policy as Strapi's helmet writes it: the configured directives first, then helmet's
 * defaults for the others (helmet 8 would put its defaults first). A directive set to null
 * is left out.
 */
function withDefaultsAfter(csp: Record<string, unknown>): Record<string, unknown> {
  const configured = (csp.directives ?? {}) as Record<string, unknown>;
  const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const directives: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(configured)) if (value !== null) directives[kebab(name)] = value;
  for (const [name, value] of Object.entries(contentSecurityPolicy.getDefaultDirectives())) {
    if (!(name in directives) && !Object.keys(configured).some((n) => kebab(n) === name)) directives[name] = value;
  }
  return { ...csp, useDefaults: false, directives };
}

/** Strapi's `strapi::cors` settings. */
export interface CorsConfig {
  /** `'*'` (any origin, answered with the request's own), a list, a comma-separated list, or a function of the request. */
  origin?: string | readonly string[] | ((ctx: Koa.Context) => string | readonly string[] | Promise<string | readonly string[]>);
  maxAge?: number;
  credentials?: boolean;
  methods?: string | readonly string[];
  headers?: string | readonly string[];
  expose?: string | readonly string[];
  keepHeadersOnError?: boolean;
  enabled?: boolean;
}

export const corsDefaults = {
  origin: '*',
  maxAge: 31536000,
  credentials: true,
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  headers: ['Content-Type', 'Authorization', 'Origin', 'Accept'],
  keepHeadersOnError: false,
} as const;

/**
 * CORS as Strapi answers it: a preflight (on any path) is 204 with the allowed methods and
 * headers; an allowed origin gets itself back in Access-Control-Allow-Origin (with `*`
 * configured too, since credentials are allowed); any other origin gets no CORS header.
 */
export function corsHeaders(config: CorsConfig = {}): Koa.Middleware | undefined {
  const settings = { ...corsDefaults, ...config };
  if (settings.enabled === false) return undefined;
  const list = (value: string | readonly string[]) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()).filter(Boolean) : [...value]);
  const withOrigin = cors({
    origin: async (ctx) => {
      const requestOrigin = ctx.get('Origin');
      if (!requestOrigin) return ''; // not a cross-origin request: no CORS headers
      const configured = typeof settings.origin === 'function' ? await settings.origin(ctx) : settings.origin;
      const allowed = list(configured);
      if (allowed.includes('*')) return requestOrigin;
      return allowed.includes(requestOrigin) ? requestOrigin : '';
    },
    allowMethods: list(settings.methods),
    allowHeaders: list(settings.headers),
    ...(settings.expose ? { exposeHeaders: list(settings.expose) } : {}),
    maxAge: settings.maxAge,
    credentials: settings.credentials,
    keepHeadersOnError: settings.keepHeadersOnError,
  }) as unknown as Koa.Middleware;
  // Without an Origin header @koa/cors only adds `Vary: Origin` (the origin callback above
  // answers '' before anything else): the same, without its promise chain.
  return function corsMiddleware(ctx, next) {
    if (ctx.get('Origin') !== '') return withOrigin(ctx, next);
    ctx.vary('Origin');
    return next();
  };
}

/** Strapi's settings under the project's: objects merge key by key, anything else is replaced. */
function mergeConfig(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
