/**
 * The GraphQL plugin, assembled for the server (app.ts mounts `middleware`):
 *
 *   extension service ← users-permissions and upload plugins ← the user's
 *   src/extensions/graphql.ts → schema (schema.ts, with the Shadow CRUD resolvers of
 *   resolvers.ts) → resolvers wrapped with auth, middlewares and policies (wrap.ts)
 *   → the HTTP endpoint (http.ts).
 *
 * Reads go through EntityServices with the GraphQL list limits (defaultLimit, maxLimit);
 * relation fields through one RelationLoader per request.
 */
import Koa from 'koa';
import { Extensions } from '../extend/extensions.js';
import type { MiddlewareTools } from '../extend/middlewares.js';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Middleware } from 'koa';
import { Kind, parse, type GraphQLSchema } from 'graphql';
import type { UsersPermissions } from '../auth/index.js';
import type { GraphqlConfig } from '../config.js';
import type { Database } from '../db/database.js';
import type { EntityService } from '../entity/service.js';
import type { FieldMeta, Registry } from '../meta.js';
import { findActionOf } from '../rest/routes.js';
import type { UploadConfig } from '../upload/config.js';
import type { UploadPlugin } from '../upload/index.js';
import type { Outbox } from '../webhooks/index.js';
import type { ServerPlugin } from '../plugin.js';
import { GraphqlExtensionService, type ResolverConfig } from './extension.js';
import { graphqlEndpoint } from './http.js';
import { RelationLoader } from './loader.js';
import * as naming from './naming.js';
import { pluginResolvers } from './plugin-resolvers.js';
import { registerPlugins } from './plugins.js';
import { shadowCrudResolvers } from './resolvers.js';
import { graphqlRegistry } from './exclusions.js';
import { buildContentApiSchema, printContentApiSchema } from './schema.js';
import { wrapResolvers } from './wrap.js';

export type { GraphqlContext } from './context.js';
export type {
  ExtensionFactoryContext,
  FieldConfigurator,
  GraphqlExtension,
  GraphqlExtensionFactory,
  GraphqlMiddleware,
  GraphqlPlugin,
  GraphqlPolicy,
  PolicyContext,
  ResolverConfig,
  ShadowCrudConfigurator,
  TypeRegistry,
} from './extension.js';
export { GraphqlExtensionService } from './extension.js';
export { buildContentApiSchema, printContentApiSchema } from './schema.js';

/** The user's src/extensions/graphql.ts: receives the extension service at start. */
export type GraphqlRegister = (extension: GraphqlExtensionService) => void;

/**
 * Strapi's GraphQL plugin (`@strapi/plugin-graphql`), registered by src/server.ts when the
 * project installs it: the endpoint (`plugins.graphql` of the config), with the user's
 * extension; outside production, a warning when schema.graphql (in the server's folder) is
 * out of date.
 */
export function graphqlPlugin(options: { readonly register?: GraphqlRegister; readonly schemaFile?: string } = {}): ServerPlugin {
  return {
    name: 'graphql',
    mount(core) {
      const schemaFile = options.schemaFile ?? (core.root ? path.join(core.root, 'schema.graphql') : undefined);
      const plugin = createGraphqlPlugin({
        registry: core.registry,
        db: core.db,
        config: core.config.plugins.graphql,
        auth: core.auth,
        extensions: core.extensions,
        tools: core.tools,
        ...(core.upload ? { upload: core.upload } : {}),
        ...(options.register ? { register: options.register } : {}),
        ...(schemaFile ? { schemaFile } : {}),
        environment: core.environment,
        log: core.log,
        ...(core.events ? { events: core.events } : {}),
      });
      return { middleware: plugin.middleware };
    },
  };
}

export interface GraphqlPluginOptions {
  readonly registry: Registry;
  readonly db: Database;
  readonly config: GraphqlConfig;
  readonly auth: UsersPermissions;
  readonly upload?: UploadPlugin;
  readonly register?: GraphqlRegister;
  /** NODE_ENV: the playground and introspection are off in production unless playgroundAlways. */
  readonly environment: string;
  /** schema.graphql of the server: outside production, a warning when it is out of date. */
  readonly schemaFile?: string;
  readonly log: (err: unknown) => void;
  readonly warn?: (message: string) => void;
  /** The user's src/api (service overrides, lifecycles), policies and middlewares. */
  readonly extensions?: Extensions;
  readonly tools?: MiddlewareTools;
  /** Where writes record their webhook events (webhooks/). */
  readonly events?: Outbox;
}

export interface GraphqlPluginInstance {
  readonly schema: GraphQLSchema;
  readonly middleware: Middleware;
  /** The schema as schema.graphql prints it. */
  readonly sdl: string;
}

export function createGraphqlPlugin(options: GraphqlPluginOptions): GraphqlPluginInstance {
  const { db, config, auth } = options;
  // The data layer reads every type and field; the schema only those it can name.
  const dataRegistry = options.registry;
  const registry = graphqlRegistry(dataRegistry);
  const limits = { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit };
  const services = new Map<string, EntityService>();
  const service = (uid: string): EntityService => {
    let found = services.get(uid);
    if (!found) {
      const meta = dataRegistry.contentTypes.get(uid);
      if (!meta) throw new Error(`GraphQL: no content type ${uid}`);
      found = (options.extensions ?? Extensions.none(dataRegistry)).entityService(meta, {
        db,
        registry: dataRegistry,
        limits: { ...limits, withCount: false },
        // Only components are populated by the service (no statement); relations use the loader.
        populate: { maxDepth: 100, maxRelationEntries: Number.MAX_SAFE_INTEGER },
        hashPassword: (plain) => auth.passwords.hash(plain),
        ...(options.events ? { events: options.events } : {}),
      });
      services.set(uid, found);
    }
    return found;
  };

  // Types an extension resolves fields of are read whole (their resolvers may read any attribute).
  const wholeTypes = new Set<string>();
  let readAllWhole = false;
  const extension = new GraphqlExtensionService();
  if (config.shadowCRUD) registerPlugins(extension, registry, pluginResolvers({ auth, registry, service, ...(options.upload ? { upload: options.upload } : {}) }));
  options.extensions?.registerGraphql(extension, options.tools ?? { app: new Koa() });
  options.register?.(extension);
  const { schema, extension: generated } = buildContentApiSchema({
    registry,
    extension,
    shadowCRUD: config.shadowCRUD,
    resolvers: shadowCrudResolvers({
      registry,
      db: options.db,
      service,
      limits,
      ...(options.upload ? { removeFile: (id: unknown) => options.upload!.service.remove(id) } : {}),
      readWhole: (typeName) => readAllWhole || wholeTypes.has(typeName),
    }),
  });
  for (const typeName of extendedTypes(generated)) wholeTypes.add(typeName);
  readAllWhole = generated.plugins.some((plugin) => plugin.onCreateFieldResolver !== undefined);
  const sdl = printContentApiSchema(schema);
  if (options.schemaFile && options.environment !== 'production') warnIfStale(options.schemaFile, sdl, options.warn ?? ((m) => console.warn(m)));

  wrapAll(schema, registry, generated, extension);
  const middleware = graphqlEndpoint({
    endpoint: config.endpoint,
    schema,
    authenticator: auth.authenticator,
    ...endpointLimits(config, options.environment, options.upload?.config),
    newLoader: () => new RelationLoader({ db, registry: dataRegistry, limits }),
    log: options.log,
  });
  return { schema, middleware: middleware as Middleware, sdl };
}

/**
 * What an endpoint takes from `plugins.graphql` and the upload settings: the playground, the
 * document and response limits, list limits and multipart uploads. The v4 endpoint's and any
 * other a plugin serves (graphql-v5) are held to the same.
 */
export function endpointLimits(config: GraphqlConfig, environment: string, uploadConfig: UploadConfig | undefined) {
  return {
    playground: environment !== 'production' || config.playgroundAlways,
    depthLimit: config.depthLimit,
    documentSizeLimit: config.documentSizeLimit,
    maxTokens: config.maxTokens,
    maxFields: config.maxFields,
    maxAliases: config.maxAliases,
    maxComplexity: config.maxComplexity,
    responseSizeLimit: config.responseSizeLimit,
    plannedExecution: config.plannedExecution,
    listLimits: { defaultLimit: config.defaultLimit, maxLimit: config.maxLimit },
    ...(uploadConfig
      ? {
          multipart: {
            tmpDir: path.resolve(uploadConfig.tmpDir ?? path.join(os.tmpdir(), 'contentgen-uploads')),
            limits: { fileSize: uploadConfig.sizeLimit, files: uploadConfig.maxFiles, fields: uploadConfig.maxFields, fieldSize: uploadConfig.fieldSizeLimit },
          },
        }
      : {}),
  };
}

function wrapAll(schema: GraphQLSchema, registry: Registry, generated: ReturnType<GraphqlExtensionService['generate']>, extension: GraphqlExtensionService): void {
  wrapResolvers(schema, { resolversConfig: generated.resolversConfig, defaults: defaultAuth(registry), plugins: generated.plugins, extension });
}

/**
 * The scope of every generated operation and relation field: `Query.articles` needs
 * `api::article.article.find`, `Mutation.createArticle` `…create`, `Article.author`
 * `api::author.author.find`. Media fields need nothing more than their entry, as in Strapi.
 */
export function defaultAuth(registry: Registry): Record<string, ResolverConfig> {
  const out: Record<string, ResolverConfig> = {};
  const scope = (action: string): ResolverConfig => ({ auth: { scope: [action] } });
  const linkScopes = (typeName: string, fields: Readonly<Record<string, FieldMeta>>) => {
    for (const field of Object.values(fields)) {
      if (field.kind === 'relation') out[`${typeName}.${field.name}`] = scope(findActionOf(field.target));
    }
  };
  for (const component of registry.components.values()) linkScopes(naming.componentTypeName(component.uid), component.fields);
  for (const meta of registry.contentTypes.values()) {
    linkScopes(naming.typeName(meta), meta.fields);
    if (meta.kind === 'singleType') {
      out[`Query.${naming.findOneQueryName(meta)}`] = scope(`${meta.uid}.find`);
    } else {
      out[`Query.${naming.findOneQueryName(meta)}`] = scope(`${meta.uid}.findOne`);
      out[`Query.${naming.findQueryName(meta)}`] = scope(`${meta.uid}.find`);
      out[`Mutation.${naming.createMutationName(meta)}`] = scope(`${meta.uid}.create`);
    }
    out[`Mutation.${naming.updateMutationName(meta)}`] = scope(`${meta.uid}.update`);
    out[`Mutation.${naming.deleteMutationName(meta)}`] = scope(`${meta.uid}.delete`);
  }
  return out;
}

/** Object types an extension adds fields to, resolves fields of, or configures fields of. */
function extendedTypes(generated: ReturnType<GraphqlExtensionService['generate']>): string[] {
  const names = [...Object.keys(generated.resolvers), ...Object.keys(generated.resolversConfig).map((path) => path.split('.')[0]!)];
  for (const typeDefs of generated.typeDefs) {
    for (const definition of parse(typeDefs).definitions) {
      if (definition.kind === Kind.OBJECT_TYPE_EXTENSION || definition.kind === Kind.OBJECT_TYPE_DEFINITION) names.push(definition.name.value);
    }
  }
  for (const type of generated.types) names.push(type.name);
  return names;
}

/** schema.graphql is printed by `contentgen build`: say so when it no longer matches. */
function warnIfStale(file: string, sdl: string, warn: (message: string) => void): void {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return;
  }
  const body = text.replace(/^(#[^\n]*\n)+\n?/, '');
  if (body !== sdl) {
    warn(`${path.basename(file)} does not match the schema this server serves (the models, src/extensions/graphql.ts or the graphql config changed): run \`contentgen build\` to update it.`);
  }
}
