/**
 * The user's own code in the output folder that the build must know of: which src/api/<name>.ts
 * files exist and the custom routes they declare (each handler is a permission action, part of
 * the policy table that permissions.json grants), the named policies (src/policies/*.ts) and
 * middlewares (src/middlewares/*.ts), and src/index.ts. src/generated/user-code.ts imports
 * them all, so adding a policy or middleware file takes a rebuild. The api files are evaluated
 * with tsx, like src/extensions/graphql.ts: keep them free of side effects at import.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

export const apiDir = 'src/api';
export const policiesDir = 'src/policies';
export const middlewaresDir = 'src/middlewares';
export const appFile = 'src/index.ts';

export interface UserCodeInputs {
  /** File names (without .ts) found in src/api/. */
  readonly apiFiles: readonly string[];
  /** Custom route handlers by content type uid: `api::article.article` → ['featured']. */
  readonly customActions: ReadonlyMap<string, readonly string[]>;
  /** The custom routes themselves, by content type uid, in declared order (openapi.json). */
  readonly customRoutes?: ReadonlyMap<string, readonly CustomRoute[]>;
  /** Core routes a type does not serve (`routes.except`), by content type uid. */
  readonly exceptRoutes?: ReadonlyMap<string, readonly string[]>;
  /** Names of src/policies/*.ts and src/middlewares/*.ts files (without .ts). */
  readonly policies: readonly string[];
  readonly middlewares: readonly string[];
}

export interface CustomRoute {
  readonly method: string;
  /** Under the REST prefix, with `:param`s: `/articles/featured`. */
  readonly path: string;
  readonly handler: string;
}

export const noUserCode: UserCodeInputs = { apiFiles: [], customActions: new Map(), policies: [], middlewares: [] };

/** Module names of a folder's .ts files (no declaration or test files), sorted. */
async function modulesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => e.name.slice(0, -3))
    .filter((name) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name))
    .sort();
}

export async function loadUserCode(outDir: string): Promise<UserCodeInputs> {
  const apiFiles = await modulesIn(path.join(outDir, apiDir));
  const customActions = new Map<string, string[]>();
  const customRoutes = new Map<string, CustomRoute[]>();
  const exceptRoutes = new Map<string, string[]>();
  for (const name of apiFiles) {
    const rel = `${apiDir}/${name}.ts`;
    let module: Record<string, unknown>;
    try {
      module = (await tsImport(pathToFileURL(path.resolve(outDir, rel)).href, import.meta.url)) as Record<string, unknown>;
    } catch (err) {
      throw new Error(`${rel} could not be loaded to read its custom routes: ${(err as Error).message}; nothing was written`);
    }
    const api = module.default as { uid?: unknown; routes?: { custom?: unknown; except?: unknown } } | undefined;
    if (!api || typeof api.uid !== 'string') throw new Error(`${rel} must export default defineContentApi('<uid>', { … }); nothing was written`);
    const custom = api.routes?.custom ?? [];
    if (!Array.isArray(custom)) throw new Error(`${rel}: routes.custom must be a list of routes; nothing was written`);
    const handlers = custom.map((route: { handler?: unknown }, i) => {
      if (typeof route?.handler !== 'string' || !/^[A-Za-z][A-Za-z0-9]*$/.test(route.handler)) {
        throw new Error(`${rel}: routes.custom[${i}].handler must name a controller action (letters and digits); nothing was written`);
      }
      return route.handler;
    });
    customActions.set(api.uid, [...new Set([...(customActions.get(api.uid) ?? []), ...handlers])].sort());
    const routes = custom.flatMap((route: { method?: unknown; path?: unknown; handler?: unknown }) =>
      typeof route.method === 'string' && typeof route.path === 'string' ? [{ method: route.method.toUpperCase(), path: route.path, handler: String(route.handler) }] : [],
    );
    customRoutes.set(api.uid, [...(customRoutes.get(api.uid) ?? []), ...routes]);
    if (Array.isArray(api.routes?.except)) exceptRoutes.set(api.uid, api.routes.except.map(String));
  }
  return {
    apiFiles,
    customActions,
    customRoutes,
    exceptRoutes,
    policies: await modulesIn(path.join(outDir, policiesDir)),
    middlewares: await modulesIn(path.join(outDir, middlewaresDir)),
  };
}
