/**
 * Server settings: code defaults, overridden by the user's src/config.ts, overridden by
 * environment variables (PORT, HOST, DATABASE_URL, PUBLIC_URL). Secrets (JWT_SECRET,
 * API_TOKEN_SALT) are read from the environment only: see auth/secrets.ts.
 */
import type { UploadUserConfig } from './upload/config.js';
import type { StackEntry } from './http/stack.js';
import type { ParameterizedContext } from 'koa';
import { resolveWebhooksConfig, type WebhooksConfig, type WebhooksUserConfig } from './webhooks/config.js';

export interface ServerConfig {
  /**
   * The global middleware stack in order, as Strapi's config/middlewares.js (see
   * http/stack.ts); absent: Strapi's default stack.
   */
  middlewares?: readonly StackEntry[];
  host: string;
  port: number;
  diagnostics: {
    /** Adds `Server-Timing: db;dur=…;desc="N queries"` to responses (env SERVER_TIMING=1). */
    serverTiming: boolean;
    /**
     * Writes every SQL statement the server runs, with its parameters and duration, to
     * stderr (env LOG_QUERIES=1): what a request costs, and the statements to EXPLAIN.
     */
    logQueries: boolean;
  };
  /**
   * Public URL of the server (Strapi's `server.url`), used in links the server emails.
   * Empty: `http://localhost:<port>`.
   */
  url: string;
  /** Prisma-style URL: `file:./data/data.db`, `postgresql://…`, `mysql://…`. */
  databaseUrl: string;
  api: {
    rest: {
      prefix: string;
      defaultLimit: number;
      maxLimit: number;
      withCount: boolean;
      /** Largest accepted JSON body, in bytes. */
      bodyLimit: number;
      populate: {
        /** Levels of `populate` a request may ask for; `*` counts as one. */
        maxDepth: number;
        /** Entries one populated to-many field may hold per entry; more → 400. */
        maxRelationEntries: number;
      };
    };
  };
  plugins: {
    'users-permissions': UsersPermissionsConfig;
    /** The upload plugin's settings over its defaults (see upload/config.ts). */
    upload: UploadUserConfig;
    /** The GraphQL endpoint (Strapi's `config/plugins.js` → `graphql.config`). */
    graphql: GraphqlConfig;
    /** The REST API's documentation: openapi.json and Swagger UI at /documentation (http/documentation.ts). */
    documentation: DocumentationConfig;
    /** The community plugin strapi-plugin-populate-deep: `populate=deep[,N]` (populate/deep.ts). */
    populateDeep: PopulateDeepConfig;
    /** The community plugin strapi-plugin-transformer: flattened REST answers (rest/transformer.ts). */
    transformer: TransformerConfig;
  };
  /** Webhooks: Strapi's `webhooks.defaultHeaders`, the webhooks themselves and their delivery (webhooks/config.ts). */
  webhooks: WebhooksConfig;
  /** Strapi 5's Content API, served beside the v4 one (docs/strapi5.md). */
  v5: V5Config;
}

/** Where the v5 REST dialect is mounted unless src/config.ts says otherwise (openapi.v5.json's paths too). */
export const defaultV5RestPrefix = '/v5/api';

export interface V5Config {
  rest: {
    /** Serve the Strapi 5 REST dialect (rest-v5/). */
    enabled: boolean;
    /**
     * Where it is mounted: `/v5/api` by default, beside v4 on `api.rest.prefix`; `/api` for
     * projects whose frontends moved (then move v4 elsewhere with `api.rest.prefix`, or leave
     * it shadowed: the v5 mount answers first).
     */
    prefix: string;
  };
  /** Strapi 5's GraphQL schema (graphql-v5/), with the limits of `plugins.graphql`. */
  graphql: {
    /** Path of the endpoint (`/v5/graphql`). */
    path: string;
    /** Strapi's `v4CompatibilityMode`: the deprecated `id`, `attributes`, `data` and `meta` fields. */
    v4CompatibilityMode: boolean;
  };
}

export interface DocumentationConfig {
  /** Path of the page; the document is `<path>/openapi.json`. */
  path: string;
  /** Serve it in production too (it is on elsewhere), like the GraphQL playground's `playgroundAlways`. */
  servedInProduction: boolean;
}

/**
 * strapi-plugin-populate-deep's settings (Strapi's config/plugins.js →
 * `'strapi-plugin-populate-deep'.config`). Off unless the project installs the plugin:
 * `contentgen build` then writes `enabled: true` into src/config.ts.
 */
export interface PopulateDeepConfig {
  enabled: boolean;
  /** Levels of `populate=deep` without a number (the plugin's default: 5). */
  defaultDepth: number;
  /** Leave out createdBy/updatedBy (the plugin's default: true). */
  skipCreatorFields: boolean;
}

/** Per content type (uid) or plugin (id): true/false, or true/false per HTTP method (`{ GET: true }`). */
export type TransformerFilter = Record<string, boolean | Record<string, boolean>>;

/**
 * strapi-plugin-transformer's settings (Strapi's config/plugins.js → `transformer.config`),
 * under its names. Off unless the project installs the plugin: `contentgen build` then writes
 * `enabled: true` and the project's settings into src/config.ts.
 */
export interface TransformerConfig {
  enabled: boolean;
  responseTransforms: {
    /** `{ id, attributes: { title } }` → `{ id, title }`, at every level. */
    removeAttributesKey: boolean;
    /** `author: { data: {…} }` → `author: {…}` (the answer's own `data` stays). */
    removeDataKey: boolean;
  };
  requestTransforms: {
    /** POST/PUT bodies are wrapped in `{ data: … }` unless they already are exactly that. */
    wrapBodyWithDataKey: boolean;
  };
  /** Called with the Koa context before and after the answer is transformed. */
  hooks: {
    preResponseTransform?: (ctx: ParameterizedContext) => void;
    postResponseTransform?: (ctx: ParameterizedContext) => void;
  };
  /** Which content types' routes are transformed: all of them without `mode` or `uids`. */
  contentTypeFilter: { mode?: 'allow' | 'deny'; uids: TransformerFilter };
  /** Which plugins' routes are transformed (users-permissions, upload, i18n): none unless listed. */
  plugins: { mode?: 'allow' | 'deny'; ids: TransformerFilter };
}

/** Strapi's `graphql.config` keys, with contentgen's limits. */
export interface GraphqlConfig {
  /** Path of the endpoint (`/graphql`). */
  endpoint: string;
  /** Generate types, queries and mutations from the models (Shadow CRUD). */
  shadowCRUD: boolean;
  /** Serve the playground and allow introspection in production too (they are on elsewhere). */
  playgroundAlways: boolean;
  /** Deepest field nesting an operation may have (graphql-depth-limit counting); 0: no limit. */
  depthLimit: number;
  /** Items of a list (query or relation) when the request gives no pagination. */
  defaultLimit: number;
  /**
   * Most items of any one list in a response; larger pages are clamped and `limit: -1` asks
   * for this many. -1: no maximum. Strapi's docs call it `amountLimit`, accepted as an alias.
   */
  maxLimit: number;
  /** Largest query document accepted, in bytes (413 past it). */
  documentSizeLimit: number;
  /** Most tokens (names, punctuators, values) in a query document; 0: no limit. */
  maxTokens: number;
  /** Most fields written in a query document, aliases and fragments' fields included; 0: no limit. */
  maxFields: number;
  /** Most aliased fields in a query document; 0: no limit. */
  maxAliases: number;
  /**
   * Highest cost of an operation: each field counts 1, times the items of the lists it is in
   * (each list's pagination, or defaultLimit); 0: no limit.
   */
  maxComplexity: number;
  /** Largest response, in bytes of JSON; 0: no limit. */
  responseSizeLimit: number;
  /**
   * Run queries on a plan made once per document (graphql/execute.ts), not on graphql-js's
   * execute; the answers are the same. false: graphql-js runs every operation.
   */
  plannedExecution: boolean;
}

/** Strapi's `config/plugins.js` → `users-permissions.config`, plus its advanced settings. */
export interface UsersPermissionsConfig {
  /** jsonwebtoken sign options: `expiresIn` is seconds or a timespan such as `'30d'`. */
  jwt: { expiresIn: string | number };
  /** Rate limit of the auth routes, per email (or "unknownIdentifier"), path and IP. */
  ratelimit: { enabled: boolean; interval: number; max: number };
  register: {
    /**
     * User attributes besides username, email and password that register accepts. null:
     * every non-private, writable attribute of the user model that is not a system field.
     */
    allowedFields: string[] | null;
  };
  /** The plugin's advanced settings, under Strapi's names. */
  advanced: {
    unique_email: boolean;
    allow_register: boolean;
    email_confirmation: boolean;
    /** Where GET /api/auth/email-confirmation redirects after confirming (default `/`). */
    email_confirmation_redirection: string | null;
    /** The front-end page that reset-password emails link to (`<url>?code=<token>`). */
    email_reset_password: string | null;
    /** Role type given to new users. */
    default_role: string;
  };
  email: { from: string | null; replyTo: string | null };
}

export type UserConfig = DeepPartial<Omit<ServerConfig, 'webhooks'>> & {
  webhooks?: WebhooksUserConfig;
} & {
  plugins?: { graphql?: { /** Alias of `maxLimit` (the name Strapi's docs use). */ amountLimit?: number } };
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };

export const defaultUsersPermissionsConfig: UsersPermissionsConfig = {
  jwt: { expiresIn: '30d' },
  ratelimit: { enabled: true, interval: 60_000, max: 10 },
  register: { allowedFields: null },
  advanced: {
    unique_email: true,
    allow_register: true,
    email_confirmation: false,
    email_confirmation_redirection: null,
    email_reset_password: null,
    default_role: 'authenticated',
  },
  email: { from: null, replyTo: null },
};

export const defaultConfig: ServerConfig = {
  host: '0.0.0.0',
  port: 1337,
  diagnostics: { serverTiming: false, logQueries: false },
  url: '',
  databaseUrl: 'file:./data/data.db',
  api: {
    rest: {
      prefix: '/api',
      defaultLimit: 25,
      maxLimit: 100,
      withCount: true,
      bodyLimit: 1024 * 1024,
      populate: { maxDepth: 5, maxRelationEntries: 100 },
    },
  },
  plugins: { 'users-permissions': defaultUsersPermissionsConfig, upload: {}, graphql: defaultGraphqlConfig(), documentation: { path: '/documentation', servedInProduction: false },
    populateDeep: { enabled: false, defaultDepth: 5, skipCreatorFields: true },
    transformer: defaultTransformerConfig(),
  },
  webhooks: resolveWebhooksConfig(),
  v5: { rest: { enabled: true, prefix: defaultV5RestPrefix }, graphql: { path: '/v5/graphql', v4CompatibilityMode: false } },
};

export function defaultTransformerConfig(): TransformerConfig {
  return {
    enabled: false,
    responseTransforms: { removeAttributesKey: false, removeDataKey: false },
    requestTransforms: { wrapBodyWithDataKey: false },
    hooks: {},
    contentTypeFilter: { uids: {} },
    plugins: { ids: {} },
  };
}

export function defaultGraphqlConfig(): GraphqlConfig {
  return {
    endpoint: '/graphql',
    shadowCRUD: true,
    playgroundAlways: false,
    depthLimit: 10,
    defaultLimit: 25,
    maxLimit: 100,
    documentSizeLimit: 100_000,
    maxTokens: 2_000,
    maxFields: 1_000,
    maxAliases: 200,
    maxComplexity: 20_000,
    responseSizeLimit: 10_000_000,
    plannedExecution: true,
  };
}

export function resolveConfig(user: UserConfig, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const rest = {
    ...defaultConfig.api.rest,
    ...user.api?.rest,
    populate: { ...defaultConfig.api.rest.populate, ...user.api?.rest?.populate },
  };
  for (const key of ['defaultLimit', 'maxLimit', 'bodyLimit'] as const) {
    if (!Number.isInteger(rest[key])) throw new Error(`config api.rest.${key} must be an integer, got ${String(rest[key])}`);
  }
  for (const key of ['maxDepth', 'maxRelationEntries'] as const) {
    if (!Number.isInteger(rest.populate[key]) || rest.populate[key] < 1) {
      throw new Error(`config api.rest.populate.${key} must be a positive integer, got ${String(rest.populate[key])}`);
    }
  }
  const port = env.PORT !== undefined && env.PORT !== '' ? Number(env.PORT) : (user.port ?? defaultConfig.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  return {
    ...(user.middlewares ? { middlewares: user.middlewares } : {}),
    host: env.HOST || user.host || defaultConfig.host,
    port,
    diagnostics: {
      serverTiming: env.SERVER_TIMING === '1' || (user.diagnostics?.serverTiming ?? defaultConfig.diagnostics.serverTiming),
      logQueries: env.LOG_QUERIES === '1' || (user.diagnostics?.logQueries ?? defaultConfig.diagnostics.logQueries),
    },
    url: (env.PUBLIC_URL || user.url || defaultConfig.url).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || user.databaseUrl || defaultConfig.databaseUrl,
    api: { rest },
    plugins: {
      'users-permissions': resolveUsersPermissions(user.plugins?.['users-permissions'] ?? {}),
      upload: (user.plugins?.upload ?? {}) as UploadUserConfig,
      graphql: resolveGraphqlConfig(user.plugins?.graphql ?? {}),
      documentation: resolveDocumentationConfig(user.plugins?.documentation ?? {}),
      populateDeep: resolvePopulateDeepConfig(user.plugins?.populateDeep ?? {}),
      transformer: resolveTransformerConfig((user.plugins?.transformer ?? {}) as Partial<TransformerConfig>),
    },
    webhooks: resolveWebhooksConfig(user.webhooks),
    v5: resolveV5Config(user.v5 ?? {}),
  };
}

export function resolveV5Config(user: DeepPartial<V5Config>): V5Config {
  const rest = { ...defaultConfig.v5.rest, ...user.rest };
  if (typeof rest.enabled !== 'boolean') throw new Error('config v5.rest.enabled must be true or false');
  if (typeof rest.prefix !== 'string' || !/^\/[^?#]*[^/?#]$/.test(rest.prefix)) throw new Error(`config v5.rest.prefix must be a path such as /v5/api, got ${String(rest.prefix)}`);
  const graphql = { ...defaultConfig.v5.graphql, ...user.graphql };
  if (typeof graphql.path !== 'string' || !/^\/[^\s?#]*$/.test(graphql.path)) throw new Error(`config v5.graphql.path must be a path such as '/v5/graphql'`);
  if (typeof graphql.v4CompatibilityMode !== 'boolean') throw new Error('config v5.graphql.v4CompatibilityMode must be true or false');
  return { rest, graphql };
}

export function resolvePopulateDeepConfig(user: Partial<PopulateDeepConfig>): PopulateDeepConfig {
  const config = { ...defaultConfig.plugins.populateDeep, ...user };
  const at = (key: string) => `config plugins.populateDeep.${key}`;
  if (typeof config.enabled !== 'boolean') throw new Error(`${at('enabled')} must be true or false`);
  if (typeof config.skipCreatorFields !== 'boolean') throw new Error(`${at('skipCreatorFields')} must be true or false`);
  if (!Number.isInteger(config.defaultDepth) || config.defaultDepth < 0) throw new Error(`${at('defaultDepth')} must be a whole number, got ${String(config.defaultDepth)}`);
  return config;
}

export function resolveTransformerConfig(user: Partial<TransformerConfig>): TransformerConfig {
  const d = defaultTransformerConfig();
  const config: TransformerConfig = {
    enabled: user.enabled ?? d.enabled,
    responseTransforms: { ...d.responseTransforms, ...user.responseTransforms },
    requestTransforms: { ...d.requestTransforms, ...user.requestTransforms },
    hooks: { ...user.hooks },
    contentTypeFilter: { ...d.contentTypeFilter, ...user.contentTypeFilter },
    plugins: { ...d.plugins, ...user.plugins },
  };
  const at = (key: string) => `config plugins.transformer.${key}`;
  const flags = [
    ['enabled', config.enabled],
    ['responseTransforms.removeAttributesKey', config.responseTransforms.removeAttributesKey],
    ['responseTransforms.removeDataKey', config.responseTransforms.removeDataKey],
    ['requestTransforms.wrapBodyWithDataKey', config.requestTransforms.wrapBodyWithDataKey],
  ] as const;
  for (const [key, value] of flags) if (typeof value !== 'boolean') throw new Error(`${at(key)} must be true or false`);
  for (const key of ['preResponseTransform', 'postResponseTransform'] as const) {
    const hook = config.hooks[key];
    if (hook !== undefined && typeof hook !== 'function') throw new Error(`${at(`hooks.${key}`)} must be a function`);
  }
  const filters = [
    ['contentTypeFilter', config.contentTypeFilter.mode, config.contentTypeFilter.uids, 'uids'],
    ['plugins', config.plugins.mode, config.plugins.ids, 'ids'],
  ] as const;
  for (const [name, mode, values, valuesKey] of filters) {
    if (mode !== undefined && mode !== 'allow' && mode !== 'deny') throw new Error(`${at(`${name}.mode`)} must be 'allow' or 'deny'`);
    if (typeof values !== 'object' || values === null || Array.isArray(values)) throw new Error(`${at(`${name}.${valuesKey}`)} must be an object`);
  }
  return config;
}

function resolveDocumentationConfig(user: DeepPartial<DocumentationConfig>): DocumentationConfig {
  const config = { ...defaultConfig.plugins.documentation, ...user };
  if (typeof config.path !== 'string' || !/^\/[^\s?#]*[^/\s?#]$/.test(config.path)) throw new Error("config plugins.documentation.path must be a path such as '/documentation'");
  if (typeof config.servedInProduction !== 'boolean') throw new Error('config plugins.documentation.servedInProduction must be true or false');
  return config;
}

type GraphqlCostKey = 'maxTokens' | 'maxFields' | 'maxAliases' | 'maxComplexity' | 'responseSizeLimit';

export function resolveGraphqlConfig(user: DeepPartial<GraphqlConfig> & { amountLimit?: number }): GraphqlConfig {
  const at = (key: string) => `config plugins.graphql.${key}`;
  const { amountLimit, ...rest } = user;
  if (amountLimit !== undefined && rest.maxLimit !== undefined && amountLimit !== rest.maxLimit) {
    throw new Error(`${at('amountLimit')} (${amountLimit}) and ${at('maxLimit')} (${rest.maxLimit}) disagree: set one of them`);
  }
  const config: GraphqlConfig = { ...defaultGraphqlConfig(), ...rest, ...(amountLimit !== undefined ? { maxLimit: amountLimit } : {}) };
  if (typeof config.endpoint !== 'string' || !/^\/[^\s?#]*$/.test(config.endpoint)) throw new Error(`${at('endpoint')} must be a path such as '/graphql'`);
  for (const key of ['shadowCRUD', 'playgroundAlways', 'plannedExecution'] as const) {
    if (typeof config[key] !== 'boolean') throw new Error(`${at(key)} must be true or false`);
  }
  const integer = (key: 'depthLimit' | 'defaultLimit' | 'maxLimit' | 'documentSizeLimit' | GraphqlCostKey, min: number) => {
    if (!Number.isInteger(config[key]) || config[key] < min) throw new Error(`${at(key)} must be an integer of at least ${min}, got ${String(config[key])}`);
  };
  integer('depthLimit', 0);
  for (const key of ['maxTokens', 'maxFields', 'maxAliases', 'maxComplexity', 'responseSizeLimit'] as const) integer(key, 0);
  integer('defaultLimit', 1);
  integer('maxLimit', -1);
  integer('documentSizeLimit', 1);
  if (config.maxLimit === 0) throw new Error(`${at('maxLimit')} must be positive, or -1 for no maximum`);
  return config;
}

function resolveUsersPermissions(user: DeepPartial<UsersPermissionsConfig>): UsersPermissionsConfig {
  const d = defaultUsersPermissionsConfig;
  const config: UsersPermissionsConfig = {
    jwt: { ...d.jwt, ...user.jwt },
    ratelimit: { ...d.ratelimit, ...user.ratelimit },
    register: { ...d.register, ...user.register },
    advanced: { ...d.advanced, ...user.advanced },
    email: { ...d.email, ...user.email },
  };
  const at = (key: string) => `config plugins['users-permissions'].${key}`;
  const { expiresIn } = config.jwt;
  if (!(typeof expiresIn === 'string' && expiresIn !== '') && !(typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0)) {
    throw new Error(`${at('jwt.expiresIn')} must be a number of seconds or a timespan such as '30d', got ${String(expiresIn)}`);
  }
  for (const key of ['interval', 'max'] as const) {
    const value = config.ratelimit[key];
    if (!Number.isInteger(value) || value < 1) throw new Error(`${at(`ratelimit.${key}`)} must be a positive integer, got ${String(value)}`);
  }
  if (typeof config.ratelimit.enabled !== 'boolean') throw new Error(`${at('ratelimit.enabled')} must be true or false`);
  const { allowedFields } = config.register;
  if (allowedFields !== null && !(Array.isArray(allowedFields) && allowedFields.every((f) => typeof f === 'string'))) {
    throw new Error(`${at('register.allowedFields')} must be a list of attribute names or null`);
  }
  for (const key of ['unique_email', 'allow_register', 'email_confirmation'] as const) {
    if (typeof config.advanced[key] !== 'boolean') throw new Error(`${at(`advanced.${key}`)} must be true or false`);
  }
  if (typeof config.advanced.default_role !== 'string' || config.advanced.default_role === '') {
    throw new Error(`${at('advanced.default_role')} must be a role type`);
  }
  return config;
}
