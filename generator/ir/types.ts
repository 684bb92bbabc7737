/**
 * The one intermediate representation every emitter reads. Built once by `buildIr` from
 * validated models; never mutated afterwards (ReadonlyDeep by convention: all members readonly).
 */
import type { Provider } from './scalars.js';
import type { I18nSettings } from './i18n.js';
import type { ProjectPlugins } from './project-plugins.js';
import type { ProjectConfig } from '../load/project-config.js';
import type { ProjectCode } from '../load/project-code.js';
import type { DatabaseNameReport } from './identifiers.js';
import type { ScalarType, RelationKind } from '../../templates/runtime/meta.js';

export type { ScalarType, RelationKind, Provider };

interface AttributeBase {
  /** Attribute name as written in schema.json (camelCase by convention). */
  readonly name: string;
  /** Position in the model file: emitters keep declared order. */
  readonly index: number;
  readonly private: boolean;
  readonly required: boolean;
  /** Left out of the GraphQL schema (its Strapi GraphQL name cannot be given: graphql-exclusions.ts); REST serves it. */
  readonly graphql?: false;
}

export interface ScalarAttribute extends AttributeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** Database column (snake_case, like Strapi). */
  readonly column: string;
  /** The Prisma field when the name is not one Prisma can spell (`año` → `a_xf1_o`: names.ts prismaFieldNames); else the name. */
  readonly prismaField?: string;
  readonly unique: boolean;
  readonly writable: boolean;
  /** True for id, createdAt, updatedAt, publishedAt: added by contentgen, not the model. */
  readonly builtIn: boolean;
  readonly default?: unknown;
  readonly min?: number | string;
  readonly max?: number | string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly targetField?: string;
  /** A `blocks` attribute (Strapi's rich-text blocks): JSON holding an array of block nodes. */
  readonly blocks?: true;
  /** A `customField` attribute: the custom field's uid (`plugin::color-picker.color`); `type` is the type it stores. */
  readonly customField?: string;
}

/**
 * Where a relation (or media field) is stored: a link table owned by one side. Both sides of
 * a two-way relation read the same table; `ownerColumn` always points at the entry that
 * declares this attribute and `orderColumn` orders its targets.
 */
export interface LinkStorage {
  readonly table: string;
  /** Prisma model of the link table. */
  readonly model: string;
  /** Column holding the id of the entry this attribute belongs to. */
  readonly ownerColumn: string;
  /** Column holding the id of the related entry. */
  readonly targetColumn: string;
  /** Position of the target in this entry's list (to-many), or null. */
  readonly orderColumn: string;
  /** Position of this entry in the target's list, for the other side's to-many. */
  readonly inverseOrderColumn: string;
  /** True when this attribute's model declares the link table (not a mappedBy side). */
  readonly owning: boolean;
}

export interface RelationAttribute extends AttributeBase {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  readonly target: string;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
  /** True for oneToMany and manyToMany. */
  readonly toMany: boolean;
  /**
   * Absent inside components, whose relations are stored as ids in the component's JSON,
   * and for a relation Strapi keeps no storage for (`unstored`).
   */
  readonly link?: LinkStorage;
  /**
   * A content type's relation that Strapi's database layer gives no storage: a mappedBy side
   * no relation is inversedBy (relations.ts). It reads empty and writes to it are ignored.
   */
  readonly unstored?: true;
}

/** Strapi v4's polymorphic relation kinds. */
export type MorphKind = 'morphToOne' | 'morphToMany' | 'morphOne' | 'morphMany';

/**
 * A morphToMany's links, as Strapi names them: `<table>_<attr>_morphs (id, <singular>_id,
 * <attr>_id, <attr>_type, field, order)`. `<attr>_type` holds the linked entry's uid; `field`
 * is set by the morphOne/morphMany side that wrote the row (null when written from here).
 */
export interface MorphTableStorage {
  readonly table: string;
  /** Prisma model of the table. */
  readonly model: string;
  /** `<singular>_id`: the entry declaring the morphToMany (foreign key, cascades). */
  readonly ownerColumn: string;
  /** `<attr>_id`: the linked entry's id (no foreign key: it may be of any type). */
  readonly idColumn: string;
  /** `<attr>_type`: the linked entry's content-type uid. */
  readonly typeColumn: string;
}

/**
 * A polymorphic relation (Strapi v4 metadata/relations): morphToOne and morphToMany link
 * entries of any content type; morphOne/morphMany read, from the `target` type's morphTo
 * attribute `morphBy`, the links that point at this entry and that this field wrote.
 */
export interface MorphAttribute extends AttributeBase {
  readonly kind: 'morph';
  readonly relation: MorphKind;
  /** morphToMany and morphMany. */
  readonly toMany: boolean;
  /** morphOne/morphMany: the content type holding the morphTo attribute. */
  readonly target?: string;
  readonly morphBy?: string;
  /** morphToOne: the columns of the type's own table (`target_id`, `target_type`). */
  readonly columns?: { readonly id: string; readonly type: string };
  /** morphToMany: its morph table. */
  readonly table?: MorphTableStorage;
}

export interface MediaAttribute extends AttributeBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[];
  /** Absent inside components, whose media are stored as file ids in the component's JSON. */
  readonly link?: LinkStorage;
}

export interface ComponentAttribute extends AttributeBase {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  /** JSON column holding the component value (an object, or an array when repeatable). */
  readonly column: string;
  /** The Prisma field when the name is not one Prisma can spell (names.ts prismaFieldNames); else the name. */
  readonly prismaField?: string;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  /** JSON column holding the array of `{ __component, ...fields }` items. */
  readonly column: string;
  /** The Prisma field when the name is not one Prisma can spell (names.ts prismaFieldNames); else the name. */
  readonly prismaField?: string;
  readonly min?: number;
  readonly max?: number;
}

export type Attribute =
  | ScalarAttribute
  | RelationAttribute
  | MorphAttribute
  | MediaAttribute
  | ComponentAttribute
  | DynamicZoneAttribute;

/** Every spelling of a content type's name, derived once in names.ts. */
export interface ContentTypeNames {
  /** info.singularName, kebab-case: `blog-post`. */
  readonly singular: string;
  /** info.pluralName, kebab-case: `blog-posts`. */
  readonly plural: string;
  /** File stem of emitted per-type files: the singular name. */
  readonly file: string;
  /** PascalCase singular: `BlogPost`: stem of the TS types `BlogPostEntry`, `BlogPostInput`… */
  readonly pascal: string;
  /**
   * TS value identifier of the type's metadata constant: camelCase singular (`blogPost`),
   * never a reserved word, distinct from every other emitted value (`<camel>Routes`,
   * `<camel>Api` included).
   */
  readonly camel: string;
  /** Prisma model name: `BlogPost`, distinct from every other model and from Prisma's own names. */
  readonly model: string;
  /** Prisma client property of the model: `blogPost`. */
  readonly delegate: string;
  /** Database table: collectionName. */
  readonly table: string;
  /** REST base path under /api: plural for collections, singular for single types. */
  readonly route: string;
}

export interface ContentType {
  readonly uid: string;
  /** The plugin that brings this type (`users-permissions`, `upload`); absent for the user's own. */
  readonly plugin?: string;
  readonly kind: 'collectionType' | 'singleType';
  /** Path of the schema file, relative to the models folder. */
  readonly file: string;
  readonly displayName: string;
  readonly description: string;
  readonly names: ContentTypeNames;
  readonly draftAndPublish: boolean;
  readonly populateCreatorFields: boolean;
  /** id, the model's attributes in declared order, then createdAt, updatedAt, publishedAt (then localizations, locale). */
  readonly attributes: readonly Attribute[];
  /** `pluginOptions.i18n.localized`: a row per locale, `locale` and `localizations` attributes (ir/i18n.ts). */
  readonly localized?: true;
  /** Of a localized type: the attributes its localizations share, kept equal across them. */
  readonly sharedAttributes?: readonly string[];
  /** Left out of the GraphQL schema (graphql-exclusions.ts); REST serves it. */
  readonly graphql?: false;
}

export interface ComponentNames {
  /** `shared.seo` → `shared.seo` (file stem of emitted files). */
  readonly file: string;
  /** `ComponentSharedSeo`: GraphQL type name (Strapi's globalId). */
  readonly pascal: string;
  readonly table: string;
  /** `shared.rich-text` → `sharedRichText`: TS value identifier of the metadata constant. */
  readonly ident: string;
  /** `SharedRichTextComponent`: TS type of an instance as the REST API returns it. */
  readonly type: string;
  /** `SharedRichTextComponentInput`: TS type of an instance in a write. */
  readonly input: string;
}

export interface Component {
  /** `<category>.<name>` */
  readonly uid: string;
  readonly category: string;
  readonly file: string;
  readonly displayName: string;
  readonly names: ComponentNames;
  readonly attributes: readonly Attribute[];
  /** Left out of the GraphQL schema (graphql-exclusions.ts). */
  readonly graphql?: false;
}

/** Role type → granted action strings, as in permissions.json. Sorted. */
export type Permissions = Readonly<Record<string, readonly string[]>>;

/** Role type → the name and description permissions.json gives it (`{ name, description, actions }`). */
export type RoleNames = Readonly<Record<string, { readonly name?: string; readonly description?: string }>>;

export interface Schema {
  /** Sorted by uid. */
  readonly contentTypes: readonly ContentType[];
  /** Sorted by uid. */
  readonly components: readonly Component[];
  readonly permissions: Permissions;
  /** Absent or empty: every role is named after its type (catalog.ts roleIdentity). */
  readonly roleNames?: RoleNames;
  readonly provider: Provider;
  /** Custom route actions by content type uid (src/api/<name>.ts), in the policy table. */
  readonly customActions: Readonly<Record<string, readonly string[]>>;
  /** The i18n plugin's locales (locales.json, or English alone). */
  readonly i18n: I18nSettings;
  /** The Strapi plugins the project installs that shape the server (project-plugins.ts). */
  readonly plugins: ProjectPlugins;
  /**
   * A Strapi project's config/ evaluated (load/project-config.ts): `server`, `api`, `plugins`
   * (by plugin name, `{ enabled?, config? }`), `middlewares`, and which values the environment
   * gave. Absent for a models folder.
   */
  readonly projectConfig?: ProjectConfig;
  /** A Strapi project's own code under src/ (load/project-code.ts): what it customises. Absent for a models folder. */
  readonly projectCode?: ProjectCode;
  /** Table and column names the database cuts into one (errors) or that were shortened (warnings): identifiers.ts. */
  readonly databaseNames?: DatabaseNameReport;
}
