/**
 * The one intermediate representation every emitter reads. Built once by `buildIr` from
 * validated models; never mutated afterwards (ReadonlyDeep by convention: all members readonly).
 */
import type { Provider } from './scalars.js';
import type { ScalarType, RelationKind } from '../../templates/runtime/meta.js';

export type { ScalarType, RelationKind, Provider };

interface AttributeBase {
  /** Attribute name as written in schema.json (camelCase by convention). */
  readonly name: string;
  /** Position in the model file: emitters keep declared order. */
  readonly index: number;
  readonly private: boolean;
  readonly required: boolean;
}

export interface ScalarAttribute extends AttributeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** Database column (snake_case, like Strapi). */
  readonly column: string;
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
}

export interface RelationAttribute extends AttributeBase {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  readonly target: string;
  readonly inversedBy?: string;
  readonly mappedBy?: string;
}

export interface MediaAttribute extends AttributeBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[];
}

export interface ComponentAttribute extends AttributeBase {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Attribute =
  | ScalarAttribute
  | RelationAttribute
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
  /** PascalCase singular: `BlogPost`. Also the Prisma model name and GraphQL type. */
  readonly pascal: string;
  /** camelCase singular: `blogPost`. Prisma client delegate and TS identifiers. */
  readonly camel: string;
  /** Database table: collectionName. */
  readonly table: string;
  /** REST base path under /api: plural for collections, singular for single types. */
  readonly route: string;
}

export interface ContentType {
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
  /** Path of the schema file, relative to the models folder. */
  readonly file: string;
  readonly displayName: string;
  readonly description: string;
  readonly names: ContentTypeNames;
  readonly draftAndPublish: boolean;
  readonly populateCreatorFields: boolean;
  /** id, the model's attributes in declared order, then createdAt, updatedAt, publishedAt. */
  readonly attributes: readonly Attribute[];
}

export interface ComponentNames {
  /** `shared.seo` → `shared.seo` (file stem of emitted files). */
  readonly file: string;
  /** `ComponentSharedSeo`: GraphQL type name (Strapi's globalId). */
  readonly pascal: string;
  readonly table: string;
}

export interface Component {
  /** `<category>.<name>` */
  readonly uid: string;
  readonly category: string;
  readonly file: string;
  readonly displayName: string;
  readonly names: ComponentNames;
  readonly attributes: readonly Attribute[];
}

/** Role type → granted action strings, as in permissions.json. Sorted. */
export type Permissions = Readonly<Record<string, readonly string[]>>;

export interface Schema {
  /** Sorted by uid. */
  readonly contentTypes: readonly ContentType[];
  /** Sorted by uid. */
  readonly components: readonly Component[];
  readonly permissions: Permissions;
  readonly provider: Provider;
}
