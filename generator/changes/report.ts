/**
 * The change report of a build that changes the models: `out/.contentgen/changes.md`, for the
 * pull request that regenerates the server. It compares the previous build (its model.json
 * and schema.graphql, read before anything is written) with this one:
 *
 *   GraphQL   graphql-js's findBreakingChanges / findDangerousChanges between the two schemas
 *   REST      removed or moved routes, removed, retyped or hidden attributes, attributes that
 *             became required, removed enum values (breaking); added enum values (dangerous)
 *   database  the migration this build adds and what it does to existing rows
 *
 * Pure: the same two builds always give the same text.
 */
import { buildSchema, findBreakingChanges, findDangerousChanges } from 'graphql';
import type { MigrationPlan } from '../migrate/plan.js';
import { RenameMap, type Rename } from '../migrate/renames.js';
import { describeAttribute, summaryText, type AttributeSummary, type ModelSummary, type TypeSummary } from './summary.js';

export const changeReportPath = '.contentgen/changes.md';

export interface BuildSnapshot {
  readonly summary?: ModelSummary;
  readonly sdl?: string;
}

export interface ChangeReport {
  readonly markdown: string;
  readonly breaking: readonly string[];
  readonly dangerous: readonly string[];
}

interface Findings {
  readonly breaking: string[];
  readonly dangerous: string[];
  readonly safe: string[];
}

/** The report between `previous` and `next`; undefined when neither the models nor the schema changed. */
export function changeReport(previous: BuildSnapshot, next: Required<BuildSnapshot>, migration: MigrationPlan, renames: readonly Rename[] = [], restPrefix = '/api'): ChangeReport | undefined {
  if (!previous.summary && !previous.sdl) return firstBuild(next);
  const sameModel = previous.summary !== undefined && summaryText(previous.summary) === summaryText(next.summary);
  if (sameModel && previous.sdl === next.sdl && !migration.added) return undefined;

  const graphql = graphqlFindings(previous.sdl, next.sdl);
  const rest = previous.summary ? restFindings(previous.summary, next.summary, new RenameMap(renames), restPrefix) : undefined;
  const database = databaseFindings(previous.summary, next.summary, migration);
  const breaking = [...graphql.breaking.map((l) => `GraphQL: ${l}`), ...(rest?.breaking ?? []).map((l) => `REST: ${l}`)];
  const dangerous = [...graphql.dangerous.map((l) => `GraphQL: ${l}`), ...(rest?.dangerous ?? []).map((l) => `REST: ${l}`)];

  const lines = [
    '# API changes',
    '',
    'What the last build that changed the API (its models, or contentgen itself) changed for clients, compared with the',
    'build before it. contentgen rewrites this file on every such build: review it with the regenerated server.',
    '',
    '## Summary',
    '',
    `- Breaking: ${breaking.length} (GraphQL ${graphql.breaking.length}, REST ${rest ? rest.breaking.length : 'not compared'})`,
    `- Dangerous: ${dangerous.length}`,
    `- Database: ${database.headline}`,
    '',
    '## GraphQL',
    '',
    ...section('Breaking', graphql.breaking),
    ...section('Dangerous', graphql.dangerous),
    ...(graphql.breaking.length + graphql.dangerous.length === 0 ? ['No breaking or dangerous change.', ''] : []),
    '## REST',
    '',
    ...(rest
      ? [
          ...section('Breaking', rest.breaking),
          ...section('Dangerous', rest.dangerous),
          ...section('Other changes', rest.safe),
          ...(rest.breaking.length + rest.dangerous.length + rest.safe.length === 0 ? ['No change.', ''] : []),
        ]
      : ['Not compared: the previous build kept no model summary (.contentgen/model.json).', '']),
    '## Database',
    '',
    ...database.lines,
  ];
  return { markdown: `${lines.join('\n').trimEnd()}\n`, breaking, dangerous };
}

function firstBuild(next: Required<BuildSnapshot>): ChangeReport {
  const types = Object.keys(next.summary.contentTypes).length;
  const components = Object.keys(next.summary.components).length;
  const markdown = [
    '# API changes',
    '',
    `No earlier build to compare with: ${types} content types (the plugins' included) and ${components} components.`,
    'contentgen rewrites this file on every build that changes the API: review it with the regenerated server.',
    '',
  ].join('\n');
  return { markdown, breaking: [], dangerous: [] };
}

function section(title: string, items: readonly string[]): string[] {
  return items.length === 0 ? [] : [`### ${title}`, '', ...items.map((item) => `- ${item}`), ''];
}

function graphqlFindings(previous: string | undefined, next: string): Omit<Findings, 'safe'> {
  if (previous === undefined) return { breaking: [], dangerous: [] };
  const before = buildSchema(previous);
  const after = buildSchema(next);
  return {
    breaking: findBreakingChanges(before, after).map((c) => `${c.type}: ${c.description}`),
    dangerous: findDangerousChanges(before, after).map((c) => `${c.type}: ${c.description}`),
  };
}

function restFindings(previous: ModelSummary, next: ModelSummary, renames: RenameMap, prefix: string): Findings {
  const findings: Findings = { breaking: [], dangerous: [], safe: [] };
  const renamedTo = new Set(renames.types.values());
  for (const [uid, before] of Object.entries(previous.contentTypes)) {
    const newUid = renames.type(uid);
    const after = next.contentTypes[newUid];
    const where = before.route ? `\`${prefix}${before.route}\`` : `\`${uid}\``;
    if (!after) {
      findings.breaking.push(before.route ? `${where}: content type ${uid} removed, its routes answer 404` : `${uid} removed`);
      continue;
    }
    if (newUid !== uid) findings.breaking.push(`${where}: content type ${uid} renamed to ${newUid} (--rename), its data kept`);
    if (before.route && after.route !== before.route) findings.breaking.push(`${where}: routes moved to \`${prefix}${after.route}\``);
    if (before.kind !== after.kind) findings.breaking.push(`${where}: ${before.kind} became ${after.kind}, its routes and answers change shape`);
    compareAttributes(where, before.attributes, after.attributes, findings, (name) => renames.attribute(newUid, name), renames);
  }
  for (const [uid, after] of Object.entries(next.contentTypes)) {
    if (!previous.contentTypes[uid] && !renamedTo.has(uid)) findings.safe.push(after.route ? `\`${prefix}${after.route}\`: content type ${uid} added` : `${uid} added`);
  }
  const componentsRenamedTo = new Set(renames.components.values());
  for (const [uid, before] of Object.entries(previous.components)) {
    const newUid = renames.component(uid);
    const after = next.components[newUid];
    if (!after) findings.breaking.push(`component ${uid} removed`);
    else {
      if (newUid !== uid) findings.breaking.push(`component ${uid} renamed to ${newUid} (--rename): dynamic-zone items name it \`${newUid}\` in \`__component\`, its data kept`);
      compareAttributes(`component ${newUid}`, before.attributes, after.attributes, findings, (name) => name, renames);
    }
  }
  for (const uid of Object.keys(next.components)) if (!previous.components[uid] && !componentsRenamedTo.has(uid)) findings.safe.push(`component ${uid} added`);
  return findings;
}

function compareAttributes(
  where: string,
  before: TypeSummary['attributes'],
  after: TypeSummary['attributes'],
  findings: Findings,
  newName: (name: string) => string,
  renames: RenameMap,
): void {
  const renamedTo = new Set<string>();
  for (const [name, old] of Object.entries(before)) {
    const label = `${where} \`${name}\``;
    const renamed = newName(name);
    const now = after[renamed];
    if (!now) {
      if (old.private) findings.dangerous.push(`${label}: private attribute removed, writes that send it are refused`);
      else findings.breaking.push(`${label}: removed, it disappears from answers and is refused in filters, sort, fields, populate and writes`);
      continue;
    }
    if (renamed !== name) {
      renamedTo.add(renamed);
      findings.breaking.push(`${label}: renamed to \`${renamed}\` (--rename), its data kept; clients must use the new name`);
    }
    // Relations to a renamed type, components renamed: compared under their new names.
    const shape = (a: AttributeSummary, mapped: boolean) =>
      JSON.stringify([a.type, a.relation, mapped && a.target ? renames.type(a.target) : a.target, a.multiple, mapped && a.component ? renames.component(a.component) : a.component, a.repeatable, mapped ? a.components?.map((c) => renames.component(c)) : a.components]);
    if (shape(old, true) !== shape(now, false)) findings.breaking.push(`${label}: ${describeAttribute(old)} became ${describeAttribute(now)}`);
    if (!old.private && now.private) findings.breaking.push(`${label}: became private, it disappears from answers and filters`);
    if (old.private && !now.private) findings.safe.push(`${label}: no longer private, answers now include it`);
    if (!old.required && now.required) findings.breaking.push(`${label}: became required, creates that omit it are refused (400)`);
    const removed = (old.enum ?? []).filter((v) => !(now.enum ?? []).includes(v));
    const added = (now.enum ?? []).filter((v) => !(old.enum ?? []).includes(v));
    if (removed.length && now.enum) findings.breaking.push(`${label}: enum values removed: ${removed.map((v) => `\`${v}\``).join(', ')}`);
    if (added.length && old.enum) findings.dangerous.push(`${label}: enum values added (clients that handle every value must learn them): ${added.map((v) => `\`${v}\``).join(', ')}`);
  }
  for (const [name, now] of Object.entries(after)) {
    if (before[name] || renamedTo.has(name)) continue;
    const label = `${where} \`${name}\``;
    if (now.required) findings.breaking.push(`${label}: added as required, creates that omit it are refused (400)`);
    else findings.safe.push(`${label}: added (${describeAttribute(now)})`);
  }
}

function databaseFindings(previous: ModelSummary | undefined, next: ModelSummary, migration: MigrationPlan): { headline: string; lines: string[] } {
  if (!migration.added) return { headline: 'no migration (the database schema is unchanged)', lines: ['No migration: the database schema is unchanged.', ''] };
  const name = `\`${migration.added.path}\``;
  // Attributes now required on types that existed: their rows may lack a value.
  const backfill: string[] = [];
  for (const [uid, after] of Object.entries(next.contentTypes)) {
    const before = previous?.contentTypes[uid];
    if (!before) continue;
    for (const [attribute, summary] of Object.entries(after.attributes)) {
      if (summary.required && !before.attributes[attribute]?.required) backfill.push(`${uid} \`${attribute}\``);
    }
  }
  const lines = [`Migration ${name}.`, ''];
  if (migration.renamed?.length) lines.push('Renames (--rename, and names now spelt as Strapi spells them), keeping the data:', '', ...migration.renamed.map((r) => `- ${r}`), '');
  let headline: string;
  if (migration.dataLoss.length > 0) {
    headline = `${name}: data-losing (accepted with --accept-data-loss)`;
    lines.push('Data-losing (accepted with --accept-data-loss):', '', ...migration.dataLoss.map((l) => `- ${l}`), '');
  } else if (backfill.length > 0) {
    headline = `${name}: needs a backfill`;
  } else if (migration.renamed?.length) {
    headline = `${name}: renames, keeps every row`;
  } else {
    headline = `${name}: safe (adds, keeps every row)`;
  }
  if (backfill.length > 0) {
    lines.push(
      'Needs a backfill: existing entries have no value for these now-required attributes. Their columns stay nullable (drafts',
      'may omit them), so the migration applies and the entries still read; creates must now send them. To give existing',
      'entries a value, add an UPDATE to the migration before it is applied:',
      '',
      ...backfill.map((b) => `- ${b}`),
      '',
    );
  }
  return { headline, lines };
}
