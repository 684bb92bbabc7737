/**
 * The Strapi 5 GraphQL schema (`@strapi/plugin-graphql` 5.x), as a DocumentNode built from the
 * runtime metadata: flat types (`Article { documentId … }`, no `id` on content types), lists
 * (`articles: [Article]!`) beside `…_connection` queries (`{ nodes, pageInfo }`), `documentId`
 * arguments, `status: PublicationStatus` and `publicationFilter` on every query, and
 * `DeleteMutationResponse`. Beside the models it has what Strapi 5 serves of its own: the
 * review-workflows types, the upload file (with `focalPoint`), i18n locales and the
 * users-permissions types and mutations.
 *
 * `v4CompatibilityMode` adds the deprecated fields Strapi's
 * `STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE` adds (`id`, `attributes`, `data`, `meta`).
 *
 * Checked type by type against Strapi 5.54.0's printed schema on the fixtures' models
 * (fixtures/strapi5-data/<set>/schema.graphql, test/unit/emit/graphql-v5-schema.test.ts).
 */
import { Kind, parse, parseType, type DefinitionNode, type DocumentNode, type FieldDefinitionNode, type InputValueDefinitionNode } from 'graphql';
import { componentsInStrapi5Order, type ComponentMeta, type ContentTypeMeta, type FieldMeta, type Registry } from '../meta.js';
import { document, enumType, inputType, inputValue, objectType, scalarType, unionType, type ArgSpec, type FieldSpec } from '../graphql/ast.js';
import * as naming from '../graphql/naming.js';
import { filterScalars, graphqlScalarOf, scalarFilterOperators } from '../graphql/sdl.js';
import { builtinContentTypes } from './builtins.js';

export const fileUid = 'plugin::upload.file';
const userUid = 'plugin::users-permissions.user';
const roleUid = 'plugin::users-permissions.role';
const permissionUid = 'plugin::users-permissions.permission';
const localeUid = 'plugin::i18n.locale';

export interface V5SchemaOptions {
  /** Strapi's `v4CompatibilityMode` (env `STRAPI_GRAPHQL_V4_COMPATIBILITY_MODE`). */
  readonly v4CompatibilityMode?: boolean;
}

/** Strapi 5's scalars and their descriptions (graphql-scalars' and Strapi's own). */
const scalars: readonly [string, string][] = [
  ['JSON', 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).'],
  ['DateTime', 'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.'],
  ['Time', 'A time string with format HH:mm:ss.SSS'],
  ['Date', 'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.'],
  ['Long', 'The `BigInt` scalar type represents non-fractional signed whole numeric values.'],
];

export const publicationFilters = [
  'NEVER_PUBLISHED', 'HAS_PUBLISHED_VERSION', 'MODIFIED', 'UNMODIFIED',
  'NEVER_PUBLISHED_DOCUMENT', 'HAS_PUBLISHED_VERSION_DOCUMENT', 'PUBLISHED_WITHOUT_DRAFT', 'PUBLISHED_WITH_DRAFT',
] as const;

/** Plugin types in the order Strapi 5 registers them (queries, GenericMorph). */
const pluginOrder = [fileUid, localeUid, 'plugin::review-workflows.workflow', 'plugin::review-workflows.workflow-stage', permissionUid, roleUid, userUid];

/** What Strapi 5 serves of each plugin type: queries, Shadow CRUD mutations. */
function operationsOf(uid: string): { queries: boolean; mutations: boolean } {
  if (uid === permissionUid) return { queries: false, mutations: false };
  if (uid === fileUid || uid === localeUid || uid === userUid || uid === roleUid) return { queries: true, mutations: false };
  return { queries: true, mutations: true };
}

const deprecated = (reason: string) => ` @deprecated(reason: ${JSON.stringify(reason)})`;

type Owner = ContentTypeMeta | ComponentMeta;

/** The content types of the v5 schema: the models' (minus the upload folder) and Strapi 5's built-in ones, in Strapi's order. */
export function v5ContentTypes(registry: Registry): ContentTypeMeta[] {
  const all = [...registry.contentTypes.values(), ...builtinContentTypes.filter((meta) => !registry.contentTypes.has(meta.uid))].filter((meta) => meta.uid !== 'plugin::upload.folder');
  const rank = (uid: string) => (pluginOrder.includes(uid) ? pluginOrder.indexOf(uid) : uid.startsWith('plugin::') ? pluginOrder.length : pluginOrder.length + 1);
  return all.map((meta, i) => ({ meta, i })).sort((a, b) => rank(a.meta.uid) - rank(b.meta.uid) || a.i - b.i).map(({ meta }) => meta);
}

const timestamps = new Set(['id', 'createdAt', 'updatedAt', 'publishedAt']);

export function buildV5Document(registry: Registry, options: V5SchemaOptions = {}): DocumentNode {
  return new V5Builder(registry, options).build();
}

class V5Builder {
  private readonly definitions: DefinitionNode[] = [];
  private readonly queries: FieldDefinitionNode[] = [];
  private readonly mutations: FieldDefinitionNode[] = [];
  private readonly types: ContentTypeMeta[];
  private readonly compat: boolean;

  constructor(
    private readonly registry: Registry,
    options: V5SchemaOptions,
  ) {
    this.types = v5ContentTypes(registry);
    this.compat = options.v4CompatibilityMode === true;
  }

  build(): DocumentNode {
    this.internals();
    for (const component of this.componentsInStrapiOrder()) this.addComponent(component);
    for (const meta of this.types) this.addContentType(meta);
    this.definitions.push(unionType('GenericMorph', [...this.componentsInStrapiOrder().map((c) => naming.componentTypeName(c.uid)), ...this.types.map(naming.typeName)]));
    this.plugins();
    this.definitions.push(
      { kind: Kind.OBJECT_TYPE_DEFINITION, name: { kind: Kind.NAME, value: 'Query' }, interfaces: [], directives: [], fields: this.queries },
      { kind: Kind.OBJECT_TYPE_DEFINITION, name: { kind: Kind.NAME, value: 'Mutation' }, interfaces: [], directives: [], fields: this.mutations },
    );
    return document(this.definitions);
  }

  /** Components by uid, last first: both recorded Strapi 5.54.0 schemas define them and list them in GenericMorph so. */
  private componentsInStrapiOrder(): ComponentMeta[] {
    return componentsInStrapi5Order(this.registry);
  }

  private internals(): void {
    this.definitions.push(
      ...scalars.map(([name, description]) => scalarType(name, description)),
      objectType('Error', [
        { name: 'code', type: 'String!' },
        { name: 'message', type: 'String' },
      ]),
      objectType('Pagination', ['total', 'page', 'pageSize', 'pageCount'].map((name) => ({ name, type: 'Int!' }))),
      ...(this.compat ? [objectType('ResponseCollectionMeta', [{ name: 'pagination', type: 'Pagination!' }])] : []),
      objectType('DeleteMutationResponse', [{ name: 'documentId', type: 'ID!' }]),
      enumType('PublicationStatus', ['DRAFT', 'PUBLISHED']),
      enumType('PublicationFilter', [...publicationFilters]),
      ...filterScalars.map((scalar) =>
        inputType(
          naming.scalarFilterName(scalar),
          scalarFilterOperators.map((op): ArgSpec => {
            if (op === 'and' || op === 'or' || op === 'in' || op === 'notIn' || op === 'between') return { name: op, type: `[${scalar}]` };
            if (op === 'not') return { name: op, type: naming.scalarFilterName(scalar) };
            if (op === 'null' || op === 'notNull') return { name: op, type: 'Boolean' };
            return { name: op, type: scalar };
          }),
        ),
      ),
    );
  }

  /** Compatibility fields (SDL, for their `@deprecated` directives): `before` the first field, `after` it (or after all). */
  private withCompat(node: DefinitionNode, before: string[], after: string[], afterAll = false): DefinitionNode {
    if (!this.compat || (before.length === 0 && after.length === 0) || node.kind !== Kind.OBJECT_TYPE_DEFINITION) return node;
    const parsed = (lines: string[]) => fieldsOf(lines.join('\n'));
    const fields = node.fields ?? [];
    const at = afterAll ? fields.length : 1;
    return { ...node, fields: [...parsed(before), ...fields.slice(0, at), ...parsed(after), ...fields.slice(at)] };
  }

  private addComponent(component: ComponentMeta): void {
    this.addEnums(component);
    const name = naming.componentTypeName(component.uid);
    this.definitions.push(
      inputType(naming.filtersInputName(component), [...this.filterFields(component), ...this.logical(component)]),
      inputType(naming.inputName(component), [{ name: 'id', type: 'ID' }, ...this.inputFields(component)]),
      this.withCompat(objectType(name, [{ name: 'id', type: 'ID!' }, ...this.outputFields(component)]), [], this.entryAliases(name)),
    );
  }

  private entryAliases(name: string): string[] {
    return [`attributes: ${name}!${deprecated('Use root level fields instead')}`, `data: ${name}!${deprecated('Use root level fields instead')}`];
  }

  private addContentType(meta: ContentTypeMeta): void {
    this.addEnums(meta);
    this.addDynamicZones(meta);
    const type = naming.typeName(meta);
    const filters = naming.filtersInputName(meta);
    const localized = meta.localized === true;
    const ops = operationsOf(meta.uid);
    this.definitions.push(
      inputType(filters, [
        { name: 'documentId', type: 'IDFilterInput' },
        ...this.filterFields(meta),
        ...['createdAt', 'updatedAt', 'publishedAt'].map((name) => ({ name, type: 'DateTimeFilterInput' })),
        ...(localized ? [{ name: 'locale', type: 'StringFilterInput' }, { name: 'localizations', type: filters }] : []),
        ...this.logical(meta),
      ]),
      inputType(naming.inputName(meta), [...this.inputFields(meta), { name: 'publishedAt', type: 'DateTime' }, ...(localized || meta.fields.locale ? [] : [{ name: 'locale', type: 'String' }])]),
      this.withCompat(
        objectType(type, [
          { name: 'documentId', type: 'ID!' },
          ...this.outputFields(meta),
          ...['createdAt', 'updatedAt', 'publishedAt'].map((name) => ({ name, type: 'DateTime' })),
          ...(localized ? [{ name: 'locale', type: 'String' }, ...this.toMany('localizations', meta)] : []),
        ]),
        [`id: ID!${deprecated('Use `documentId` instead')}`],
        this.entryAliases(type),
      ),
      // The users-permissions plugin's user mutations answer `{ data }` (Strapi defines it here).
      ...(meta.uid === userUid ? [objectType(naming.entityResponseName(meta), [{ name: 'data', type: type }])] : []),
      this.withCompat(
        objectType(naming.entityResponseCollectionName(meta), [
          { name: 'nodes', type: `[${type}!]!` },
          { name: 'pageInfo', type: 'Pagination!' },
        ]),
        [],
        [`data: [${type}!]!${deprecated('Use `nodes` field instead')}`, `meta: ResponseCollectionMeta!${deprecated('Use the `pageInfo` field instead')}`],
        true,
      ),
      this.relationCollection(meta),
    );
    if (ops.queries) this.addQueries(meta);
    if (ops.mutations) this.addMutations(meta);
  }

  /** `XRelationResponseCollection { nodes }` (+ compat `data`); its compat field follows nodes. */
  private relationCollection(meta: ContentTypeMeta): DefinitionNode {
    const type = naming.typeName(meta);
    const node = objectType(naming.relationResponseCollectionName(meta), [{ name: 'nodes', type: `[${type}!]!` }]);
    return this.withCompat(node, [], [`data: [${type}!]!${deprecated('Use `nodes` field instead')}`]);
  }

  private queryArgs(meta: ContentTypeMeta): InputValueDefinitionNode[] {
    return [
      { name: 'status', type: 'PublicationStatus', defaultValue: 'PUBLISHED' },
      { name: 'hasPublishedVersion', type: 'Boolean' },
      { name: 'publicationFilter', type: 'PublicationFilter' },
    ].map(inputValue).concat(this.localeArg(meta));
  }

  private localeArg(meta: ContentTypeMeta): InputValueDefinitionNode[] {
    if (!meta.localized) return [];
    return [{ ...inputValue({ name: 'locale', type: 'I18NLocaleCode' }), description: { kind: Kind.STRING, value: 'The locale to use for the query', block: true } }];
  }

  private addQueries(meta: ContentTypeMeta): void {
    const type = naming.typeName(meta);
    const field = (name: string, typeRef: string, args: InputValueDefinitionNode[]): FieldDefinitionNode => ({ kind: Kind.FIELD_DEFINITION, name: { kind: Kind.NAME, value: name }, arguments: args, type: parseType(typeRef), directives: [] });
    if (meta.kind === 'singleType') {
      this.queries.push(field(naming.findOneQueryName(meta), type, this.queryArgs(meta)));
      return;
    }
    const list = [...this.listArgs(naming.filtersInputName(meta)).map(inputValue), ...this.queryArgs(meta)];
    this.queries.push(
      field(naming.findOneQueryName(meta), type, [inputValue({ name: 'documentId', type: 'ID!' }), ...this.queryArgs(meta)]),
      field(`${naming.findQueryName(meta)}_connection`, naming.entityResponseCollectionName(meta), list),
      field(naming.findQueryName(meta), `[${type}]!`, list),
    );
  }

  private addMutations(meta: ContentTypeMeta): void {
    const type = naming.typeName(meta);
    const field = (name: string, typeRef: string, args: InputValueDefinitionNode[]): FieldDefinitionNode => ({ kind: Kind.FIELD_DEFINITION, name: { kind: Kind.NAME, value: name }, arguments: args, type: parseType(typeRef), directives: [] });
    const documentId = meta.kind === 'collectionType' ? [inputValue({ name: 'documentId', type: 'ID!' })] : [];
    const status = inputValue({ name: 'status', type: 'PublicationStatus', defaultValue: 'PUBLISHED' });
    const data = inputValue({ name: 'data', type: `${naming.inputName(meta)}!` });
    const locale = this.localeArg(meta);
    if (meta.kind === 'collectionType') this.mutations.push(field(naming.createMutationName(meta), type, [status, data, ...locale]));
    this.mutations.push(
      field(naming.updateMutationName(meta), type, [...documentId, status, data, ...locale]),
      field(naming.deleteMutationName(meta), 'DeleteMutationResponse', [...documentId, ...locale]),
    );
  }

  private listArgs(filtersName: string): ArgSpec[] {
    return [
      { name: 'filters', type: filtersName },
      { name: 'pagination', type: 'PaginationArg', defaultValue: '{}' },
      { name: 'sort', type: '[String]', defaultValue: '[]' },
    ];
  }

  private logical(owner: Owner): ArgSpec[] {
    const self = naming.filtersInputName(owner);
    return [{ name: 'and', type: `[${self}]` }, { name: 'or', type: `[${self}]` }, { name: 'not', type: self }];
  }

  private fields(owner: Owner): FieldMeta[] {
    // Timestamps and a localized type's locale/localizations come last, added by the callers.
    const localized = naming.isContentType(owner) && owner.localized === true;
    return Object.values(owner.fields).filter((f) => !timestamps.has(f.name) && !(localized && (f.name === 'locale' || f.name === 'localizations')) && !(f.kind === 'relation' && f.unstored));
  }

  private target(uid: string): ContentTypeMeta | undefined {
    return this.types.find((meta) => meta.uid === uid);
  }

  private addEnums(owner: Owner): void {
    for (const field of this.fields(owner)) {
      if (field.kind === 'scalar' && field.type === 'enumeration' && field.enum && field.enum.length > 0) {
        this.definitions.push(enumType(naming.enumTypeName(owner, field.name), field.enum.map(naming.enumValueName)));
      }
    }
  }

  private addDynamicZones(meta: ContentTypeMeta): void {
    for (const field of this.fields(meta)) {
      if (field.kind !== 'dynamiczone') continue;
      const members = field.components.filter((uid) => this.registry.components.has(uid)).map(naming.componentTypeName);
      this.definitions.push(unionType(naming.dynamicZoneName(meta, field.name), [...members, 'Error']), scalarType(naming.dynamicZoneInputName(meta, field.name)));
    }
  }

  private scalarType(owner: Owner, field: Extract<FieldMeta, { kind: 'scalar' }>): string {
    return field.type === 'enumeration' && field.enum && field.enum.length > 0 ? naming.enumTypeName(owner, field.name) : graphqlScalarOf[field.type];
  }

  /** `tags_connection(…): TagRelationResponseCollection` and `tags(…): [Tag]!`; a single type's take no arguments. */
  private toMany(name: string, target: ContentTypeMeta): FieldSpec[] {
    const args = target.kind === 'collectionType' ? this.listArgs(naming.filtersInputName(target)) : [];
    return [
      { name: `${name}_connection`, type: naming.relationResponseCollectionName(target), args },
      { name, type: `[${naming.typeName(target)}]!`, args },
    ];
  }

  private outputFields(owner: Owner): FieldSpec[] {
    const out: FieldSpec[] = [];
    for (const field of this.fields(owner)) {
      if (field.private) continue;
      const bang = 'required' in field && field.required === true ? '!' : '';
      switch (field.kind) {
        case 'scalar':
          if (field.type !== 'password') out.push({ name: field.name, type: this.scalarType(owner, field) + bang });
          break;
        case 'relation':
        case 'media': {
          const target = this.target(field.kind === 'relation' ? field.target : fileUid);
          if (!target) break;
          const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
          if (toMany) out.push(...this.toMany(field.name, target));
          else out.push({ name: field.name, type: naming.typeName(target) });
          break;
        }
        case 'component': {
          const component = this.registry.components.get(field.component);
          if (!component) break;
          const name = naming.componentTypeName(component.uid);
          out.push(field.repeatable ? { name: field.name, type: `[${name}]${bang}`, args: this.listArgs(naming.filtersInputName(component)) } : { name: field.name, type: name + bang });
          break;
        }
        case 'dynamiczone':
          if (naming.isContentType(owner)) out.push({ name: field.name, type: `[${naming.dynamicZoneName(owner, field.name)}]${bang}` });
          break;
        case 'morph':
          if (field.relation === 'morphToOne') out.push({ name: field.name, type: 'GenericMorph' + bang });
          else if (field.relation === 'morphToMany') out.push({ name: field.name, type: `[GenericMorph]${bang}` });
          break;
      }
      if (owner.uid === fileUid && field.name === 'caption' && !('focalPoint' in owner.fields)) out.push({ name: 'focalPoint', type: 'JSON' });
      if (owner.uid === fileUid && field.name === 'provider_metadata') out.push({ name: 'related', type: '[GenericMorph]' });
    }
    return out;
  }

  /** Scalars, relations and components, private and password attributes left out. */
  private filterFields(owner: Owner): ArgSpec[] {
    const out: ArgSpec[] = [];
    for (const field of this.fields(owner)) {
      if (field.private || (field.kind === 'scalar' && field.type === 'password')) continue;
      if (field.kind === 'scalar') out.push({ name: field.name, type: naming.scalarFilterName(graphqlScalarOf[field.type]) });
      else if (field.kind === 'relation') {
        const target = this.target(field.target);
        if (target) out.push({ name: field.name, type: naming.filtersInputName(target) });
      } else if (field.kind === 'component') {
        const component = this.registry.components.get(field.component);
        if (component) out.push({ name: field.name, type: naming.filtersInputName(component) });
      }
      if (owner.uid === fileUid && field.name === 'caption' && !('focalPoint' in owner.fields)) out.push({ name: 'focalPoint', type: 'JSONFilterInput' });
    }
    return out;
  }

  private inputFields(owner: Owner): ArgSpec[] {
    const out: ArgSpec[] = [];
    for (const field of this.fields(owner)) {
      switch (field.kind) {
        case 'scalar':
          if (field.writable !== false) out.push({ name: field.name, type: this.scalarType(owner, field) });
          break;
        case 'relation':
        case 'media': {
          const target = this.target(field.kind === 'relation' ? field.target : fileUid);
          if (!target) break;
          const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
          out.push({ name: field.name, type: toMany ? '[ID]' : 'ID' });
          break;
        }
        case 'component': {
          const component = this.registry.components.get(field.component);
          if (!component) break;
          const name = naming.inputName(component);
          out.push({ name: field.name, type: field.repeatable ? `[${name}]` : name });
          break;
        }
        case 'dynamiczone':
          if (naming.isContentType(owner)) out.push({ name: field.name, type: `[${naming.dynamicZoneInputName(owner, field.name)}!]` });
          break;
      }
    }
    return out;
  }

  /** The upload, i18n and users-permissions plugins' own types, queries and mutations (Strapi 5's SDL). */
  private plugins(): void {
    const hasFile = this.target(fileUid) !== undefined;
    const hasUsers = this.target(userUid) !== undefined;
    const extra: string[] = [];
    const mutations: string[] = [];
    if (hasFile) {
      extra.push('input FileInfoInput {\n  name: String\n  alternativeText: String\n  caption: String\n}');
      mutations.push('updateUploadFile(id: ID!, info: FileInfoInput): UploadFile!', 'deleteUploadFile(id: ID!): UploadFile');
    }
    if (this.types.some((meta) => meta.localized)) extra.push('"""A string used to identify an i18n locale"""\nscalar I18NLocaleCode');
    if (hasUsers) {
      extra.push(usersPermissionsTypes);
      mutations.push(usersPermissionsMutations);
    }
    extra.push('input PaginationArg {\n  page: Int\n  pageSize: Int\n  start: Int\n  limit: Int\n}');
    this.definitions.push(...extra.flatMap((sdl) => parse(sdl).definitions));
    if (hasUsers) this.queries.push(...fieldsOf('me: UsersPermissionsMe'));
    this.mutations.push(...fieldsOf(mutations.join('\n')));
  }
}

function fieldsOf(lines: string): FieldDefinitionNode[] {
  if (!lines.trim()) return [];
  const [type] = parse(`type T {\n${lines}\n}`).definitions;
  return type?.kind === Kind.OBJECT_TYPE_DEFINITION ? [...(type.fields ?? [])] : [];
}

const usersPermissionsTypes = `
type UsersPermissionsMe {
  id: ID!
  documentId: ID!
  username: String!
  email: String
  confirmed: Boolean
  blocked: Boolean
  role: UsersPermissionsMeRole
}

type UsersPermissionsMeRole {
  id: ID!
  name: String!
  description: String
  type: String
}

input UsersPermissionsRegisterInput {
  username: String!
  email: String!
  password: String!
}

input UsersPermissionsLoginInput {
  identifier: String!
  password: String!
  provider: String! = "local"
}

type UsersPermissionsPasswordPayload {
  ok: Boolean!
}

type UsersPermissionsLoginPayload {
  jwt: String
  user: UsersPermissionsMe!
}

type UsersPermissionsCreateRolePayload {
  ok: Boolean!
}

type UsersPermissionsUpdateRolePayload {
  ok: Boolean!
}

type UsersPermissionsDeleteRolePayload {
  ok: Boolean!
}
`;

// Descriptions: Strapi's own, typos included.
const usersPermissionsMutations = `
"""Create a new role"""
createUsersPermissionsRole(data: UsersPermissionsRoleInput!): UsersPermissionsCreateRolePayload
"""Update an existing role"""
updateUsersPermissionsRole(id: ID!, data: UsersPermissionsRoleInput!): UsersPermissionsUpdateRolePayload
"""Delete an existing role"""
deleteUsersPermissionsRole(id: ID!): UsersPermissionsDeleteRolePayload
"""Create a new user"""
createUsersPermissionsUser(data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!
"""Update an existing user"""
updateUsersPermissionsUser(id: ID!, data: UsersPermissionsUserInput!): UsersPermissionsUserEntityResponse!
"""Delete an existing user"""
deleteUsersPermissionsUser(id: ID!): UsersPermissionsUserEntityResponse!
login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!
"""Register a user"""
register(input: UsersPermissionsRegisterInput!): UsersPermissionsLoginPayload!
"""Request a reset password token"""
forgotPassword(email: String!): UsersPermissionsPasswordPayload
"""Reset user password. Confirm with a code (resetToken from forgotPassword)"""
resetPassword(password: String!, passwordConfirmation: String!, code: String!): UsersPermissionsLoginPayload
"""Change user password. Confirm with the current password."""
changePassword(currentPassword: String!, password: String!, passwordConfirmation: String!): UsersPermissionsLoginPayload
"""Confirm an email users email address"""
emailConfirmation(confirmation: String!): UsersPermissionsLoginPayload`;
