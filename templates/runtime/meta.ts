/**
 * The metadata contract between emitted per-type code and the runtime.
 *
 * Every content type and component in out/src/generated/ is described by one of these
 * declarative objects; the runtime (query parsing, SQL compilation, validation, response
 * shaping) reads them instead of re-deriving anything from the models at run time.
 */

/** Scalar attribute types, as spelled in Strapi v4 schema.json files. */
export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'enumeration'
  | 'email'
  | 'password'
  | 'uid'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'json'
  | 'array';

/** SQL dialects the runtime compiles to; they match Prisma's provider names. */
export type Dialect = 'sqlite' | 'postgresql' | 'mysql';

/** A scalar attribute (or a built-in column such as createdAt) stored in one column. */
export interface ScalarFieldMeta {
  readonly kind: 'scalar';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  readonly type: ScalarType;
  /** Database column name (snake_case of the attribute name, like Strapi). */
  readonly column: string;
  /** Prisma model field name (the attribute name). */
  readonly prismaField: string;
  readonly required?: boolean;
  readonly unique?: boolean;
  /** Never returned; 400 in filters, sort and fields. Still writable. */
  readonly private?: boolean;
  /** False for id and the timestamps: silently dropped from write input. */
  readonly writable?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** Numbers for integer/float/decimal; strings for biginteger (exact). */
  readonly min?: number | string;
  readonly max?: number | string;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly default?: unknown;
  readonly targetField?: string;
  /**
   * A `blocks` attribute (Strapi's rich-text blocks, type `json` here): stored and served as
   * JSON, validated as a list of block nodes (entity/blocks.ts).
   */
  readonly blocks?: true;
}

/** Relation kinds of Strapi v4. */
export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';

/**
 * A link table row joins an entry (`ownerColumn`) to a related entry (`targetColumn`).
 * `orderColumn` keeps the order of targets in the entry's list; `inverseOrderColumn` the
 * order of entries in the target's list (the other side of a two-way relation).
 */
export interface LinkMeta {
  readonly table: string;
  /** Prisma client property of the link model, for writes. */
  readonly delegate: string;
  readonly ownerColumn: string;
  readonly targetColumn: string;
  readonly orderColumn: string;
  readonly inverseOrderColumn: string;
  /**
   * A target may be linked to one entry only (two-way oneToOne and oneToMany, as Strapi
   * keeps them): linking it here moves it away from the entry that had it. A one-way
   * oneToMany's target may be in several entries' lists, as in Strapi.
   */
  readonly targetExclusive: boolean;
}

export interface RelationFieldMeta {
  readonly kind: 'relation';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  readonly relation: RelationKind;
  /** Target content-type uid, e.g. `api::author.author`. */
  readonly target: string;
  readonly toMany: boolean;
  /** Absent inside components: their relations are ids in the component's JSON. */
  readonly link?: LinkMeta;
  /**
   * A content type's relation with no storage, as in Strapi: the creator fields
   * (`createdBy`/`updatedBy` with populateCreatorFields; admin users are not served) and a
   * mappedBy side nothing is inversedBy. It populates as `{ data: null }` or `{ data: [] }`
   * and writes to it are ignored. Its target may be absent from the registry (`admin::user`).
   */
  readonly unstored?: true;
  readonly private?: boolean;
}

/** Strapi v4's polymorphic relation kinds. */
export type MorphKind = 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/**
 * A polymorphic relation (entity/morph.ts). morphToOne keeps `{type uid, id}` in two columns
 * of the type's table; morphToMany keeps ordered `{type uid, id}` rows in its morph table;
 * morphOne/morphMany read, from their `target` type's morphTo field `morphBy`, the rows that
 * point at this entry and carry this field's name.
 */
export interface MorphFieldMeta {
  readonly kind: 'morph';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  readonly relation: MorphKind;
  readonly toMany: boolean;
  readonly target?: string;
  readonly morphBy?: string;
  /** morphToOne: the owner table's columns. */
  readonly columns?: { readonly id: string; readonly type: string };
  /** morphToMany: `<table>_<attr>_morphs`. */
  readonly morphTable?: {
    readonly table: string;
    readonly ownerColumn: string;
    readonly idColumn: string;
    readonly typeColumn: string;
  };
  readonly required?: boolean;
  readonly private?: boolean;
}

export interface MediaFieldMeta {
  readonly kind: 'media';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[];
  /** Absent inside components: their media are file ids in the component's JSON. */
  readonly link?: LinkMeta;
  readonly private?: boolean;
}

export interface ComponentFieldMeta {
  readonly kind: 'component';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  /** Component uid, e.g. `shared.seo`. */
  readonly component: string;
  readonly repeatable: boolean;
  /** JSON column (in a content type) or JSON key (in a component) holding the value. */
  readonly column: string;
  /** A content type's Prisma field when the name is not one Prisma can spell (`reseña` → `rese_xf1_a`); else the name. */
  readonly prismaField?: string;
  readonly required?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly private?: boolean;
}

export interface DynamicZoneFieldMeta {
  readonly kind: 'dynamiczone';
  readonly name: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given); REST serves it. */
  readonly graphql?: false;
  readonly components: readonly string[];
  /** JSON column holding the array of `{ __component, ...fields }` items. */
  readonly column: string;
  /** The Prisma field when the name is not one Prisma can spell (`sección` → `secci_xf3_n`); else the name. */
  readonly prismaField?: string;
  readonly required?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly private?: boolean;
}

export type FieldMeta =
  | ScalarFieldMeta
  | RelationFieldMeta
  | MorphFieldMeta
  | MediaFieldMeta
  | ComponentFieldMeta
  | DynamicZoneFieldMeta;

export interface ContentTypeMeta {
  /** `api::<api>.<name>`, or `plugin::<plugin>.<name>` for plugin types. */
  readonly uid: string;
  /** The plugin that brings this type; absent for the user's own types. */
  readonly plugin?: string;
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  /** Database table (the model's collectionName). */
  readonly table: string;
  /** Property of the Prisma client that holds this model's delegate, e.g. `article`. */
  readonly delegate: string;
  readonly draftAndPublish: boolean;
  readonly populateCreatorFields: boolean;
  /**
   * Localized (i18n): an entry per locale, with `locale` and `localizations` fields
   * (i18n/service.ts); `sharedAttributes` are kept equal across an entry's localizations.
   */
  readonly localized?: boolean;
  readonly sharedAttributes?: readonly string[];
  /** Left out of the GraphQL schema (its Strapi GraphQL names clash); REST serves it. */
  readonly graphql?: false;
  /**
   * Every field in declaration order: `id` first, then the model's attributes, then
   * createdAt, updatedAt and (with draft & publish) publishedAt (then localizations, locale).
   */
  readonly fields: Readonly<Record<string, FieldMeta>>;
  /**
   * Emitted code converting a row of the type's default select to its REST attributes
   * (rest/transform.ts); absent: the runtime converts attribute by attribute from `fields`.
   */
  readonly rows?: RowConverter;
}

/**
 * A content type's default attributes from a database row keyed by attribute name, written
 * out per type by the generator: one object literal, each attribute's value converted by the
 * function of its scalar type (rest/response-values.ts), no lookup per attribute and value.
 */
export interface RowConverter {
  /** The names it converts, `id` first: the type's default selection (query/fields.ts). */
  readonly fields: readonly string[];
  /** `attributes` of the entry, in `fields` order (without `id`). */
  readonly attributes: (row: Record<string, unknown>) => Record<string, unknown>;
}

export interface ComponentMeta {
  /** `<category>.<name>` */
  readonly uid: string;
  /** Left out of the GraphQL schema (its Strapi GraphQL names clash). */
  readonly graphql?: false;
  /** Every field in declaration order, `id` first. */
  readonly fields: Readonly<Record<string, FieldMeta>>;
}

/** Every content type and component of a server, by uid: what populate and filters walk. */
export interface Registry {
  readonly contentTypes: ReadonlyMap<string, ContentTypeMeta>;
  readonly components: ReadonlyMap<string, ComponentMeta>;
  /** In the GraphQL view of a registry (graphql/exclusions.ts): the uids and `uid.field`s it left out. */
  readonly graphqlLeftOut?: ReadonlySet<string>;
  /** The i18n plugin's locales (locales.json); absent: English alone, as a fresh Strapi. */
  readonly i18n?: I18nSettings;
}

/** The locales entries may be written in, and the one lists default to. */
export interface I18nSettings {
  readonly defaultLocale: string;
  readonly locales: readonly { readonly code: string; readonly name: string }[];
}

/** Field types that `fields=` may select and that are returned by default. */
/**
 * The components in Strapi 5's `Object.keys(strapi.components)` order: by uid, last first (both
 * Strapi 5.54.0 recordings list them so: GraphQL definitions, `GenericMorph`, a zone's
 * `__component must be one of …`).
 */
/** The column of an entry's Strapi 5 documentId (docs/strapi5.md "Identity"). */
export const documentIdColumn = 'document_id';

export function componentsInStrapi5Order(registry: Registry): ComponentMeta[] {
  return [...registry.components.values()].sort((a, b) => (a.uid < b.uid ? 1 : a.uid > b.uid ? -1 : 0));
}

export function isSelectableScalar(field: FieldMeta): field is ScalarFieldMeta {
  return field.kind === 'scalar' && field.type !== 'password' && !field.private;
}

/** The Prisma field of a content type's column-stored field (scalar, component, dynamic zone): its name unless Prisma cannot spell it. */
export function prismaFieldOf(field: FieldMeta): string {
  return 'prismaField' in field && field.prismaField !== undefined ? field.prismaField : field.name;
}
