/**
 * The emitted Dockerfile read as instructions, and its recipe run without a container engine:
 * each stage gets a folder standing for its WORKDIR, `COPY` copies from the build context (the
 * server's folder, less what .dockerignore names) or from an earlier stage's folder, `RUN`
 * runs its command there with `sh -c`, exactly as written. The test then starts the last
 * stage's `CMD` with its `ENV`, as the image would.
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface Instruction {
  readonly keyword: string;
  readonly args: string;
}

export interface Stage {
  readonly image: string;
  readonly name?: string;
  readonly instructions: readonly Instruction[];
}

/** The stages of a Dockerfile (comments dropped, `\` continuations joined). */
export function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const stages: { image: string; name?: string; instructions: Instruction[] }[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', , name] = args.split(/\s+/);
      stages.push({ image, ...(name ? { name } : {}), instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`Dockerfile: ${keyword} before FROM`);
      stage.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** The arguments of every `keyword` instruction of a stage. */
export function argsOf(stage: Stage, keyword: string): string[] {
  return stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
}

/** `ENV a=1 b=2` of a stage, as an environment. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const args of argsOf(stage, 'ENV')) for (const pair of args.split(/\s+/)) env[pair.slice(0, pair.indexOf('='))] = pair.slice(pair.indexOf('=') + 1);
  return env;
}

/** A `CMD`/`ENTRYPOINT`/`HEALTHCHECK … CMD` in exec form (a JSON array). */
export function execForm(args: string): string[] {
  const json = args.slice(args.indexOf('['));
  return JSON.parse(json) as string[];
}

/** `COPY [--from=stage] [--chown=…] source… dest`. */
export function parseCopy(args: string): { from?: string; chown?: string; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  const flag = (name: string) => flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);
  const from = flag('from');
  const chown = flag('chown');
  return { ...(from ? { from } : {}), ...(chown ? { chown } : {}), sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** Names in .dockerignore: plain paths and `*.ext` globs, as the emitted one writes them. */
function ignored(patterns: readonly string[], rel: string): boolean {
  return patterns.some((p) => (p.startsWith('*.') ? rel.endsWith(p.slice(1)) : rel === p || rel.startsWith(`${p}/`)));
}

async function copyContext(context: string, patterns: readonly string[], source: string, target: string): Promise<void> {
  const from = path.join(context, source);
  await cp(from, target, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (file) => {
      const rel = path.relative(context, file).split(path.sep).join('/');
      return rel === '' || !ignored(patterns, rel);
    },
  });
}

export interface StageRun {
  /** The folder that stood for the stage's WORKDIR. */
  readonly dir: string;
  readonly stage: Stage;
}

/**
 * Runs a stage's COPY and RUN instructions in `dir` (its WORKDIR). `context` is the build
 * context; `stages` the folders of the stages run before, by name; `env` the environment of
 * the shell RUN commands get (the stage's own ENV is added).
 */
export async function runStage(stage: Stage, dir: string, options: { context: string; stages: Record<string, StageRun>; env: NodeJS.ProcessEnv }): Promise<StageRun> {
  await mkdir(dir, { recursive: true });
  const patterns = (await readFile(path.join(options.context, '.dockerignore'), 'utf8').catch(() => ''))
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'COPY') {
      const copy = parseCopy(args);
      const target = path.join(dir, copy.dest);
      for (const source of copy.sources) {
        const toDir = copy.dest.endsWith('/') || copy.sources.length > 1;
        if (copy.from) {
          const earlier = options.stages[copy.from];
          if (!earlier) throw new Error(`COPY --from=${copy.from}: no such stage run before`);
          const earlierWorkdir = argsOf(earlier.stage, 'WORKDIR').at(-1) ?? '/';
          const from = path.join(earlier.dir, path.posix.relative(earlierWorkdir, source));
          await cp(from, toDir ? path.join(target, path.basename(source)) : target, { recursive: true, verbatimSymlinks: true });
        } else if (source === '.') {
          for (const entry of await readdir(options.context)) await copyContext(options.context, patterns, entry, path.join(target, entry));
        } else {
          await copyContext(options.context, patterns, source, toDir ? path.join(target, path.basename(source)) : target);
        }
      }
    } else if (keyword === 'RUN') {
      const run = spawnSync('sh', ['-c', args], { cwd: dir, encoding: 'utf8', env: { ...options.env, ...envOf(stage) }, timeout: 900_000 });
      if (run.status !== 0) throw new Error(`RUN ${args} failed in ${dir} (${run.signal ?? `exit ${run.status}`}):\n${run.stdout}\n${run.stderr}`);
    } else if (!['WORKDIR', 'ENV', 'USER', 'EXPOSE', 'STOPSIGNAL', 'HEALTHCHECK', 'CMD'].includes(keyword)) {
      throw new Error(`Dockerfile instruction ${keyword} is not run by this recipe runner: teach it, or the test no longer follows the image`);
    }
  }
  return { dir, stage };
}
