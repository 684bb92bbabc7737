/**
 * What the GraphQL schema leaves out: content types, components and attributes whose Strapi
 * GraphQL names cannot be given (two owners with one type or query name, a component's
 * enumeration whose values give no name or one name twice). Strapi's GraphQL plugin refuses
 * to start on them; without that plugin Strapi starts, and contentgen builds either way:
 * each is served over REST as usual and left out of /graphql and schema.graphql, with a
 * warning naming it. Computed once from the loaded models: validation warns with `notes`,
 * buildIr marks the IR (`graphql: false`), and the server's GraphQL builder skips what is
 * marked (templates/runtime/graphql/exclusions.ts).
 *
 * Without the GraphQL plugin (`plugins.graphql` false) no GraphQL rule applies: validation
 * warns of nothing (rules/graphql-names.ts). The marks are made all the same, so that a schema
 * built for such models (when one is emitted at all) stays valid.
 *
 * Who keeps a name: the schema's own types and the plugins' types first, then content types
 * in uid order, then components; the later claimant is the one left out. (A content type's
 * enumeration values are Strapi's own start-time check, an error: rules/attributes.ts.)
 */
import type { ComponentMeta, ContentTypeMeta } from '../../templates/runtime/meta.js';
import * as naming from '../../templates/runtime/graphql/naming.js';
import { customScalars, filterScalars } from '../../templates/runtime/graphql/sdl.js';
import type { LoadedModels, RawFile } from '../load/load-models.js';
import { compareStrings } from '../load/load-models.js';
import { storedType } from './custom-fields.js';
import { customFieldResolver } from './custom-field-resolver.js';

export interface GraphqlExclusions {
  /** Content type and component uids left out whole. */
  readonly types: ReadonlySet<string>;
  /** `uid\0attribute` of attributes left out. */
  readonly attributes: ReadonlySet<string>;
  /** One warning per exclusion: file, JSON pointer, message. */
  readonly notes: readonly { readonly file: string; readonly pointer: string; readonly message: string }[];
}

export const exclusionKey = (uid: string, attribute: string): string => `${uid}\u0000${attribute}`;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const cache = new WeakMap<LoadedModels, GraphqlExclusions>();

export function graphqlExclusions(models: LoadedModels): GraphqlExclusions {
  let found = cache.get(models);
  if (!found) {
    found = compute(models);
    cache.set(models, found);
  }
  return found;
}

interface Holder {
  readonly label: string;
}

function compute(models: LoadedModels): GraphqlExclusions {
  const customFields = customFieldResolver(models);
  const types = new Set<string>();
  const attributes = new Set<string>();
  const notes: { file: string; pointer: string; message: string }[] = [];
  const taken = new Map<string, Holder>();
  for (const name of reservedTypeNames) taken.set(`type ${name}`, { label: "the GraphQL schema's own type" });
  for (const name of reservedQueryNames) taken.set(`query ${name}`, { label: "the users-permissions plugin's query" });

  const describe = (key: string) => (key.startsWith('type ') ? `GraphQL type "${key.slice(5)}"` : `GraphQL query "${key.slice(6)}"`);
  /** The first of `keys` another owner holds, with that owner. */
  const clash = (keys: readonly string[], self: string): [string, Holder] | undefined => {
    for (const key of keys) {
      const holder = taken.get(key);
      if (holder && holder.label !== self) return [key, holder];
    }
    return undefined;
  };
  const claimAll = (keys: readonly string[], holder: Holder) => keys.forEach((key) => taken.has(key) || taken.set(key, holder));

  const ordered = [
    ...models.contentTypes.filter((ct) => ct.plugin),
    ...[...models.contentTypes].filter((ct) => !ct.plugin).sort((a, b) => compareStrings(a.uid, b.uid)),
  ];
  const owners: { raw: RawFile & { uid: string; plugin?: string }; meta: ContentTypeMeta | ComponentMeta; label: string; keys: string[]; atName: string }[] = [];
  for (const raw of ordered) {
    const json = raw.json;
    if (!isObject(json) || !isObject(json.info)) continue;
    const { singularName, pluralName } = json.info;
    if (typeof singularName !== 'string' || typeof pluralName !== 'string') continue;
    const meta = { uid: raw.uid, singularName, pluralName, kind: json.kind === 'singleType' ? 'singleType' : 'collectionType', ...(raw.plugin ? { plugin: raw.plugin } : {}), fields: {} } as unknown as ContentTypeMeta;
    const keys = [
      ...[naming.typeName(meta), naming.entityName(meta), naming.entityResponseName(meta), naming.entityResponseCollectionName(meta), naming.relationResponseCollectionName(meta), naming.filtersInputName(meta), naming.inputName(meta)].map((n) => `type ${n}`),
      `query ${naming.findOneQueryName(meta)}`,
      ...(meta.kind === 'collectionType' ? [`query ${naming.findQueryName(meta)}`] : []),
    ];
    owners.push({ raw, meta, label: `content type "${raw.uid}"`, keys, atName: '/info/singularName' });
  }
  for (const raw of [...models.components].sort((a, b) => compareStrings(a.uid, b.uid))) {
    const meta = { uid: raw.uid, fields: {} } as ComponentMeta;
    const keys = [naming.componentTypeName(raw.uid), naming.filtersInputName(meta), naming.inputName(meta)].map((n) => `type ${n}`);
    owners.push({ raw, meta, label: `component "${raw.uid}"`, keys, atName: '' });
  }

  for (const owner of owners) {
    const found = clash(owner.keys, owner.label);
    if (found && !owner.raw.plugin) {
      const [key, holder] = found;
      types.add(owner.raw.uid);
      notes.push({
        file: owner.raw.file,
        pointer: owner.atName,
        message: `${owner.label}: left out of the GraphQL schema, served over REST only: its ${describe(key)} is also ${holder.label} (Strapi's GraphQL plugin refuses to start on it); rename it to have it in GraphQL`,
      });
      continue;
    }
    claimAll(owner.keys, { label: owner.label });
    for (const [attribute, value] of Object.entries(isObject(owner.raw.json) && isObject(owner.raw.json.attributes) ? owner.raw.json.attributes : {})) {
      if (!isObject(value)) continue;
      const type = storedType(value, customFields);
      const at = `/attributes/${attribute.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const leaveOut = (why: string) => {
        attributes.add(exclusionKey(owner.raw.uid, attribute));
        notes.push({ file: owner.raw.file, pointer: at, message: `${owner.label}, attribute "${attribute}": left out of the GraphQL schema, served over REST only: ${why}` });
      };
      if (!/^[_A-Za-z][_A-Za-z0-9]*$/.test(attribute)) {
        // graphql-js's assertName: Strapi's GraphQL plugin does not start on it.
        leaveOut(`GraphQL names are [_a-zA-Z0-9] only (Strapi's GraphQL plugin refuses to start on it: graphql-js "Names must only contain [_a-zA-Z0-9] but \"${attribute}\" does not.")`);
        continue;
      }
      const keys: string[] = [];
      if (type === 'dynamiczone' && naming.isContentType(owner.meta)) keys.push(`type ${naming.dynamicZoneName(owner.meta, attribute)}`, `type ${naming.dynamicZoneInputName(owner.meta, attribute)}`);
      if (type === 'enumeration' && Array.isArray(value.enum) && value.enum.length > 0) {
        keys.push(`type ${naming.enumTypeName(owner.meta, attribute)}`);
        if (!naming.isContentType(owner.meta)) {
          const problem = componentEnumProblem(value.enum);
          if (problem) {
            leaveOut(`${problem} (Strapi's GraphQL plugin refuses to start on it)`);
            continue;
          }
        }
      }
      const attributeClash = clash(keys, owner.label) ?? selfClash(keys, taken, owner.label);
      if (attributeClash) {
        leaveOut(`its ${describe(attributeClash[0])} is also ${attributeClash[1].label} (Strapi's GraphQL plugin refuses to start on it); rename it to have it in GraphQL`);
        continue;
      }
      // An attribute's names are its owner's own from here on (a second attribute clashing with them is left out).
      keys.forEach((key) => taken.set(key, { label: `${owner.label}, attribute "${attribute}"` }));
    }
  }
  return { types, attributes, notes };
}

/** A name an earlier attribute of the same owner holds (its holder label names the attribute). */
function selfClash(keys: readonly string[], taken: ReadonlyMap<string, Holder>, ownerLabel: string): [string, Holder] | undefined {
  for (const key of keys) {
    const holder = taken.get(key);
    if (holder && holder.label.startsWith(`${ownerLabel}, attribute`)) return [key, holder];
  }
  return undefined;
}

/** Values of a component's enumeration that give no GraphQL enum value, or two values one. */
function componentEnumProblem(values: readonly unknown[]): string | undefined {
  const seen = new Map<string, string>();
  for (const value of values) {
    if (typeof value !== 'string') continue;
    if (naming.regressedEnumValue(value) === '') return `enumeration value "${value}" gives no GraphQL enum value (it has no letter or digit Strapi can spell)`;
    const member = naming.enumValueName(value);
    const first = seen.get(member);
    if (first !== undefined && first !== value) return `enumeration values "${first}" and "${value}" are both the GraphQL enum value ${member}`;
    seen.set(member, value);
  }
  return undefined;
}

/**
 * Type names the schema has whatever the models: the root types, the GraphQL plugin's
 * internals and the types the users-permissions and upload plugins add. (`Subscription` is
 * not one: the schema declares its root types, so a type may be named so.)
 */
const reservedTypeNames: readonly string[] = [
  'Query',
  'Mutation',
  ...Object.keys(customScalars),
  ...filterScalars.map(naming.scalarFilterName),
  'Pagination', 'ResponseCollectionMeta', 'PaginationArg', 'PublicationState', 'Error', 'GenericMorph',
  'UsersPermissionsMe', 'UsersPermissionsMeRole', 'UsersPermissionsRegisterInput', 'UsersPermissionsLoginInput',
  'UsersPermissionsLoginPayload', 'UsersPermissionsPasswordPayload', 'UsersPermissionsCreateRolePayload',
  'UsersPermissionsUpdateRolePayload', 'UsersPermissionsDeleteRolePayload', 'FileInfoInput',
];

/** Query fields of the users-permissions plugin. */
const reservedQueryNames: readonly string[] = ['me'];
