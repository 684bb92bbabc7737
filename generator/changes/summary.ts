/**
 * What the API promises, summed up from the IR: `out/.contentgen/model.json`, kept with the
 * build so the next build can tell what changed (report.ts) from the models themselves, not
 * from emitted text. Only what clients see: types, their REST routes, their attributes and
 * the attribute facts a client depends on. Deterministic: sorted keys, no paths, no dates.
 */
import type { Attribute, Component, ContentType, Schema } from '../ir/types.js';

export const modelSummaryPath = '.contentgen/model.json';

export interface AttributeSummary {
  /** `string`, `integer`…, or `relation`, `media`, `component`, `dynamiczone`. */
  readonly type: string;
  readonly required?: true;
  readonly private?: true;
  readonly enum?: readonly string[];
  /** Relations: `oneToMany`… and the target uid. */
  readonly relation?: string;
  readonly target?: string;
  readonly multiple?: true;
  readonly component?: string;
  readonly repeatable?: true;
  readonly components?: readonly string[];
}

export interface TypeSummary {
  readonly kind: 'collectionType' | 'singleType';
  /** REST base path under the prefix (`/articles`), absent for plugin types. */
  readonly route?: string;
  readonly attributes: Readonly<Record<string, AttributeSummary>>;
}

export interface ModelSummary {
  readonly version: 1;
  readonly contentTypes: Readonly<Record<string, TypeSummary>>;
  readonly components: Readonly<Record<string, { readonly attributes: Readonly<Record<string, AttributeSummary>> }>>;
  /**
   * Where each content type keeps its data: what a rename (migrate/renames.ts) maps from. Absent
   * in summaries written before renames of types and relations existed.
   */
  readonly storage?: Readonly<Record<string, TypeStorage>>;
}

/** A content type's table, its attributes' columns and the link tables its owning relations and media declare. */
export interface TypeStorage {
  readonly table: string;
  /** Scalar, component and dynamic-zone attributes → column. */
  readonly columns: Readonly<Record<string, string>>;
  readonly links: Readonly<Record<string, LinkSummary>>;
}

export interface LinkSummary {
  /** Related type's uid (`plugin::upload.file` for media). */
  readonly target: string;
  readonly table: string;
  readonly ownerColumn: string;
  readonly targetColumn: string;
  readonly orderColumn: string;
  readonly inverseOrderColumn: string;
}

export function summarize(ir: Schema): ModelSummary {
  const contentTypes: Record<string, TypeSummary> = {};
  for (const ct of ir.contentTypes) contentTypes[ct.uid] = typeSummary(ct);
  const components: Record<string, { attributes: Record<string, AttributeSummary> }> = {};
  for (const component of ir.components) components[component.uid] = { attributes: attributes(component) };
  const storage: Record<string, TypeStorage> = {};
  for (const ct of ir.contentTypes) storage[ct.uid] = typeStorage(ct);
  return { version: 1, contentTypes, components, storage };
}

function typeStorage(ct: ContentType): TypeStorage {
  const columns: Record<string, string> = {};
  const links: Record<string, LinkSummary> = {};
  for (const a of ct.attributes) {
    if (a.kind === 'relation' || a.kind === 'media') {
      if (!a.link?.owning) continue;
      const { table, ownerColumn, targetColumn, orderColumn, inverseOrderColumn } = a.link;
      links[a.name] = { target: a.kind === 'media' ? 'plugin::upload.file' : a.target, table, ownerColumn, targetColumn, orderColumn, inverseOrderColumn };
    } else if (a.kind !== 'morph') columns[a.name] = a.column;
  }
  return { table: ct.names.table, columns, links };
}

function typeSummary(ct: ContentType): TypeSummary {
  return { kind: ct.kind, ...(ct.plugin ? {} : { route: `/${ct.names.route}` }), attributes: attributes(ct) };
}

function attributes(owner: ContentType | Component): Record<string, AttributeSummary> {
  const out: Record<string, AttributeSummary> = {};
  for (const attribute of owner.attributes) if (attribute.name !== 'id') out[attribute.name] = attributeSummary(attribute);
  return out;
}

export function attributeSummary(a: Attribute): AttributeSummary {
  const common = { ...(a.required ? { required: true as const } : {}), ...(a.private ? { private: true as const } : {}) };
  switch (a.kind) {
    case 'scalar':
      return { type: a.type, ...common, ...(a.enum?.length ? { enum: [...a.enum] } : {}) };
    case 'relation':
      return { type: 'relation', ...common, relation: a.relation, target: a.target };
    case 'morph':
      return { type: 'relation', ...common, relation: a.relation, ...(a.target ? { target: a.target } : {}) };
    case 'media':
      return { type: 'media', ...common, ...(a.multiple ? { multiple: true as const } : {}) };
    case 'component':
      return { type: 'component', ...common, component: a.component, ...(a.repeatable ? { repeatable: true as const } : {}) };
    case 'dynamiczone':
      return { type: 'dynamiczone', ...common, components: [...a.components] };
  }
}

/** model.json's text: two-space JSON with sorted keys, as every build writes it. */
export function summaryText(summary: ModelSummary): string {
  return `${JSON.stringify(sortKeys(summary), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
  }
  return value;
}

/** `a manyToOne relation to api::author.author`, `an enumeration (draft, published)`, … */
export function describeAttribute(a: AttributeSummary): string {
  switch (a.type) {
    case 'relation':
      return a.target === undefined ? `a ${a.relation} relation` : `a ${a.relation} relation to ${a.target}`;
    case 'media':
      return a.multiple ? 'multiple media' : 'single media';
    case 'component':
      return `${a.repeatable ? 'a repeatable' : 'a'} component ${a.component}`;
    case 'dynamiczone':
      return `a dynamic zone of ${(a.components ?? []).join(', ')}`;
    default:
      return a.enum ? `an enumeration (${a.enum.join(', ')})` : `${/^[aeiou]/.test(a.type) ? 'an' : 'a'} ${a.type}`;
  }
}
