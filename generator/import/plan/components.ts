/**
 * Components and dynamic zones folded into contentgen's JSON columns (storage reference §6.3),
 * for a batch of owners at a time: the owners' `<table>_components` join rows, the component
 * rows they name (Strapi's instance ids kept), and for those, recursively, their own nested
 * components, the relations of their `_links` tables and the media of `files_related_morphs`.
 * Every read is one query per table for the whole batch.
 */
import type { ProblemLog } from '../check/problems.js';
import type { StrapiLayout } from '../source/layout.js';
import type { NormalizedRow, StrapiSource } from '../source/types.js';
import { keptLinkRows } from './documents.js';
import { all } from '../source/all-rows.js';
import { componentJsonValue } from '../write/encode.js';
import type { ComponentField, ComponentPlan } from './plan.js';

type Json = Record<string, unknown>;

export interface FoldContext {
  readonly source: StrapiSource;
  readonly tables: ReadonlySet<string>;
  readonly components: ReadonlyMap<string, ComponentPlan>;
  readonly problems: ProblemLog;
  /** Strapi 4's or 5's table names; Strapi 5's links of components point at documents' rows. */
  readonly layout: StrapiLayout;
  /** Highest instance id written, by component uid (contentgen_component_ids). */
  readonly highestIds: Map<string, number>;
  /** Instances already placed, `<uid>#<id>`: a component row reached twice is reported. */
  readonly placed: Set<string>;
}

/** The JSON value of each component field for each owner id. */
export async function foldComponents(
  context: FoldContext,
  componentsTable: string,
  ownerIds: readonly number[],
  fields: readonly ComponentField[],
): Promise<Map<number, Json>> {
  const out = new Map<number, Json>();
  for (const id of ownerIds) out.set(id, Object.fromEntries(fields.map((f) => [f.attribute, f.repeatable ? [] : null])));
  if (fields.length === 0 || ownerIds.length === 0 || !context.tables.has(componentsTable)) return out;
  const { source } = context;
  const q = source.quote;
  const joins = await all(
    source.select(
      `SELECT id, entity_id, ${q(context.layout.componentIdColumn)} AS component_id, component_type, field, ${q('order')} AS ord FROM ${q(componentsTable)} WHERE entity_id IN (${ownerIds.join(', ')}) ORDER BY entity_id, field, ${q('order')}, id`,
      [],
      {},
    ),
  );
  const fieldsByName = new Map(fields.map((f) => [f.attribute, f]));
  // Component rows by uid, read once per uid for the batch.
  const idsByUid = new Map<string, Set<number>>();
  for (const j of joins) {
    if (!fieldsByName.has(String(j.field))) continue;
    const uid = String(j.component_type);
    if (!idsByUid.has(uid)) idsByUid.set(uid, new Set());
    idsByUid.get(uid)!.add(Number(j.component_id));
  }
  const instances = new Map<string, Json>();
  for (const [uid, ids] of idsByUid) {
    const plan = context.components.get(uid);
    if (!plan) continue;
    for (const [id, value] of await readInstances(context, plan, [...ids])) instances.set(`${uid}#${id}`, value);
  }
  for (const j of joins) {
    const field = fieldsByName.get(String(j.field));
    if (!field) continue;
    const uid = String(j.component_type);
    const key = `${uid}#${Number(j.component_id)}`;
    const instance = instances.get(key);
    if (!instance) {
      context.problems.add({
        level: 'notice',
        table: componentsTable,
        kind: 'dangling component',
        rows: [Number(j.id)],
        message: context.components.has(uid) ? `joins to a ${uid} row that does not exist` : `names component "${uid}", which the models no longer have`,
        fix: 'nothing: Strapi does not show these either; they are left out',
      });
      continue;
    }
    if (context.placed.has(key)) {
      context.problems.add({
        level: 'notice',
        table: componentsTable,
        kind: 'component shared',
        rows: [Number(j.id)],
        message: `${uid} id ${Number(j.component_id)} is joined to more than one entry or field: each copy keeps that id`,
        fix: 'nothing to do unless clients cache components by id; edit one of the entries afterwards to give it a new instance',
      });
    }
    context.placed.add(key);
    const value = field.kind === 'dynamiczone' ? { __component: uid, ...instance } : instance;
    const owner = out.get(Number(j.entity_id))!;
    if (field.repeatable) (owner[field.attribute] as Json[]).push(value);
    else if (owner[field.attribute] === null) owner[field.attribute] = value;
  }
  return out;
}

/** Instances of one component by id: scalars, relations, media and nested components. */
async function readInstances(context: FoldContext, plan: ComponentPlan, ids: readonly number[]): Promise<Map<number, Json>> {
  const out = new Map<number, Json>();
  const { source } = context;
  const q = source.quote;
  if (!context.tables.has(plan.sourceTable)) return out;
  const types = Object.fromEntries(plan.attributes.flatMap((a) => (a.kind === 'scalar' ? [[plan.columns[a.name]!, a.type]] : [])));
  const rows = await all(source.select(`SELECT * FROM ${q(plan.sourceTable)} WHERE id IN (${ids.join(', ')}) ORDER BY id`, [], types));
  const found = rows.map((r) => Number(r.id));
  if (found.length === 0) return out;
  const nestedFields: ComponentField[] = plan.attributes.flatMap((a) =>
    a.kind === 'component' || a.kind === 'dynamiczone' ? [{ attribute: a.name, target: a.column, kind: a.kind, repeatable: a.kind === 'dynamiczone' || a.repeatable }] : [],
  );
  const nested = await foldComponents(context, plan.componentsTable, found, nestedFields);
  const relations = new Map<string, Map<number, number[]>>();
  for (const [attribute, link] of Object.entries(plan.relations)) {
    const byOwner = new Map<number, number[]>();
    relations.set(attribute, byOwner);
    if (!context.tables.has(link.table)) continue;
    const columns = await source.columns(link.table);
    const order = columns.includes(link.orderColumn) ? `${q(link.orderColumn)}, ` : '';
    // Strapi 5: a draft's component links the target's draft row; the target's kept row stands for it.
    const from = context.layout.documents ? `${await keptLinkRows(source, link.table, { column: link.ownerColumn }, { column: link.targetColumn, table: link.targetTable })} l` : q(link.table);
    const linkRows = await all(
      source.select(`SELECT ${q(link.ownerColumn)} AS o, ${q(link.targetColumn)} AS t FROM ${from} WHERE ${q(link.ownerColumn)} IN (${found.join(', ')}) ORDER BY ${q(link.ownerColumn)}, ${order}id`, [], {}),
    );
    for (const r of linkRows) byOwner.set(Number(r.o), [...(byOwner.get(Number(r.o)) ?? []), Number(r.t)]);
  }
  const media = new Map<string, number[]>();
  const morphs = context.layout.mediaMorphs;
  if (plan.attributes.some((a) => a.kind === 'media') && context.tables.has(morphs)) {
    const morphRows = await all(
      source.select(
        `SELECT related_id, field, file_id FROM ${q(morphs)} WHERE related_type = ? AND related_id IN (${found.join(', ')}) ORDER BY related_id, field, ${q('order')}, id`,
        [plan.uid],
        {},
      ),
    );
    for (const r of morphRows) {
      const key = `${Number(r.related_id)}#${String(r.field)}`;
      media.set(key, [...(media.get(key) ?? []), Number(r.file_id)]);
    }
  }
  for (const row of rows) {
    const id = Number(row.id);
    const instance: Json = {};
    for (const a of plan.attributes) {
      switch (a.kind) {
        case 'scalar':
          instance[a.name] = a.name === 'id' ? id : componentJsonValue(row[plan.columns[a.name]!] ?? null, a.type);
          break;
        case 'relation': {
          const targets = relations.get(a.name)?.get(id) ?? [];
          instance[a.name] = a.toMany ? targets : (targets[0] ?? null);
          break;
        }
        case 'media': {
          const files = media.get(`${id}#${a.name}`) ?? [];
          instance[a.name] = a.multiple ? files : (files[0] ?? null);
          break;
        }
        case 'component':
        case 'dynamiczone':
          instance[a.name] = nested.get(id)![a.name];
          break;
        default:
          break;
      }
    }
    context.highestIds.set(plan.uid, Math.max(context.highestIds.get(plan.uid) ?? 0, id));
    out.set(id, instance);
  }
  return out;
}

