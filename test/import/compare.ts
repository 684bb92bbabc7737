/**
 * How an imported server's answers are compared with what Strapi 4.26.2 answered for the same
 * data (fixtures/strapi-data answers): the import tests of a database (import.test.ts) and of a
 * `strapi export` archive (import-archive.test.ts), and the round trip on real projects' models
 * (test/real-projects/import-roundtrip.ts) share it: what differs by design is normalised on
 * both sides, nothing else.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { client } from '../helpers/http.js';
import { bearer, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import type { RecordedRequest, StrapiDialect, StrapiSecrets } from '../helpers/strapi-data.js';

/**
 * Recorded requests the comparison covers: every REST read and every GraphQL query (public,
 * with an original API token or the original user JWT).
 */
export function comparable(r: RecordedRequest): boolean {
  return (r.method === 'GET' && r.path.startsWith('/api/')) || (r.method === 'POST' && r.path === '/graphql');
}

/**
 * What contentgen's server answers differently from Strapi for reasons that are not the
 * import's (each a runtime difference, reported as such), applied to both answers before they
 * are compared, so that every other difference fails the test:
 *  - Strapi on SQLite reads bigintegers as JS numbers (9007199254740993 → "9007199254740992");
 *    the import keeps them exact: compared as numbers.
 *  - a morph relation's target: Strapi shows its private attributes, contentgen does not.
 *  - a time: Strapi on PostgreSQL answers the database's text (`10:30:00`), contentgen `10:30:00.000`.
 *  - `/api/upload/files` without a sort: Strapi answers in the database's physical order (an
 *    updated row last on PostgreSQL), contentgen by id: compared by id; roles listed by id.
 */
export function comparableBody(value: unknown, dialect: StrapiDialect, key = '', depth = 0): unknown {
  if (typeof value === 'string' && dialect === 'sqlite' && /^-?\d{16,}$/.test(value)) return Number(value);
  if (typeof value === 'string' && /^\d{2}:\d{2}:\d{2}$/.test(value)) return `${value}.000`;
  if (Array.isArray(value)) {
    return value.map((v) => comparableBody(v, dialect, '', depth + 1));
  }
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if ((key === 'subject' || key === 'items') && k === 'secret') continue;
      if (k === 'roles' && Array.isArray(v)) {
        out[k] = comparableBody([...v].sort((a, b) => a.id - b.id), dialect, k, depth + 1);
        continue;
      }
      out[k] = comparableBody(v, dialect, k, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * The import makes localization groups whole (issue 26): where Strapi linked an entry one way
 * only (de → fr, not fr → de), the server lists every member of the group. Where our list holds
 * every entry Strapi's holds, ours is cut to those, in our order, so the rest is compared as is.
 */
export function wholeGroupsAsStrapiSaw(ours: unknown, strapi: unknown, key = ''): unknown {
  if (Array.isArray(ours) && Array.isArray(strapi)) {
    if (key === 'localizations-data') {
      const wanted = new Set(strapi.map((e) => (e as { id?: unknown })?.id));
      const kept = ours.filter((e) => wanted.has((e as { id?: unknown })?.id));
      if (kept.length === wanted.size) return kept.map((e) => wholeGroupsAsStrapiSaw(e, strapi.find((x) => (x as { id?: unknown }).id === (e as { id?: unknown }).id)));
    }
    return ours.map((e, i) => wholeGroupsAsStrapiSaw(e, strapi[i]));
  }
  if (ours && typeof ours === 'object' && strapi && typeof strapi === 'object' && !Array.isArray(strapi)) {
    const other = strapi as Record<string, unknown>;
    return Object.fromEntries(Object.entries(ours).map(([k, v]) => [k, wholeGroupsAsStrapiSaw(v, other[k], key === 'localizations' && k === 'data' ? 'localizations-data' : k)]));
  }
  return ours;
}

/**
 * Drafts Strapi 4.26.2 shows in a live read (no `publicationState=preview`) where contentgen does
 * not: entries reached through a dynamic zone populated with `on` fragments. Strapi's database
 * layer (morphToMany: `qb.init(on[type])`) drops the live filter it passes down everywhere else,
 * so a draft linked from a zone's component is shown to the public; contentgen keeps it hidden
 * (docs/rest.md, deliberate differences). Applied to Strapi's live answers only: relation
 * `data` whose `publishedAt` is null is taken out (a list) or set to null (one entry).
 */
export function withoutLeakedDrafts(value: unknown): unknown {
  const isDraft = (e: unknown) => (e as { attributes?: { publishedAt?: unknown } } | null)?.attributes?.publishedAt === null;
  if (Array.isArray(value)) return value.map(withoutLeakedDrafts);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'data' && Array.isArray(v)) out[k] = v.filter((e) => !isDraft(e)).map(withoutLeakedDrafts);
    else if (k === 'data' && Object.keys(value).length === 1 && isDraft(v)) out[k] = null;
    else out[k] = withoutLeakedDrafts(v);
  }
  return out;
}

/**
 * Whether Strapi read a recorded REST request live: lists and single types unless asked for a
 * preview. A findOne reads no publication state at all (Strapi 4's entity service passes only
 * `fields` and `populate`), drafts included, as contentgen does. GraphQL answers are not
 * concerned (the leak is in REST's zone populate with `on`; a query's PREVIEW is in its body).
 */
export function isLiveRead(request: { name: string; path: string }): boolean {
  return request.path.startsWith('/api/') && !request.path.includes('publicationState=preview') && !request.name.includes('.findOne.');
}

/**
 * Where Strapi's GraphQL answer carries INTERNAL_SERVER_ERROR errors (its morph fields: "Missing
 * schema in validateQuery"), contentgen answers the field (docs/models.md, polymorphic
 * relations): ours must carry no error, and is compared with those paths set to null, as
 * Strapi's data holds them.
 */
export function withStrapiFailures(ours: any, strapi: any): any {
  const failed = (strapi?.errors ?? []).filter((e: any) => e.extensions?.code === 'INTERNAL_SERVER_ERROR');
  if (!failed.length || !ours?.data || ours.errors) return ours;
  const data = structuredClone(ours.data);
  for (const { path: at } of failed) {
    const parent = at.slice(0, -1).reduce((node: any, key: string | number) => node?.[key], data);
    if (parent && typeof parent === 'object') parent[at.at(-1)] = null;
  }
  return { errors: strapi.errors, data };
}

/**
 * Builds the server again from the Strapi project, as docs/moving-from-strapi.md says (it takes
 * the permissions.json, with roles under Strapi's names, and locales.json the import wrote), then
 * starts it with Strapi's secrets (token hashes and user JWTs need them), a populate depth as
 * deep as the recorded requests (Strapi answered populates nested deeper than contentgen's
 * default limit, 5) and no GraphQL cost limit (Strapi has none: the recorded list of 100
 * articles with every field costs more than contentgen's default).
 */
export async function startImportedServer(
  built: BuiltServer,
  projectDir: string,
  secrets: { readonly env: Pick<StrapiSecrets['env'], 'JWT_SECRET' | 'API_TOKEN_SALT'> },
  /** More entries of src/config.ts's object, as source text (`  v5: { … },\n`). */
  moreConfig = '',
): Promise<RunningServer> {
  const rebuilt = await runCli('build', projectDir, '-o', built.dir, '--db', built.provider);
  if (rebuilt.code !== 0) throw new Error(rebuilt.stderr);
  const config = path.join(built.dir, 'src', 'config.ts');
  const settings = (await readFile(config, 'utf8')).replace('withCount: true,', 'withCount: true,\n      populate: { maxDepth: 12 },');
  await writeFile(config, settings.replace('} satisfies UserConfig;', `  plugins: { graphql: { maxComplexity: 0 } },\n${moreConfig}} satisfies UserConfig;`));
  return startServer(built.dir, { JWT_SECRET: secrets.env.JWT_SECRET, API_TOKEN_SALT: secrets.env.API_TOKEN_SALT });
}

/**
 * Sends a recorded request to the server (with `credential`: an API token or a user JWT) and
 * gives both answers as they are compared: `expect(ours).toEqual(strapi)`. `dialect` is the
 * database Strapi answered from. CG_IMPORT_DUMP=<dir> writes both answers there.
 */
export async function answerAsStrapi(
  server: RunningServer,
  recorded: RecordedRequest,
  dialect: StrapiDialect,
  credential: string | undefined,
  dumpName: string,
): Promise<{ ours: { status: number; body: unknown }; strapi: { status: number; body: unknown } }> {
  const api = client(server.url, credential ? bearer(credential) : {});
  const answer = recorded.method === 'GET' ? await api.get(recorded.path) : await api.post(recorded.path, recorded.body);
  const byId = (body: unknown) => (Array.isArray(body) && !recorded.path.includes('sort') ? [...body].sort((a, b) => a.id - b.id) : body);
  if (process.env.CG_IMPORT_DUMP) {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(process.env.CG_IMPORT_DUMP, { recursive: true });
    writeFileSync(`${process.env.CG_IMPORT_DUMP}/${dumpName}.${recorded.name}.json`, JSON.stringify({ ours: answer.body, strapi: recorded.answer }, null, 1));
  }
  const strapi = comparableBody(byId(isLiveRead(recorded) ? withoutLeakedDrafts(recorded.answer) : recorded.answer), dialect);
  const ours = wholeGroupsAsStrapiSaw(comparableBody(byId(withStrapiFailures(answer.body, recorded.answer)), dialect), strapi);
  return { ours: { status: answer.status, body: ours }, strapi: { status: recorded.status, body: strapi } };
}
