/**
 * Emits the per-type metadata every runtime module reads (src/generated/content-types/),
 * each type's route table (src/generated/rest/) and the index that lists them, with the
 * entry types users write typed code against: `<Type>Attributes`, `<Type>Entry` and
 * `<Type>Input` per content type, `<Component>Component` and `<Component>ComponentInput` per
 * component (shared write shapes in runtime/entry-types.ts).
 */
import { scalarTypes } from '../../ir/scalars.js';
import { lowerFirst } from '../../ir/names.js';
import type { Attribute, Component, ContentType, LinkStorage, ScalarAttribute, ScalarType, Schema } from '../../ir/types.js';
import type { ComponentMeta, FieldMeta, LinkMeta } from '../../../templates/runtime/meta.js';
import { FileMap } from '../file-map.js';
import { render } from '../templates.js';
import { Code, tsLiteral } from '../ts-literal.js';
import { responseValuesImport, rowConverter } from './row-converter.js';

export function emitContentTypes(ir: Schema): FileMap {
  const files = new FileMap();
  const naming = entryTypeNaming(ir);
  for (const ct of ir.contentTypes) {
    const isSingle = ct.kind === 'singleType';
    const routePath = `/api/${ct.names.route}`;
    const imports = new TypeImports('content-types', ct.names.file);
    const attributeMembers = responseMembers(ct.attributes.filter((a) => a.name !== 'id'), naming, imports);
    const inputMembers = writeMembers(ct.attributes, naming, imports);
    const meta = contentTypeMeta(ct);
    const rowsIdent = `${ct.names.camel}Rows`;
    const rows = rowConverter(meta, rowsIdent, ct.displayName);
    files.add(
      `src/generated/content-types/${ct.names.file}.ts`,
      render('rest/content-type.ts.hbs', {
        displayName: ct.displayName,
        uid: ct.uid,
        kindLabel: isSingle ? 'single type' : 'collection type',
        routePath,
        pascal: ct.names.pascal,
        camel: ct.names.camel,
        typeImports: imports.lines(),
        attributesBody: interfaceBody(attributeMembers),
        inputBody: interfaceBody(inputMembers),
        valueImports: rows.includes('ResponseValues.') ? [responseValuesImport] : [],
        rowConverter: rows,
        meta: tsLiteral({ ...meta, rows: new Code(rowsIdent) }),
      }),
    );
    if (ct.plugin) continue; // plugins serve their types through their own routes
    files.add(
      `src/generated/rest/${ct.names.file}.routes.ts`,
      render('rest/routes.ts.hbs', {
        factory: isSingle ? 'singleTypeRoutes' : 'collectionTypeRoutes',
        camel: ct.names.camel,
        file: ct.names.file,
        routesSummary: isSingle ? `GET, PUT, DELETE ${routePath}` : `GET, POST ${routePath}; GET, PUT, DELETE ${routePath}/:id`,
      }),
    );
  }
  for (const component of ir.components) {
    const names = naming.component(component.uid);
    const imports = new TypeImports('components', component.names.file);
    const members = responseMembers(component.attributes, naming, imports);
    const inputMembers = [`id?: number;`, ...writeMembers(component.attributes, naming, imports)];
    files.add(
      `src/generated/components/${component.names.file}.ts`,
      render('rest/component.ts.hbs', {
        displayName: component.displayName,
        uid: component.uid,
        ident: names.value,
        type: names.type,
        inputType: names.input,
        typeImports: imports.lines(),
        body: interfaceBody(members),
        inputBody: interfaceBody(inputMembers),
        meta: tsLiteral(componentMeta(component)),
      }),
    );
  }
  files.add(
    'src/generated/index.ts',
    render('rest/index.ts.hbs', {
      types: ir.contentTypes.map((ct) => ({ camel: ct.names.camel, file: ct.names.file, routes: !ct.plugin })),
      components: ir.components.map((c) => ({ ident: naming.component(c.uid).value, file: c.names.file })),
      i18n: tsLiteral(ir.i18n),
    }),
  );
  return files;
}

/** The identifiers of one component in emitted code. */
export interface ComponentIdents {
  /** `shared.rich-text` → `sharedRichText`: the metadata constant. */
  readonly value: string;
  /** `SharedRichTextComponent`: the instance as the REST API returns it. */
  readonly type: string;
  /** `SharedRichTextComponentInput`: the instance as a write accepts it. */
  readonly input: string;
  /** Stem of its file in src/generated/components/. */
  readonly file: string;
}

export interface EntryTypeNaming {
  contentType(uid: string): ContentType;
  component(uid: string): ComponentIdents;
}

/**
 * The identifiers of every content type and component in emitted code, as the IR names them
 * (ir/build-ir.ts: valid and distinct whatever the models' names).
 */
export function entryTypeNaming(ir: Schema): EntryTypeNaming {
  const contentTypes = new Map(ir.contentTypes.map((ct) => [ct.uid, ct]));
  const components = new Map(
    ir.components.map((c): [string, ComponentIdents] => [c.uid, { value: c.names.ident, type: c.names.type, input: c.names.input, file: c.names.file }]),
  );
  return {
    contentType(uid) {
      const ct = contentTypes.get(uid);
      if (!ct) throw new Error(`no content type ${uid}`);
      return ct;
    },
    component(uid) {
      const idents = components.get(uid);
      if (!idents) throw new Error(`no component ${uid}`);
      return idents;
    },
  };
}

/** The `import type` lines of one emitted file, by module, skipping the file itself. */
export class TypeImports {
  private readonly byModule = new Map<string, Set<string>>();

  constructor(
    private readonly dir: 'content-types' | 'components',
    private readonly file: string,
  ) {}

  /** `<Type>Entry` of a content type. */
  entry(ct: ContentType): string {
    return this.use('content-types', ct.names.file, `${ct.names.pascal}Entry`);
  }

  component(file: string, name: string): string {
    return this.use('components', file, name);
  }

  /** A shared write shape of runtime/entry-types.ts. */
  runtime(name: string): string {
    return this.add('../../runtime/entry-types.js', name);
  }

  private use(dir: 'content-types' | 'components', file: string, name: string): string {
    if (dir === this.dir && file === this.file) return name;
    return this.add(`${dir === this.dir ? '.' : `../${dir}`}/${file}.js`, name);
  }

  private add(from: string, name: string): string {
    const names = this.byModule.get(from) ?? new Set<string>();
    names.add(name);
    this.byModule.set(from, names);
    return name;
  }

  /** Runtime first, then by path; names sorted. */
  lines(): string[] {
    const order = (from: string) => (from.startsWith('../../') ? `0${from}` : `1${from}`);
    return [...this.byModule]
      .sort(([a], [b]) => (order(a) < order(b) ? -1 : 1))
      .map(([from, names]) => `import type { ${[...names].sort().join(', ')} } from ${tsLiteral(from)};`);
  }
}

const uploadFileUid = 'plugin::upload.file';

/**
 * Members of an attributes interface: each attribute as the REST API returns it. Scalars
 * always (private and password attributes never); relations, media, components and dynamic
 * zones only when populated, so optional.
 */
export function responseMembers(attributes: readonly Attribute[], naming: EntryTypeNaming, imports: TypeImports): string[] {
  const members: string[] = [];
  for (const a of attributes) {
    if (a.private) continue;
    switch (a.kind) {
      case 'scalar': {
        if (a.type === 'password') break;
        const nullable = a.builtIn && a.name !== 'publishedAt' ? '' : ' | null';
        members.push(`${a.name}: ${scalarResponseType(a)}${nullable};`);
        break;
      }
      case 'relation': {
        const entry = imports.entry(naming.contentType(a.target));
        members.push(`${a.name}?: { data: ${a.toMany ? `${entry}[]` : `${entry} | null`} };`);
        break;
      }
      case 'media': {
        const entry = imports.entry(naming.contentType(uploadFileUid));
        // No files: `null` for a multiple media field too, as Strapi answers it.
        members.push(`${a.name}?: { data: ${a.multiple ? `${entry}[] | null` : `${entry} | null`} };`);
        break;
      }
      case 'morph': {
        // morphTo: the linked entries' own attributes, unwrapped (Strapi 4.26); an empty list is no key.
        if (a.relation === 'morphToMany') members.push(`${a.name}?: Array<{ __type: string; id: number; [attribute: string]: unknown }>;`);
        else if (a.relation === 'morphToOne') members.push(`${a.name}?: { id: number; [attribute: string]: unknown } | null;`);
        else {
          const entry = imports.entry(naming.contentType(a.target!));
          members.push(`${a.name}?: { data: ${a.toMany ? `${entry}[]` : `${entry} | null`} };`);
        }
        break;
      }
      case 'component': {
        const type = componentType(a.component, 'type', naming, imports);
        members.push(`${a.name}?: ${a.repeatable ? `${type}[]` : `${type} | null`};`);
        break;
      }
      case 'dynamiczone':
        members.push(`${a.name}?: ${zoneType(a.components, 'type', naming, imports)};`);
        break;
    }
  }
  return members;
}

/** What a client sends for each scalar type in a write (the runtime also casts some strings). */
const scalarInputTypes: Readonly<Record<ScalarType, string>> = {
  string: 'string',
  text: 'string',
  richtext: 'string',
  enumeration: 'string',
  email: 'string',
  password: 'string',
  uid: 'string',
  date: 'string | Date',
  time: 'string',
  datetime: 'string | number | Date',
  timestamp: 'string | number | Date',
  integer: 'number',
  biginteger: 'string | number',
  float: 'number',
  decimal: 'number | string',
  boolean: 'boolean',
  json: 'unknown',
  array: 'unknown[]',
};

/** Never written from a request body, whatever the model says (runtime entity/input.ts). */
const neverWritable = new Set(['id', 'createdAt', 'updatedAt']);

/**
 * Members of an input interface: the `data` of a create or update, all optional (an update
 * writes only what it is given); `null` clears an attribute that is not required.
 */
export function writeMembers(attributes: readonly Attribute[], naming: EntryTypeNaming, imports: TypeImports): string[] {
  const members: string[] = [];
  for (const a of attributes) {
    const nullable = a.required ? '' : ' | null';
    switch (a.kind) {
      case 'scalar': {
        if (!a.writable || neverWritable.has(a.name)) break;
        const type = a.blocks ? blocksType : a.type === 'enumeration' && a.enum ? enumType(a.enum) : scalarInputTypes[a.type];
        members.push(`${a.name}?: ${type}${type === 'unknown' ? '' : nullable};`);
        break;
      }
      case 'relation':
        members.push(`${a.name}?: ${imports.runtime(a.toMany ? 'ToManyRelationWrite' : 'ToOneRelationWrite')};`);
        break;
      case 'media':
        members.push(`${a.name}?: ${a.multiple ? 'number[]' : 'number | null'};`);
        break;
      case 'morph':
        // morphTo: `{ __type: '<content type uid>', id }` items; morphOne/morphMany: ids of the target.
        if (a.relation === 'morphToMany') members.push(`${a.name}?: Array<{ __type: string; id: number | string }> | null;`);
        else if (a.relation === 'morphToOne') members.push(`${a.name}?: { __type: string; id: number | string } | null;`);
        else members.push(`${a.name}?: ${a.toMany ? 'number[]' : 'number'} | null;`);
        break;
      case 'component': {
        const type = componentType(a.component, 'input', naming, imports);
        members.push(`${a.name}?: ${a.repeatable ? `${type}[]` : type}${nullable};`);
        break;
      }
      case 'dynamiczone':
        members.push(`${a.name}?: ${zoneType(a.components, 'input', naming, imports)}${nullable};`);
        break;
    }
  }
  return members;
}

function componentType(uid: string, which: 'type' | 'input', naming: EntryTypeNaming, imports: TypeImports): string {
  const idents = naming.component(uid);
  return imports.component(idents.file, idents[which]);
}

/** `Array<({ __component: 'shared.quote' } & SharedQuoteComponent) | …>`, one item kind a line. */
function zoneType(components: readonly string[], which: 'type' | 'input', naming: EntryTypeNaming, imports: TypeImports): string {
  const items = components.map((uid) => `{ __component: ${tsLiteral(uid)} } & ${componentType(uid, which, naming, imports)}`);
  if (items.length === 1) return `Array<${items[0]}>`;
  return `Array<\n${items.map((item) => `    | (${item})`).join('\n')}\n  >`;
}

function scalarResponseType(a: ScalarAttribute): string {
  if (a.blocks) return blocksType;
  return a.type === 'enumeration' && a.enum ? enumType(a.enum) : scalarTypes[a.type].ts;
}

/** A blocks value: a list of block nodes (`{ type: 'paragraph', children: [...] }`, …). */
const blocksType = 'Array<{ type: string; [key: string]: unknown }>';

function enumType(values: readonly string[]): string {
  return values.map((v) => tsLiteral(v)).join(' | ');
}

/** `{ members }` of an interface declaration, `{}` when there are none. */
export function interfaceBody(members: readonly string[]): string {
  return members.length === 0 ? '{}' : `{\n${members.map((m) => `  ${m}`).join('\n')}\n}`;
}

export function contentTypeMeta(ct: ContentType) {
  return {
    uid: ct.uid,
    ...(ct.plugin ? { plugin: ct.plugin } : {}),
    kind: ct.kind,
    singularName: ct.names.singular,
    pluralName: ct.names.plural,
    table: ct.names.table,
    delegate: ct.names.delegate,
    draftAndPublish: ct.draftAndPublish,
    populateCreatorFields: ct.populateCreatorFields,
    ...(ct.localized ? { localized: true, sharedAttributes: ct.sharedAttributes ?? [] } : {}),
    ...(ct.graphql === false ? { graphql: false } : {}),
    fields: Object.fromEntries([...ct.attributes.map((a) => [a.name, localizedFieldMeta(ct, a)]), ...(ct.populateCreatorFields ? creatorFields : [])]),
  };
}

/**
 * An entry's `localizations` link it to every other localization of it, both ways: the
 * oneToMany's targets are not exclusive (i18n/localizations.ts keeps the group whole).
 */
function localizedFieldMeta(ct: ContentType, a: Attribute): FieldMeta {
  const meta = fieldMeta(a);
  if (ct.localized && a.name === 'localizations' && meta.kind === 'relation' && meta.link) return { ...meta, link: { ...meta.link, targetExclusive: false } };
  return meta;
}

/**
 * `createdBy` and `updatedBy` with `populateCreatorFields`: Strapi's relations to the admin
 * user who wrote the entry. There are no admin users here (entries are written through the
 * APIs), so they populate as `{ data: null }`, as Strapi answers for such entries.
 */
const creatorFields: [string, FieldMeta][] = ['createdBy', 'updatedBy'].map((name) => [
  name,
  { kind: 'relation', name, relation: 'oneToOne', target: 'admin::user', toMany: false, unstored: true },
]);

/** IR component → runtime ComponentMeta. */
export function componentMeta(component: Component): ComponentMeta {
  return { uid: component.uid, ...(component.graphql === false ? { graphql: false } : {}), fields: Object.fromEntries(component.attributes.map((a) => [a.name, fieldMeta(a)])) };
}

/** IR attribute → runtime FieldMeta, dropping what the runtime never reads. */
export function fieldMeta(a: Attribute): FieldMeta {
  const common = { name: a.name, ...(a.private ? { private: true } : {}), ...(a.graphql === false ? { graphql: false as const } : {}) };
  switch (a.kind) {
    case 'scalar':
      return {
        kind: 'scalar',
        ...common,
        type: a.type,
        column: a.column,
        prismaField: a.prismaField ?? a.name,
        ...(a.required ? { required: true } : {}),
        ...(a.unique ? { unique: true } : {}),
        ...(a.writable ? {} : { writable: false }),
        ...definedOnly({ minLength: a.minLength, maxLength: a.maxLength, min: a.min, max: a.max, regex: a.regex, enum: a.enum, default: a.default, targetField: a.targetField }),
        ...(a.blocks ? { blocks: true } : {}),
      } as FieldMeta;
    case 'relation':
      return {
        kind: 'relation',
        ...common,
        relation: a.relation,
        target: a.target,
        toMany: a.toMany,
        ...(a.link ? { link: linkMeta(a.link, targetExclusive(a)) } : {}),
        ...(a.unstored ? { unstored: true } : {}),
      };
    case 'morph':
      return {
        kind: 'morph',
        ...common,
        relation: a.relation,
        toMany: a.toMany,
        ...definedOnly({ target: a.target, morphBy: a.morphBy, columns: a.columns }),
        ...(a.table ? { morphTable: { table: a.table.table, ownerColumn: a.table.ownerColumn, idColumn: a.table.idColumn, typeColumn: a.table.typeColumn } } : {}),
        ...(a.required ? { required: true } : {}),
      } as FieldMeta;
    case 'media':
      return { kind: 'media', ...common, multiple: a.multiple, ...definedOnly({ allowedTypes: a.allowedTypes }), ...(a.link ? { link: linkMeta(a.link, false) } : {}) } as FieldMeta;
    case 'component':
      return { kind: 'component', ...common, component: a.component, repeatable: a.repeatable, column: a.column, ...(a.prismaField ? { prismaField: a.prismaField } : {}), ...(a.required ? { required: true } : {}), ...definedOnly({ min: a.min, max: a.max }) };
    case 'dynamiczone':
      return { kind: 'dynamiczone', ...common, components: a.components, column: a.column, ...(a.prismaField ? { prismaField: a.prismaField } : {}), ...(a.required ? { required: true } : {}), ...definedOnly({ min: a.min, max: a.max }) };
  }
}

/**
 * Strapi 4.26.2 moves a target away from the entry that had it only in a two-way oneToOne or
 * oneToMany (`deletePreviousOneToAnyRelations`, called when the relation is bidirectional and
 * one-to-any): a one-way oneToMany's target may be held by several entries, as its API lets.
 */
function targetExclusive(a: Attribute & { kind: 'relation' }): boolean {
  return (a.relation === 'oneToOne' || a.relation === 'oneToMany') && (a.inversedBy ?? a.mappedBy) !== undefined;
}

function linkMeta(link: LinkStorage, targetExclusive: boolean): LinkMeta {
  return {
    table: link.table,
    delegate: lowerFirst(link.model),
    ownerColumn: link.ownerColumn,
    targetColumn: link.targetColumn,
    orderColumn: link.orderColumn,
    inverseOrderColumn: link.inverseOrderColumn,
    targetExclusive,
  };
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
