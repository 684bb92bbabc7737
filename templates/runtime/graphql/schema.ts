/**
 * Builds the Content API schema, the one function both the server and the generator run
 * (the generator prints its result as schema.graphql):
 *
 *   built-in plugins and the user's extension register on the extension service
 *   → Shadow CRUD document (sdl.ts) → extensions generated (typeDefs, code-first types,
 *   resolvers, resolversConfig, plugins) → merged with @graphql-tools/schema
 *   → unreachable types pruned → plugins' transformSchema.
 *
 * Resolvers are optional: the printer needs none, the server passes the Shadow CRUD ones.
 */
import { mergeSchemas } from '@graphql-tools/schema';
import * as graphql from 'graphql';
import {
  buildASTSchema,
  GraphQLSchema,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  isSpecifiedDirective,
  isSpecifiedScalarType,
  isUnionType,
  Kind,
  parse,
  printSchema,
  printType,
  type DefinitionNode,
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLType,
} from 'graphql';
import type { Registry } from '../meta.js';
import { document } from './ast.js';
import type { GeneratedExtension, GraphqlExtensionService, ResolverMap, TypeRegistry } from './extension.js';
import { buildShadowCrudDocument, internalDefinitions } from './sdl.js';

export interface ContentApiSchemaOptions {
  readonly registry: Registry;
  /** Built-in plugins and the user's extension already registered on it. */
  readonly extension: GraphqlExtensionService;
  /** `plugins.graphql.shadowCRUD`: false leaves the internals and what extensions add. */
  readonly shadowCRUD: boolean;
  /** Resolvers of the generated types (the server's); extension resolvers override them. */
  readonly resolvers?: ResolverMap;
}

export interface ContentApiSchema {
  readonly schema: GraphQLSchema;
  /** The merged extension: its resolversConfig and plugins wrap the resolvers. */
  readonly extension: GeneratedExtension;
}

export function buildContentApiSchema(options: ContentApiSchemaOptions): ContentApiSchema {
  const { registry, extension } = options;
  checkSettings(registry, extension);
  const shadowDocument = options.shadowCRUD ? buildShadowCrudDocument(registry, extension) : document(internalDefinitions());
  const generated = extension.generate({ graphql, typeRegistry: typeRegistryOf(shadowDocument), registry });

  const typeDefs = [shadowDocument, ...generated.typeDefs.map((sdl) => parse(sdl))];
  const codeFirst = generated.types.length > 0 ? [new GraphQLSchema({ types: generated.types })] : [];
  const merged = mergeSchemas({
    schemas: codeFirst,
    typeDefs: withRootTypes(typeDefs),
    resolvers: [restrictTo(options.resolvers ?? {}, shadowDocument), generated.resolvers] as never,
  });
  let schema = pruneSchema(withDeclaredRoots(merged));
  for (const plugin of generated.plugins) if (plugin.transformSchema) schema = plugin.transformSchema(schema);
  return { schema, extension: generated };
}

/**
 * The root operation types are Query and Mutation, declared rather than found by name: a
 * content type named `subscription` is the ordinary type `Subscription` (its queries, its
 * permissions), not a subscription root. The server serves no subscriptions.
 */
function withDeclaredRoots(schema: GraphQLSchema): GraphQLSchema {
  if (!schema.getSubscriptionType()) return schema;
  return new GraphQLSchema({ ...schema.toConfig(), subscription: undefined });
}

/**
 * `schema { query: Query mutation: Mutation }` when a reader would otherwise take a type for
 * a root by its name (a type named `Subscription`); '' when the names say it all.
 */
function schemaDefinition(schema: GraphQLSchema): string {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  const misleading = ['Query', 'Mutation', 'Subscription'].some((name, i) => schema.getType(name) !== undefined && roots[i]?.name !== name);
  if (!misleading) return '';
  const members = [['query', roots[0]], ['mutation', roots[1]], ['subscription', roots[2]]].filter(([, type]) => type);
  return `schema {\n${members.map(([op, type]) => `  ${op as string}: ${(type as GraphQLNamedType).name}`).join('\n')}\n}`;
}

/**
 * The schema as readable SDL: custom directives, then every type sorted by name (fields
 * keep their model order). Deterministic: the same models and extension give the same bytes.
 */
export function printContentApiSchema(schema: GraphQLSchema): string {
  const directives = schema
    .getDirectives()
    .filter((d) => !isSpecifiedDirective(d))
    .sort((a, b) => compare(a.name, b.name))
    .map((d) => printSchema(new GraphQLSchema({ directives: [d] })).trim());
  const types = Object.values(schema.getTypeMap())
    .filter((type) => !type.name.startsWith('__') && !isSpecifiedScalarType(type))
    .sort((a, b) => compare(a.name, b.name))
    .map((type) => printType(type));
  const definition = schemaDefinition(schema);
  return `${[...(definition ? [definition] : []), ...directives, ...types].join('\n\n')}\n`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The generated resolvers cover every type of the models; keep those of the types and fields
 * the Shadow CRUD document has (disabled ones are not in it, and graphql-tools refuses
 * resolvers of fields a schema lacks).
 */
function restrictTo(resolvers: ResolverMap, doc: DocumentNode): ResolverMap {
  const fields = new Map<string, Set<string> | null>();
  for (const d of doc.definitions) {
    if (d.kind === Kind.OBJECT_TYPE_DEFINITION) fields.set(d.name.value, new Set((d.fields ?? []).map((f) => f.name.value)));
    else if ('name' in d && d.name) fields.set(d.name.value, null);
  }
  const out: ResolverMap = {};
  for (const [typeName, value] of Object.entries(resolvers)) {
    if (!fields.has(typeName)) continue;
    const own = fields.get(typeName);
    out[typeName] = own && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([field]) => own.has(field) || field.startsWith('__'))) : value;
  }
  return out;
}

/** The generated types by name, for extension factories. */
function typeRegistryOf(doc: DocumentNode): TypeRegistry {
  let schema: GraphQLSchema | undefined;
  const built = () => (schema ??= buildASTSchema(doc, { assumeValid: true }));
  const names = doc.definitions.flatMap((d) => ('name' in d && d.name ? [d.name.value] : []));
  return {
    has: (name) => names.includes(name),
    get: (name) => (names.includes(name) ? built().getType(name) ?? undefined : undefined),
    names: () => [...names].sort(compare),
  };
}

/**
 * `extend type Query/Mutation { … }` with no such type yet (Shadow CRUD added no query or
 * no mutation): the first extension becomes the type's definition.
 */
function withRootTypes(docs: DocumentNode[]): DocumentNode[] {
  const defined = new Set(docs.flatMap((doc) => doc.definitions.flatMap((d) => (d.kind === Kind.OBJECT_TYPE_DEFINITION ? [d.name.value] : []))));
  return docs.map((doc) => {
    let changed = false;
    const definitions = doc.definitions.map((d): DefinitionNode => {
      if (d.kind !== Kind.OBJECT_TYPE_EXTENSION || defined.has(d.name.value) || !['Query', 'Mutation', 'Subscription'].includes(d.name.value)) return d;
      defined.add(d.name.value);
      changed = true;
      return { ...d, kind: Kind.OBJECT_TYPE_DEFINITION };
    });
    return changed ? { ...doc, definitions } : doc;
  });
}

/** Keeps only the types reachable from the root types (Strapi prunes its schema so). */
export function pruneSchema(schema: GraphQLSchema): GraphQLSchema {
  const reachable = new Map<string, GraphQLNamedType>();
  const visit = (type: GraphQLType): void => {
    const named = isListType(type) || isNonNullType(type) ? graphql.getNamedType(type) : type;
    if (!named || reachable.has(named.name)) return;
    reachable.set(named.name, named);
    if (isObjectType(named) || isInterfaceType(named)) {
      for (const iface of named.getInterfaces()) visit(iface);
      for (const field of Object.values(named.getFields())) {
        visit(field.type);
        for (const arg of field.args) visit(arg.type);
      }
      if (isInterfaceType(named)) for (const impl of schema.getPossibleTypes(named)) visit(impl);
    } else if (isUnionType(named)) {
      for (const member of named.getTypes()) visit(member);
    } else if (isInputObjectType(named)) {
      for (const field of Object.values(named.getFields())) visit(field.type);
    }
  };
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) if (root) visit(root);
  for (const directive of schema.getDirectives()) for (const arg of directive.args) visit(arg.type);
  const config = schema.toConfig();
  return new GraphQLSchema({ ...config, types: config.types.filter((type) => reachable.has(type.name)) });
}

/**
 * Every uid and field the extension configures must exist: a misspelled uid would
 * otherwise silently do nothing.
 */
function checkSettings(registry: Registry, extension: GraphqlExtensionService): void {
  const problems: string[] = [];
  for (const uid of extension.configuredUids()) {
    // What the schema leaves out may still be configured (it has nothing to configure).
    if (registry.graphqlLeftOut?.has(uid)) continue;
    const owner = registry.contentTypes.get(uid) ?? registry.components.get(uid);
    if (!owner) {
      problems.push(`shadowCRUD('${uid}'): no content type or component has this uid`);
      continue;
    }
    for (const field of extension.configuredFields(uid)) {
      if (!(field in owner.fields) && !registry.graphqlLeftOut?.has(`${uid}.${field}`)) problems.push(`shadowCRUD('${uid}').field('${field}'): ${uid} has no field "${field}"`);
    }
  }
  if (problems.length) throw new Error(`GraphQL extension:\n  ${problems.join('\n  ')}`);
}
