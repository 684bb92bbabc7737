/**
 * The whole build, readable in one function: load → validate → buildIr → emit →
 * plan migrations → write (or check). Each stage returns early with its errors.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectConfigChanges, projectConfigRecordPath, projectConfigRecordText, seedProjectConfig, type ConfigSeed } from './emit/project/config-seed.js';
import { changeReport, changeReportPath, type ChangeReport } from './changes/report.js';
import { modelSummaryPath, summarize, summaryText } from './changes/summary.js';
import { emitAll } from './emit/emit.js';
import { schemaPath } from './emit/graphql/graphql.js';
import { bannerText, migrationText, withHeader } from './write/banner.js';
import type { FileMap } from './emit/file-map.js';
import { buildIr } from './ir/build-ir.js';
import { withStrapi5ReplacedAttributes } from './ir/i18n.js';
import { strapiMajor } from './ir/project-plugins.js';
import type { Schema } from './ir/types.js';
import { defaultGraphqlInputs, loadGraphqlInputs, userConfigPath } from './load/load-graphql.js';
import { loadModels } from './load/load-models.js';
import { loadProjectCustomFields } from './load/load-custom-fields.js';
import { resolveInput, type BuildInput } from './load/load-project.js';
import { loadPreviousBuild } from './load/load-previous.js';
import { loadUserCode } from './load/load-user-code.js';
import { orphanApiFiles } from './emit/project/user-code.js';
import { projectCodeReport, projectCodeReportPath, projectCodeWarnings } from './emit/project/project-code.js';
import { planMigration, type MigrationPlan } from './migrate/plan.js';
import { checkRenames, suggestRenames } from './migrate/renames.js';
import type { BuildOptions } from './options.js';
import { formatModelError, type ModelError } from './validate/model-error.js';
import { communityPluginSettings } from './ir/community-plugins.js';
import { configStrings } from './load/config-strings.js';
import { checkModels } from './validate/validate.js';
import { checkOutput, type StaleFile } from './write/check.js';
import { HandEditsError, type HandEdit } from './write/hand-edits.js';
import { writeOutput, type WriteResult } from './write/write.js';

export type BuildResult =
  | { readonly ok: false; readonly errors: readonly ModelError[]; readonly input?: BuildInput }
  | { readonly ok: false; readonly migrationErrors: readonly string[] }
  /** Generated files edited by hand since the last build; nothing was written (see --force). */
  | { readonly ok: false; readonly handEdits: readonly HandEdit[] }
  | {
      readonly ok: true;
      /** What the build was pointed at: a Strapi project root or a models folder. */
      readonly input: BuildInput;
      readonly ir: Schema;
      readonly files: FileMap;
      readonly migration: MigrationPlan;
      /** What this build changes for API clients; absent when the models did not change. */
      readonly changes?: ChangeReport;
      /** Things the user should know that do not stop the build. */
      readonly warnings: readonly string[];
      readonly written?: WriteResult;
      readonly stale?: readonly StaleFile[];
    };

/**
 * load → validate → buildIr: the IR of a project or models folder for `provider`, as a build
 * makes it (`contentgen import` plans from the same IR).
 */
export async function loadSchema(options: Pick<BuildOptions, 'modelsDir' | 'outDir' | 'provider'>) {
  const input = await resolveInput(options.modelsDir);
  if (input.error) return { ok: false as const, errors: [{ file: input.errorFile ?? 'package.json', pointer: '', message: input.error }], input };
  const userCode = await loadUserCode(options.outDir);
  // An upload provider the server's own src/config.ts selects is built in too.
  const plugins = { ...input.plugins, uploadAwsS3: input.plugins.uploadAwsS3 || (await configStrings(options.outDir)).has('aws-s3') };
  const loaded = await loadModels(input.modelsDir, plugins);
  const projectCustomFields = input.project ? await loadProjectCustomFields(input.project) : undefined;
  const models = { ...loaded, customActions: userCode.customActions, ...(input.project ? { project: input.project } : {}), ...(projectCustomFields ? { projectCustomFields } : {}) };
  const { errors, warnings: modelWarnings } = checkModels(models);
  if (errors.length > 0) return { ok: false as const, errors, input };

  // A Strapi 5 project's own `locale`, `localizations`, timestamps and creator fields are Strapi 5's (ir/i18n.ts).
  const ir = buildIr(input.project && strapiMajor(input.project.strapiVersion) >= 5 ? withStrapi5ReplacedAttributes(models) : models, options.provider);
  // Names the database would cut into one (PostgreSQL's 63 bytes): refused like a model error.
  if (ir.databaseNames?.errors.length) return { ok: false as const, errors: ir.databaseNames.errors, input };
  return { ok: true as const, input, ir, userCode, modelWarnings };
}

/** Loads, validates and emits in memory; touches nothing on disk but reads. */
export async function generate(options: BuildOptions): Promise<BuildResult> {
  const loadedSchema = await loadSchema(options);
  if (!loadedSchema.ok) return loadedSchema;
  const { input, ir, userCode, modelWarnings } = loadedSchema;
  const pluginErrors = communityPluginSettings(ir).errors;
  if (pluginErrors.length > 0) return { ok: false, errors: pluginErrors, input };
  // src/extensions/graphql.ts is the GraphQL plugin's: read only when the project installs it.
  const graphql = ir.plugins.graphql ? await loadGraphqlInputs(options.outDir) : defaultGraphqlInputs;
  const files = emitAll(ir, { name: options.name ?? packageName(options.outDir), graphql, userCode });
  const seed = ir.projectConfig ? seedProjectConfig(ir.projectConfig) : undefined;
  const warnings = [
    ...modelWarnings.map(formatModelError),
    ...(ir.projectConfig?.unloaded ?? []).map((m) => `${m}: cannot be loaded here (not installed, or not a module): what the file takes from it is not read`),
    ...(seed ? await projectConfigWarnings(options.outDir, seed) : []),
    ...(ir.databaseNames?.warnings ?? []),
    ...projectCodeWarnings(ir),
    ...orphanApiFiles(ir, userCode).map((file) => `${file} is kept, but its content type is no longer in the models: it is not served; delete it when done with it`),
  ];

  const previous = await loadPreviousBuild(options.outDir, schemaPath);
  const renames = options.renames ?? [];
  const renameErrors = checkRenames(renames, ir, previous.summary);
  if (renameErrors.length > 0) return { ok: false, migrationErrors: renameErrors };
  const migration = await planMigration(options.outDir, files, ir.provider, options.acceptDataLoss, { ir, renames, previous: previous.summary, suggestions: suggestRenames(previous.summary, ir) });
  if (migration.errors.length > 0) return { ok: false, migrationErrors: migration.errors };
  if (migration.added) files.add(migration.added.path, withHeader(migration.added.path, migration.added.sql, migrationText), 'migration');

  if (ir.projectConfig && seed) files.add(projectConfigRecordPath, projectConfigRecordText(ir.projectConfig, seed));
  const codeReport = projectCodeReport(ir);
  if (codeReport) files.add(projectCodeReportPath, codeReport);

  // The change report: rewritten when the models change, else kept as the last one left it.
  const summary = summarize(ir);
  files.add(modelSummaryPath, summaryText(summary));
  const changes = changeReport(previous, { summary, sdl: files.get(schemaPath)?.content ?? '' }, migration, renames);
  const report = changes?.markdown ?? previous.report ?? changeReport({}, { summary, sdl: '' }, migration)!.markdown;
  files.add(changeReportPath, withHeader(changeReportPath, report, bannerText));
  return { ok: true, input, ir, files, migration, ...(changes ? { changes } : {}), warnings };
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const result = await generate(options);
  if (!result.ok) return result;
  if (options.check) return { ...result, stale: await checkOutput(options.outDir, result.files) };
  try {
    return { ...result, written: await writeOutput(options.outDir, result.files, { force: options.force ?? false }) };
  } catch (e) {
    if (e instanceof HandEditsError) return { ok: false, handEdits: e.edits };
    throw e;
  }
}

/**
 * A first build seeds src/config.ts with the project's config (emit/project/config-seed.ts);
 * later ones say what changed in it since the last build, and what was not seeded.
 */
async function projectConfigWarnings(outDir: string, seed: ConfigSeed): Promise<string[]> {
  const configExists = await readFile(path.join(outDir, userConfigPath), 'utf8').then(() => true, () => false);
  const previous = await readFile(path.join(outDir, projectConfigRecordPath), 'utf8').catch(() => undefined);
  if (!configExists) return seed.warnings.map((w) => `${w} (seeding src/config.ts)`);
  if (previous === undefined) return [`src/config.ts exists: the Strapi project's config is not copied into it (${projectConfigRecordPath} now records it)`];
  return projectConfigChanges(previous, seed);
}

function packageName(outDir: string): string {
  const base = path.basename(path.resolve(outDir)).toLowerCase().replace(/[^a-z0-9-_.]/g, '-');
  return base === 'out' || base === '' ? 'content-server' : base;
}
