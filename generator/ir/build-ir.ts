/**
 * Stage 3: turn validated model files into the IR. Runs only on models that passed
 * validation, so it may assume their shape. Passes: names (names.ts) and relation storage
 * (relations.ts) for the whole model first → content types → components → built-in
 * attributes → sort.
 */
import type { LoadedModels, RawComponent, RawContentType } from '../load/load-models.js';
import { compareStrings } from '../load/load-models.js';
import { storedType, type CustomFieldType } from './custom-fields.js';
import { customFieldResolver } from './custom-field-resolver.js';
import { exclusionKey, graphqlExclusions, type GraphqlExclusions } from './graphql-exclusions.js';
import { isScalarType } from './scalars.js';
import { isBound, isLength, regexProblem } from './scalar-options.js';
import {
  componentPascal,
  identifierStem,
  lowerFirst,
  Namespace,
  pascalCase,
  reservedJsWords,
  reservedPrismaModelNames,
  snakeCase,
  prismaFieldNames,
  asciiSpelling,
} from './names.js';
import { DatabaseNames, type NameSource } from './identifiers.js';
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
  RoleNames,
  Provider,
  RelationKind,
  ScalarAttribute,
  ScalarType,
} from './types.js';

type Json = Record<string, any>;

export function buildIr(loaded: LoadedModels, provider: Provider): import('./types.js').Schema {
  // The i18n plugin's attributes are the models' own from here on (relations, links, names).
  const models = withI18nAttributes(loaded);
  const database = new DatabaseNames(provider, internalTables);
  const { names, prisma, naturalTables } = contentTypeNameTable(models.contentTypes, database);
  const context: BuildContext = {
    names,
    naturalTables,
    relations: resolveRelations(models.contentTypes),
    customFields: customFieldResolver(models),
    exclusions: graphqlExclusions(loaded),
    links: new Map(),
    database,
    morphTables: new Map(),
  };
  // Link models come after every content type's model, in the same namespace.
  allocateLinks(models.contentTypes, context, prisma);
  const componentNames = componentNameTable(models.components, context.names);
  const contentTypes = models.contentTypes.map((ct) => buildContentType(ct, context)).sort((a, b) => compareStrings(a.uid, b.uid));
  const components = models.components.map((c) => buildComponent(c, componentNames.get(c.uid)!, context)).sort((a, b) => compareStrings(a.uid, b.uid));
  const customActions = Object.fromEntries([...(models.customActions ?? new Map())].filter(([uid]) => context.names.has(uid)).sort(([a], [b]) => compareStrings(a, b)));
  return {
    contentTypes,
    components,
    permissions: buildPermissions(models.permissions?.json),
    ...roleNamesOf(models.permissions?.json),
    provider,
    customActions,
    i18n: i18nSettings(models.locales),
    plugins: loaded.plugins,
    databaseNames: database.report(),
    ...(loaded.project?.config ? { projectConfig: loaded.project.config } : {}),
    ...(loaded.project?.code ? { projectCode: loaded.project.code } : {}),
  };
}

type NameTable = ReadonlyMap<string, ContentTypeNames>;

interface BuildContext {
  readonly names: NameTable;
  /** Each content type's table as Strapi names it (its collectionName), before the database cuts it: link table names start with it. */
  readonly naturalTables: ReadonlyMap<string, string>;
  readonly relations: RelationResolution;
  readonly customFields: ReadonlyMap<string, CustomFieldType>;
  /** What the GraphQL schema leaves out (graphql-exclusions.ts). */
  readonly exclusions: GraphqlExclusions;
  /** The link table each owning relation or media field of a content type has, by `uid\0attribute`. */
  readonly links: Map<string, LinkStorage>;
  /** Tables and columns as the database keeps them (identifiers.ts). */
  readonly database: DatabaseNames;
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
function contentTypeNameTable(raws: readonly RawContentType[], database: DatabaseNames): { names: NameTable; prisma: Namespace; naturalTables: Map<string, string> } {
  const sorted = [...raws].sort((a, b) => compareStrings(a.uid, b.uid));
  const ts = tsNamespace(raws);
  const prisma = prismaNamespace();
  const table = new Map<string, ContentTypeNames>();
  const naturalTables = new Map<string, string>();
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
    const natural = typeof json.collectionName === 'string' ? json.collectionName : plural.replace(/-/g, '_');
    naturalTables.set(raw.uid, natural);
    table.set(raw.uid, {
      singular,
      plural,
      file: raw.plugin ? `${raw.plugin}.${singular}` : singular,
      pascal,
      camel,
      model,
      delegate: lowerFirst(model),
      table: database.table(natural, { file: raw.file, pointer: '/collectionName', label: `content type "${raw.uid}"` }),
      route: kind === 'singleType' ? singular : plural,
    });
  }
  return { names: table, prisma, naturalTables };
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
 * names (`snakeCase("<collectionName>_<attribute>_links")`: `articles_tags_links`,
 * `authors_top_2_writers_links`), and Prisma models `ArticleTagsLink`; a name another table or
 * model has already gets `_2`, `_3`…
 */
function allocateLinks(raws: readonly RawContentType[], context: BuildContext, prisma: Namespace): void {
  const tables = new Set<string>([...internalTables, ...context.naturalTables.values()].map((t) => t.toLowerCase()));
  /** `<table>_<attribute>_<suffix>` snake-cased whole, as Strapi names it, made unique, as the database keeps it; and its columns' namer. */
  const claimTable = (raw: RawContentType, name: string, suffix: 'links' | 'morphs') => {
    const natural = snakeCase(`${context.naturalTables.get(raw.uid)!}_${name}_${suffix}`);
    let chosen = natural;
    for (let n = 2; tables.has(chosen.toLowerCase()); n++) chosen = `${natural}_${n}`;
    tables.add(chosen.toLowerCase());
    const source: NameSource = { file: raw.file, pointer: `/attributes/${name}`, label: `content type "${raw.uid}", attribute "${name}"` };
    const table = context.database.table(chosen, source);
    return { table, column: (natural: string) => context.database.column(table, natural, source) };
  };
  const sorted = [...raws].sort((a, b) => compareStrings(a.uid, b.uid));
  for (const raw of sorted) {
    for (const [name, a] of Object.entries((raw.json as Json).attributes as Json)) {
      const target = a.type === 'media' ? mediaTarget : a.type === 'relation' && context.relations.storage(raw.uid, name)?.kind === 'own' ? (a.target as string) : undefined;
      if (target === undefined) continue;
      const owner = context.names.get(raw.uid)!;
      const { table, column } = claimTable(raw, name, 'links');
      const toMany = a.type === 'media' ? a.multiple === true : a.relation === 'oneToMany' || a.relation === 'manyToMany';
      const link = ownedLink(owner, context.names.get(target)!, table, prisma.claim(`${owner.model}${pascalCase(asciiSpelling(name))}Link`), toMany);
      context.links.set(linkKey(raw.uid, name), {
        ...link,
        ownerColumn: column(link.ownerColumn),
        targetColumn: column(link.targetColumn),
        orderColumn: column(link.orderColumn),
        inverseOrderColumn: column(link.inverseOrderColumn),
      });
    }
  }
  // Morph tables after the link tables: `<table>_<attr>_morphs`, Prisma models `NoteItemsMorph`.
  for (const raw of sorted) {
    for (const [name, a] of Object.entries((raw.json as Json).attributes as Json)) {
      if (a.type !== 'relation' || a.relation !== 'morphToMany') continue;
      const owner = context.names.get(raw.uid)!;
      const { table, column } = claimTable(raw, name, 'morphs');
      const morphColumn = snakeCase(name);
      context.morphTables.set(linkKey(raw.uid, name), {
        table,
        model: prisma.claim(`${owner.model}${pascalCase(asciiSpelling(name))}Morph`),
        ownerColumn: column(snakeCase(`${owner.singular}_id`)),
        idColumn: column(`${morphColumn}_id`),
        typeColumn: column(`${morphColumn}_type`),
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
  const column = (name: string) =>
    context.database.column(own.table, snakeCase(name), { file: raw.file, pointer: `/attributes/${name}`, label: `content type "${raw.uid}", attribute "${name}"` });
  const all = buildAttributes(json.attributes as Json, privateNames, context, raw.uid, raw.uid, column);
  const localized = isLocalizedType(json);
  // The i18n plugin's attributes come last, after the timestamps, as Strapi adds them.
  const declared = localized ? all.filter((a) => !i18nAttributeNames.includes(a.name)) : all;
  const i18n = localized ? all.filter((a) => i18nAttributeNames.includes(a.name)) : [];
  const timestamps = [
    builtIn('createdAt', 'datetime', declared.length + 1, column),
    builtIn('updatedAt', 'datetime', declared.length + 2, column),
    ...(draftAndPublish ? [builtIn('publishedAt', 'datetime', declared.length + 3, column, { writable: true })] : []),
  ];
  const attributes: Attribute[] = [
    builtIn('id', 'integer', 0, column, { required: true, unique: true }),
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
    ...(context.exclusions.types.has(raw.uid) ? { graphql: false as const } : {}),
  };
}

function buildComponent(raw: RawComponent, names: ComponentNames, context: BuildContext): Component {
  const json = raw.json as Json;
  const info = (json.info ?? {}) as Json;
  // Inside a component, relations and media are ids in the component's JSON: no link tables.
  const declared = buildAttributes(json.attributes as Json, new Set(), context, undefined, raw.uid, snakeCase);
  return {
    uid: raw.uid,
    category: raw.category,
    file: raw.file,
    displayName: typeof info.displayName === 'string' ? info.displayName : pascalCase(raw.uid.split('.')[1]!),
    names,
    attributes: [builtIn('id', 'integer', 0, snakeCase, { required: true, unique: true }), ...declared.map((a) => ({ ...a, index: a.index + 1 }))],
    ...(context.exclusions.types.has(raw.uid) ? { graphql: false as const } : {}),
  };
}

/**
 * `ownerUid`: the content type declaring the attributes; absent for components. `uid`: the
 * content type or component declaring them. `column`: an attribute's column (a component's
 * attributes have none: their values are JSON keys).
 */
function buildAttributes(
  attributes: Json,
  privateNames: ReadonlySet<string>,
  context: BuildContext,
  ownerUid: string | undefined,
  uid: string,
  column: (name: string) => string,
): Attribute[] {
  const prismaFields = prismaFieldNames(Object.keys(attributes));
  return Object.entries(attributes).map(([name, a], index): Attribute => {
    const excluded = context.exclusions.attributes.has(exclusionKey(uid, name));
    const base = { name, index, private: a.private === true || privateNames.has(name), required: a.required === true, ...(excluded ? { graphql: false as const } : {}) };
    const type = storedType(a, context.customFields)!;
    const customField = a.type === 'customField' ? { customField: a.customField as string } : {};
    if (isScalarType(type) || type === 'blocks') {
      return {
        ...base,
        kind: 'scalar',
        // blocks are JSON to the database and the APIs; the runtime validates them as blocks.
        type: type === 'blocks' ? 'json' : type,
        column: column(name),
        ...(prismaFields.has(name) ? { prismaField: prismaFields.get(name)! } : {}),
        unique: a.unique === true || type === 'uid',
        writable: a.writable !== false,
        builtIn: false,
        // Options Strapi ignores when malformed are left out (validation warned).
        ...pick(a, ['default']),
        ...(isBound(a.min, type) ? { min: a.min } : {}),
        ...(isBound(a.max, type) ? { max: a.max } : {}),
        ...(isLength(a.minLength) ? { minLength: a.minLength } : {}),
        ...(isLength(a.maxLength) ? { maxLength: a.maxLength } : {}),
        ...(a.regex !== undefined && regexProblem(a.regex) === undefined ? { regex: a.regex } : {}),
        ...pick(a, ['enum']),
        // Strapi reads targetField of a uid only (elsewhere it is ignored, as here).
        ...(type === 'uid' ? pick(a, ['targetField']) : {}),
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
        // The admin panel's users: Strapi's Content API never serves them (their relations are
        // dropped from answers, populate and writes for every API caller); nothing stores them here.
        // Likewise a content type of an installed plugin contentgen does not carry over
        // (references.ts warns): not served, nothing stored.
        if (a.target === adminUserUid || !context.naturalTables.has(a.target)) return { ...base, private: true, kind: 'relation', relation, target: a.target, toMany: relation === 'oneToMany' || relation === 'manyToMany', unstored: true };
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
        return { ...base, kind: 'component', component: a.component, repeatable: a.repeatable === true, column: column(name), ...(prismaFields.has(name) ? { prismaField: prismaFields.get(name)! } : {}), ...pick(a, ['min', 'max']) };
      default:
        return { ...base, kind: 'dynamiczone', components: [...a.components], column: column(name), ...(prismaFields.has(name) ? { prismaField: prismaFields.get(name)! } : {}), ...pick(a, ['min', 'max']) };
    }
  });
}

const mediaTarget = 'plugin::upload.file';
const morphKinds: readonly string[] = ['morphToOne', 'morphToMany', 'morphOne', 'morphMany'];

/** The admin panel's user type, which relations may target (references.ts warns). */
export const adminUserUid = 'admin::user';

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

/**
 * Strapi v4's naming (`createJoinTable` in @strapi/database): `articles_tags_links (article_id,
 * tag_id, tag_order, article_order)`, every name `snakeCase`d whole. A self-relation's target
 * column is `inv_<singular>_id`. contentgen keeps both order columns on every link table where
 * Strapi keeps only those its relation kind needs, so for a self-relation the two are
 * `<singular>_order` and `inv_<singular>_order`: to-many, Strapi's order column (the owner's
 * list) is `<singular>_order` and the other side's `inv_…` (manyToMany, `categories_related_links`);
 * to-one, Strapi has only the inverse order column, `<singular>_order` (the target's list of
 * owners, `categories_parent_links.category_order`), and the owner's is `inv_…`. Names as Strapi
 * spells them; the database may cut them (identifiers.ts).
 */
export function ownedLink(owner: ContentTypeNames, target: ContentTypeNames, table: string, model: string, toMany: boolean): LinkStorage {
  const ownerColumn = snakeCase(`${owner.singular}_id`);
  let targetColumn = snakeCase(`${target.singular}_id`);
  let orderColumn = snakeCase(`${target.singular}_order`);
  let inverseOrderColumn = snakeCase(`${owner.singular}_order`);
  if (targetColumn === ownerColumn) {
    targetColumn = `inv_${targetColumn}`;
    if (toMany) inverseOrderColumn = `inv_${inverseOrderColumn}`;
    else orderColumn = `inv_${orderColumn}`;
  }
  return { table, model, ownerColumn, targetColumn, orderColumn, inverseOrderColumn, owning: true };
}

function builtIn(
  name: string,
  type: ScalarType,
  index: number,
  column: (name: string) => string,
  overrides: Partial<Pick<ScalarAttribute, 'required' | 'unique' | 'writable'>> = {},
): ScalarAttribute {
  return {
    kind: 'scalar',
    name,
    index,
    type,
    column: column(name),
    private: false,
    required: false,
    unique: false,
    writable: false,
    builtIn: true,
    ...overrides,
  };
}

/** A role of permissions.json: its actions, or its own name and description with them. */
type PermissionsEntry = readonly string[] | { readonly name?: string; readonly description?: string; readonly actions: readonly string[] };

function buildPermissions(json: unknown): Permissions {
  const roles: Record<string, string[]> = { public: [], authenticated: [] };
  if (json && typeof json === 'object') {
    for (const [role, entry] of Object.entries(json as Record<string, PermissionsEntry>)) {
      roles[role] = [...new Set(Array.isArray(entry) ? entry : (entry as Exclude<PermissionsEntry, readonly string[]>).actions)].sort(compareStrings);
    }
  }
  return Object.fromEntries(Object.entries(roles).sort(([a], [b]) => compareStrings(a, b)));
}

/** The names and descriptions permissions.json gives roles (the others are named after their type); absent when none. */
function roleNamesOf(json: unknown): { roleNames?: RoleNames } {
  const names: Record<string, { name?: string; description?: string }> = {};
  if (json && typeof json === 'object') {
    for (const [role, entry] of Object.entries(json as Record<string, PermissionsEntry>)) {
      if (Array.isArray(entry)) continue;
      const { name, description } = entry as Exclude<PermissionsEntry, readonly string[]>;
      names[role] = { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}) };
    }
  }
  return Object.keys(names).length ? { roleNames: names } : {};
}

/** Copies only the options that are set, so the IR has no `undefined` members. */
function pick(source: Json, keys: string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
