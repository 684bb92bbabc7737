/**
 * The client's types: what a query may say (`filters`, `sort`, `fields`, `populate`,
 * `pagination`) for one content type, checked against its model, and the type of the answer,
 * which follows the query: an attribute is in the result type only if `fields` selects it
 * (all scalars when `fields` is absent), and a relation, media field, component or dynamic
 * zone only if `populate` names it, with what its own sub-query populates inside.
 *
 * Every type is generic over a registry (`R`): the model of each content type and component,
 * by uid, which src/index.ts emits from the same IR as the server. Types only: nothing here
 * exists at run time.
 */

/** How a scalar attribute filters: which operators apply to it. */
export type ScalarGroup = 'string' | 'number' | 'date' | 'boolean' | 'json';

/** One content type or component, as src/index.ts describes it. */
export interface ModelShape {
  /** Its entry type as the REST API returns it (`<Type>Attributes`, `<Component>Component`). */
  readonly attributes: object;
  /** Each scalar the API returns → its filter group. */
  readonly scalars: { readonly [name: string]: ScalarGroup };
  /** Relations and media fields (media point at `plugin::upload.file`, marked `media`: an upload's `field`). */
  readonly relations: { readonly [name: string]: { readonly target: string; readonly many: boolean; readonly media?: true } };
  readonly components: { readonly [name: string]: { readonly component: string; readonly many: boolean } };
  /** Each dynamic zone → the union of its component uids. */
  readonly zones: { readonly [name: string]: string };
  /**
   * Polymorphic relations (only when the type has some): morphToOne/morphToMany link entries
   * of any type (no target); morphOne/morphMany answer like relations to their target.
   */
  readonly morphs?: { readonly [name: string]: { readonly many: boolean; readonly target?: string } };
  /** Localized (i18n) content types only: their queries take `locale`. */
  readonly localized?: true;
}

export type Registry = { readonly [uid: string]: ModelShape };

type Model<R extends Registry, U> = U extends keyof R ? R[U] : never;
type Keys<T> = Extract<keyof T, string>;

/** Flattens intersections so editors show one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

// ---------------------------------------------------------------------------------------------
// What a query may say

type Scalar<R extends Registry, U> = Keys<Model<R, U>['scalars']>;
type Relation<R extends Registry, U> = Keys<Model<R, U>['relations']>;
type ComponentField<R extends Registry, U> = Keys<Model<R, U>['components']>;
type Zone<R extends Registry, U> = Keys<Model<R, U>['zones']>;
type Morphs<R extends Registry, U> = NonNullable<Model<R, U>['morphs']>;
type MorphField<R extends Registry, U> = Keys<Morphs<R, U>>;
type Populatable<R extends Registry, U> = Relation<R, U> | ComponentField<R, U> | Zone<R, U> | MorphField<R, U>;

/**
 * A filter value of a scalar group: numbers as numbers or numeric strings (`'12'`, not `'abc'`),
 * dates as strings or `Date`s (serialised as ISO, as qs does), strings as `V`, the attribute's
 * own type (an enumeration's values).
 */
type ValueOf<G extends ScalarGroup, V = string> = G extends 'number'
  ? number | `${number}`
  : G extends 'boolean'
    ? boolean
    : G extends 'json'
      ? unknown
      : G extends 'date'
        ? string | Date
        : V;

interface EqualityOperators<V> {
  $eq?: V | null;
  $ne?: V | null;
  $in?: readonly V[];
  $notIn?: readonly V[];
  $null?: boolean;
  $notNull?: boolean;
}
interface OrderOperators<V> extends EqualityOperators<V> {
  $lt?: V;
  $lte?: V;
  $gt?: V;
  $gte?: V;
  $between?: readonly [V, V];
}
interface TextOperators<V> extends OrderOperators<V> {
  $eqi?: string;
  $nei?: string;
  $contains?: string;
  $notContains?: string;
  $containsi?: string;
  $notContainsi?: string;
  $startsWith?: string;
  $startsWithi?: string;
  $endsWith?: string;
  $endsWithi?: string;
}

/** Operators valid for a scalar group: text ones for strings only, order ones not for booleans. */
type OperatorsOf<G extends ScalarGroup, V> = G extends 'string'
  ? TextOperators<V>
  : G extends 'number' | 'date'
    ? OrderOperators<ValueOf<G>>
    : G extends 'boolean'
      ? EqualityOperators<boolean>
      : Pick<EqualityOperators<unknown>, '$null' | '$notNull'>;

/** A scalar's condition: a value (`$eq`), operators, or operators combined with `$and`/`$or`/`$not`. */
export type ScalarFilter<G extends ScalarGroup, V = string> =
  | ValueOf<G, V>
  | (OperatorsOf<G, V> & { $not?: ScalarFilter<G, V>; $and?: readonly ScalarFilter<G, V>[]; $or?: readonly ScalarFilter<G, V>[] });

/** A string attribute's own type (an enumeration's union of values), for its filter values. */
type StringValue<R extends Registry, U, K> = K extends keyof Model<R, U>['attributes'] ? Extract<NonNullable<Model<R, U>['attributes'][K]>, string> : string;

/**
 * `filters`: attributes that exist with operators valid for their type, recursively through
 * relations, media and components; `$and`, `$or`, `$not` at any level.
 */
export type Filters<R extends Registry, U> = { [K in Scalar<R, U>]?: ScalarFilter<Model<R, U>['scalars'][K], StringValue<R, U, K>> } & {
  id?: ScalarFilter<'number'>;
} & { [K in Relation<R, U>]?: Filters<R, Model<R, U>['relations'][K]['target']> } & {
  [K in ComponentField<R, U>]?: Filters<R, Model<R, U>['components'][K]['component']>;
} & { $and?: readonly Filters<R, U>[]; $or?: readonly Filters<R, U>[]; $not?: Filters<R, U> };

/** The scalars a query may sort by: not JSON ones (the server refuses them, 400). */
type Sortable<R extends Registry, U> = { [K in Scalar<R, U>]: Model<R, U>['scalars'][K] extends 'json' ? never : K }[Scalar<R, U>];
type SortName<R extends Registry, U> = Sortable<R, U> | 'id';
type SortDirection = 'asc' | 'desc' | 'ASC' | 'DESC';
type SortString<R extends Registry, U> = SortName<R, U> | `${SortName<R, U>}:${SortDirection}`;
type SortObject<R extends Registry, U> = { [K in SortName<R, U>]?: SortDirection } & {
  [K in Relation<R, U>]?: SortObject<R, Model<R, U>['relations'][K]['target']>;
};
/** `sort`: `'title'`, `'title:desc'`, `{ title: 'desc' }`, through relations `{ author: { name: 'asc' } }`, or a list of them. */
export type Sort<R extends Registry, U> = SortString<R, U> | SortObject<R, U> | readonly (SortString<R, U> | SortObject<R, U>)[];

/** `fields`: names of the scalars to return (`id` always is). */
export type Fields<R extends Registry, U> = Scalar<R, U> | 'id' | readonly (Scalar<R, U> | 'id')[];

/** What a populatable attribute leads to: its target, component, or a zone's components. */
type PopulateTarget<R extends Registry, U, K> = K extends Relation<R, U>
  ? Model<R, U>['relations'][K]['target']
  : K extends ComponentField<R, U>
    ? Model<R, U>['components'][K]['component']
    : K extends Zone<R, U>
      ? Model<R, U>['zones'][K]
      : never;
/**
 * A dotted populate path, each of its first three segments checked against the type it walks
 * (`'author.mentr'` is refused); deeper segments are not (the union would grow with each level).
 */
type PopulatePath<R extends Registry, U, D extends readonly unknown[] = []> = D['length'] extends 2
  ? Populatable<R, U> | `${Populatable<R, U>}.${string}`
  : { [K in Populatable<R, U>]: K | `${K}.${PopulateTarget<R, U, K> extends infer T ? (T extends string ? PopulatePath<R, T, [...D, 0]> : never) : never}` }[Populatable<R, U>];

/** What a relation or media field's populate may say about its target. */
export interface TargetQuery<R extends Registry, T> {
  fields?: Fields<R, T>;
  populate?: Populate<R, T>;
  filters?: Filters<R, T>;
  sort?: Sort<R, T>;
  publicationState?: 'live' | 'preview';
}
/** What a component's (or a zone fragment's) populate may say: `fields` narrows its scalars. */
export interface ComponentQuery<R extends Registry, C> {
  fields?: Fields<R, C>;
  populate?: Populate<R, C>;
  filters?: Filters<R, C>;
  sort?: Sort<R, C>;
}
/**
 * What a dynamic zone's populate may say: `populate` inside each of its components, or `on`,
 * per component; with `on`, the zone answers the components it names only.
 */
export interface ZoneQuery<R extends Registry, Cs extends string> {
  populate?: '*' | true;
  on?: { [C in Cs]?: true | ComponentQuery<R, C> };
}

type PopulateValue<R extends Registry, U, K> = boolean | '*' | (K extends Relation<R, U>
  ? TargetQuery<R, Model<R, U>['relations'][K]['target']>
  : K extends ComponentField<R, U>
    ? ComponentQuery<R, Model<R, U>['components'][K]['component']>
    : K extends Zone<R, U>
      ? ZoneQuery<R, Model<R, U>['zones'][K]>
      : K extends MorphField<R, U>
        ? true
        : never);

/**
 * `populate`: `'*'`, a name, a dotted path (`'author.avatar'`), a list of them, or an object
 * naming each relation, media field, component or zone with `true` or its own query.
 */
export type Populate<R extends Registry, U> =
  | '*'
  | true
  | PopulatePath<R, U>
  | readonly PopulatePath<R, U>[]
  | { [K in Populatable<R, U>]?: PopulateValue<R, U, K> };

export type Pagination = { page?: number; pageSize?: number; withCount?: boolean } | { start?: number; limit?: number; withCount?: boolean };

/** `locale` (a code, or `all`), on localized types only. */
type LocaleQuery<R extends Registry, U> = Model<R, U> extends { localized: true } ? { locale?: string } : {};

/** The query of a request that answers one entry (findOne, create, update, delete, single types). */
export type EntryQuery<R extends Registry, U> = {
  fields?: Fields<R, U>;
  /**
   * Relations, media, components and zones to answer. A relation whose target the caller may
   * not `find` (its role's permissions) is left out of the answer, as Strapi does, although
   * its type says it is there: populate what the caller may read.
   */
  populate?: Populate<R, U>;
  publicationState?: 'live' | 'preview';
} & LocaleQuery<R, U>;

/** The query of a collection's `find`. */
export type FindQuery<R extends Registry, U> = EntryQuery<R, U> & {
  filters?: Filters<R, U>;
  sort?: Sort<R, U>;
  pagination?: Pagination;
};

/**
 * What an unknown key of a query must be: an object type no value fits (a string value meets it
 * as `'x' & UnknownKey<…>`, which stays an object type rather than `never`), named by the
 * message the compiler then shows. Not a string literal: an editor would offer it as a
 * completion while the user types a name (issue 27 item 1).
 */
export type UnknownKey<Message extends string> = { [M in Message]: never };

/** One member of a union (its last, as TypeScript orders them: inferring from an intersection of functions takes the last). */
type LastOf<U> = ((U extends unknown ? (f: () => U) => void : never) extends (f: infer I) => void ? I : never) extends () => infer L ? L : never;
/** A union of strings as one string, `'a' | 'b'` → `'a | b'`; only for an error's message. */
type Join<U, Done extends string = ''> = [U] extends [never]
  ? Done
  : LastOf<U> extends infer L extends string
    ? Join<Exclude<U, L>, Done extends '' ? L : `${L} | ${Done}`>
    : Done;

/**
 * Forbids what the query type does not name. TypeScript checks a generic argument against
 * its constraint structurally, so unknown keys (an attribute that does not exist, a misspelt
 * operator) would pass; intersecting the argument with this type turns each of them into
 * `UnknownKey<…>`, which the call then rejects with the key and the keys that exist in the message.
 */
export type Exact<Q, S> = S extends Q ? unknown : ExactIn<Q, S>;
/*
 * `S extends Q`: the query type is assignable to the argument's type, so the argument says
 * nothing it does not name; above all, an editor completing inside the argument leaves `Q`
 * uninferred (its constraint, `S`), and `Q & ExactIn<Q, S>` would then cross a union's string
 * members with its object members ('author' & {…}), offering a string's methods (issue 27 item 4).
 * `S` distributes over its union members: an object argument is held against the plain object
 * ones only, and a `Date` (a date filter's value) is a value, not an object to walk: neither a
 * list's nor a `Date`'s keys (`length`, `getTime`…) are listed in a message, nor cost the
 * compiler the list (`npm run bench:client`).
 */
type ExactIn<Q, S> = Q extends readonly (infer E)[]
  ? S extends readonly (infer SE)[]
    ? readonly ExactIn<E, SE>[]
    : never
  : Q extends Date
    ? Q
    : Q extends object
      ? S extends readonly unknown[] | Date
        ? never
        : S extends object
          ? { [K in keyof Q]: K extends keyof S ? ExactIn<Q[K], NonNullable<S[K]>> : UnknownKey<`unknown key '${K & string}'; expected one of: ${Join<Keys<S>>}`> }
          : never
      : Q;

/**
 * The query a call's answer follows: `Q` as inferred from the argument, or `{}` when there is
 * none (`Q` is then its constraint `S`). The calls' `Q` has no default on purpose: an editor
 * completing inside the argument leaves it uninferred, and it is the constraint (the query
 * type), not `{}`, that must then give the argument its contextual type (issue 27 item 4).
 */
export type Given<Q, S> = S extends Q ? {} : Q;

// ---------------------------------------------------------------------------------------------
// What the answer holds

/** `populate` normalised to `{ name: its sub-query }`. */
type PopulateMap<R extends Registry, U, P> = [P] extends ['*'] | [true]
  ? { [K in Populatable<R, U>]: {} }
  : [P] extends [string]
    ? PathMap<P>
    : [P] extends [readonly (infer E extends string)[]]
      ? PathMap<E>
      : [P] extends [object]
        ? { [K in keyof P as P[K] extends false | undefined ? never : K]: P[K] extends object ? P[K] : {} }
        : {};

type Head<P> = P extends `${infer H}.${string}` ? H : P;
type Rest<P, K extends string> = P extends `${K}.${infer T}` ? T : never;
/** `'a' | 'b.c' | 'b.d'` → `{ a: {}, b: { populate: 'c' | 'd' } }`. */
type PathMap<P extends string> = { [K in Head<P> & string]: [Rest<P, K>] extends [never] ? {} : { populate: Rest<P, K> } };

type PopulateOf<Q> = Q extends { populate: infer P } ? P : undefined;

/** The scalars a query returns: those `fields` names, or all (without `fields`, or with an empty list, as the server answers). */
type SelectedScalars<R extends Registry, U, Q> = Q extends { fields: infer F }
  ? F extends readonly []
    ? Scalar<R, U>
    : Extract<F extends readonly (infer E)[] ? E : F, Scalar<R, U>>
  : Scalar<R, U>;

type ScalarsOf<R extends Registry, U, Q> = Pick<Model<R, U>['attributes'], SelectedScalars<R, U, Q> & keyof Model<R, U>['attributes']>;

/** How a populated relation reads: Strapi's `{ data }` envelope of entries, or entries themselves (users-permissions, upload). */
type Shape = 'envelope' | 'flat';

/** A multiple media field without files is `null` (Strapi's answer), a to-many relation `[]`. */
type NoFiles<T> = T extends 'plugin::upload.file' ? null : never;
type RelationResult<R extends Registry, Rel, S, F extends Shape> = Rel extends { target: infer T; many: infer M }
  ? F extends 'envelope'
    ? { data: M extends true ? EntryOf<R, T, S>[] | NoFiles<T> : EntryOf<R, T, S> | null }
    : M extends true
      ? FlatOf<R, T, S>[] | NoFiles<T>
      : FlatOf<R, T, S> | null
  : never;

type ComponentResult<R extends Registry, C, S, F extends Shape> = C extends { component: infer Cu; many: infer M }
  ? M extends true
    ? ComponentOf<R, Cu, S, F>[]
    : ComponentOf<R, Cu, S, F> | null
  : never;

/** The components a zone answers: those `on` names, or all of them. */
type ZoneComponents<S, Cs> = S extends { on: infer On } ? Extract<Cs, { [C in keyof On]: On[C] extends false | undefined ? never : C }[keyof On]> : Cs;
type ZoneItemQuery<S, C> = S extends { on: infer On } ? (C extends keyof On ? (On[C] extends object ? On[C] : {}) : {}) : S;
type ZoneResult<R extends Registry, Cs, S, F extends Shape> = Array<
  ZoneComponents<S, Cs> extends infer C ? (C extends string ? Simplify<{ __component: C } & ComponentOf<R, C, ZoneItemQuery<S, C>, F>> : never) : never
>;

/** Content types of the registry (components have no `::` in their uid). */
type ContentTypeUid<R extends Registry> = Extract<keyof R, `${string}::${string}`>;
/** An entry a morphToMany links: its type's uid, id and scalars, without Strapi's envelope. */
export type MorphItem<R extends Registry> = { [T in ContentTypeUid<R>]: Simplify<{ __type: T; id: number } & ScalarsOf<R, T, {}>> }[ContentTypeUid<R>];
/** The entry a morphToOne links (Strapi answers it without `__type`). */
export type MorphOneItem<R extends Registry> = { [T in ContentTypeUid<R>]: Simplify<{ id: number } & ScalarsOf<R, T, {}>> }[ContentTypeUid<R>];
type MorphResult<R extends Registry, M, F extends Shape> = M extends { target: infer T; many: infer Many }
  ? RelationResult<R, { target: T; many: Many }, {}, F>
  : M extends { many: true }
    ? MorphItem<R>[] | undefined
    : MorphOneItem<R> | null;

type PopulatedOf<R extends Registry, U, Q, F extends Shape> =
  PopulateMap<R, U, PopulateOf<Q>> extends infer PM
    ? {
        [K in Extract<keyof PM, Populatable<R, U>>]: K extends Relation<R, U>
          ? RelationResult<R, Model<R, U>['relations'][K], PM[K], F>
          : K extends ComponentField<R, U>
            ? ComponentResult<R, Model<R, U>['components'][K], PM[K], F>
            : K extends Zone<R, U>
              ? ZoneResult<R, Model<R, U>['zones'][K], PM[K], F>
              : K extends MorphField<R, U>
                ? MorphResult<R, Morphs<R, U>[K], F>
                : never;
      }
    : never;

/** A content type's attributes as a query with `fields` and `populate` returns them. */
export type AttributesOf<R extends Registry, U, Q = {}> = Simplify<ScalarsOf<R, U, Q> & PopulatedOf<R, U, Q, 'envelope'>>;

/** One entry as the REST API returns it for query `Q`. */
export interface EntryOf<R extends Registry, U, Q = {}> {
  id: number;
  attributes: AttributesOf<R, U, Q>;
}

/** One component instance for query `Q`: its `id`, the scalars `Q.fields` names (or all), and what `Q` populates. */
export type ComponentOf<R extends Registry, C, Q = {}, F extends Shape = 'envelope'> = Simplify<{ id: number } & ScalarsOf<R, C, Q> & PopulatedOf<R, C, Q, F>>;

/** One entry without Strapi's envelope, as users-permissions and upload answer them. */
export type FlatOf<R extends Registry, U, Q = {}> = Simplify<{ id: number } & ScalarsOf<R, U, Q> & PopulatedOf<R, U, Q, 'flat'>>;

/** `meta.pagination` of a `find`: page-based unless the query paginates by `start`/`limit`. */
export type PaginationMeta<Q> = Q extends { pagination: infer P }
  ? P extends { start: unknown } | { limit: unknown }
    ? Counted<P, { start: number; limit: number }, { total: number }>
    : Counted<P, { page: number; pageSize: number }, { pageCount: number; total: number }>
  : { page: number; pageSize: number; pageCount: number; total: number };
type Counted<P, Base, Totals> = P extends { withCount: false } ? Base : Simplify<Base & Totals>;

/** A collection's `find` answer. */
export interface FindResponse<R extends Registry, U, Q = {}> {
  data: EntryOf<R, U, Q>[];
  meta: { pagination: PaginationMeta<Q> };
}

/** Every answer of one entry: findOne, create, update, delete, a single type's find. */
export interface EntryResponse<R extends Registry, U, Q = {}> {
  data: EntryOf<R, U, Q>;
  meta: Record<string, unknown>;
}
