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
const drafts = 'drafts of published documents (#30 item 4): one row per document here, so a draft edit of a published document is live at once, and draft reads answer the live row';
const idOrder = 'row order: Strapi gives the published copy a new id at every publish, so an unsorted (or id-sorted) list comes in publish order there';
const inverseOrder = 'the other side of a relation: Strapi links the new published row last at every publish';
const roleIds = 'role ids: Strapi creates Authenticated (1) and Public (2) first, then the other roles; this server inserts the roles of permissions.json by type (authenticated, editor, public), which v4 answers and tests rely on (Strapi 4.26.2 creates them in Strapi 5\'s order too)';
const strapiBug500 = 'an upload with a documentId as refId: 500 in Strapi 5 (and the file is written anyway), 400 here';
const componentRef = 'an upload whose `field` is not a media field (ref shared.seo, field metaTitle): 201 in Strapi 5, which checks no link and stores a link row nothing reads; 400 here, as on v4 (a link that cannot be made is refused before the file is stored)';

const blogKnownDifferences: Record<string, string> = {
  'users-permissions.roles': roleIds,
  'relations.inverse.author': inverseOrder,
  'components.update.publishedIds': drafts,
  'components.read.draft': drafts,
  'upload.ref.draftId.readPublished': drafts,
  'upload.ref.id.read': drafts,
  'upload.ref.documentId': strapiBug500,
  'upload.ref.component': componentRef,
  'drafts.updateDraft': drafts,
  'drafts.published': drafts,
  'drafts.draft': drafts,
  'drafts.draft.token': drafts,
  'drafts.list.draft': drafts,
  'drafts.list.published': drafts,
  'drafts.list.badStatus': drafts,
  'drafts.publicationFilter.draft.has-published-version': drafts,
  'drafts.publicationFilter.draft.modified': drafts,
  'drafts.publicationFilter.draft.unmodified': drafts,
  'drafts.publicationFilter.draft.has-published-version-document': drafts,
  'drafts.publicationFilter.published.has-published-version': drafts,
  'drafts.publicationFilter.published.modified': drafts,
  'drafts.publicationFilter.published.unmodified': drafts,
  'drafts.publicationFilter.published.has-published-version-document': drafts,
  'drafts.publicationFilter.published.published-with-draft': drafts,
  'articles.list': idOrder,
  'articles.list.limitOver': idOrder,
  'articles.list.limitMinus1': idOrder,
  'articles.list.sortRelation': idOrder,
  'articles.list.fields': idOrder,
  'articles.list.fieldsDocumentId': idOrder,
  'articles.list.filter.id': idOrder,
  'articles.list.filter.relationDocumentId': idOrder,
  'articles.list.populate.nested': inverseOrder,
  'articles.list.unknownParam': idOrder,
  'articles.list.locale': idOrder,
  'articles.list.publicationState': idOrder,
  'authors.list': inverseOrder,
  'v4format.upload.files': componentRef,
  'final.articles.draft': drafts,
};


const i18nKnownDifferences: Record<string, string> = {
  'pages.localize.fr.draft': drafts,
  'pages.read.fr.draftWhilePublished': drafts,
  'pages.v4format.fr': drafts,
  'pages.list.en': drafts,
  'pages.list.fr': drafts,
  'pages.list.*': drafts,
  'pages.list.default': idOrder,
  'pages.list.fr.draft': drafts,
  'pages.list.filter.locale': drafts,
  'pages.findOne.fr': drafts,
  'pages.findOne.default': drafts,
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
