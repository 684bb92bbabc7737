/**
 * `contentgen import`, readable in one function: source → plan → (check + write) → files.
 * A Strapi 5 database is planned through its layout (source/layout.ts) and read a document's
 * kept row at a time (plan/documents.ts); everything after the plan is the same for both.
 *
 * One pass reads every Strapi table a batch at a time and hands each batch to a sink: a
 * counter for --dry-run, the server's database otherwise (all inside one transaction). The
 * checks run in the same pass; a real run that found problems rolls the transaction back (the
 * target is left as it was) unless --skip-invalid, which leaves the rows out and reports them.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSchema } from '../pipeline.js';
import type { Provider } from '../ir/scalars.js';
import type { Schema } from '../ir/types.js';
import { formatModelError } from '../validate/model-error.js';
import { ProblemLog, type Problem } from './check/problems.js';
import type { FoldContext } from './plan/components.js';
import { all } from './source/all-rows.js';
import { duplicateUniques, entryBatches } from './plan/entries.js';
import { groupDocumentIds, linkSourceInUse, localizationLinks, readLinks, readLocalizationGroups, type LinkRow, type LocalizationGroups } from './plan/links.js';
import { newDocumentId } from '../../templates/runtime/entity/document-id.js';
import { liveIdColumn } from '../../templates/runtime/entity/drafts.js';
import { planImport, type ImportPlan, type LinkPlan } from './plan/plan.js';
import { documentLocalizationGroups, keptLinkRows } from './plan/documents.js';
import { pendingDraftLinkRows, pendingDraftMorphChanges, pendingDraftRows, pendingDrafts, reportPendingDraftLinks, type DraftLinkField, type PendingDraft } from './plan/pending-drafts.js';
import { draftLinksTableOf, draftTableOf } from '../emit/prisma/schema.js';
import { detectLayout, type StrapiLayout } from './source/layout.js';
import { importAuth as planAuth, userColumnTypes, type AuthImport } from './auth/index.js';
import { readAuthTables } from './source/auth-tables.js';
import { silentProgress, type ImportProgress } from './progress.js';
import { archiveFormat, type ArchiveFormat } from './source/archive/format.js';
import { stageArchive } from './source/archive/stage.js';
import { locateSource, openSource, type DatabaseLocation } from './source/locate.js';
import type { NormalizedRow, StrapiAuthTables, StrapiSource } from './source/types.js';
import { encodeRows, encodeValue } from './write/encode.js';
import { migrateServerDatabase, serverDatabase } from './write/server-target.js';
import { openTarget, type TargetDatabase } from './write/target.js';
import { UploadCopies } from './write/uploads.js';

export interface ImportOptions {
  /** The Strapi project (or its src/ models folder with --from). */
  readonly project: string;
  /** The server built from it (`contentgen build … -o`). */
  readonly serverDir: string;
  readonly from?: string;
  readonly uploads?: string;
  readonly dryRun: boolean;
  readonly replace: boolean;
  readonly skipInvalid: boolean;
  /** IANA zone the Strapi server wrote PostgreSQL/MySQL timestamps in (default: this process's). */
  readonly timeZone?: string;
  readonly batchSize?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Progress and summary lines. */
  readonly log?: (line: string) => void;
  /** Rows written per table as they go (the CLI's bar or lines; nothing by default). */
  readonly progress?: ImportProgress;
}

export interface ImportResult {
  readonly ok: boolean;
  /** Rows per contentgen table (written, or that would be with --dry-run). */
  readonly counts: ReadonlyMap<string, number>;
  readonly problems: readonly Problem[];
  readonly notes: readonly string[];
  /** Why nothing was done (bad input, a target that is not empty…). */
  readonly error?: string;
  readonly reportPath?: string;
  readonly filesCopied?: number;
}

/** Tables the server rewrites at every start from its files: their rows do not make a target "not empty". */
const serverOwnedTables = new Set(['_prisma_migrations', 'i18n_locale', 'up_roles', 'up_permissions', 'up_permissions_role_links', 'contentgen_component_ids']);

export async function runImport(options: ImportOptions): Promise<ImportResult> {
  const log = options.log ?? (() => {});
  const env = options.env ?? process.env;
  const fail = (error: string): ImportResult => ({ ok: false, counts: new Map(), problems: [], notes: [], error });
  const timeZone = options.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  const located = locateSource(options.project, options.from, env);
  if (typeof located === 'string') return fail(located);
  const archive = located.dialect === 'archive' ? archiveFormat(located.file) : undefined;
  if (typeof archive === 'string' && archive !== 'tar' && archive !== 'tar.gz') return fail(archive);
  const database = options.dryRun && !existsSync(path.join(options.serverDir, 'prisma', 'migrations')) ? undefined : await serverDatabase(options.serverDir, env);
  if (!options.dryRun && !existsSync(path.join(options.serverDir, 'prisma', 'migrations'))) return fail(`${options.serverDir} is not a server contentgen built (no prisma/migrations): run contentgen build ${options.project} -o ${options.serverDir} first`);
  const targetProvider: Provider = database?.provider ?? 'sqlite';

  // The IR twice: Strapi's names in its database, and contentgen's in the server's.
  const sourceSchema = await loadSchema({ modelsDir: options.project, outDir: options.serverDir, provider: located.dialect === 'postgresql' ? 'postgresql' : 'sqlite' });
  if (!sourceSchema.ok) return fail(`the models of ${options.project} do not build:\n${sourceSchema.errors.map((e) => `  ${formatModelError(e)}`).join('\n')}`);
  const targetSchema = targetProvider === (located.dialect === 'postgresql' ? 'postgresql' : 'sqlite') ? sourceSchema : await loadSchema({ modelsDir: options.project, outDir: options.serverDir, provider: targetProvider });
  if (!targetSchema.ok) return fail('the models do not build for the server\'s database');

  // An archive is read into a database in Strapi's SQLite layout first; from there on it is one.
  if (located.dialect === 'archive') log(`reading ${located.file}`);
  const staged = located.dialect === 'archive' ? await stageArchive(located.file, archive as ArchiveFormat, sourceSchema.ir) : undefined;
  const location: DatabaseLocation = staged ? { dialect: 'sqlite', file: staged.database } : (located as DatabaseLocation);
  const uploadsDir = options.uploads ?? staged?.uploads;
  const source = openSource(location, timeZone);
  if (!staged) log(`reading ${describe(location)}${location.dialect === 'sqlite' ? '' : ` (timestamps read as ${timeZone} wall time; --time-zone to change)`}`);
  let target: TargetDatabase | undefined;
  try {
    const { layout, why } = await detectLayout(source, await source.tables(), options.project);
    if (layout.strapi === 5) log(`a Strapi 5 database: ${why}`);
    const plan = planImport(sourceSchema.ir, targetSchema.ir, location.dialect, layout);
    if (!options.dryRun && database) {
      const applied = await migrateServerDatabase(options.serverDir, database);
      if (applied.length) log(`applied the server's migrations: ${applied.join(', ')}`);
      target = await openTarget(database.url, options.serverDir);
      log(`writing ${database.provider} database of ${options.serverDir} (${database.from})`);
      const refusal = await checkTarget(target, plan, options.replace);
      if (refusal) return fail(refusal);
      await target.begin();
      if (options.replace) await clearTarget(target, plan);
    }
    const run = await transfer({ source, target, plan, options: { ...options, ...(uploadsDir ? { uploads: uploadsDir } : {}) }, ir: targetSchema.ir, dialect: targetProvider, log });
    if (staged) run.notes.unshift(...staged.notes);
    const errors = run.problems.filter((p) => p.level === 'error');
    if (target) {
      if (errors.length > 0 && !options.skipInvalid) {
        await target.rollback();
        return { ok: false, counts: run.counts, problems: run.problems, notes: run.notes, error: `${errors.length} problem(s) found: nothing was written (fix them, or --skip-invalid to leave those rows out)` };
      }
      await target.commit();
    }
    if (options.dryRun) return { ok: errors.length === 0, counts: run.counts, problems: run.problems, notes: run.notes };

    const filesCopied = await run.uploads.copyTo(options.serverDir);
    for (const file of run.files) {
      const dir = file.root === 'models' ? sourceSchema.input.modelsDir : options.serverDir;
      const full = path.join(dir, file.path);
      await mkdir(path.dirname(full), { recursive: true });
      const before = await readFile(full, 'utf8').catch(() => undefined);
      if (before === file.content) continue;
      await writeFile(full, file.content, file.kind === 'secrets' ? { mode: 0o600 } : {});
      run.notes.push(`wrote ${path.relative(process.cwd(), full)}${file.root === 'models' ? ': run contentgen build again so the server takes it' : ''}`);
    }
    let reportPath: string | undefined;
    if (errors.length > 0) {
      const { skippedReport } = await import('./check/problems.js');
      reportPath = path.join(options.serverDir, 'import-skipped.md');
      await writeFile(reportPath, skippedReport(errors, new Date()));
    }
    return { ok: true, counts: run.counts, problems: run.problems, notes: run.notes, filesCopied, ...(reportPath ? { reportPath } : {}) };
  } catch (e) {
    await target?.rollback().catch(() => {});
    throw e;
  } finally {
    await target?.close();
    await source.close();
    await staged?.cleanup();
  }
}

function describe(location: DatabaseLocation): string {
  return location.dialect === 'sqlite' ? `SQLite database ${location.file}` : `${location.dialect} database ${location.url.replace(/:[^:@/]*@/, ':***@')}`;
}

/** Every table the import writes. */
function writtenTables(plan: ImportPlan): string[] {
  return [
    ...plan.links.map((l) => l.target.table),
    ...plan.morphTables.map((m) => m.target.table),
    'up_users_role_links',
    'strapi_api_tokens',
    'up_users',
    // Drafts' links before their drafts, drafts before their live rows (foreign keys to them).
    ...plan.entries.map((e) => draftLinksTableOf(e.targetTable)),
    ...plan.entries.map((e) => draftTableOf(e.targetTable)),
    ...plan.entries.map((e) => e.targetTable),
  ];
}

async function checkTarget(target: TargetDatabase, plan: ImportPlan, replace: boolean): Promise<string | undefined> {
  if (replace) return undefined;
  const tables = await target.tables();
  const filled: string[] = [];
  for (const table of writtenTables(plan)) {
    if (serverOwnedTables.has(table) || !tables.has(table)) continue;
    const n = await target.count(table);
    if (n > 0) filled.push(`${table} (${n})`);
  }
  return filled.length ? `the server's database is not empty: ${filled.join(', ')}; --replace deletes what it holds first` : undefined;
}

async function clearTarget(target: TargetDatabase, plan: ImportPlan): Promise<void> {
  const tables = await target.tables();
  for (const table of [...writtenTables(plan), 'up_permissions_role_links', 'up_permissions', 'up_roles', 'contentgen_component_ids']) if (tables.has(table)) await target.clear(table);
}

interface TransferInput {
  readonly source: StrapiSource;
  readonly target: TargetDatabase | undefined;
  readonly plan: ImportPlan;
  readonly options: ImportOptions;
  readonly ir: Schema;
  readonly dialect: Provider;
  readonly log: (line: string) => void;
}

async function transfer(input: TransferInput) {
  const { source, target, plan, options, dialect, log } = input;
  const progress = options.progress ?? silentProgress;
  const problems = new ProblemLog();
  const notes: string[] = [];
  const counts = new Map<string, number>();
  const tables = await source.tables();
  const write = async (table: string, columns: readonly string[], rows: unknown[][]) => {
    counts.set(table, (counts.get(table) ?? 0) + rows.length);
    if (target && rows.length) await target.insert(table, columns, rows);
  };
  const layout = plan.layout;
  const fold: FoldContext = { source, tables, components: plan.components, problems, layout, highestIds: new Map(), placed: new Set() };
  const uploads = new UploadCopies(options.uploads ? path.resolve(options.uploads) : path.join(path.resolve(options.project), 'public', 'uploads'), problems);
  const batchSize = options.batchSize ?? 500;
  const localeRows = tables.has('i18n_locale') ? await all(source.rows({ table: 'i18n_locale' }, { code: 'string', name: 'string' })) : [];
  const defaultLocale = (await coreStoreValue(source, tables, 'plugin_i18n_default_locale')) ?? input.ir.i18n.defaultLocale;

  // The localization groups, read before the entries: a group's entries share a documentId.
  const groups = new Map<string, LocalizationGroups>();
  // (Strapi 5 has no localizations links: a document's rows in each locale are its group.)
  for (const link of plan.links) {
    if (link.kind !== 'localizations') continue;
    groups.set(link.uid, layout.documents ? await documentLocalizationGroups(source, link.ownerTable.source) : await readLocalizationGroups(source, tables, link, problems, layout));
  }
  // Entries first (links point at them), files before the types that link to them.
  const entries = [...plan.entries].sort((a, b) => Number(b.uid.startsWith('plugin::upload')) - Number(a.uid.startsWith('plugin::upload')));
  const sequences: [string, number][] = [];
  for (const entry of entries) {
    if (!tables.has(entry.sourceTable)) {
      notes.push(`${entry.sourceTable}: not in the Strapi database (${entry.uid} has no rows there)`);
      continue;
    }
    // The server writes its locales at start and keeps rows it finds by code: Strapi's replace them (ids, timestamps).
    if (target && entry.uid === 'plugin::i18n.locale') await target.clear(entry.targetTable);
    const duplicates = await duplicateUniques(source, entry, problems, layout);
    progress.start(entry.targetTable, await rowCount(source, entry.sourceTable));
    const grouped = groups.get(entry.uid);
    const documentIds = grouped && groupDocumentIds(grouped, newDocumentId);
    for await (const batch of entryBatches(fold, entry, dialect, { duplicates, defaultLocale, batchSize, ...(documentIds ? { documentIds } : {}) })) {
      if (entry.uid === 'plugin::upload.file') uploads.add(batch.source);
      await write(entry.targetTable, batch.columns, batch.rows);
      progress.update(counts.get(entry.targetTable) ?? 0);
    }
    progress.done(counts.get(entry.targetTable) ?? 0);
    sequences.push([entry.targetTable, await source.lastId(entry.sourceTable)]);
  }
  // Strapi 5: the pending drafts of published documents, into the types' draft tables.
  const drafts: PendingDraft[] = [];
  if (layout.documents) {
    const targetTables = target ? await target.tables() : undefined;
    for (const entry of plan.entries) {
      if (!tables.has(entry.sourceTable)) continue;
      const pending = await pendingDrafts(source, entry.uid, entry.sourceTable);
      drafts.push(...pending);
      const type = input.ir.contentTypes.find((c) => c.uid === entry.uid);
      const draftTable = draftTableOf(entry.targetTable);
      if (!pending.length || !type?.draftAndPublish || (targetTables && !targetTables.has(draftTable))) continue;
      // The draft table's columns: the type's own (scalars, components, zones), no documentId, no links.
      const keep = new Set([...entry.columns.map((c) => c.target), ...entry.componentFields.map((f) => f.target)]);
      const from = `(SELECT p.* FROM ${source.quote(entry.sourceTable)} p WHERE p.id IN (${pending.map((d) => d.draftId).join(', ')}))`;
      progress.start(draftTable, pending.length);
      for await (const batch of entryBatches(fold, entry, dialect, { duplicates: new Map(), defaultLocale, batchSize, from })) {
        const rows = pendingDraftRows(pending, batch, { columns: keep, firstId: (counts.get(draftTable) ?? 0) + 1 });
        await write(draftTable, rows.columns, rows.rows);
        progress.update(counts.get(draftTable) ?? 0);
      }
      progress.done(counts.get(draftTable) ?? 0);
      sequences.push([draftTable, 0]);
      // Their relations and media: each draft row's own links in Strapi, every link field (runtime draftLinkFields).
      const linkFields: DraftLinkField[] = type.attributes.flatMap((a) =>
        (a.kind === 'relation' || a.kind === 'media') && a.link ? [{ name: a.name, kind: a.kind, link: a.link, toMany: a.kind === 'relation' ? a.toMany : a.multiple }] : [],
      );
      const draftLinks = draftLinksTableOf(entry.targetTable);
      if (linkFields.length && (!targetTables || targetTables.has(draftLinks))) {
        const rows = await pendingDraftLinkRows(source, tables, pending, linkFields, plan.links, layout);
        progress.start(draftLinks, rows.length);
        await write(draftLinks, [liveIdColumn, 'field', 'target_id', 'position'], rows);
        progress.done(counts.get(draftLinks) ?? 0);
      }
      reportPendingDraftLinks(pending, await pendingDraftMorphChanges(source, tables, pending, plan.morphTables.filter((m) => m.uid === entry.uid)), problems);
    }
  }
  // Users (and roles, tokens) before the links: relations may point at users.
  const files: { path: string; root: 'models' | 'server'; kind: string; content: string }[] = [];
  const auth = await importAuth(source, input.ir, layout);
  // The server wrote roles and permissions at its first start; the imported roles replace them.
  if (target) for (const table of ['up_permissions_role_links', 'up_permissions', 'up_users_role_links', 'up_roles']) if ((await target.tables()).has(table)) await target.clear(table);
  for (const table of auth.tables) {
    // Users and roles carry their documentIds from the plan (auth/index.ts).
    const { columns, values } = encodeRows(table.rows, table.types, dialect);
    progress.start(table.table, table.rows.length);
    await write(table.table, columns, values);
    if (target && table.rows.some((r) => 'id' in r)) await target.setSequence(table.table, 0);
    progress.done(table.rows.length);
  }
  for (const p of auth.problems) problems.add({ level: 'error', table: p.table, kind: 'users-permissions', rows: p.rows, message: p.message, fix: p.fix });
  files.push(...auth.files);
  notes.push(...auth.notes);
  if (tables.has('strapi_workflows')) {
    const workflows = await rowCount(source, 'strapi_workflows');
    if (workflows) notes.push(`strapi_workflows: ${workflows} review workflow(s) not imported: contentgen has no review workflows (entries keep their draft or published state; their review stages are dropped)`);
  }
  for (const planned of plan.links) {
    const link = await linkSourceInUse(source, tables, planned, problems);
    const columns = [link.target.ownerColumn, link.target.targetColumn, link.target.orderColumn, link.target.inverseOrderColumn];
    // Media links are new rows of new tables: their ids are numbered here.
    let nextId = 0;
    const toRows = (rows: readonly LinkRow[]) => rows.map((r) => [link.kind === 'media' ? ++nextId : r.id, r.owner, r.target, r.order, r.inverseOrder]);
    const written = () => counts.get(link.target.table) ?? 0;
    progress.start(link.target.table, await linkCount(source, tables, link, layout));
    if (link.kind === 'localizations') {
      await write(link.target.table, ['id', ...columns], toRows(localizationLinks(groups.get(link.uid)!)));
    } else {
      for await (const batch of readLinks(source, tables, link, problems, layout)) {
        await write(link.target.table, ['id', ...columns], toRows(batch));
        progress.update(written());
      }
    }
    progress.done(written());
  }
  await reportOrphanMorphs(source, tables, plan.links, problems, layout);
  for (const morph of plan.morphTables) {
    if (!tables.has(morph.source.table)) continue;
    progress.start(morph.target.table, await rowCount(source, morph.source.table));
    // Strapi 5: the kept rows' morph rows (a draft's are left out when its document is published).
    const owner = plan.entries.find((e) => e.uid === morph.uid)?.sourceTable;
    const rows = layout.documents && owner
      ? source.select(`SELECT * FROM ${await keptLinkRows(source, morph.source.table, { column: morph.source.ownerColumn, table: owner }, { column: morph.source.idColumn })} m ORDER BY id`, [], {})
      : source.rows({ table: morph.source.table }, {});
    for await (const batch of rows) {
      const columns = Object.keys(batch[0] ?? {});
      await write(morph.target.table, columns, batch.map((r) => columns.map((c) => encodeValue(r[c] ?? null, undefined, dialect))));
      progress.update(counts.get(morph.target.table) ?? 0);
    }
    progress.done(counts.get(morph.target.table) ?? 0);
  }

  const componentIds = new Map<string, number>();
  for (const [uid, highest] of fold.highestIds) componentIds.set(uid, Math.max(highest, await source.lastId(plan.components.get(uid)!.sourceTable)));
  if (target) {
    // Models without components have no contentgen_component_ids table.
    if (componentIds.size) await target.setComponentIds(componentIds);
    for (const [table, last] of sequences) await target.setSequence(table, last);
    for (const link of plan.links) await target.setSequence(link.target.table, 0);
  }

  if (layout.documents) {
    for (const entry of plan.entries) {
      if (!tables.has(entry.sourceTable)) continue;
      const pending = drafts.filter((d) => d.uid === entry.uid).length;
      const versions = (await rowCount(source, entry.sourceTable)) - (counts.get(entry.targetTable) ?? 0) - pending;
      if (versions > 0) notes.push(`${entry.sourceTable}: ${versions} draft row(s) of published documents without edits of their own left out (Strapi 5 keeps a draft and a published row per document; the published one is the entry)`);
      if (pending > 0) notes.push(`${entry.sourceTable}: ${pending} pending draft(s) of published documents kept in ${draftTableOf(entry.targetTable)} (their edits, relations and media included, unpublished as in Strapi)`);
    }
    const leftOut: Record<string, string> = {
      strapi_history_versions: 'content history version(s) of the admin panel not imported: contentgen keeps no history',
      strapi_sessions: 'session(s) not imported: users log in again where a client used refresh tokens (their JWTs keep working)',
    };
    for (const [table, what] of Object.entries(leftOut)) {
      const n = tables.has(table) ? await rowCount(source, table) : 0;
      if (n) notes.push(`${table}: ${n} ${what}`);
    }
  }

  const locales = localesFile(localeRows, defaultLocale);
  if (locales) files.push({ path: 'locales.json', root: 'models', kind: 'config', content: locales });

  return { counts, problems: problems.all(), notes, uploads, files };
}

/** files_related_morphs rows for types or fields the models no longer have: Strapi shows them nowhere. */
async function reportOrphanMorphs(source: StrapiSource, tables: ReadonlySet<string>, links: readonly LinkPlan[], problems: ProblemLog, layout: StrapiLayout): Promise<void> {
  const morphs = layout.mediaMorphs;
  if (!tables.has(morphs)) return;
  const known = new Set(links.filter((l) => l.kind === 'media').map((l) => `${l.uid}#${l.attribute}`));
  for await (const batch of source.select(`SELECT id, related_type, field FROM ${source.quote(morphs)} ORDER BY id`, [], {})) {
    for (const r of batch) {
      const type = String(r.related_type);
      if (known.has(`${type}#${String(r.field)}`) || !type.includes('::')) continue;
      problems.add({ level: 'notice', table: morphs, kind: 'orphan media link', rows: [Number(r.id)], message: `links a file to ${type}.${String(r.field)}, which the models do not have`, fix: 'nothing: Strapi shows these nowhere; they are left out' });
    }
  }
}

async function coreStoreValue(source: StrapiSource, tables: ReadonlySet<string>, key: string): Promise<string | undefined> {
  if (!tables.has('strapi_core_store_settings')) return undefined;
  const rows = await all(source.select(`SELECT ${source.quote('value')} AS v FROM strapi_core_store_settings WHERE ${source.quote('key')} = ?`, [key], { v: 'text' }));
  try {
    const value = rows[0] ? JSON.parse(String(rows[0].v)) : undefined;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** locales.json (ir/i18n.ts) from Strapi's `i18n_locale` rows and default locale. */
function localesFile(rows: readonly NormalizedRow[], defaultLocale: string): string | undefined {
  if (rows.length === 0) return undefined;
  const locales = rows.map((r) => ({ code: String(r.code), name: String(r.name ?? r.code) }));
  const chosen = locales.some((l) => l.code === defaultLocale) ? defaultLocale : locales[0]!.code;
  return `${JSON.stringify({ defaultLocale: chosen, locales }, null, 2)}\n`;
}

/**
 * The users-permissions import (generator/import/auth/: pure functions of the rows read here).
 * up_users is decoded by the server's user type, so attributes a project added to the user
 * model (extensions/users-permissions) arrive typed like entries' values (a PostgreSQL/MySQL
 * datetime read in the Strapi server's zone, a big integer exact, JSON parsed).
 */
async function importAuth(source: StrapiSource, ir: Schema, layout: StrapiLayout): Promise<AuthImport> {
  return planAuth(await readAuthTables(source, userColumnTypes(ir), layout), { ir });
}

/** Rows of a Strapi table (what a progress bar counts to). */
async function rowCount(source: StrapiSource, table: string, where = '', params: readonly unknown[] = []): Promise<number> {
  const rows = await all(source.select(`SELECT COUNT(*) AS n FROM ${source.quote(table)}${where}`, params, {}));
  return Number(rows[0]?.n ?? 0);
}

/** Strapi's link rows a link plan reads: its link table, or its type and field's files_related_morphs (`_mph`) rows. */
async function linkCount(source: StrapiSource, tables: ReadonlySet<string>, link: LinkPlan, layout: StrapiLayout): Promise<number> {
  if (link.kind !== 'media') return tables.has(link.source.table) ? rowCount(source, link.source.table) : 0;
  if (!tables.has(layout.mediaMorphs)) return 0;
  return rowCount(source, layout.mediaMorphs, ` WHERE related_type = ? AND field = ?`, [link.uid, link.attribute]);
}
