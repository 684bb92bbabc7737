/**
 * `contentgen import --from <archive>` on the archives Strapi 4.26.2's own `strapi export
 * --no-encrypt` wrote from the recorded SQLite data sets (fixtures/strapi-data/<set>/export.tar.gz
 * and export.tar; test/import/recorder/export.ts). The project folder comes without database or
 * uploads: everything is read from the archive. The server built from the project on this run's
 * database (CG_TEST_DB) must answer every recorded REST request as Strapi did on SQLite, users'
 * JWTs included. API tokens are not in an archive (Strapi leaves them out): requests Strapi
 * answered for a token are sent with a new token of the same type, made with the server's
 * `npm run token`, and the import says that tokens did not come.
 */
import { createWriteStream, existsSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tarStream from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport, type ImportResult } from '../../generator/import/import.js';
import { tempDir } from '../helpers/paths.js';
import { buildModels, createApiToken, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { copyStrapiProject, loadStrapiAnswers, loadStrapiSecrets, strapiDataDir, strapiDataSets } from '../helpers/strapi-data.js';
import { answerAsStrapi, comparable, startImportedServer } from './compare.js';
import { customTokenActions } from './recorder/app.js';

const archives = ['export.tar.gz', 'export.tar'] as const;
/** The sets recorded with Strapi's export archives (recorder/export.ts): the two made through Strapi's API by hand. */
const archivedSets = strapiDataSets.filter((set): set is keyof typeof customTokenActions => set in customTokenActions);
const cases = archivedSets.flatMap((set) => archives.map((archive) => [set, archive] as const));

describe.each(cases)('import of the "%s" set from Strapi\'s %s', (set, archive) => {
  const answers = loadStrapiAnswers(set, 'sqlite');
  const secrets = loadStrapiSecrets(set);
  let project: string;
  let built: BuiltServer;
  let server: RunningServer;
  let result: ImportResult;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    project = await copyStrapiProject(set);
    built = await buildModels(strapiDataDir(set), `${set}-archive`);
    result = await runImport({
      project,
      serverDir: built.dir,
      from: path.join(strapiDataDir(set), archive),
      dryRun: false,
      replace: false,
      skipInvalid: false,
      env: { ...process.env, DATABASE_URL: built.database.url },
    });
    if (!result.ok) throw new Error(`${result.error}\n${result.problems.map((p) => `${p.table}: ${p.message}`).join('\n')}`);
    const env = { API_TOKEN_SALT: secrets.env.API_TOKEN_SALT };
    tokens.set('token:full-access', await createApiToken(built.dir, { type: 'full-access' }, env));
    tokens.set('token:read-only', await createApiToken(built.dir, { type: 'read-only' }, env));
    tokens.set('token:custom', await createApiToken(built.dir, { type: 'custom', actions: customTokenActions[set] }, env));
    server = await startImportedServer(built, project, secrets);
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('says what the archive does not hold: API tokens, admin users', () => {
    const notes = result.notes.join('\n');
    expect(notes).toMatch(/not in the archive: admin users and roles, API tokens, transfer tokens/);
    expect(notes).toMatch(/written by Strapi 4\.26\.2/);
    expect(result.counts.get('strapi_api_tokens') ?? 0).toBe(0);
    expect(result.counts.get('up_users')).toBe(loadStrapiSecrets(set).dialects.sqlite!.users.length);
    expect(result.filesCopied).toBeGreaterThan(0);
  });

  it.each(answers.requests.filter(comparable).map((r) => [r.name, r] as const))('answers %s as Strapi did', async (_name, recorded) => {
    const credentials = secrets.dialects.sqlite!;
    const jwt = recorded.auth === `user:${credentials.userJwt.username}` ? credentials.userJwt.jwt : undefined;
    const { ours, strapi } = await answerAsStrapi(server, recorded, 'sqlite', tokens.get(recorded.auth) ?? jwt, `${set}.${archive}`);
    expect(ours).toEqual(strapi);
  });
});

describe('archives off the beaten path (--dry-run)', () => {
  const project = strapiDataDir('import');
  let dir: string;
  beforeAll(async () => {
    dir = await tempDir('archive-odd');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const importFrom = (from: string) => runImport({ project, serverDir: path.join(dir, 'no-server'), from, dryRun: true, replace: false, skipInvalid: false });

  it('leaves out and reports what the models do not have, links to nothing, and file names that climb out', async () => {
    const escape = `escape-${process.pid}.png`;
    const stamps = { createdAt: '2024-01-01T00:00:00.000Z', updatedAt: '2024-01-01T00:00:00.000Z' };
    const file = path.join(dir, 'odd.tgz');
    const archive = tarStream.pack();
    const written = pipeline(archive, createGzip(), createWriteStream(file));
    const jsonl = (lines: unknown[]) => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
    archive.entry({ name: './entities/entities_00001.jsonl' }, jsonl([
      { type: 'api::tag.tag', id: 1, data: { name: 'kept', ...stamps } },
      { type: 'api::gone.gone', id: 1, data: { title: 'a type removed since' } },
    ]));
    archive.entry({ name: 'links/links_00001.jsonl' }, jsonl([
      { kind: 'relation.basic', relation: 'manyToOne', left: { type: 'api::gone.gone', ref: 1, field: 'tag' }, right: { type: 'api::tag.tag', ref: 1 } },
      { kind: 'relation.basic', relation: 'manyToMany', left: { type: 'api::article.article', ref: 9, field: 'tags', pos: 1 }, right: { type: 'api::tag.tag', ref: 1, pos: 1 } },
    ]));
    archive.entry({ name: `assets/uploads/../../${escape}` }, 'not a png');
    archive.finalize();
    await written;

    const result = await importFrom(file);
    expect(result.notes).toEqual(expect.arrayContaining([
      expect.stringMatching(/^archive odd\.tgz \(no metadata\.json\): 2 entities, 2 links, 0 settings and webhooks, 0 upload files$/),
      'entities of types the models do not have, left out: api::gone.gone (1)',
      'links of fields the models do not have, left out: api::gone.gone.tag (1)',
    ]));
    expect(result.counts.get('tags')).toBe(1);
    expect(result.problems.map((p) => `${p.kind}: ${p.message}`)).toContain('dangling link: api::article.article.tags: links articles id 9, which does not exist');
    expect(existsSync(path.join(os.tmpdir(), escape))).toBe(false);
  });

  it('refuses an encrypted archive, saying how to export one it reads', async () => {
    const file = path.join(dir, 'export.tar.gz.enc');
    // What Strapi's aes-128-ecb output looks like to a reader: bytes with no header.
    writeFileSync(file, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)));
    const refused = await importFrom(file);
    expect(refused.ok).toBe(false);
    expect(refused.error).toBe(`${file} is an encrypted Strapi export archive: export it again without encryption: \`strapi export --no-encrypt\` (contentgen reads .tar and .tar.gz archives)`);
  });

  it('refuses a file named like an archive that is none', async () => {
    const file = path.join(dir, 'backup.tgz');
    writeFileSync(file, 'not an archive\n');
    const refused = await importFrom(file);
    expect(refused.error).toMatch(/backup\.tgz is neither a tar nor a gzip file: if it is an encrypted Strapi export archive, export it again without encryption/);
  });
});
