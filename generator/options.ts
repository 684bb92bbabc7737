/** Options of `contentgen build`: the single source of the CLI's --help. */
import type { Provider } from './ir/scalars.js';
import type { Rename } from './migrate/renames.js';

export interface BuildOptions {
  /**
   * Folder of models: a Strapi v4 `src/` layout or a flat folder of `<name>.json` files,
   * with `components/<category>/<name>.json` and an optional `permissions.json`.
   * @example "models/"
   */
  readonly modelsDir: string;
  /**
   * Output folder of the generated server.
   * @default "out"
   */
  readonly outDir: string;
  /**
   * Database the server is built for.
   * @default "sqlite"
   */
  readonly provider: Provider;
  /**
   * Write nothing; report files that differ from what a build would write.
   * @default false
   */
  readonly check: boolean;
  /**
   * Allow a migration that drops or retypes columns or tables.
   * @default false
   */
  readonly acceptDataLoss: boolean;
  /**
   * Overwrite (or remove) generated files edited by hand since the last build instead of
   * refusing the build.
   * @default false
   */
  readonly force?: boolean;
  /**
   * Content types, components and attributes renamed since the last build (`--rename`): the
   * migration renames their tables and columns instead of dropping them.
   */
  readonly renames?: readonly Rename[];
  /**
   * `name` of the emitted package.json.
   * @default the output folder's name
   */
  readonly name?: string;
}

export const optionHelp: readonly [flag: string, description: string][] = [
  ['-o, --out <dir>', 'output folder of the generated server (default: out)'],
  ['--db <sqlite|postgresql|mysql>', 'database the server is built for (default: sqlite)'],
  ['--check', 'write nothing; exit 1 listing files that differ from what a build would write'],
  ['--accept-data-loss', 'allow a migration that drops or retypes tables or columns'],
  ['--force', 'overwrite generated files edited by hand since the last build (a build refuses otherwise)'],
  ['--rename <old>=<new>', 'a content type (api::post.post=api::article.article), component (shared.quote=shared.pull-quote) or attribute (api::article.article.subtitle=subheading) renamed since the last build: the migration keeps its data (repeatable)'],
  ['--name <name>', 'package name of the generated server (default: the output folder name)'],
  ['-h, --help', 'show this help'],
];
