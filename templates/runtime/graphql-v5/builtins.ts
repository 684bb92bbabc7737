/**
 * Content types Strapi 5 has built in that a v4 project lacks, as its GraphQL schema shows them:
 * the review-workflows plugin's workflow and stage (`@strapi/review-workflows`, Content API
 * visible). contentgen stores none of them: their queries answer empty lists and null.
 */
import type { ContentTypeMeta, FieldMeta } from '../meta.js';

const scalar = (name: string, type: 'string' | 'json', required = false): FieldMeta => ({ kind: 'scalar', name, type, column: name, prismaField: name, ...(required ? { required } : {}) });
const relation = (name: string, target: string, toMany: boolean): FieldMeta => ({ kind: 'relation', name, relation: toMany ? 'oneToMany' : 'manyToOne', target, toMany });
const fields = (list: FieldMeta[]) => Object.fromEntries(list.map((f) => [f.name, f]));

const builtin = (singularName: string, pluralName: string, list: FieldMeta[]): ContentTypeMeta => ({
  uid: `plugin::review-workflows.${singularName}`,
  plugin: 'review-workflows',
  kind: 'collectionType',
  singularName,
  pluralName,
  table: '',
  delegate: '',
  draftAndPublish: false,
  populateCreatorFields: false,
  fields: fields(list),
});

export const builtinContentTypes: readonly ContentTypeMeta[] = [
  builtin('workflow', 'workflows', [
    scalar('name', 'string', true),
    relation('stages', 'plugin::review-workflows.workflow-stage', true),
    relation('stageRequiredToPublish', 'plugin::review-workflows.workflow-stage', false),
    scalar('contentTypes', 'json', true),
  ]),
  builtin('workflow-stage', 'workflow-stages', [scalar('name', 'string'), scalar('color', 'string'), relation('workflow', 'plugin::review-workflows.workflow', false)]),
];

/** Whether contentgen stores this type (the built-in ones have no table). */
export const isStored = (meta: ContentTypeMeta): boolean => meta.table !== '';
