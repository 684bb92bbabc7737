/**
 * The Strapi 5 REST dialect (templates/runtime/rest-v5) against Strapi 5.54.0's own answers: the
 * recorder's scripts (test/v5/recorder/blog.ts, i18n.ts) are run again, unchanged, against a
 * generated server of the same models whose src/config.ts mounts v5 on `/api` (v4 stays on `/api`
 * beneath it), and every REST answer is compared with the recording (fixtures/strapi5-data/<set>),
 * documentIds, times and row ids normalised (recorder/normalise.ts). GraphQL requests of the
 * scripts reach the v4 endpoint and are not compared (the v5 schema is #30 item 3).
 *
 * `knownDifferences` lists, with the reason, the requests that do not match yet; every other
 * content-API request must. A request that starts matching must be taken off the list.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StrapiClient, type Auth } from '../import/recorder/client.js';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { fixturesDir, modelsOf, tempDir } from '../helpers/paths.js';
import { buildModels, createApiToken, startServer, writeUserConfig, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { alignDocumentIds } from './align.js';
import { recordBlog } from './recorder/blog.js';
import { recordI18n } from './recorder/i18n.js';
import { normaliseRecording } from './recorder/normalise.js';
import { extraPermissions } from './recorder/permissions.js';

/** GraphQL is not this dialect's (the v5 schema is #30 item 3): answered by the v4 endpoint, not compared. */
const notRestApi = (request: RecordedRequest) => request.path === '/graphql';

// Why a request does not match yet (its first difference is in the report: V5_REST_REPORT=<file>).
const sharedComponentIds = "component ids: a live row and its draft share them until a draft is saved here; Strapi's draft row has its own from the start, so it refuses the published row's ids in a write";
const draftMedia = "an upload's refId is a live row's id here (a draft has its live row's media): Strapi's draft rows have ids of their own, so a file linked to one shows in the draft only";
const draftLocales = "Strapi 5 copied an update's non-localized fields (views) to the other locales' published rows only, their draft rows kept the old values; here a draft is made from its live row when saved";
const localesStar = '`locale=*` lists: Strapi 5 populates `localizations` as [] (the `*` applied to the populated entries too); here an entry\'s other locales';
const idOrder = 'row order: Strapi gives the published copy a new id at every publish, so an unsorted (or id-sorted) list comes in publish order there';
const inverseOrder = 'the other side of a relation: Strapi links the new published row last at every publish';
const imageSize = 'an uploaded PNG of 94 bytes answers size 0.1 in Strapi 5, 0.09 here (bytes / 1000, two decimals, as v4): Strapi 5 stores images re-encoded; not investigated';
const documentValidation = "Strapi 5's document validation texts (a zone lists every component of the project, an extra `Invalid relations` issue; component ids in a failed value)";
const populateCount = '`populate[x][count]=true` (`{ count: n }`): not in the v4 planner yet';
const foreignComponentIds = 'a component id of another entry in a component update: 400 in Strapi 5, taken here as the v4 service does';
const roleIds = 'role ids: Strapi creates authenticated and public first, this server syncs roles from permissions.json in its own order';
const strapiBug500 = 'an upload with a documentId as refId: 500 in Strapi 5 (and the file is written anyway), 400 here';
const componentRef = 'an upload linked to a component (ref shared.seo): 201 in Strapi 5, refused here as by the v4 upload plugin';

const blogKnownDifferences: Record<string, string> = {
  'users-permissions.roles': roleIds,
  'upload.one': imageSize,
  'upload.updateInfo': imageSize,
  'upload.files': imageSize,
  'upload.files.sorted': imageSize,
  'upload.files.findOne': imageSize,
  'articles.create.zoneUnknownComponent': documentValidation,
  'articles.create.tooManyLinks': documentValidation,
  'relations.inverse.author': inverseOrder,
  'components.update.publishedIds': sharedComponentIds,
  'components.update.foreignId': foreignComponentIds,
  'upload.ref.draftId.readPublished': draftMedia,
  'upload.ref.publishedId': imageSize,
  'upload.ref.id.read': draftMedia,
  'upload.ref.id.readPublished': imageSize,
  'upload.ref.documentId': strapiBug500,
  'upload.ref.component': componentRef,
  'articles.list': idOrder,
  'articles.list.limitOver': idOrder,
  'articles.list.limitMinus1': idOrder,
  'articles.list.sortRelation': idOrder,
  'articles.list.fields': idOrder,
  'articles.list.fieldsDocumentId': idOrder,
  'articles.list.filter.id': idOrder,
  'articles.list.filter.relationDocumentId': idOrder,
  'articles.list.populate.star': imageSize,
  'articles.list.populate.nested': inverseOrder,
  'articles.list.populate.count': populateCount,
  'articles.list.populate.componentFields': foreignComponentIds,
  'articles.list.unknownParam': idOrder,
  'articles.list.locale': idOrder,
  'articles.list.publicationState': idOrder,
  'articles.findOne.populateAll': imageSize,
  'authors.list': inverseOrder,
  'v4format.list': imageSize,
  'v4format.findOne': imageSize,
  'v4format.upload.files': imageSize,
  'final.articles.published': imageSize,
  'final.articles.draft': imageSize,
};

const unknownLocale = 'an unknown locale (`xx`): created in Strapi 5, 400 "This locale doesn\'t exist" here as in v4 (so lists of every locale miss it)';

const i18nKnownDifferences: Record<string, string> = {
  'pages.create.unknownLocale': unknownLocale,
  'pages.localize.unknownLocale': unknownLocale,
  'pages.localize.fr.draft': draftLocales,
  'pages.v4format.fr': unknownLocale,
  'pages.list.en': unknownLocale,
  'pages.list.fr': unknownLocale,
  'pages.list.*': localesStar,
  'pages.list.default': idOrder,
  'pages.findOne.fr': unknownLocale,
  'pages.findOne.default': unknownLocale,
  'pages.delete.fr.read': unknownLocale,
  'pages.delete.all.read': unknownLocale,
};


/** The recorded requests whose answers differ after normalising, with the first difference. */
function differences(recorded: RecordedRequest[], replayed: RecordedRequest[]): Map<string, string> {
  // One normalising over both, so a documentId has one label on both sides.
  const both = normaliseRecording([...recorded, ...alignDocumentIds(recorded, replayed)], { ids: true });
  const a = both.slice(0, recorded.length);
  const b = new Map(both.slice(recorded.length).map((r) => [r.name, r]));
  const out = new Map<string, string>();
  for (const request of a) {
    if (notRestApi(request)) continue;
    const other = b.get(request.name);
    const expected = { status: request.status, answer: request.answer };
    const actual = other ? { status: other.status, answer: other.answer } : undefined;
    if (!isDeepStrictEqual(expected, actual)) out.set(request.name, firstDifference(expected, actual, ''));
  }
  return out;
}

function firstDifference(a: unknown, b: unknown, at: string): string {
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!isDeepStrictEqual((a as any)[key], (b as any)[key])) return firstDifference((a as any)[key], (b as any)[key], `${at}.${key}`);
    }
  }
  return `${at}: Strapi ${JSON.stringify(a)?.slice(0, 200)} ≠ ours ${JSON.stringify(b)?.slice(0, 200)}`;
}

const sets = [
  { set: 'blog' as const, script: recordBlog, knownDifferences: blogKnownDifferences },
  { set: 'i18n' as const, script: recordI18n, knownDifferences: i18nKnownDifferences },
];

describe.each(sets)('v5 REST dialect: the $set recording of Strapi 5.54.0', ({ set, script, knownDifferences }) => {
  let built: BuiltServer;
  let server: RunningServer;
  let modelsDir: string;
  const client = { current: undefined as StrapiClient | undefined };

  beforeAll(async () => {
    // The blog models with the permissions the recording's Strapi granted beyond them.
    modelsDir = await tempDir(`v5-${set}-models`);
    await cp(modelsOf(set), modelsDir, { recursive: true });
    const permissionsFile = path.join(modelsDir, 'permissions.json');
    const permissions = JSON.parse(await readFile(permissionsFile, 'utf8')) as Record<string, string[]>;
    for (const [role, actions] of Object.entries(extraPermissions[set])) permissions[role] = [...new Set([...(permissions[role] ?? []), ...actions])];
    await writeFile(permissionsFile, JSON.stringify(permissions, null, 2));
    built = await buildModels(modelsDir, `v5-${set}`);
    await writeUserConfig(built.dir, { v5: { rest: { prefix: '/api' } } });
    server = await startServer(built.dir);
    client.current = new StrapiClient(server.url);
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
    if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
  });

  it('answers the recorded script as Strapi 5 did, but for the known differences', async () => {
    const token = await createApiToken(built.dir, { type: 'full-access' });
    const full: Auth = { kind: 'token', name: 'full-access', key: token };
    await script(client.current!, full);
    // Strapi 5 copies a published document through a JS number: its answers lose the biginteger's
    // last digit (fixtures/strapi5-data/README.md); this server keeps the value it was given.
    const replayed = JSON.parse(JSON.stringify(client.current!.answers).replaceAll('"9007199254740993"', '"9007199254740992"')) as RecordedRequest[];
    const recorded = (JSON.parse(await readFile(path.join(fixturesDir, `strapi5-data/${set}/answers.json`), 'utf8')) as { requests: RecordedRequest[] }).requests;
    const found = differences(recorded, replayed);
    if (process.env.V5_REST_REPORT) await writeFile(`${process.env.V5_REST_REPORT}.${set}`, [...found].map(([name, diff]) => `${name}\t${diff}`).join('\n') + '\n');
    const unexpected = [...found].filter(([name]) => !(name in knownDifferences)).map(([name, diff]) => `${name} ${diff}`);
    const nowMatching = Object.keys(knownDifferences).filter((name) => !found.has(name));
    expect(unexpected).toEqual([]);
    expect(nowMatching).toEqual([]);
  }, 600_000);
});
