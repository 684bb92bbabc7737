/**
 * `contentgen import <strapi-project> -o <server-dir> [--from <database URL, SQLite file or export archive>]
 * [--uploads <dir>] [--dry-run] [--replace] [--skip-invalid] [--time-zone <IANA>]`
 * Exit codes: 0 imported (or, with --dry-run, nothing to stop an import); 1 problems found or
 * the import refused; 2 wrong usage.
 */
import { parseArgs } from 'node:util';
import { formatProblem } from './check/problems.js';
import { runImport } from './import.js';
import { importProgress } from './progress.js';
import { isTimeZone } from './source/decode.js';

export const importHelp = `Usage: contentgen import <strapi-project> -o <server-dir> [options]

Moves the content of a Strapi v4 or Strapi 5 project's database into the server contentgen built
from the same project (\`contentgen build <strapi-project> -o <server-dir>\` first). The Strapi
database is found as Strapi finds it (config/database.js with the environment and .env), told
Strapi 4's or 5's by its tables (Strapi 5: each document's published row, else its draft), and only read;
the server's database is its DATABASE_URL (or src/config.ts databaseUrl), migrated first, and
written in one transaction: a failed import leaves it as it was.

Options:
  -o, --out <server-dir>           the built server (default: out)
  --from <URL or file>             the Strapi database: postgres://…, mysql://…, or an SQLite file;
                                   or an unencrypted \`strapi export\` archive (.tar, .tar.gz, .tgz),
                                   which holds no API tokens or admin users
  --uploads <dir>                  Strapi's uploads folder (default: <strapi-project>/public/uploads,
                                   or the archive's files)
  --dry-run                        read and check everything, write nothing; print what would move
  --replace                        delete what the server's database holds first (else it must be empty)
  --skip-invalid                   import without the rows that have problems; list them in import-skipped.md
  --time-zone <IANA zone>          the zone the Strapi server ran in (PostgreSQL/MySQL keep local times;
                                   default: this machine's)

Exit codes: 0 imported (--dry-run: nothing stops an import); 1 problems or refused; 2 wrong usage.
`;

export async function importMain(args: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o', default: 'out' },
        from: { type: 'string' },
        uploads: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        replace: { type: 'boolean', default: false },
        'skip-invalid': { type: 'boolean', default: false },
        'time-zone': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (e) {
    err.write(`contentgen import: ${(e as Error).message}\n\n${importHelp}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    out.write(importHelp);
    return 0;
  }
  if (positionals.length !== 1) {
    err.write(`contentgen import: expected one Strapi project folder, got ${positionals.length}\n\n${importHelp}`);
    return 2;
  }
  if (values['time-zone'] !== undefined && !isTimeZone(values['time-zone'])) {
    err.write(`contentgen import: --time-zone "${values['time-zone']}" is not an IANA time zone (e.g. Europe/Paris, UTC)\n`);
    return 2;
  }
  // A bar per table on a terminal, plain lines in a log (stderr: stdout keeps the summary).
  const progress = importProgress(err as NodeJS.WritableStream & { isTTY?: boolean }, { prefix: 'contentgen import: ' });
  let result;
  try {
    result = await runImport({
      project: positionals[0]!,
      serverDir: values.out!,
      ...(values.from ? { from: values.from } : {}),
      ...(values.uploads ? { uploads: values.uploads } : {}),
      ...(values['time-zone'] ? { timeZone: values['time-zone'] } : {}),
      dryRun: values['dry-run']!,
      replace: values.replace!,
      skipInvalid: values['skip-invalid']!,
      log: (line) => progress.log(`contentgen import: ${line}`),
      progress,
    });
  } finally {
    progress.stop();
  }
  const verb = values['dry-run'] ? 'would import' : result.ok ? 'imported' : 'read';
  if (result.counts.size) {
    out.write(`contentgen import: ${verb}:\n`);
    const width = Math.max(...[...result.counts.keys()].map((t) => t.length));
    for (const [table, n] of [...result.counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) out.write(`  ${table.padEnd(width)} ${n}\n`);
  }
  if (result.filesCopied !== undefined) out.write(`contentgen import: ${result.filesCopied} upload file(s) copied into ${values.out}/public/uploads\n`);
  for (const note of result.notes) out.write(`contentgen import: ${note}\n`);
  for (const problem of result.problems) (problem.level === 'error' ? err : out).write(`${formatProblem(problem)}\n`);
  if (result.reportPath) out.write(`contentgen import: rows left out are listed in ${result.reportPath}\n`);
  if (result.error) {
    err.write(`contentgen import: ${result.error}\n`);
    return 1;
  }
  return result.ok ? 0 : 1;
}
