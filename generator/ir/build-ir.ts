/**
 * Stage 3: turn validated model files into the IR. Runs only on models that passed
 * validation, so it may assume their shape. Passes: names (names.ts) and relation storage
 * (relations.ts) for the whole model first → content types → components → built-in
 * attributes → sort.
 */
import type { LoadedModels, RawComponent, RawContentType } from '../load/load-models.js';
import { compareStrings } from '../load/load-models.js';
import { customFieldTypesOf, storedType, type CustomFieldType } from './custom-fields.js';
import { isScalarType } from './scalars.js';
import {
  componentPascal,
  identifierStem,
  lowerFirst,
  Namespace,
  pascalCase,
  reservedJsWords,
  reservedPrismaModelNames,
  snakeCase,
} from './names.js';
import { i18nAttributeNames, i18nSettings, isLocalizedType, sharedAttributeNames, withI18nAttributes } from './i18n.js';
import { internalModels, internalTables } from './plugins.js';
import { morphToOneColumns, resolveRelations, type RelationResolution } from './relations.js';
import type {
  Attribute,
  Component,
  ComponentNames,
  ContentType,
  ContentTypeNames,
  LinkStorage,
  MorphKind,
  MorphTableStorage,
  Permissions,
  Provider,
  RelationKind,
  ScalarAttribute,
  ScalarType,
} from './types.js';

type Json = Record<string, any>;

export function buildIr(loaded: LoadedModels, provider: Provider): import('./types.js').Schema {
  // The i18n plugin's attributes are the models' own from here on (relations, links, names).
  const models = withI18nAttributes(loaded);
  const { names, prisma } = contentTypeNameTable(models.contentTypes);
  const context: BuildContext = {
    names,
    relations: resolveRelations(models.contentTypes),
    customFields: customFieldTypesOf(models.customFields?.json),
    links: new Map(),
    morphTables: new Map(),
  };
  // Link models come after every content type's model, in the same namespace.
  allocateLinks(models.contentTypes, context, prisma);
  const componentNames = componentNameTable(models.components, context.names);
  const contentTypes = models.contentTypes.map((ct) => buildContentType(ct, context)).sort((a, b) => compareStrings(a.uid, b.uid));
  const components = models.components.map((c) => buildComponent(c, componentNames.get(c.uid)!, context)).sort((a, b) => compareStrings(a.uid, b.uid));
  const customActions = Object.fromEntries([...(models.customActions ?? new Map())].filter(([uid]) => context.names.has(uid)).sort(([a], [b]) => compareStrings(a, b)));
  return { contentTypes, components, permissions: buildPermissions(models.permissions?.json), provider, customActions, i18n: i18nSettings(models.locales), plugins: loaded.plugins };
}

type NameTable = ReadonlyMap<string, ContentTypeNames>;

interface BuildContext {
  readonly names: NameTable;
  readonly relations: RelationResolution;
  readonly customFields: ReadonlyMap<string, CustomFieldType>;
  /** The link table each owning relation or media field of a content type has, by `uid\0attribute`. */
  readonly links: Map<string, LinkStorage>;
  /** The morph table of each morphToMany of a content type, by `uid\0attribute`. */
  readonly morphTables: Map<string, MorphTableStorage>;
}

const linkKey = (uid: string, attribute: string) => `${uid}\u0000${attribute}`;

/**
 * Identifiers of the emitted TypeScript (values and types share one namespace here: their
 * spellings differ by the case of the first letter, so nothing distinct is lost) that are not
 * the models': the runtime's imports and index.ts's own declarations.
 */
const reservedTsNames = [
  ...reservedJsWords,
  'contentTypes', 'components', 'registry', 'routes', 'app', 'userCode', 'singleTypeRoutes', 'collectionTypeRoutes',
  'ContentTypeMeta', 'ComponentMeta', 'Registry', 'Route', 'UserCode',
  'RelationChanges', 'RelationConnectRef', 'RelationPosition', 'RelationRef', 'ToManyRelationWrite', 'ToOneRelationWrite',
];

/**
 * Every content type's names. Natural spellings come from the models; those contentgen
 * derives are claimed in uid order in their namespaces: TS identifiers (`camel` with its
 * `<camel>Routes` and `<camel>Api`), Prisma models (after contentgen's own models).
 */
function contentTypeNameTable(raws: readonly RawContentType[]): { names: NameTable; prisma: Namespace } {
  const sorted = [...raws].sort((a, b) => compareStrings(a.uid, b.uid));
  const ts = tsNamespace(raws);
  const prisma = prismaNamespace();
  const table = new Map<string, ContentTypeNames>();
  for (const raw of sorted) {
    const json = raw.json as Json;
    const info = json.info as Json;
    const singular = info.singularName as string;
    const plural = info.pluralName as string;
    const kind = (json.kind ?? 'collectionType') as ContentType['kind'];
    // Plugin types are named like Strapi's GraphQL types: UsersPermissionsUser, UploadFile.
    const pascal = (raw.plugin ? pascalCase(raw.plugin) : '') + pascalCase(singular);
    const camel = ts.claim(lowerFirst(pascal), (stem) => [stem, `${stem}Routes`, `${stem}Api`]);
    const model = prisma.claim(pascal);
    table.set(raw.uid, {
      singular,
      plural,
      file: raw.plugin ? `${raw.plugin}.${singular}` : singular,
      pascal,
      camel,
      model,
      delegate: lowerFirst(model),
      table: typeof json.collectionName === 'string' ? json.collectionName : plural.replace(/-/g, '_'),
      route: kind === 'singleType' ? singular : plural,
    });
  }
  return { names: table, prisma };
}

function prismaNamespace(): Namespace {
  return new Namespace([...reservedPrismaModelNames, ...internalModels.map((m) => m.model)]);
}

/** TS names the models spell out (the content types' entry types) are taken first. */
function tsNamespace(raws: readonly RawContentType[]): Namespace {
  const natural = raws.flatMap((raw) => {
    const info = ((raw.json as Json).info ?? {}) as Json;
    const pascal = (raw.plugin ? pascalCase(raw.plugin) : '') + pascalCase(String(info.singularName));
    return [`${pascal}Attributes`, `${pascal}Entry`, `${pascal}Input`];
  });
  return new Namespace([...reservedTsNames, ...natural]);
}

/**
 * Every component's TS identifiers: the stem is the uid in PascalCase (`shared.rich-text` →
 * `SharedRichText`), reduced to ASCII letters and digits (`_` first when it would start with a
 * digit); the first component in uid order keeps it, the next that meets it (or a content
 * type's names, or a reserved word) get `_2`, `_3`… Its GraphQL name is Strapi's globalId.
 */
function componentNameTable(raws: readonly RawComponent[], types: NameTable): Map<string, ComponentNames> {
  const ts = tsNamespace([]);
  for (const names of types.values()) {
    for (const name of [names.camel, `${names.camel}Routes`, `${names.camel}Api`, `${names.pascal}Attributes`, `${names.pascal}Entry`, `${names.pascal}Input`]) ts.claim(name);
  }
  const table = new Map<string, ComponentNames>();
  for (const raw of [...raws].sort((a, b) => compareStrings(a.uid, b.uid))) {
    const stem = ts.claim(identifierStem(raw.uid), (s) => [lowerFirst(s), `${s}Component`, `${s}ComponentInput`]);
    table.set(raw.uid, {
      file: raw.uid,
      pascal: componentPascal(raw.uid),
      table: (raw.json as Json).collectionName as string,
      ident: lowerFirst(stem),
      type: `${stem}Component`,
      input: `${stem}ComponentInput`,
    });
  }
  return table;
}

/**
 * The link tables of owning relations and media fields, in uid then declared order: Strapi's
 * names (`articles_tags_links`), and Prisma models `ArticleTagsLink`; a name another table or
 * model has already gets `_2`, `_3`…
 */
function allocateLinks(raws: readonly RawContentType[], context: BuildContext, prisma: Namespace): void {
  const tables = new Set<string>([...internalTables, ...[...context.names.values()].map((n) => n.table)].map((t) => t.toLowerCase()));
  for (const raw of [...raws].sort((a, b) => compareStrings(a.uid, b.uid))) {
    for (const [name, a] of Object.entries((raw.json as Json).attributes as Json)) {
      const target = a.type === 'media' ? mediaTarget : a.type === 'relation' && context.relations.storage(raw.uid, name)?.kind === 'own' ? (a.target as string) : undefined;
      if (target === undefined) continue;
      const owner = context.names.get(raw.uid)!;
      const natural = `${owner.table}_${snakeCase(name)}_links`;
      let table = natural;
      for (let n = 2; tables.has(table.toLowerCase()); n++) table = `${natural}_${n}`;
      tables.add(table.toLowerCase());
      context.links.set(linkKey(raw.uid, name), ownedLink(owner, context.names.get(target)!, table, prisma.claim(`${owner.model}${pascalCase(name)}Link`)));
    }
  }
  // Morph tables after the link tables: `<table>_<attr>_morphs`, Prisma models `NoteItemsMorph`.
  for (const raw of [...raws].sort((a, b) => compareStrings(a.uid, b.uid))) {
    for (const [name, a] of Object.entries((raw.json as Json).attributes as Json)) {
      if (a.type !== 'relation' || a.relation !== 'morphToMany') continue;
      const owner = context.names.get(raw.uid)!;
      const natural = `${owner.table}_${snakeCase(name)}_morphs`;
      let table = natural;
      for (let n = 2; tables.has(table.toLowerCase()); n++) table = `${natural}_${n}`;
      tables.add(table.toLowerCase());
      const column = snakeCase(name);
      context.morphTables.set(linkKey(raw.uid, name), {
        table,
        model: prisma.claim(`${owner.model}${pascalCase(name)}Morph`),
        ownerColumn: `${snakeCase(owner.singular)}_id`,
        idColumn: `${column}_id`,
        typeColumn: `${column}_type`,
      });
    }
  }
}

function buildContentType(raw: RawContentType, context: BuildContext): ContentType {
  const json = raw.json as Json;
  const info = json.info as Json;
  const own = context.names.get(raw.uid)!;
  const kind = (json.kind ?? 'collectionType') as ContentType['kind'];
  const options = (json.options ?? {}) as Json;
  const draftAndPublish = options.draftAndPublish === true;
  const privateNames = new Set<string>(Array.isArray(options.privateAttributes) ? options.privateAttributes : []);
  const all = buildAttributes(json.attributes as Json, privateNames, context, raw.uid);
  const localized = isLocalizedType(json);
  // The i18n plugin's attributes come last, after the timestamps, as Strapi adds them.
  const declared = localized ? all.filter((a) => !i18nAttributeNames.includes(a.name)) : all;
  const i18n = localized ? all.filter((a) => i18nAttributeNames.includes(a.name)) : [];
  const timestamps = [
    builtIn('createdAt', 'datetime', declared.length + 1),
    builtIn('updatedAt', 'datetime', declared.length + 2),
    ...(draftAndPublish ? [builtIn('publishedAt', 'datetime', declared.length + 3, { writable: true })] : []),
  ];
  const attributes: Attribute[] = [
    builtIn('id', 'integer', 0, { required: true, unique: true }),
    ...declared.map((a) => ({ ...a, index: a.index + 1 })),
    ...timestamps,
    ...i18n.map((a, i) => ({ ...a, index: declared.length + timestamps.length + 1 + i })),
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
    ...(localized ? { localized: true, sharedAttributes: sharedAttributeNames(json) } : {}),
  };
}

function buildComponent(raw: RawComponent, names: ComponentNames, context: BuildContext): Component {
  const json = raw.json as Json;
  const info = (json.info ?? {}) as Json;
  // Inside a component, relations and media are ids in the component's JSON: no link tables.
  const declared = buildAttributes(json.attributes as Json, new Set(), context);
  return {
    uid: raw.uid,
    category: raw.category,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : pascalCase(raw.uid.split('.')[1]!),
    names,
    attributes: [builtIn('id', 'integer', 0, { required: true, unique: true }), ...declared.map((a) => ({ ...a, index: a.index + 1 }))],
  };
}

/** `ownerUid`: the content type declaring the attributes; absent for components. */
function buildAttributes(attributes: Json, privateNames: ReadonlySet<string>, context: BuildContext, ownerUid?: string): Attribute[] {
  return Object.entries(attributes).map(([name, a], index): Attribute => {
    const base = { name, index, private: a.private === true || privateNames.has(name), required: a.required === true };
    const type = storedType(a, context.customFields)!;
    const customField = a.type === 'customField' ? { customField: a.customField as string } : {};
    if (isScalarType(type) || type === 'blocks') {
      return {
        ...base,
        kind: 'scalar',
        // blocks are JSON to the database and the APIs; the runtime validates them as blocks.
        type: type === 'blocks' ? 'json' : type,
        column: snakeCase(name),
        unique: a.unique === true || type === 'uid',
        writable: a.writable !== false,
        builtIn: false,
        ...pick(a, ['default', 'min', 'max', 'minLength', 'maxLength', 'regex', 'enum', 'targetField']),
        ...(type === 'blocks' ? { blocks: true } : {}),
        ...customField,
      };
    }
    switch (type) {
      case 'relation': {
        if (morphKinds.includes(a.relation)) {
          const relation = a.relation as MorphKind;
          const table = ownerUid === undefined ? undefined : context.morphTables.get(linkKey(ownerUid, name));
          return {
            ...base,
            kind: 'morph',
            relation,
            toMany: relation === 'morphToMany' || relation === 'morphMany',
            ...pick(a, relation === 'morphOne' || relation === 'morphMany' ? ['target', 'morphBy'] : []),
            ...(relation === 'morphToOne' ? { columns: { id: morphToOneColumns[0], type: morphToOneColumns[1] } } : {}),
            ...(table ? { table } : {}),
          };
        }
        const relation = a.relation as RelationKind;
        const storage = ownerUid === undefined ? undefined : relationLink(ownerUid, name, context);
        return {
          ...base,
          kind: 'relation',
          relation,
          target: a.target,
          ...pick(a, ['inversedBy', 'mappedBy']),
          toMany: relation === 'oneToMany' || relation === 'manyToMany',
          ...(storage === undefined ? {} : storage === null ? { unstored: true } : { link: storage }),
        };
      }
      case 'media': {
        const link = ownerUid === undefined ? undefined : context.links.get(linkKey(ownerUid, name));
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
const morphKinds: readonly string[] = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'];

/**
 * The link table a content type's relation reads (relations.ts decides which): its own, or
 * another relation's read from the other side (columns swapped); null when Strapi keeps none.
 */
function relationLink(ownerUid: string, attribute: string, context: BuildContext): LinkStorage | null {
  const storage = context.relations.storage(ownerUid, attribute);
  if (storage?.kind === 'own') return context.links.get(linkKey(ownerUid, attribute))!;
  if (storage?.kind !== 'inverse') return null;
  const owning = context.links.get(linkKey(storage.of.uid, storage.of.attribute))!;
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

/** Strapi v4's naming: `articles_tags_links (article_id, tag_id, tag_order, article_order)`. */
function ownedLink(owner: ContentTypeNames, target: ContentTypeNames, table: string, model: string): LinkStorage {
  const ownerColumn = `${snakeCase(owner.singular)}_id`;
  let targetColumn = `${snakeCase(target.singular)}_id`;
  if (targetColumn === ownerColumn) targetColumn = `inv_${targetColumn}`; // self-relation
  return {
    table,
    model,
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
