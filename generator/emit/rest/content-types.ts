/**
 * Emits the per-type metadata every runtime module reads (src/generated/content-types/),
 * each type's route table (src/generated/rest/) and the index that lists them.
 */
import { scalarTypes } from '../../ir/scalars.js';
import { camelCase } from '../../ir/names.js';
import type { Attribute, ContentType, LinkStorage, Schema } from '../../ir/types.js';
import type { FieldMeta, LinkMeta } from '../../../templates/runtime/meta.js';
import { FileMap } from '../file-map.js';
import { render } from '../templates.js';
import { tsLiteral } from '../ts-literal.js';

export function emitContentTypes(ir: Schema): FileMap {
  const files = new FileMap();
  for (const ct of ir.contentTypes) {
    const isSingle = ct.kind === 'singleType';
    const routePath = `/api/${ct.names.route}`;
    files.add(
      `src/generated/content-types/${ct.names.file}.ts`,
      render('rest/content-type.ts.hbs', {
        displayName: ct.displayName,
        uid: ct.uid,
        kindLabel: isSingle ? 'single type' : 'collection type',
        routePath,
        pascal: ct.names.pascal,
        camel: ct.names.camel,
        tsFields: responseFields(ct),
        meta: tsLiteral(contentTypeMeta(ct)),
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
    files.add(
      `src/generated/components/${component.names.file}.ts`,
      render('rest/component.ts.hbs', {
        displayName: component.displayName,
        uid: component.uid,
        ident: componentIdent(component.uid),
        meta: tsLiteral({ uid: component.uid, fields: Object.fromEntries(component.attributes.map((a) => [a.name, fieldMeta(a)])) }),
      }),
    );
  }
  files.add(
    'src/generated/index.ts',
    render('rest/index.ts.hbs', {
      types: ir.contentTypes.map((ct) => ({ camel: ct.names.camel, file: ct.names.file, routes: !ct.plugin })),
      components: ir.components.map((c) => ({ ident: componentIdent(c.uid), file: c.names.file })),
    }),
  );
  return files;
}

/** `shared.rich-text` → `sharedRichText`: the component's identifier in emitted code. */
function componentIdent(uid: string): string {
  return camelCase(uid);
}

export function contentTypeMeta(ct: ContentType) {
  return {
    uid: ct.uid,
    ...(ct.plugin ? { plugin: ct.plugin } : {}),
    kind: ct.kind,
    singularName: ct.names.singular,
    pluralName: ct.names.plural,
    table: ct.names.table,
    delegate: ct.names.camel,
    draftAndPublish: ct.draftAndPublish,
    populateCreatorFields: ct.populateCreatorFields,
    fields: Object.fromEntries(ct.attributes.map((a) => [a.name, fieldMeta(a)])),
  };
}

/** IR attribute → runtime FieldMeta, dropping what the runtime never reads. */
export function fieldMeta(a: Attribute): FieldMeta {
  const common = { name: a.name, ...(a.private ? { private: true } : {}) };
  switch (a.kind) {
    case 'scalar':
      return {
        kind: 'scalar',
        ...common,
        type: a.type,
        column: a.column,
        prismaField: a.name,
        ...(a.required ? { required: true } : {}),
        ...(a.unique ? { unique: true } : {}),
        ...(a.writable ? {} : { writable: false }),
        ...definedOnly({ minLength: a.minLength, maxLength: a.maxLength, min: a.min, max: a.max, regex: a.regex, enum: a.enum, default: a.default, targetField: a.targetField }),
      } as FieldMeta;
    case 'relation':
      return {
        kind: 'relation',
        ...common,
        relation: a.relation,
        target: a.target,
        toMany: a.toMany,
        ...(a.link ? { link: linkMeta(a.link, a.relation === 'oneToMany' || (a.relation === 'oneToOne' && (a.inversedBy ?? a.mappedBy) !== undefined)) } : {}),
      };
    case 'media':
      return { kind: 'media', ...common, multiple: a.multiple, ...definedOnly({ allowedTypes: a.allowedTypes }), ...(a.link ? { link: linkMeta(a.link, false) } : {}) } as FieldMeta;
    case 'component':
      return { kind: 'component', ...common, component: a.component, repeatable: a.repeatable, column: a.column, ...(a.required ? { required: true } : {}), ...definedOnly({ min: a.min, max: a.max }) };
    case 'dynamiczone':
      return { kind: 'dynamiczone', ...common, components: a.components, column: a.column, ...(a.required ? { required: true } : {}), ...definedOnly({ min: a.min, max: a.max }) };
  }
}

function linkMeta(link: LinkStorage, targetExclusive: boolean): LinkMeta {
  return {
    table: link.table,
    delegate: camelCase(link.model),
    ownerColumn: link.ownerColumn,
    targetColumn: link.targetColumn,
    orderColumn: link.orderColumn,
    inverseOrderColumn: link.inverseOrderColumn,
    targetExclusive,
  };
}

/** TypeScript members of the attributes interface: what a client receives by default. */
function responseFields(ct: ContentType): string[] {
  return ct.attributes
    .filter((a) => a.kind === 'scalar' && a.name !== 'id' && !a.private && a.type !== 'password')
    .map((a) => {
      if (a.kind !== 'scalar') return '';
      const ts = a.type === 'enumeration' && a.enum ? a.enum.map((v) => tsLiteral(v)).join(' | ') : scalarTypes[a.type].ts;
      const nullable = a.builtIn && a.name !== 'publishedAt' ? '' : ' | null';
      return `${a.name}: ${ts}${nullable};`;
    });
}

function definedOnly(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}
