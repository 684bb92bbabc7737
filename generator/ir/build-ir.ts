/**
 * Stage 3: turn validated model files into the IR. Runs only on models that passed
 * validation, so it may assume their shape. Passes: content types → components →
 * built-in attributes → sort.
 */
import type { LoadedModels, RawComponent, RawContentType } from '../load/load-models.js';
import { compareStrings } from '../load/load-models.js';
import { isScalarType } from './scalars.js';
import { camelCase, componentPascal, pascalCase, snakeCase } from './names.js';
import type {
  Attribute,
  Component,
  ContentType,
  ContentTypeNames,
  LinkStorage,
  Permissions,
  Provider,
  RelationKind,
  ScalarAttribute,
  ScalarType,
} from './types.js';

type Json = Record<string, any>;

export function buildIr(models: LoadedModels, provider: Provider): import('./types.js').Schema {
  const names = new Map(models.contentTypes.map((ct) => [ct.uid, contentTypeNames(ct)]));
  const contentTypes = models.contentTypes.map((ct) => buildContentType(ct, names)).sort((a, b) => compareStrings(a.uid, b.uid));
  const components = models.components.map((c) => buildComponent(c, names)).sort((a, b) => compareStrings(a.uid, b.uid));
  const customActions = Object.fromEntries([...(models.customActions ?? new Map())].filter(([uid]) => names.has(uid)).sort(([a], [b]) => compareStrings(a, b)));
  return { contentTypes, components, permissions: buildPermissions(models.permissions?.json), provider, customActions };
}

type NameTable = ReadonlyMap<string, ContentTypeNames>;

function contentTypeNames(raw: RawContentType): ContentTypeNames {
  const json = raw.json as Json;
  const info = json.info as Json;
  const singular = info.singularName as string;
  const plural = info.pluralName as string;
  const kind = (json.kind ?? 'collectionType') as ContentType['kind'];
  // Plugin types are named like Strapi's GraphQL types: UsersPermissionsUser, UploadFile.
  const prefix = raw.plugin ? pascalCase(raw.plugin) : '';
  return {
    singular,
    plural,
    file: raw.plugin ? `${raw.plugin}.${singular}` : singular,
    pascal: prefix + pascalCase(singular),
    camel: camelCase(prefix + pascalCase(singular)),
    table: typeof json.collectionName === 'string' ? json.collectionName : plural.replace(/-/g, '_'),
    route: kind === 'singleType' ? singular : plural,
  };
}

function buildContentType(raw: RawContentType, names: NameTable): ContentType {
  const json = raw.json as Json;
  const info = json.info as Json;
  const own = names.get(raw.uid)!;
  const kind = (json.kind ?? 'collectionType') as ContentType['kind'];
  const options = (json.options ?? {}) as Json;
  const draftAndPublish = options.draftAndPublish === true;
  const privateNames = new Set<string>(Array.isArray(options.privateAttributes) ? options.privateAttributes : []);
  const declared = buildAttributes(json.attributes as Json, privateNames, { uid: raw.uid, names });
  const attributes: Attribute[] = [
    builtIn('id', 'integer', 0, { required: true, unique: true }),
    ...declared.map((a) => ({ ...a, index: a.index + 1 })),
    builtIn('createdAt', 'datetime', declared.length + 1),
    builtIn('updatedAt', 'datetime', declared.length + 2),
    ...(draftAndPublish ? [builtIn('publishedAt', 'datetime', declared.length + 3, { writable: true })] : []),
  ];
  return {
    uid: raw.uid,
    ...(raw.plugin ? { plugin: raw.plugin } : {}),
    kind,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : own.pascal,
    description: typeof info.description === 'string' ? info.description : '',
    names: own,
    draftAndPublish,
    populateCreatorFields: options.populateCreatorFields === true,
    attributes,
  };
}

function buildComponent(raw: RawComponent, names: NameTable): Component {
  const json = raw.json as Json;
  const info = (json.info ?? {}) as Json;
  // Inside a component, relations and media are ids in the component's JSON: no link tables.
  const declared = buildAttributes(json.attributes as Json, new Set(), { names });
  return {
    uid: raw.uid,
    category: raw.category,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : pascalCase(raw.uid.split('.')[1]!),
    names: { file: raw.uid, pascal: componentPascal(raw.uid), table: json.collectionName as string },
    attributes: [builtIn('id', 'integer', 0, { required: true, unique: true }), ...declared.map((a) => ({ ...a, index: a.index + 1 }))],
  };
}

interface AttributeContext {
  /** The owning content type; absent for components. */
  readonly uid?: string;
  readonly names: NameTable;
}

function buildAttributes(attributes: Json, privateNames: ReadonlySet<string>, context: AttributeContext): Attribute[] {
  return Object.entries(attributes).map(([name, a], index): Attribute => {
    const base = { name, index, private: a.private === true || privateNames.has(name), required: a.required === true };
    const type = a.type as string;
    if (isScalarType(type)) {
      return {
        ...base,
        kind: 'scalar',
        type,
        column: snakeCase(name),
        unique: a.unique === true || type === 'uid',
        writable: a.writable !== false,
        builtIn: false,
        ...pick(a, ['default', 'min', 'max', 'minLength', 'maxLength', 'regex', 'enum', 'targetField']),
      };
    }
    switch (type) {
      case 'relation': {
        const relation = a.relation as RelationKind;
        const link = context.uid === undefined ? undefined : relationLink(context.uid, name, a, context.names);
        return {
          ...base,
          kind: 'relation',
          relation,
          target: a.target,
          ...pick(a, ['inversedBy', 'mappedBy']),
          toMany: relation === 'oneToMany' || relation === 'manyToMany',
          ...(link ? { link } : {}),
        };
      }
      case 'media': {
        const link = context.uid === undefined ? undefined : ownedLink(context.uid, name, mediaTarget, context.names);
        return { ...base, kind: 'media', multiple: a.multiple === true, ...pick(a, ['allowedTypes']), ...(link ? { link } : {}) };
      }
      case 'component':
        return { ...base, kind: 'component', component: a.component, repeatable: a.repeatable === true, column: snakeCase(name), ...pick(a, ['min', 'max']) };
      default:
        return { ...base, kind: 'dynamiczone', components: [...a.components], column: snakeCase(name), ...pick(a, ['min', 'max']) };
    }
  });
}

const mediaTarget = 'plugin::upload.file';

/**
 * The link table of a relation declared by `ownerUid.attribute`. A mappedBy side reads the
 * owning side's table with the columns swapped.
 */
function relationLink(ownerUid: string, attribute: string, a: Json, names: NameTable): LinkStorage {
  if (typeof a.mappedBy === 'string') {
    const owning = ownedLink(a.target as string, a.mappedBy, ownerUid, names);
    return {
      table: owning.table,
      model: owning.model,
      ownerColumn: owning.targetColumn,
      targetColumn: owning.ownerColumn,
      orderColumn: owning.inverseOrderColumn,
      inverseOrderColumn: owning.orderColumn,
      owning: false,
    };
  }
  return ownedLink(ownerUid, attribute, a.target as string, names);
}

/** Strapi v4's naming: `articles_tags_links (article_id, tag_id, tag_order, article_order)`. */
function ownedLink(ownerUid: string, attribute: string, targetUid: string, names: NameTable): LinkStorage {
  const owner = names.get(ownerUid)!;
  const target = names.get(targetUid)!;
  const ownerColumn = `${snakeCase(owner.singular)}_id`;
  let targetColumn = `${snakeCase(target.singular)}_id`;
  if (targetColumn === ownerColumn) targetColumn = `inv_${targetColumn}`; // self-relation
  return {
    table: `${owner.table}_${snakeCase(attribute)}_links`,
    model: `${owner.pascal}${pascalCase(attribute)}Link`,
    ownerColumn,
    targetColumn,
    orderColumn: targetColumn.replace(/_id$/, '_order'),
    inverseOrderColumn: ownerColumn.replace(/_id$/, '_order'),
    owning: true,
  };
}

function builtIn(
  name: string,
  type: ScalarType,
  index: number,
  overrides: Partial<Pick<ScalarAttribute, 'required' | 'unique' | 'writable'>> = {},
): ScalarAttribute {
  return {
    kind: 'scalar',
    name,
    index,
    type,
    column: snakeCase(name),
    private: false,
    required: false,
    unique: false,
    writable: false,
    builtIn: true,
    ...overrides,
  };
}

function buildPermissions(json: unknown): Permissions {
  const roles: Record<string, string[]> = { public: [], authenticated: [] };
  if (json && typeof json === 'object') {
    for (const [role, actions] of Object.entries(json as Record<string, string[]>)) {
      roles[role] = [...new Set(actions)].sort(compareStrings);
    }
  }
  return Object.fromEntries(Object.entries(roles).sort(([a], [b]) => compareStrings(a, b)));
}

/** Copies only the options that are set, so the IR has no `undefined` members. */
function pick(source: Json, keys: string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
