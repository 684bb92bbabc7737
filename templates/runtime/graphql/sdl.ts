/**
 * The Shadow CRUD type definitions (Strapi v4 §8): for each enabled content type `X` the
 * types `X`, `XEntity`, `XEntityResponse`, `XEntityResponseCollection`,
 * `XRelationResponseCollection`, `XFiltersInput`, `XInput`, its enums and dynamic-zone
 * unions, its queries and mutations; for each component its type, input and filters; and
 * the shared internals (scalars, pagination, publication state, scalar filter inputs).
 *
 * Built from the runtime metadata and the extension service's settings, as a DocumentNode.
 * Unused definitions are left in: the schema builder prunes what nothing reaches, as
 * Strapi does.
 */
import type { DefinitionNode, DocumentNode } from 'graphql';
import type { ComponentMeta, ContentTypeMeta, FieldMeta, Registry, ScalarType } from '../meta.js';
import { document, enumType, inputType, objectType, scalarType, unionType, type ArgSpec, type FieldSpec } from './ast.js';
import type { ShadowCrudConfigurator } from './extension.js';
import * as naming from './naming.js';

export const fileUid = 'plugin::upload.file';

/** The union of `UploadFile.related`. */
export const morphUnionName = 'GenericMorph';

/** Whether a content type has a morphToOne/morphToMany field (typed with GenericMorph). */
export function hasMorphToField(registry: Registry): boolean {
  for (const meta of registry.contentTypes.values()) {
    for (const field of Object.values(meta.fields)) if (field.kind === 'morph' && (field.relation === 'morphToOne' || field.relation === 'morphToMany')) return true;
  }
  return false;
}

/** Plugin types in the order Strapi registers them (GenericMorph's members). */
const pluginOrder = [
  'plugin::upload.file',
  'plugin::upload.folder',
  'plugin::i18n.locale',
  'plugin::users-permissions.permission',
  'plugin::users-permissions.role',
  'plugin::users-permissions.user',
];

/**
 * Private attributes Strapi's schema lists in a filters input that contentgen keeps there
 * too, so documents written against Strapi's schema still validate; a filter that uses one
 * is refused when it runs, like any private attribute (`Invalid parameter folderPath`).
 */
const listedPrivateFilters: ReadonlySet<string> = new Set([`${fileUid}.folder`, `${fileUid}.folderPath`]);

/** GraphQL scalar of each attribute type (Strapi's `strapiScalarToGraphQLScalar`). */
export const graphqlScalarOf: Readonly<Record<ScalarType, string>> = {
  string: 'String',
  text: 'String',
  richtext: 'String',
  enumeration: 'String',
  email: 'String',
  password: 'String',
  uid: 'String',
  date: 'Date',
  time: 'Time',
  datetime: 'DateTime',
  timestamp: 'DateTime',
  integer: 'Int',
  biginteger: 'Long',
  float: 'Float',
  decimal: 'Float',
  boolean: 'Boolean',
  json: 'JSON',
  array: 'JSON',
};

/** Scalars that get a `<Scalar>FilterInput`, in Strapi's order. */
export const filterScalars = ['ID', 'Boolean', 'String', 'Int', 'Long', 'Float', 'Date', 'Time', 'DateTime', 'JSON'] as const;

/** Members of every scalar filter input, in Strapi's order; T is the scalar. */
export const scalarFilterOperators = [
  'and', 'or', 'not', 'eq', 'eqi', 'ne', 'nei', 'startsWith', 'endsWith', 'contains', 'notContains',
  'containsi', 'notContainsi', 'gt', 'gte', 'lt', 'lte', 'null', 'notNull', 'in', 'notIn', 'between',
] as const;

/** The custom scalars and their descriptions (those of the implementations Strapi uses). */
export const customScalars: Readonly<Record<string, string>> = {
  JSON: 'The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  DateTime: 'A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  Date: 'A date string, such as 2007-12-03, compliant with the `full-date` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.',
  Time: 'A time string with format HH:mm:ss.SSS',
  Long: 'A 64-bit integer: a JSON number when JavaScript holds it exactly, else a string of its digits.',
  Upload: 'The `Upload` scalar type represents a file upload.',
};

export interface ShadowCrudSettings {
  /** The extension service's settings of a uid (read only). */
  settings(uid: string): ShadowCrudConfigurator;
}

/** Arguments of every list of entries or repeatable components. */
function listArgs(filtersName: string, draftAndPublish: boolean): ArgSpec[] {
  return [
    { name: 'filters', type: filtersName },
    { name: 'pagination', type: 'PaginationArg', defaultValue: '{}' },
    { name: 'sort', type: '[String]', defaultValue: '[]' },
    ...(draftAndPublish ? [{ name: 'publicationState', type: 'PublicationState', defaultValue: 'LIVE' }] : []),
  ];
}

/** The definitions every schema has (pruned when unused). */
export function internalDefinitions(): DefinitionNode[] {
  return [
    ...Object.entries(customScalars).map(([name, description]) => scalarType(name, description)),
    objectType('Pagination', [
      { name: 'total', type: 'Int!' },
      { name: 'page', type: 'Int!' },
      { name: 'pageSize', type: 'Int!' },
      { name: 'pageCount', type: 'Int!' },
    ]),
    objectType('ResponseCollectionMeta', [{ name: 'pagination', type: 'Pagination!' }]),
    inputType('PaginationArg', ['page', 'pageSize', 'start', 'limit'].map((name) => ({ name, type: 'Int' }))),
    enumType('PublicationState', ['LIVE', 'PREVIEW']),
    objectType('Error', [
      { name: 'code', type: 'String!' },
      { name: 'message', type: 'String' },
    ]),
    ...filterScalars.map((scalar) =>
      inputType(
        naming.scalarFilterName(scalar),
        scalarFilterOperators.map((op): ArgSpec => {
          switch (op) {
            case 'and':
            case 'or':
            case 'in':
            case 'notIn':
            case 'between':
              return { name: op, type: `[${scalar}]` };
            case 'not':
              return { name: op, type: naming.scalarFilterName(scalar) };
            case 'null':
            case 'notNull':
              return { name: op, type: 'Boolean' };
            default:
              return { name: op, type: scalar };
          }
        }),
      ),
    ),
  ];
}

type Owner = ContentTypeMeta | ComponentMeta;

/** Builds the Shadow CRUD document for every enabled type and component. */
export function buildShadowCrudDocument(registry: Registry, shadow: ShadowCrudSettings): DocumentNode {
  return new ShadowCrudBuilder(registry, shadow).build();
}

class ShadowCrudBuilder {
  private readonly definitions: DefinitionNode[] = internalDefinitions();
  private readonly queries: FieldSpec[] = [];
  private readonly mutations: FieldSpec[] = [];

  constructor(
    private readonly registry: Registry,
    private readonly shadow: ShadowCrudSettings,
  ) {}

  build(): DocumentNode {
    for (const component of this.registry.components.values()) {
      if (this.enabled(component.uid)) this.addComponent(component);
    }
    for (const meta of this.registry.contentTypes.values()) {
      if (this.enabled(meta.uid)) this.addContentType(meta);
    }
    // An empty Query or Mutation is not valid GraphQL: they exist when they have fields
    // (schema.ts turns an extension's `extend type Query` into the type when there is none).
    const morphs = this.morphMembers();
    if (morphs.length > 0) this.definitions.push(unionType(morphUnionName, morphs));
    if (this.queries.length > 0) this.definitions.push(objectType('Query', this.queries));
    if (this.mutations.length > 0) this.definitions.push(objectType('Mutation', this.mutations));
    return document(this.definitions);
  }

  /**
   * `GenericMorph`: every object type with an entity, as Strapi's upload plugin declares it
   * for `UploadFile.related` — components, then the plugins' types, then the API's.
   */
  private morphMembers(): string[] {
    if (!this.target(fileUid) && !hasMorphToField(this.registry)) return [];
    const components = [...this.registry.components.values()].filter((c) => this.enabled(c.uid)).map((c) => naming.componentTypeName(c.uid));
    const types = [...this.registry.contentTypes.values()].filter((meta) => this.enabled(meta.uid));
    const rank = (uid: string) => (pluginOrder.includes(uid) ? pluginOrder.indexOf(uid) : uid.startsWith('plugin::') ? pluginOrder.length : pluginOrder.length + 1);
    const ordered = types.map((meta, i) => ({ meta, i })).sort((a, b) => rank(a.meta.uid) - rank(b.meta.uid) || a.i - b.i);
    return [...components, ...ordered.map(({ meta }) => naming.typeName(meta))];
  }

  private enabled(uid: string): boolean {
    return this.shadow.settings(uid).isEnabled();
  }

  private field(owner: Owner, name: string) {
    return this.shadow.settings(owner.uid).field(name);
  }

  private fields(owner: Owner): FieldMeta[] {
    return Object.values(owner.fields);
  }

  private addComponent(component: ComponentMeta): void {
    this.addEnums(component);
    const name = naming.componentTypeName(component.uid);
    const id = this.field(component, 'id');
    const outputs = [...(id.hasOutputEnabled() ? [{ name: 'id', type: 'ID!' }] : []), ...this.outputFields(component)];
    const inputs = [...(id.hasInputEnabled() ? [{ name: 'id', type: 'ID' }] : []), ...this.inputFields(component)];
    if (outputs.length === 0) throw new Error(`GraphQL: every field of component ${component.uid} is disabled; disable the component instead`);
    this.definitions.push(objectType(name, outputs), inputType(naming.filtersInputName(component), this.filterFields(component)));
    if (inputs.length > 0) this.definitions.push(inputType(naming.inputName(component), inputs));
  }

  private addContentType(meta: ContentTypeMeta): void {
    this.addEnums(meta);
    this.addDynamicZones(meta);
    const type = naming.typeName(meta);
    const entity = naming.entityName(meta);
    const outputs = this.outputFields(meta);
    if (outputs.length === 0) throw new Error(`GraphQL: every field of ${meta.uid} is disabled; disable the type instead`);
    this.definitions.push(
      objectType(type, outputs),
      objectType(entity, [
        { name: 'id', type: 'ID' },
        { name: 'attributes', type: type },
      ]),
      objectType(naming.entityResponseName(meta), [{ name: 'data', type: entity }]),
      objectType(naming.entityResponseCollectionName(meta), [
        { name: 'data', type: `[${entity}!]!` },
        { name: 'meta', type: 'ResponseCollectionMeta!' },
      ]),
      objectType(naming.relationResponseCollectionName(meta), [{ name: 'data', type: `[${entity}!]!` }]),
      inputType(naming.filtersInputName(meta), this.filterFields(meta)),
    );
    // A type with nothing to write has no input type, and so no create or update.
    const inputs = this.inputFields(meta);
    if (inputs.length > 0) this.definitions.push(inputType(naming.inputName(meta), inputs));
    this.addOperations(meta, inputs.length > 0);
  }

  private addOperations(meta: ContentTypeMeta, writable: boolean): void {
    const settings = this.shadow.settings(meta.uid);
    const response = naming.entityResponseName(meta);
    const input = naming.inputName(meta);
    const action = (name: 'find' | 'findOne' | 'create' | 'update' | 'delete') => settings.isActionEnabled(name);
    const publicationState = meta.draftAndPublish ? [{ name: 'publicationState', type: 'PublicationState', defaultValue: 'LIVE' }] : [];
    // The i18n plugin adds `locale` to every query and mutation of a localized type (graphql/i18n.ts).
    const locale = meta.localized ? [{ name: 'locale', type: 'I18NLocaleCode' }] : [];
    if (meta.kind === 'singleType') {
      if (settings.areQueriesEnabled() && action('find')) this.queries.push({ name: naming.findOneQueryName(meta), type: response, args: [...publicationState, ...locale] });
      if (settings.areMutationsEnabled()) {
        if (action('update') && writable) this.mutations.push({ name: naming.updateMutationName(meta), type: response, args: [{ name: 'data', type: `${input}!` }, ...locale] });
        if (action('delete')) this.mutations.push({ name: naming.deleteMutationName(meta), type: response, args: locale });
      }
      return;
    }
    if (settings.areQueriesEnabled()) {
      if (action('findOne')) this.queries.push({ name: naming.findOneQueryName(meta), type: response, args: [{ name: 'id', type: 'ID' }, ...locale] });
      if (action('find')) {
        this.queries.push({
          name: naming.findQueryName(meta),
          type: naming.entityResponseCollectionName(meta),
          args: [...listArgs(naming.filtersInputName(meta), meta.draftAndPublish), ...locale],
        });
      }
    }
    if (settings.areMutationsEnabled()) {
      if (action('create') && writable) this.mutations.push({ name: naming.createMutationName(meta), type: response, args: [{ name: 'data', type: `${input}!` }, ...locale] });
      if (action('update') && writable) {
        this.mutations.push({ name: naming.updateMutationName(meta), type: response, args: [{ name: 'id', type: 'ID!' }, { name: 'data', type: `${input}!` }, ...locale] });
      }
      if (action('delete')) this.mutations.push({ name: naming.deleteMutationName(meta), type: response, args: [{ name: 'id', type: 'ID!' }, ...locale] });
    }
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
      const members = field.components.filter((uid) => this.registry.components.has(uid) && this.enabled(uid)).map(naming.componentTypeName);
      this.definitions.push(unionType(naming.dynamicZoneName(meta, field.name), [...members, 'Error']), scalarType(naming.dynamicZoneInputName(meta, field.name)));
    }
  }

  /** A content type's target, if it exists and is enabled. */
  private target(uid: string): ContentTypeMeta | undefined {
    const target = this.registry.contentTypes.get(uid);
    return target && this.enabled(uid) ? target : undefined;
  }

  private component(uid: string): ComponentMeta | undefined {
    const component = this.registry.components.get(uid);
    return component && this.enabled(uid) ? component : undefined;
  }

  private scalarType(owner: Owner, field: Extract<FieldMeta, { kind: 'scalar' }>): string {
    return field.type === 'enumeration' && field.enum && field.enum.length > 0 ? naming.enumTypeName(owner, field.name) : graphqlScalarOf[field.type];
  }

  /** The fields of `X` (or a component type): visible attributes whose output is enabled. */
  private outputFields(owner: Owner): FieldSpec[] {
    const out: FieldSpec[] = [];
    for (const field of this.fields(owner)) {
      if (field.name === 'id' || field.private || !this.field(owner, field.name).hasOutputEnabled()) continue;
      const required = 'required' in field && field.required === true;
      const bang = required ? '!' : '';
      switch (field.kind) {
        case 'scalar':
          // A password is never returned: the field stays nullable.
          out.push({ name: field.name, type: this.scalarType(owner, field) + (field.type === 'password' ? '' : bang) });
          break;
        case 'relation':
        case 'media': {
          const target = this.target(field.kind === 'relation' ? field.target : fileUid);
          if (!target) break;
          const toMany = field.kind === 'relation' ? field.toMany : field.multiple;
          out.push(
            toMany
              ? { name: field.name, type: naming.relationResponseCollectionName(target) + bang, args: listArgs(naming.filtersInputName(target), target.draftAndPublish) }
              : { name: field.name, type: naming.entityResponseName(target) + bang },
          );
          break;
        }
        case 'component': {
          const component = this.component(field.component);
          if (!component) break;
          const name = naming.componentTypeName(component.uid);
          out.push(field.repeatable ? { name: field.name, type: `[${name}]${bang}`, args: listArgs(naming.filtersInputName(component), false) } : { name: field.name, type: name + bang });
          break;
        }
        case 'dynamiczone':
          if (naming.isContentType(owner)) out.push({ name: field.name, type: `[${naming.dynamicZoneName(owner, field.name)}]${bang}` });
          break;
        case 'morph':
          // Strapi types morphTo fields with the GenericMorph union and leaves morphOne/morphMany out.
          if (field.relation === 'morphToOne') out.push({ name: field.name, type: morphUnionName + bang });
          else if (field.relation === 'morphToMany') out.push({ name: field.name, type: `[${morphUnionName}]${bang}` });
          break;
      }
      // Strapi's file type has the morph relation `related` here, between its attributes.
      if (owner.uid === fileUid && field.name === 'provider_metadata') out.push({ name: 'related', type: `[${morphUnionName}]` });
    }
    return out;
  }

  /**
   * `XFiltersInput`: id (collection types), scalars, relations, components; then and/or/not.
   * Private and password attributes are left out: filtering on them is refused anyway (as in
   * REST), and the type would spell out their names. (Strapi's schema lists them, then refuses
   * them.) They stay in `XInput`: writable, as in REST and Strapi. The upload file's folder
   * attributes are the exception (listedPrivateFilters).
   */
  private filterFields(owner: Owner): ArgSpec[] {
    const out: ArgSpec[] = [];
    const isCollection = naming.isContentType(owner) && owner.kind === 'collectionType';
    if (isCollection && this.field(owner, 'id').hasFiltersEnabled()) out.push({ name: 'id', type: naming.scalarFilterName('ID') });
    for (const field of this.fields(owner)) {
      const hidden = (field.private && !listedPrivateFilters.has(`${owner.uid}.${field.name}`)) || (field.kind === 'scalar' && field.type === 'password');
      if (field.name === 'id' || hidden || !this.field(owner, field.name).hasFiltersEnabled()) continue;
      if (field.kind === 'scalar') out.push({ name: field.name, type: naming.scalarFilterName(graphqlScalarOf[field.type]) });
      else if (field.kind === 'relation') {
        const target = this.target(field.target);
        if (target) out.push({ name: field.name, type: naming.filtersInputName(target) });
      } else if (field.kind === 'component') {
        const component = this.component(field.component);
        if (component) out.push({ name: field.name, type: naming.filtersInputName(component) });
      }
    }
    const self = naming.filtersInputName(owner);
    out.push({ name: 'and', type: `[${self}]` }, { name: 'or', type: `[${self}]` }, { name: 'not', type: self });
    return out;
  }

  /** `XInput`: writable attributes whose input is enabled, all optional. */
  private inputFields(owner: Owner): ArgSpec[] {
    const out: ArgSpec[] = [];
    for (const field of this.fields(owner)) {
      if (field.name === 'id' || !this.field(owner, field.name).hasInputEnabled()) continue;
      switch (field.kind) {
        case 'scalar':
          if (field.writable === false) break;
          out.push({ name: field.name, type: this.scalarType(owner, field) });
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
          const component = this.component(field.component);
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
}
