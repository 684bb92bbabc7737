/**
 * `npm run bench:client` (issue 27 item 9): what the typed client costs the frontend's
 * compiler. Writes a file of 100 `find` calls against out/client (the blog fixture's client,
 * committed) — fields, populate (names, dotted paths, objects with nested queries), filters
 * through relations and components, sort, pagination, each answer read — and type-checks it
 * with `tsc --extendedDiagnostics` (strict, as a frontend would), three times. Writes the best
 * check time and the instantiation count to bench/results-client.json and prints them.
 *
 *   npm run bench:client                              against out/client
 *   npm run bench:client -- --client <dist/index.js>  against another build of the client (e.g.
 *                                                     an older one, to compare); not written to
 *                                                     the results file. Type errors are counted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, '.tmp', 'bench-client');
const calls = 100;
const tsc = path.join(root, 'node_modules/typescript/bin/tsc');

/** The i-th call: a spread of the shapes a frontend writes. */
function call(i: number): string {
  const shapes = [
    `api.articles.find({ fields: ['title', 'slug'], populate: { author: { fields: ['name'] } }, sort: 'title:asc' })`,
    `api.articles.find({ filters: { title: { $containsi: 'x${i}' }, author: { name: { $eq: 'Ada' } } }, pagination: { page: ${i}, pageSize: 10 } })`,
    `api.articles.find({ populate: ['author.articles', 'seo', 'tags'], filters: { views: { $gt: ${i} } } })`,
    `api.articles.find({ populate: { blocks: { on: { 'shared.quote': { fields: ['body'] } } }, cover: true }, sort: ['views:desc', { publishDate: 'asc' }] })`,
    `api.authors.find({ fields: ['name'], populate: { articles: { fields: ['title'], filters: { status: 'final' } } } })`,
    `api.tags.find({ filters: { $or: [{ name: 'a${i}' }, { articles: { title: { $startsWith: 'b' } } }] } })`,
    `api.categories.find({ populate: '*' })`,
    `api.articles.find({ filters: { seo: { metaTitle: { $null: true } }, publishDate: { $gte: new Date(${i}) } }, fields: ['title'] })`,
  ];
  return `export async function call${i}() {\n  const answer = await ${shapes[i % shapes.length]};\n  return answer.data[0]?.attributes;\n}\n`;
}

const flag = process.argv.indexOf('--client');
const other = flag === -1 ? undefined : process.argv[flag + 1];

/** tsc's output, also when it reports type errors (exit status 2). */
function runTsc(args: string[]): string {
  try {
    return execFileSync(process.execPath, [tsc, ...args], { encoding: 'utf8' });
  } catch (error) {
    const output = (error as { stdout?: string }).stdout;
    if (typeof output !== 'string' || !output.includes('Check time')) throw error;
    return output;
  }
}

function main(): void {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const entry = other ? path.resolve(other) : path.join(root, 'out/client/dist/index.js');
  const file = path.join(work, 'calls.ts');
  const header = `import { createClient } from ${JSON.stringify(entry)};\nconst api = createClient({ url: 'http://localhost:1337' });\n`;
  writeFileSync(file, header + Array.from({ length: calls }, (_, i) => call(i)).join('\n'));
  const compilerOptions = { noEmit: true, strict: true, skipLibCheck: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'], types: [] };
  writeFileSync(path.join(work, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['calls.ts'] }));
  const args = ['-p', path.join(work, 'tsconfig.json'), '--extendedDiagnostics'];
  const runs = Array.from({ length: 3 }, () => {
    const output = runTsc(args);
    const figure = (label: string) => Number(new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(output)?.[1] ?? NaN);
    return { checkSeconds: figure('Check time'), totalSeconds: figure('Total time'), instantiations: figure('Instantiations'), types: figure('Types'), errors: (output.match(/error TS\d+/g) ?? []).length };
  });
  const best = runs.reduce((a, b) => (b.checkSeconds < a.checkSeconds ? b : a));
  const typescript = execFileSync(process.execPath, [tsc, '--version'], { encoding: 'utf8' }).replace('Version', '').trim();
  const result = { date: new Date().toISOString(), calls, typescript, ...best, runs };
  if (!other) writeFileSync(path.join(root, 'bench/results-client.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`${calls} find calls against ${entry}: check ${best.checkSeconds} s (total ${best.totalSeconds} s), ${best.instantiations} instantiations, ${best.types} types, ${best.errors} type errors`);
  rmSync(work, { recursive: true, force: true });
}

main();
