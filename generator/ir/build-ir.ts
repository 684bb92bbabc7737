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
  Permissions,
  Provider,
  RelationKind,
  ScalarAttribute,
  ScalarType,
} from './types.js';

type Json = Record<string, any>;

export function buildIr(models: LoadedModels, provider: Provider): import('./types.js').Schema {
  const contentTypes = models.contentTypes.map(buildContentType).sort((a, b) => compareStrings(a.uid, b.uid));
  const components = models.components.map(buildComponent).sort((a, b) => compareStrings(a.uid, b.uid));
  return { contentTypes, components, permissions: buildPermissions(models.permissions?.json), provider };
}

function buildContentType(raw: RawContentType): ContentType {
  const json = raw.json as Json;
  const info = json.info as Json;
  const singular = info.singularName as string;
  const plural = info.pluralName as string;
  const kind = (json.kind ?? 'collectionType') as ContentType['kind'];
  const options = (json.options ?? {}) as Json;
  const draftAndPublish = options.draftAndPublish === true;
  const privateNames = new Set<string>(Array.isArray(options.privateAttributes) ? options.privateAttributes : []);
  const declared = buildAttributes(json.attributes as Json, privateNames);
  const attributes: Attribute[] = [
    builtIn('id', 'integer', 0, { required: true, unique: true }),
    ...declared.map((a) => ({ ...a, index: a.index + 1 })),
    builtIn('createdAt', 'datetime', declared.length + 1),
    builtIn('updatedAt', 'datetime', declared.length + 2),
    ...(draftAndPublish ? [builtIn('publishedAt', 'datetime', declared.length + 3, { writable: true })] : []),
  ];
  return {
    uid: raw.uid,
    kind,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : pascalCase(singular),
    description: typeof info.description === 'string' ? info.description : '',
    names: {
      singular,
      plural,
      file: singular,
      pascal: pascalCase(singular),
      camel: camelCase(singular),
      table: typeof json.collectionName === 'string' ? json.collectionName : plural.replace(/-/g, '_'),
      route: kind === 'singleType' ? singular : plural,
    },
    draftAndPublish,
    populateCreatorFields: options.populateCreatorFields === true,
    attributes,
  };
}

function buildComponent(raw: RawComponent): Component {
  const json = raw.json as Json;
  const info = (json.info ?? {}) as Json;
  const declared = buildAttributes(json.attributes as Json, new Set());
  return {
    uid: raw.uid,
    category: raw.category,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : pascalCase(raw.uid.split('.')[1]!),
    names: { file: raw.uid, pascal: componentPascal(raw.uid), table: json.collectionName as string },
    attributes: [builtIn('id', 'integer', 0, { required: true, unique: true }), ...declared.map((a) => ({ ...a, index: a.index + 1 }))],
  };
}

function buildAttributes(attributes: Json, privateNames: ReadonlySet<string>): Attribute[] {
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
      case 'relation':
        return {
          ...base,
          kind: 'relation',
          relation: a.relation as RelationKind,
          target: a.target,
          ...pick(a, ['inversedBy', 'mappedBy']),
        };
      case 'media':
        return { ...base, kind: 'media', multiple: a.multiple === true, ...pick(a, ['allowedTypes']) };
      case 'component':
        return { ...base, kind: 'component', component: a.component, repeatable: a.repeatable === true, ...pick(a, ['min', 'max']) };
      default:
        return { ...base, kind: 'dynamiczone', components: [...a.components], ...pick(a, ['min', 'max']) };
    }
  });
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
