/**
 * Makes a set's `strapi export` archives with a real Strapi 4.26.2 (run by hand, see README.md
 * beside this file):
 *
 *   npx tsx test/import/recorder/export.ts <set>
 *
 * Writes the set's Strapi project under $STRAPI_ARCHIVE/exp/<set> (STRAPI_ARCHIVE defaults to
 * /tmp/strapi-archive, an install made as in the environment notes), restores the recorded SQLite
 * database (fixtures/strapi-data/<set>/sqlite.sql) and uploads into it, runs Strapi's own
 * `strapi export --no-encrypt` twice (compressed, and with --no-compress) and copies the archives
 * to fixtures/strapi-data/<set>/export.tar.gz and export.tar. The archives hold the SQLite
 * recording's data: compare an import of them with answers.sqlite.json.
 *
 * `strapi`'s bin registers every command first, and the admin ones need React (not installed,
 * see the environment notes), so `export-cli.js` registers only @strapi/data-transfer's commands
 * on a commander program the way the bin does and parses the same arguments: the export runs
 * the CLI's own action (same engine, providers, transforms and excluded types).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restoreStrapiDatabase, strapiDataDir, strapiDataSets, type StrapiDataSet } from '../../helpers/strapi-data.js';
import { recordTimeZone, secrets } from './app.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const install = process.env.STRAPI_ARCHIVE || '/tmp/strapi-archive';

const exportCli = `'use strict';
const dataTransfer = require('@strapi/data-transfer');
const { Command } = require(require.resolve('commander', { paths: [require.resolve('@strapi/data-transfer')] }));
const program = new Command();
program.storeOptionsAsProperties(false).allowUnknownOption(true);
for (const register of Object.values(dataTransfer.commands)) register({ command: program, argv: process.argv, ctx: { cwd: process.cwd() } });
program.parseAsync(process.argv);
`;

async function main(): Promise<void> {
  const set = process.argv[2] as StrapiDataSet;
  if (!strapiDataSets.includes(set)) {
    console.error(`usage: export.ts <${strapiDataSets.join('|')}>`);
    process.exit(2);
  }
  if (!existsSync(path.join(install, 'node_modules', '@strapi', 'strapi'))) throw new Error(`no Strapi install in ${install} (see README.md)`);
  const fixture = strapiDataDir(set);
  const appDir = path.join(install, 'exp', set);
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(appDir, { recursive: true });
  for (const entry of ['package.json', 'config', 'src']) cpSync(path.join(fixture, entry), path.join(appDir, entry), { recursive: true });
  symlinkSync(path.join(install, 'node_modules'), path.join(appDir, 'node_modules'));
  const uploads = path.join(appDir, 'public', 'uploads');
  mkdirSync(uploads, { recursive: true });
  for (const file of readdirSync(path.join(fixture, 'uploads', 'sqlite'))) cpSync(path.join(fixture, 'uploads', 'sqlite', file), path.join(uploads, file));
  await restoreStrapiDatabase(set, 'sqlite', path.join(appDir, '.tmp', 'data.db'));

  const env = { ...process.env, ...secrets, NODE_ENV: 'production', TZ: recordTimeZone, DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: '.tmp/data.db', STRAPI_TELEMETRY_DISABLED: 'true', STRAPI_DISABLE_UPDATE_NOTIFICATION: 'true' };
  const cli = path.join(appDir, 'export-cli.js');
  writeFileSync(cli, exportCli);
  for (const [name, flags] of [['export.tar.gz', []], ['export.tar', ['--no-compress']]] as const) {
    const base = path.join(appDir, 'export');
    const made = path.join(appDir, name);
    rmSync(made, { force: true });
    const run = spawnSync(process.execPath, [cli, 'export', '--no-encrypt', ...flags, '-f', base], { cwd: appDir, env, encoding: 'utf8', timeout: 300_000 });
    if (run.status !== 0 || !existsSync(made)) throw new Error(`strapi export ${flags.join(' ')} failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    console.log(run.stdout.trim());
    cpSync(made, path.join(fixture, name));
    console.log(`wrote ${path.relative(repo, path.join(fixture, name))}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
