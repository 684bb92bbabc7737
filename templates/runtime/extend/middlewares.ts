/**
 * Middlewares, as Strapi v4's: a factory `(config, { app }) => koaMiddleware`. Named ones
 * live in src/middlewares/<name>.ts (`global::<name>`, or just `<name>`); they can run on
 * one route (route config `middlewares`), on every request (the stack in src/config.ts
 * `middlewares`), or around a GraphQL resolver (`resolversConfig[…].middlewares`).
 */
import type Koa from 'koa';

export interface MiddlewareTools {
  /** The Koa application. */
  readonly app: Koa;
}

export type MiddlewareFactory<Config = any> = (config: Config, tools: MiddlewareTools) => Koa.Middleware<any, any>;

/** `'global::log'`, `'log'`, `{ name, config }`, or a Koa middleware function. */
export type MiddlewareReference = string | { readonly name: string; readonly config?: unknown } | Koa.Middleware<any, any>;

/** Gives a middleware file its type: `export default defineMiddleware((config) => async (ctx, next) => { … })`. */
export function defineMiddleware<Config = any>(factory: MiddlewareFactory<Config>): MiddlewareFactory<Config> {
  return factory;
}

export function middlewareKey(name: string): string {
  return name.startsWith('global::') ? name.slice('global::'.length) : name;
}

/** The Koa middlewares of a reference list; unknown names throw at start, naming `where`. */
export function resolveMiddlewares(
  references: readonly MiddlewareReference[] | undefined,
  named: ReadonlyMap<string, MiddlewareFactory>,
  tools: MiddlewareTools,
  where: string,
): Koa.Middleware<any, any>[] {
  return (references ?? []).map((reference) => {
    if (typeof reference === 'function') return reference;
    const name = typeof reference === 'string' ? reference : reference.name;
    const factory = named.get(middlewareKey(name));
    if (!factory) {
      const known = [...named.keys()].map((k) => `global::${k}`);
      throw new Error(`${where}: unknown middleware ${JSON.stringify(name)} (${known.length ? `known: ${known.join(', ')}` : 'src/middlewares/ has none'}; add src/middlewares/${middlewareKey(name)}.ts and rebuild)`);
    }
    return factory(typeof reference === 'string' ? {} : (reference.config ?? {}), tools);
  });
}
