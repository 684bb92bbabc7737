/**
 * The typed client (client/, issue 15) as emitted from the blog and edge models: its own
 * sources type-check under its own tsconfig (strict, isolatedDeclarations), and the
 * type-level tests of test/client/usage.ts compile against it (test/client/import-models.ts
 * against the import models' client: components with relations and media) — expected answer
 * types hold and every `@ts-expect-error` marks a real error; error messages and editor
 * completions (TypeScript's language service) say what a user can write. Behaviour over HTTP: test/behaviour/client.test.ts.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import qs from 'qs';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/pipeline.js';
import { modelsOf, repoRoot, tempDir } from '../helpers/paths.js';

/** Writes the client emitted from a fixture's models into a folder; its path. */
async function emitClient(fixture: string): Promise<string> {
  const dir = await tempDir(`client-${fixture}`);
  const result = await generate({ modelsDir: modelsOf(fixture), outDir: path.join(dir, 'out'), provider: 'sqlite', check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(JSON.stringify(result));
  for (const file of result.files.files().filter((f) => f.path.startsWith('client/'))) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
  return path.join(dir, 'client');
}

function diagnostics(program: ts.Program): string[] {
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  });
}

/** tsc over a client's src/ with the client's own tsconfig.json. */
function typecheckClient(clientDir: string): string[] {
  const config = ts.readConfigFile(path.join(clientDir, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, clientDir);
  expect(parsed.errors).toEqual([]);
  return diagnostics(ts.createProgram(parsed.fileNames, parsed.options));
}

/** Compiles a file of test/client (or text) against a client emitted by emitClient; its diagnostics. */
async function compileAgainst(clientDir: string, name: string, text: string, options: ts.CompilerOptions = {}): Promise<string[]> {
  const file = path.join(path.dirname(clientDir), name);
  await writeFile(file, text.replace("'../../out/client/dist/index.js'", JSON.stringify(path.join(clientDir, 'dist/index.js'))));
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
    ...options,
  });
  return diagnostics(program);
}

describe('client/ of the blog models', () => {
  let clientDir: string;
  beforeAll(async () => {
    clientDir = await emitClient('blog');
  }, 60_000);

  it('type-checks its own sources (strict, isolatedDeclarations)', () => {
    expect(typecheckClient(clientDir)).toEqual([]);
  }, 60_000);

  const compileAgainstClient = (name: string, text: string, options: ts.CompilerOptions = {}) => compileAgainst(clientDir, name, text, options);

  it('compiles the type-level tests: answers follow fields and populate, invalid queries fail', async () => {
    const usage = await readFile(path.join(repoRoot, 'test/client/usage.ts'), 'utf8');
    expect(usage).toContain("from '../../out/client/dist/index.js'");
    expect(await compileAgainstClient('usage.ts', usage)).toEqual([]);
  }, 60_000);

  it('compiles under exactOptionalPropertyTypes and noUncheckedIndexedAccess (token from an environment variable, register narrows)', async () => {
    const usage = await readFile(path.join(repoRoot, 'test/client/exact-optional.ts'), 'utf8');
    expect(await compileAgainstClient('exact-optional.ts', usage, { exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true })).toEqual([]);
  }, 60_000);

  it('names an unknown filter key in the error and the keys that exist (issue 27 item 8)', async () => {
    const calls = [
      `api.articles.find({ populate: { author: { filters: { nmae: 'x' } } } });`,
      `api.articles.find({ filters: { author: { nmae: 'x' } } });`,
      `api.articles.find({ filters: { author: { nmae: { $eq: 'x' } } } });`,
      `api.articles.find({ filters: { title: 'x', author: { $or: [{ nmae: 'x' }] } } });`,
      `api.tags.find({ filters: { articles: { author: { nmae: 'x' } } } });`,
      `api.articles.find({ filters: { seo: { nmae: 'x' } } });`,
    ];
    const lines = calls.map((call) => `void ${call}`).join('\n');
    const errors = await compileAgainstClient('unknown-key.ts', `import { createClient } from '../../out/client/dist/index.js';\nconst api = createClient({ url: '' });\n${lines}\nexport {};\n`);
    // One error a call (line 3 on), each naming the key and listing the keys of the type it is checked against.
    expect(errors.map((error) => error.split(' ')[0])).toEqual(calls.map((_, i) => `unknown-key.ts:${i + 3}`));
    const expected = (error: string) => /unknown key 'nmae'; expected one of: ([^"]+)"/.exec(error)?.[1]?.split(' | ').sort();
    const author = ['$and', '$not', '$or', 'articles', 'bio', 'createdAt', 'email', 'id', 'name', 'updatedAt'];
    expect(errors.slice(0, 5).map(expected)).toEqual(calls.slice(0, 5).map(() => author));
    // The component's relation and media (seo.image, seo.tags) are keys of its filter type, as Strapi takes them
    // (this server does not filter through them yet: 400, docs/strapi5.md).
    expect(expected(errors[5]!)).toEqual(['$and', '$not', '$or', 'id', 'image', 'metaDescription', 'metaTitle', 'tags']);
  }, 60_000);

  /** What an editor (TypeScript's language service) offers at `|` in `call`, against the emitted client. */
  function completionsAt(call: string): string[] {
    const file = path.join(path.dirname(clientDir), 'completions.ts');
    const prefix = `import { createClient } from ${JSON.stringify(path.join(clientDir, 'dist/index.js'))};\nconst api = createClient({ url: '' });\n`;
    const text = `${prefix}${call.replace('|', '')}\n`;
    const options: ts.CompilerOptions = { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [] };
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [file],
      getScriptVersion: () => '1',
      getScriptSnapshot: (name) => (name === file ? ts.ScriptSnapshot.fromString(text) : ts.sys.fileExists(name) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(name) ?? '') : undefined),
      getCurrentDirectory: () => path.dirname(file),
      getCompilationSettings: () => options,
      getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      readDirectory: ts.sys.readDirectory,
      directoryExists: ts.sys.directoryExists,
      getDirectories: ts.sys.getDirectories,
    };
    const completions = ts.createLanguageService(host).getCompletionsAtPosition(file, prefix.length + call.indexOf('|'), {});
    return (completions?.entries ?? []).map((entry) => entry.name);
  }

  it('offers completions inside inline calls, as an editor asks (issue 27 item 4)', () => {
    expect(completionsAt('api.authors.find({ filters: { n| } });')).toEqual(expect.arrayContaining(['name', 'email', '$or']));
    expect(completionsAt('api.articles.find({ filters: { author: { | } } });')).toEqual(expect.arrayContaining(['name', 'email', 'articles', '$and']));
    expect(completionsAt('api.articles.find({ filters: { seo: { | } } });')).toEqual(expect.arrayContaining(['metaTitle', 'metaDescription']));
    expect(completionsAt('api.articles.find({ | });')).toEqual(expect.arrayContaining(['fields', 'filters', 'populate', 'sort', 'pagination']));
    expect(completionsAt('api.articles.findOne(1, { | });')).toEqual(['fields', 'populate', 'publicationState']);
    expect(completionsAt('api.articles.create({ title: "x" }, { | });')).toEqual(['fields', 'populate', 'publicationState']);
    expect(completionsAt('api.users.find({ filters: { | } });')).toEqual(expect.arrayContaining(['username', 'email']));
    expect(completionsAt('api.articles.find({ populate: { | } });')).toEqual(['author', 'blocks', 'category', 'cover', 'links', 'seo', 'tags']);
    expect(completionsAt('api.articles.find({ populate: { author: { | } } });')).toEqual(['fields', 'filters', 'populate', 'publicationState', 'sort']);
    expect(completionsAt('api.articles.find({ sort: { | } });')).toEqual(expect.arrayContaining(['title', 'views', 'author']));
  }, 60_000);

  it('completes only what a user can write: no error type among the entries, while typing a name too', () => {
    const author = ['$and', '$not', '$or', 'articles', 'bio', 'createdAt', 'email', 'id', 'name', 'updatedAt'];
    const seo = ['$and', '$not', '$or', 'id', 'image', 'metaDescription', 'metaTitle', 'tags'];
    expect(completionsAt('api.authors.find({ filters: { n| } });')).toEqual(author);
    expect(completionsAt('api.articles.find({ filters: { author: { n| } } });')).toEqual(author);
    expect(completionsAt('api.articles.find({ filters: { author: { | } } });')).toEqual(author);
    expect(completionsAt('api.articles.find({ filters: { seo: { m| } } });')).toEqual(seo);
    expect(completionsAt('api.articles.find({ filters: { title: \'x\', author: { articles: { author: { n| } } } } });')).toEqual(author);
    expect(completionsAt('api.articles.find({ filters: { author: { $or: [{ n| }] } } });')).toEqual(author);
    expect(completionsAt('api.articles.find({ f| });')).toEqual(['fields', 'filters', 'pagination', 'populate', 'publicationState', 'sort']);
    expect(completionsAt('api.articles.find({ populate: { a| } });')).toEqual(['author', 'blocks', 'category', 'cover', 'links', 'seo', 'tags']);
    expect(completionsAt('api.articles.find({ populate: { author: { f| } } });')).toEqual(['fields', 'filters', 'populate', 'publicationState', 'sort']);
    expect(completionsAt('api.articles.findOne(1, { f| });')).toEqual(['fields', 'populate', 'publicationState']);
  }, 60_000);

  it('serialises queries exactly as qs.stringify(query, { encodeValuesOnly: true })', async () => {
    const { queryString } = (await import(path.join(clientDir, 'dist/index.js'))) as { queryString(query?: object): string };
    const query = { filters: { title: { $containsi: 'é & ?' }, $or: [{ views: { $gt: 3 } }] }, populate: { author: { fields: ['name'] } }, sort: ['title:asc'], pagination: { page: 2 } };
    expect(queryString(query)).toBe(`?${qs.stringify(query, { encodeValuesOnly: true })}`);
    expect(queryString(query)).toBe(
      '?filters[title][$containsi]=%C3%A9%20%26%20%3F&filters[$or][0][views][$gt]=3&populate[author][fields][0]=name&sort[0]=title%3Aasc&pagination[page]=2',
    );
    expect(queryString({})).toBe('');
  });

  it('writes the same query string as qs for generated queries: unicode, surrogates, nulls, dates, nesting', async () => {
    const { queryString } = (await import(path.join(clientDir, 'dist/index.js'))) as { queryString(query?: object): string };
    let seed = 20261126;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const pieces = ['a', 'Z', '9', '-', '.', '_', '~', ' ', '&', '=', '?', '#', '+', '%', '/', ':', '[', ']', '(', ')', '!', '*', "'", 'é', 'ß', '中', '€', '😀', '\ud800', '\udc00', '\n', '\u0000'];
    const text = (max: number) => Array.from({ length: Math.floor(random() * max) }, () => pick(pieces)).join('');
    const value = (depth: number): unknown => {
      const kind = Math.floor(random() * (depth > 3 ? 6 : 9));
      if (kind === 0) return text(12);
      if (kind === 1) return Math.floor(random() * 2000) - 1000 + (random() < 0.3 ? 0.5 : 0);
      if (kind === 2) return random() < 0.5;
      if (kind === 3) return null;
      if (kind === 4) return undefined;
      if (kind === 5) return new Date(Math.floor(random() * 2e12));
      if (kind === 6) return Array.from({ length: Math.floor(random() * 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, () => [pick(['title', '$eq', '$or', 'populate', 'fields', 'x y', 'é']), value(depth + 1)]));
    };
    for (let i = 0; i < 2000; i++) {
      const query = { filters: value(0), populate: value(1), sort: value(2), [pick(['pagination', 'locale', 'publicationState'])]: value(1) };
      const expected = qs.stringify(query, { encodeValuesOnly: true });
      expect(queryString(query), JSON.stringify(query)).toBe(expected === '' ? '' : `?${expected}`);
    }
    // Values longer than qs's 1,024-unit segments, with a pair split across a boundary.
    for (const long of ['x'.repeat(1023) + '😀' + 'y', 'é'.repeat(3000), '😀'.repeat(700)]) {
      expect(queryString({ filters: { title: { $eq: long } } })).toBe(`?${qs.stringify({ filters: { title: { $eq: long } } }, { encodeValuesOnly: true })}`);
    }
  });

  it('sends the token and JSON body, and throws an HttpError for an error answer without Strapi’s envelope', async () => {
    const { createClient, StrapiError } = (await import(path.join(clientDir, 'dist/index.js'))) as typeof import('../../out/client/dist/index.js');
    const seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const api = createClient({ url: `http://127.0.0.1:${port}/`, token: 'a-token', headers: { 'x-app': 'web' } });
      const error = await api.articles.update(7, { title: 'Title' }, { fields: ['title'] }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StrapiError);
      expect((error as InstanceType<typeof StrapiError>).error).toEqual({ status: 502, name: 'HttpError', message: 'Bad Gateway', details: {} });
      expect(seen).toEqual([
        {
          method: 'PUT',
          url: '/api/articles/7?fields[0]=title',
          headers: expect.objectContaining({ authorization: 'Bearer a-token', 'content-type': 'application/json', accept: 'application/json', 'x-app': 'web' }),
          body: JSON.stringify({ data: { title: 'Title' } }),
        },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('client member names', () => {
  it('refuses a content type whose route would be a member the client keeps (setToken, request, auth, upload)', async () => {
    const models = path.join(await tempDir('client-reserved'), 'models');
    await mkdir(models, { recursive: true });
    await writeFile(path.join(models, 'set-token.json'), JSON.stringify({ info: { singularName: 'set-token-item', pluralName: 'set-token', displayName: 'Set token' }, attributes: {} }));
    await expect(generate({ modelsDir: models, outDir: path.join(models, '..', 'out'), provider: 'sqlite', check: false, acceptDataLoss: false })).rejects.toThrow(
      `api::set-token.set-token: its route "set-token" would be the client's "setToken", which the client keeps for itself`,
    );
  });
});

describe('client/ of the import models (components with relations and media)', () => {
  let clientDir: string;
  beforeAll(async () => {
    clientDir = await emitClient('import');
  }, 60_000);

  it('compiles the type-level tests: filters typed through relations and components at any depth, uploads into components', async () => {
    const errors = await compileAgainst(clientDir, 'import-models.ts', await readFile(path.join(repoRoot, 'test/client/import-models.ts'), 'utf8'));
    expect(errors).toEqual([]);
  }, 60_000);

  it('names an unknown key through a component’s relation and media, not `never`', async () => {
    const calls = [
      `api.homepage.find({ populate: { hero: { filters: { ctas: { target: { title: 'x', nmae: 'x' } } } } } });`,
      `api.articles.find({ filters: { seo: { shareImage: { nmae: 'x' } } } });`,
      `api.homepage.find({ populate: { hero: { filters: { author: { $not: { profile: { nmae: 'x' } } } } } } });`,
      // A filter object naming nothing that exists does not fit the query type at all: TypeScript's own message, naming the key and the type.
      `api.homepage.find({ populate: { hero: { filters: { ctas: { target: { nmae: 'x' } } } } } });`,
    ];
    const text = `import { createClient } from '../../out/client/dist/index.js';\nconst api = createClient({ url: '' });\n${calls.map((call) => `void ${call}`).join('\n')}\nexport {};\n`;
    const errors = await compileAgainst(clientDir, 'unknown-key.ts', text);
    expect(errors).toHaveLength(4);
    expect(errors[0]).toMatch(/unknown key 'nmae'; expected one of: [^"]*\bkind\b/);
    expect(errors[1]).toMatch(/unknown key 'nmae'; expected one of: [^"]*\bmime\b/);
    expect(errors[2]).toMatch(/unknown key 'nmae'; expected one of: [^"]*\bauthor\b/);
    expect(errors[3]).toContain(`'nmae' does not exist in type 'Filters<Models, "api::article.article">'`);
  }, 60_000);
});

describe('client/ of the edge models', () => {
  it('type-checks its own sources', async () => {
    expect(typecheckClient(await emitClient('edge'))).toEqual([]);
  }, 60_000);
});
