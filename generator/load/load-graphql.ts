/**
 * What schema.graphql depends on besides the models: the user-owned files of the output
 * folder that shape the GraphQL schema — `src/extensions/graphql.ts` (its `register`
 * function: disabled types, actions and fields, extra typeDefs and types) and the
 * `plugins.graphql.shadowCRUD` switch of `src/config.ts`. The generator evaluates them
 * (with tsx, fresh on every build) and runs the same schema builder as the server, so the
 * printed schema is the one the server serves. A first build finds neither: defaults.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';

export const graphqlExtensionPath = 'src/extensions/graphql.ts';
export const userConfigPath = 'src/config.ts';

export interface GraphqlInputs {
  /** The default export of src/extensions/graphql.ts, when the output folder has one. */
  readonly register?: (extension: never) => void;
  /** `plugins.graphql.shadowCRUD` of src/config.ts (default true). */
  readonly shadowCRUD: boolean;
}

export const defaultGraphqlInputs: GraphqlInputs = { shadowCRUD: true };

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

async function importUserFile(outDir: string, relative: string): Promise<Record<string, unknown> | undefined> {
  const file = path.resolve(outDir, relative);
  if (!(await exists(file))) return undefined;
  try {
    return (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`${relative} could not be loaded to print schema.graphql: ${(err as Error).message}; nothing was written`);
  }
}

export async function loadGraphqlInputs(outDir: string): Promise<GraphqlInputs> {
  const extension = await importUserFile(outDir, graphqlExtensionPath);
  const config = await importUserFile(outDir, userConfigPath);
  const register = extension?.default;
  if (extension && typeof register !== 'function') {
    throw new Error(`${graphqlExtensionPath} must export a default function register(extension); nothing was written`);
  }
  const shadowCRUD = (config?.default as { plugins?: { graphql?: { shadowCRUD?: unknown } } } | undefined)?.plugins?.graphql?.shadowCRUD;
  return { ...(register ? { register: register as GraphqlInputs['register'] } : {}), shadowCRUD: shadowCRUD !== false };
}
