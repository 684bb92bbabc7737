/**
 * The GraphQL extension service, Strapi v4's `strapi.plugin('graphql').service('extension')`,
 * handed to the user-owned src/extensions/graphql.ts:
 *
 *   extension.shadowCRUD('api::article.article').disableMutations();
 *   extension.shadowCRUD('api::article.article').field('editorNote').disable();
 *   extension.use({ typeDefs, resolvers, resolversConfig });
 *   extension.use(({ graphql, typeRegistry }) => ({ types: [new graphql.GraphQLObjectType(…)] }));
 *
 * This module only records what is asked; schema.ts builds the schema from it. It has no
 * runtime dependencies, so the generator runs the same file to print schema.graphql.
 */
import type { GraphQLFieldResolver, GraphQLNamedType, GraphQLResolveInfo, GraphQLSchema } from 'graphql';
import type * as GraphQL from 'graphql';
import type { Registry } from '../meta.js';
import type { GraphqlContext } from './context.js';

/** Shadow CRUD actions; `*` stands for all of them. */
export type ShadowCrudAction = 'find' | 'findOne' | 'create' | 'update' | 'delete';

export interface FieldConfigurator {
  isEnabled(): boolean;
  isDisabled(): boolean;
  hasInputEnabled(): boolean;
  hasOutputEnabled(): boolean;
  hasFiltersEnabled(): boolean;
  /** Strapi's own (misspelled) name for hasFiltersEnabled. */
  hasFiltersEnabeld(): boolean;
  /** Output, input and filters off. */
  disable(): FieldConfigurator;
  disableOutput(): FieldConfigurator;
  disableInput(): FieldConfigurator;
  disableFilters(): FieldConfigurator;
}

export interface ShadowCrudConfigurator {
  isEnabled(): boolean;
  isDisabled(): boolean;
  areQueriesEnabled(): boolean;
  areQueriesDisabled(): boolean;
  areMutationsEnabled(): boolean;
  areMutationsDisabled(): boolean;
  isActionEnabled(action: ShadowCrudAction): boolean;
  isActionDisabled(action: ShadowCrudAction): boolean;
  /** Removes the type (or component) from the schema; fields pointing at it are skipped. */
  disable(): ShadowCrudConfigurator;
  disableQueries(): ShadowCrudConfigurator;
  disableMutations(): ShadowCrudConfigurator;
  disableAction(action: ShadowCrudAction | '*'): ShadowCrudConfigurator;
  disableActions(actions: readonly (ShadowCrudAction | '*')[]): ShadowCrudConfigurator;
  field(name: string): FieldConfigurator;
}

/** What a policy sees (Strapi's policy context for GraphQL resolvers). */
export interface PolicyContext {
  readonly parent: unknown;
  readonly args: Record<string, unknown>;
  readonly context: GraphqlContext;
  readonly info: GraphQLResolveInfo;
  /** `context.state`: `auth` and `user`. */
  readonly state: GraphqlContext['state'];
  /** The Koa context of the request. */
  readonly http: GraphqlContext['http'];
}

/** Any answer but `true` or `undefined` refuses the call (PolicyError, "Policy Failed"). */
export type GraphqlPolicy = (context: PolicyContext, options: unknown) => unknown;

/** Runs around a resolver; call `resolve(parent, args, context, info)` to go on. */
export type GraphqlMiddleware = (
  resolve: GraphQLFieldResolver<unknown, GraphqlContext>,
  parent: unknown,
  args: Record<string, unknown>,
  context: GraphqlContext,
  info: GraphQLResolveInfo,
) => unknown;

/** A function, the name of one registered with `policy()`/`middleware()`, or a name with options. */
export type Reference<F> = F | string | { readonly name: string; readonly options?: unknown };

export interface ResolverConfig {
  /**
   * `false`: no authorization. `{ scope }`: the caller must be granted every listed action.
   * Absent: Query and Mutation fields require their shadow CRUD action (or, for custom
   * ones, an authenticated user or a full-access token); other fields are not checked.
   */
  readonly auth?: false | { readonly scope: string | readonly string[] };
  readonly policies?: readonly Reference<GraphqlPolicy>[];
  readonly middlewares?: readonly Reference<GraphqlMiddleware>[];
}

/** `{ Query: { hello: () => 'hi' }, Article: { title: (a) => … } }`, plus scalars and enum value maps. */
export type ResolverMap = Record<string, unknown>;

/** A schema-builder plugin: wraps resolvers field by field, and may rewrite the built schema. */
export interface GraphqlPlugin {
  readonly name: string;
  /** Called for every field of every object type; a middleware returned wraps that field. */
  onCreateFieldResolver?(field: { readonly typeName: string; readonly fieldName: string }): GraphqlMiddleware | undefined;
  /** Rewrites the finished schema (before it is printed and served). */
  transformSchema?(schema: GraphQLSchema): GraphQLSchema;
}

export interface GraphqlExtension {
  /** Code-first types built with the graphql-js classes (use the `graphql` the factory receives). */
  readonly types?: readonly GraphQLNamedType[];
  /** SDL: new types, `extend type Query { … }`, … */
  readonly typeDefs?: string;
  readonly resolvers?: ResolverMap;
  /** `{ 'Query.articles': { auth: false }, 'Mutation.createArticle': { policies: […] } }` */
  readonly resolversConfig?: Readonly<Record<string, ResolverConfig>>;
  readonly plugins?: readonly GraphqlPlugin[];
}

/** Names of the generated types, for extensions that refer to them. */
export interface TypeRegistry {
  has(name: string): boolean;
  /** The generated type of this name (from the shadow CRUD schema), or undefined. */
  get(name: string): GraphQLNamedType | undefined;
  names(): string[];
}

export interface ExtensionFactoryContext {
  /** The graphql-js module the server uses: build `types` with it (one graphql instance). */
  readonly graphql: typeof GraphQL;
  readonly typeRegistry: TypeRegistry;
  /** Every content type and component. */
  readonly registry: Registry;
}

export type GraphqlExtensionFactory = (context: ExtensionFactoryContext) => GraphqlExtension;

/** Every `use()` merged: earlier registrations win over later ones, as in Strapi. */
export interface GeneratedExtension {
  readonly types: GraphQLNamedType[];
  readonly typeDefs: string[];
  readonly resolvers: ResolverMap;
  readonly resolversConfig: Record<string, ResolverConfig>;
  readonly plugins: GraphqlPlugin[];
}

interface FieldState {
  enabled: boolean;
  input: boolean;
  output: boolean;
  filters: boolean;
}

interface TypeState {
  enabled: boolean;
  queries: boolean;
  mutations: boolean;
  disabledActions: Set<string>;
  fields: Map<string, FieldState>;
}

export class GraphqlExtensionService {
  readonly #types = new Map<string, TypeState>();
  readonly #uses: (GraphqlExtension | GraphqlExtensionFactory)[] = [];
  readonly #policies = new Map<string, GraphqlPolicy>();
  readonly #middlewares = new Map<string, (options: unknown) => GraphqlMiddleware>();

  /** The shadow CRUD settings of a content type or component uid (created on first use). */
  shadowCRUD(uid: string): ShadowCrudConfigurator {
    let state = this.#types.get(uid);
    if (!state) {
      state = defaultTypeState();
      this.#types.set(uid, state);
    }
    return typeConfigurator(state);
  }

  /** Registers an extension object, or a factory called when the schema is built. */
  use(extension: GraphqlExtension | GraphqlExtensionFactory): this {
    this.#uses.push(extension);
    return this;
  }

  /** A named policy for `resolversConfig[…].policies` (`'is-owner'` or `{ name, options }`). */
  policy(name: string, policy: GraphqlPolicy): this {
    this.#policies.set(name, policy);
    return this;
  }

  /** A named middleware factory for `resolversConfig[…].middlewares`; it receives the options. */
  middleware(name: string, factory: (options: unknown) => GraphqlMiddleware): this {
    this.#middlewares.set(name, factory);
    return this;
  }

  /** Read-only view of a uid's settings (the defaults when never configured); records nothing. */
  settings(uid: string): ShadowCrudConfigurator {
    return typeConfigurator(this.#types.get(uid) ?? defaultTypeState());
  }

  /** uids given to shadowCRUD(), for checking them against the models. */
  configuredUids(): string[] {
    return [...this.#types.keys()];
  }

  /** Field names configured for a uid. */
  configuredFields(uid: string): string[] {
    return [...(this.#types.get(uid)?.fields.keys() ?? [])];
  }

  namedPolicy(name: string): GraphqlPolicy | undefined {
    return this.#policies.get(name);
  }

  namedMiddleware(name: string): ((options: unknown) => GraphqlMiddleware) | undefined {
    return this.#middlewares.get(name);
  }

  /** Evaluates every registration (factories with `context`) and merges them. */
  generate(context: ExtensionFactoryContext): GeneratedExtension {
    const out: GeneratedExtension = { types: [], typeDefs: [], resolvers: {}, resolversConfig: {}, plugins: [] };
    for (const registered of this.#uses) {
      const extension = typeof registered === 'function' ? registered(context) : registered;
      if (!extension || typeof extension !== 'object') continue;
      if (typeof extension.typeDefs === 'string') out.typeDefs.push(extension.typeDefs);
      if (Array.isArray(extension.types)) out.types.push(...extension.types);
      if (Array.isArray(extension.plugins)) out.plugins.push(...extension.plugins);
      if (extension.resolvers && typeof extension.resolvers === 'object') mergeResolvers(out.resolvers, extension.resolvers);
      if (extension.resolversConfig && typeof extension.resolversConfig === 'object') {
        for (const [path, config] of Object.entries(extension.resolversConfig)) {
          out.resolversConfig[path] = { ...config, ...out.resolversConfig[path] };
        }
      }
    }
    return out;
  }
}

function defaultTypeState(): TypeState {
  return { enabled: true, queries: true, mutations: true, disabledActions: new Set(), fields: new Map() };
}

/** Adds `next`'s resolvers to `into`; a field already there stays (earlier wins). */
function mergeResolvers(into: ResolverMap, next: ResolverMap): void {
  for (const [typeName, value] of Object.entries(next)) {
    const existing = into[typeName];
    if (existing === undefined) into[typeName] = isPlainObject(value) ? { ...value } : value;
    else if (isPlainObject(existing) && isPlainObject(value)) {
      for (const [field, resolver] of Object.entries(value)) if (!(field in existing)) existing[field] = resolver;
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;
}

function typeConfigurator(state: TypeState): ShadowCrudConfigurator {
  const self: ShadowCrudConfigurator = {
    isEnabled: () => state.enabled,
    isDisabled: () => !state.enabled,
    areQueriesEnabled: () => state.queries,
    areQueriesDisabled: () => !state.queries,
    areMutationsEnabled: () => state.mutations,
    areMutationsDisabled: () => !state.mutations,
    isActionEnabled: (action) => !state.disabledActions.has(action) && !state.disabledActions.has('*'),
    isActionDisabled: (action) => state.disabledActions.has(action) || state.disabledActions.has('*'),
    disable() {
      state.enabled = false;
      return self;
    },
    disableQueries() {
      state.queries = false;
      return self;
    },
    disableMutations() {
      state.mutations = false;
      return self;
    },
    disableAction(action) {
      state.disabledActions.add(action);
      return self;
    },
    disableActions(actions) {
      for (const action of actions) state.disabledActions.add(action);
      return self;
    },
    field(name) {
      let field = state.fields.get(name);
      if (!field) {
        field = { enabled: true, input: true, output: true, filters: true };
        state.fields.set(name, field);
      }
      return fieldConfigurator(field);
    },
  };
  return self;
}

function fieldConfigurator(state: FieldState): FieldConfigurator {
  const self: FieldConfigurator = {
    isEnabled: () => state.enabled,
    isDisabled: () => !state.enabled,
    hasInputEnabled: () => state.input,
    hasOutputEnabled: () => state.output,
    hasFiltersEnabled: () => state.filters,
    hasFiltersEnabeld: () => state.filters,
    disable() {
      Object.assign(state, { enabled: false, input: false, output: false, filters: false });
      return self;
    },
    disableOutput() {
      state.output = false;
      return self;
    },
    disableInput() {
      state.input = false;
      return self;
    },
    disableFilters() {
      state.filters = false;
      return self;
    },
  };
  return self;
}
