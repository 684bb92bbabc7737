import type { ComponentMeta, ContentTypeMeta } from '../../../templates/runtime/meta.js';
import * as naming from '../../../templates/runtime/graphql/naming.js';
import { filterScalars, customScalars } from '../../../templates/runtime/graphql/sdl.js';
import { customFieldTypesOf, storedType } from '../../ir/custom-fields.js';
import type { RawFile } from '../../load/load-models.js';
import { attributesOf, isPlainObject, pointer, where, type ValidationRule } from '../context.js';

/**
 * The GraphQL names Strapi's GraphQL plugin gives every type and component (ir names are
 * contentgen's own and never clash; these are Strapi's, and a clash breaks Strapi's schema
 * too): two owners with one type, enum or query name is an error naming both files, as is
 * an enumeration with two values that become one GraphQL enum value.
 */
export const graphqlNamesRule: ValidationRule = ({ models, report }) => {
  const customFields = customFieldTypesOf(models.customFields?.json);
  const taken = new Map<string, Claimant>();
  for (const name of reservedTypeNames) taken.set(`type ${name}`, { label: 'the GraphQL schema' });
  for (const name of reservedQueryNames) taken.set(`query ${name}`, { label: 'the users-permissions plugin' });
  const reported = new Set<string>();

  const claim = (owner: Owned, kind: 'type' | 'query', name: string, at: string) => {
    const key = `${kind} ${name}`;
    const holder = taken.get(key);
    if (!holder) {
      // A plugin's type is built in: its label says all there is.
      taken.set(key, { label: owner.label, raw: owner.raw, ...((owner.raw as { plugin?: string }).plugin ? {} : { file: owner.raw.file }) });
      return;
    }
    if (holder.raw === owner.raw) return;
    const pair = `${holder.label}\u0000${owner.label}`;
    if (reported.has(pair)) return;
    reported.add(pair);
    const what = kind === 'type' ? `GraphQL type "${name}"` : `GraphQL query "${name}"`;
    if (!holder.raw) {
      report(owner.raw, at, `${owner.label}: its ${what} is ${holder.label}'s own; Strapi's GraphQL schema cannot hold both: rename it`);
      return;
    }
    const other = holder.file ? `${holder.label} (${holder.file})` : holder.label;
    report(owner.raw, at, `${owner.label}: its ${what} is also the ${kind === 'type' ? 'GraphQL type' : 'GraphQL query'} of ${other}; Strapi's GraphQL schema cannot hold both: rename one of them`);
  };

  // Plugin types first: a clash is reported on the user's file.
  for (const raw of [...models.contentTypes.filter((ct) => ct.plugin), ...models.contentTypes.filter((ct) => !ct.plugin)]) {
    const json = raw.json;
    if (!isPlainObject(json) || !isPlainObject(json.info)) continue;
    const { singularName, pluralName } = json.info;
    if (typeof singularName !== 'string' || typeof pluralName !== 'string') continue;
    const meta = { uid: raw.uid, singularName, pluralName, kind: json.kind === 'singleType' ? 'singleType' : 'collectionType', ...(raw.plugin ? { plugin: raw.plugin } : {}) } as unknown as ContentTypeMeta;
    const owner: Owned = { raw, kind: 'content type', label: where(raw, 'content type') };
    const atName = pointer('info', 'singularName');
    for (const name of [naming.typeName(meta), naming.entityName(meta), naming.entityResponseName(meta), naming.entityResponseCollectionName(meta), naming.relationResponseCollectionName(meta), naming.filtersInputName(meta), naming.inputName(meta)]) {
      claim(owner, 'type', name, atName);
    }
    claim(owner, 'query', naming.findOneQueryName(meta), atName);
    if (meta.kind === 'collectionType') claim(owner, 'query', naming.findQueryName(meta), pointer('info', 'pluralName'));
    for (const [attribute, value] of Object.entries(attributesOf(json))) {
      if (!isPlainObject(value)) continue;
      const type = storedType(value, customFields);
      if (type === 'dynamiczone') {
        claim(owner, 'type', naming.dynamicZoneName(meta, attribute), pointer('attributes', attribute));
        claim(owner, 'type', naming.dynamicZoneInputName(meta, attribute), pointer('attributes', attribute));
      }
      if (type === 'enumeration') checkEnum(owner, naming.enumTypeName(meta, attribute), attribute, value);
    }
  }

  for (const raw of models.components) {
    const meta = { uid: raw.uid, fields: {} } as ComponentMeta;
    const owner: Owned = { raw, kind: 'component', label: where(raw, 'component') };
    for (const name of [naming.componentTypeName(raw.uid), naming.filtersInputName(meta), naming.inputName(meta)]) claim(owner, 'type', name, '');
    for (const [attribute, value] of Object.entries(attributesOf(raw.json))) {
      if (isPlainObject(value) && storedType(value, customFields) === 'enumeration') checkEnum(owner, naming.enumTypeName(meta, attribute), attribute, value);
    }
  }

  function checkEnum(owner: Owned, enumName: string, attribute: string, value: Record<string, unknown>): void {
    claim(owner, 'type', enumName, pointer('attributes', attribute));
    if (!Array.isArray(value.enum)) return;
    const seen = new Map<string, string>();
    for (const item of value.enum) {
      if (typeof item !== 'string') continue;
      const member = naming.enumValueName(item);
      const first = seen.get(member);
      if (first !== undefined && first !== item) {
        report(owner.raw, pointer('attributes', attribute, 'enum'), `${where(owner.raw, owner.kind, attribute)}: enumeration values "${first}" and "${item}" are both the GraphQL enum value ${member} (Strapi refuses to start on it): make them differ in letters or digits`);
      }
      if (first === undefined) seen.set(member, item);
    }
  }
};

interface Owned {
  readonly raw: RawFile & { uid: string };
  readonly kind: 'content type' | 'component';
  readonly label: string;
}

interface Claimant {
  readonly label: string;
  readonly file?: string;
  readonly raw?: RawFile;
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
