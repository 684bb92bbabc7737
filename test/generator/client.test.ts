/**
 * The typed client (client/, issue 15) as emitted from the blog and edge models: its own
 * sources type-check under its own tsconfig (strict, isolatedDeclarations), and the
 * type-level tests of test/client/usage.ts compile against it — expected answer types hold
 * and every `@ts-expect-error` marks a real error. Behaviour over HTTP: test/behaviour/client.test.ts.
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

describe('client/ of the blog models', () => {
  let clientDir: string;
  beforeAll(async () => {
    clientDir = await emitClient('blog');
  }, 60_000);

  it('type-checks its own sources (strict, isolatedDeclarations)', () => {
    expect(typecheckClient(clientDir)).toEqual([]);
  }, 60_000);

  it('compiles the type-level tests: answers follow fields and populate, invalid queries fail', async () => {
    const usage = await readFile(path.join(repoRoot, 'test/client/usage.ts'), 'utf8');
    const entry = path.join(clientDir, 'dist/index.js');
    expect(usage).toContain("from '../../out/client/dist/index.js'");
    const file = path.join(path.dirname(clientDir), 'usage.ts');
    await writeFile(file, usage.replace("'../../out/client/dist/index.js'", JSON.stringify(entry)));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    expect(diagnostics(program)).toEqual([]);
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

describe('client/ of the edge models', () => {
  it('type-checks its own sources', async () => {
    expect(typecheckClient(await emitClient('edge'))).toEqual([]);
  }, 60_000);
});
