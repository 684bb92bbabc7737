/**
 * `contentgen build <models> -o <out> [--db sqlite|postgresql|mysql] [--check] [--force]`
 * Exit codes: 0 ok; 1 model errors, refused migration, generated files edited by hand
 * (without --force), or (with --check) stale output; 2 usage errors.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Provider } from './ir/scalars.js';
import { optionHelp } from './options.js';
import { changeReportPath } from './changes/report.js';
import { parseRename } from './migrate/renames.js';
import { build } from './pipeline.js';
import type { StaleFile } from './write/check.js';
import type { HandEdit } from './write/hand-edits.js';
import { formatModelError } from './validate/model-error.js';
import { describePlugins } from './ir/project-plugins.js';
import type { BuildInput } from './load/load-project.js';

const providers: readonly Provider[] = ['sqlite', 'postgresql', 'mysql'];

const mainHelp = `contentgen: generate a standalone Koa server (Strapi v4 compatible REST API) from content-type models

Usage:
  contentgen build <project-or-models-dir> [-o <out>] [--db sqlite|postgresql|mysql] [--check] [--force]
  contentgen import <strapi-project> -o <server-dir> [--from <db>] [--dry-run] [--replace] [--skip-invalid]
  contentgen --help
  contentgen build --help
  contentgen import --help

Commands:
  build    validate the models and emit the server into the output folder
  import   move a Strapi v4 project's database and uploads into the built server (work in progress)
`;

const buildHelp = `Usage: contentgen build <project-or-models-dir> [options]

<project-or-models-dir> is a Strapi v4 project root (its package.json depends on
@strapi/strapi: models are read from src/, and the plugins it installs decide what is
served), a Strapi v4 src/ folder (api/<api>/content-types/<name>/schema.json,
components/<category>/<name>.json) or a flat folder of <name>.json content types with
components/ beside them. An optional permissions.json maps role types to actions.

Options:
${optionHelp.map(([flag, text]) => `  ${flag.padEnd(32)} ${text}`).join('\n')}

Exit codes: 0 built (or up to date with --check); 1 model errors, a refused data-losing
migration, generated files edited by hand (without --force), or stale output with --check;
2 wrong usage.
`;

export async function main(argv: string[], out = process.stdout, err = process.stderr): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    out.write(mainHelp);
    return command === undefined ? 2 : 0;
  }
  // Loaded on demand: the import's database drivers are not needed to build.
  if (command === 'import') return (await import('./import/cli.js')).importMain(rest, out, err);
  if (command !== 'build') {
    err.write(`contentgen: unknown command "${command}"\n\n${mainHelp}`);
    return 2;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o', default: 'out' },
        db: { type: 'string', default: 'sqlite' },
        check: { type: 'boolean', default: false },
        'accept-data-loss': { type: 'boolean', default: false },
        force: { type: 'boolean', default: false },
        name: { type: 'string' },
        rename: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    err.write(`contentgen build: ${(e as Error).message}\n\n${buildHelp}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(buildHelp);
    return 0;
  }
  if (positionals.length !== 1) {
    err.write(`contentgen build: expected one project or models folder, got ${positionals.length}\n\n${buildHelp}`);
    return 2;
  }
  const provider = values.db === 'postgres' ? 'postgresql' : values.db === 'mariadb' ? 'mysql' : values.db;
  if (!providers.includes(provider as Provider)) {
    err.write(`contentgen build: --db must be one of ${providers.join(', ')}, got "${values.db}"\n`);
    return 2;
  }

  const renames = [];
  for (const spec of values.rename ?? []) {
    const parsedRename = parseRename(spec);
    if (typeof parsedRename === 'string') {
      err.write(`contentgen build: ${parsedRename}\n`);
      return 2;
    }
    renames.push(parsedRename);
  }

  let result;
  try {
    result = await build({
      modelsDir: positionals[0]!,
      outDir: values.out!,
      provider: provider as Provider,
      check: values.check!,
      acceptDataLoss: values['accept-data-loss']!,
      force: values.force!,
      ...(values.name ? { name: values.name } : {}),
      ...(renames.length ? { renames } : {}),
    });
  } catch (e) {
    // Operational failures of the write stage (a folder that is not ours, I/O errors).
    err.write(`contentgen: ${(e as Error).message}\n`);
    return 1;
  }

  if (!result.ok) {
    if ('errors' in result) {
      if (result.input) err.write(`${inputLine(positionals[0]!, result.input)}\n`);
      err.write(`contentgen: ${result.errors.length} problem${result.errors.length === 1 ? '' : 's'} in ${positionals[0]}; nothing was written.\n`);
      for (const e of result.errors) err.write(`  ${formatModelError(e)}\n`);
    } else if ('handEdits' in result) {
      err.write(handEditsMessage(values.out!, result.handEdits));
    } else {
      err.write(`contentgen: ${result.migrationErrors.join('\n')}\n`);
    }
    return 1;
  }
  for (const warning of result.warnings) err.write(`contentgen: warning: ${warning}\n`);
  if (result.stale) {
    if (result.stale.length === 0) {
      out.write(`${values.out} is up to date.\n`);
      return 0;
    }
    err.write(`${values.out} is stale; \`contentgen build\` would change ${result.stale.length} file(s):\n`);
    const width = Math.max(16, ...result.stale.map((s) => staleLabel[s.reason].length));
    for (const s of result.stale) err.write(`  ${staleLabel[s.reason].padEnd(width)} ${s.path}\n`);
    if (result.stale.some((s) => s.reason in handEditNote)) err.write(`\`contentgen build\` refuses to overwrite the files edited by hand.\n${keepEditsAdvice()}`);
    return 1;
  }
  const written = result.written!;
  out.write(`${inputLine(positionals[0]!, result.input)}\n`);
  out.write(
    `contentgen: ${result.ir.contentTypes.length} content types, ${result.ir.components.length} components → ${values.out} ` +
      `(${written.written.length} written, ${written.removed.length} removed${result.migration.added ? `, migration ${result.migration.added.name}` : ''})\n`,
  );
  if (written.overwritten.length > 0) {
    out.write(`contentgen: --force discarded hand edits in ${written.overwritten.length} file(s): ${written.overwritten.join(', ')}\n`);
  }
  const changes = result.changes;
  if (changes && changes.breaking.length + changes.dangerous.length > 0) {
    out.write(`contentgen: API changes: ${changes.breaking.length} breaking, ${changes.dangerous.length} dangerous (${path.join(values.out, changeReportPath)})\n`);
    for (const line of changes.breaking) out.write(`  breaking   ${line}\n`);
    for (const line of changes.dangerous) out.write(`  dangerous  ${line}\n`);
  }
  return 0;
}

/** Says what the build read, so a project root and a models folder are never mistaken. */
function inputLine(given: string, input: BuildInput): string {
  if (input.kind === 'models') return `contentgen: models folder ${given}`;
  return `contentgen: Strapi project ${given} (@strapi/strapi ${input.project!.strapiVersion}; models from ${path.join(given, 'src')}; plugins: ${describePlugins(input.plugins)})`;
}

const handEditNote: Record<HandEdit['kind'], string> = {
  edited: '',
  'edited, no longer generated': ' (no longer generated: the build would delete it)',
  'not generated': ' (not written by contentgen: the build would replace it with a generated file)',
};

const staleLabel: Record<StaleFile['reason'], string> = {
  differs: 'differs',
  missing: 'missing',
  'would be removed': 'would be removed',
  edited: 'edited by hand',
  'edited, no longer generated': 'edited by hand, would be removed',
  'not generated': 'not generated, would be replaced',
};

function handEditsMessage(outDir: string, edits: readonly HandEdit[]): string {
  const n = edits.length;
  return (
    `contentgen: ${n} generated file${n === 1 ? '' : 's'} in ${outDir} ${n === 1 ? 'was' : 'were'} edited by hand since the last build; nothing was written.\n` +
    edits.map((e) => `  ${e.path}${handEditNote[e.kind]}\n`).join('') +
    keepEditsAdvice()
  );
}

function keepEditsAdvice(): string {
  return (
    'These files are generated (headed DO NOT EDIT): every build rewrites them from the models, so an edit\n' +
    'there would be lost. To keep a change, first move it into a file that is yours, which contentgen\n' +
    'never overwrites (src/config.ts, src/email.ts, src/extensions/), or into the models. Then, or to\n' +
    'discard the edits, rebuild with --force: it overwrites these files.\n'
  );
}
