/**
 * The Strapi 5 REST dialect (templates/runtime/rest-v5) against Strapi 5.54.0's own answers: the
 * recorder's scripts (test/v5/recorder/blog.ts, i18n.ts) are run again, unchanged, against a
 * generated server of the same models whose src/config.ts mounts v5 on `/api` (v4 stays on `/api`
 * beneath it), and every REST answer is compared with the recording (fixtures/strapi5-data/<set>),
 * documentIds, times and row ids normalised (recorder/normalise.ts; the replay: recorded.ts).
 * GraphQL requests of the scripts reach the v4 endpoint here and are not compared: the v5 schema's
 * answers are graphql-recorded.test.ts's.
 *
 * `knownDifferences` lists, with the reason, the requests that do not match yet; every other
 * content-API request must. A request that starts matching must be taken off the list.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { recordBlog } from './recorder/blog.js';
import { recordI18n } from './recorder/i18n.js';
import { differences, replayRecording, unexpected } from './recorded.js';

/** GraphQL is not this dialect's: answered by the v4 endpoint here, compared by graphql-recorded.test.ts. */
const notRestApi = (request: RecordedRequest) => request.path === '/graphql';

// Why a request does not match yet (its first difference is in the report: V5_REST_REPORT=<file>).
const sharedComponentIds = "component ids: a live row and its draft share them until a draft is saved here; Strapi's draft row has its own from the start, so it refuses the published row's ids in a write";
const draftMedia = "an upload's refId is a live row's id here (a draft has its live row's media): Strapi's draft rows have ids of their own, so a file linked to one shows in the draft only";
const draftLocales = "Strapi 5 copied an update's non-localized fields (views) to the other locales' published rows only, their draft rows kept the old values; here a draft is made from its live row when saved";
const localesStar = '`locale=*` lists: Strapi 5 populates `localizations` as [] (the `*` applied to the populated entries too); here an entry\'s other locales';
const idOrder = 'row order: Strapi gives the published copy a new id at every publish, so an unsorted (or id-sorted) list comes in publish order there';
const inverseOrder = 'the other side of a relation: Strapi links the new published row last at every publish';
const roleIds = 'the editor role\'s description: the recorder\'s bootstrap creates it as "Role editor"; this server gives a role permissions.json does not describe `Role "editor" declared in permissions.json.` (ids and order are Strapi\'s since roles are created Authenticated, Public, then the others, as Strapi 4.26.2 and 5 do)';
const strapiBug500 = 'an upload with a documentId as refId: 500 in Strapi 5 (and the file is written anyway), 400 here';
const graphqlReplayed = 'a read after the GraphQL script: here its mutations reach the v4 endpoint (see above), so its documents differ (Strapi 5\'s "GraphQL draft" is a draft only there)';
const draftOtherSide = "the other side of a draft's relation in a status=draft read (an author's articles): Strapi 5 lists the draft rows linked to it; here a target's side reads the live links, a draft's links are read from its own side only";
const componentRef = 'an upload whose `field` is not a media field (ref shared.seo, field metaTitle): 201 in Strapi 5, which checks no link and stores a link row nothing reads; 400 here, as on v4 (a link that cannot be made is refused before the file is stored)';
const draftTargets = "a draft's relation (inside a component here) to a draft & publish document: Strapi 5's draft rows link the target's draft row (publishedAt null, its draft values); here the target's live row";
const publishedLinksAtPublish = "a link (inside a component) to a document that was a draft when the article was published: Strapi 5's published row keeps the links made at that publish (null) until the article is published again; here the link shows once its target is published";
const componentRelationFilters = 'filters through a relation inside a component (`filters[seo][tags][name]`, `filters[links][article][documentId]`): 400 here (their ids are in the component JSON), as on v4; Strapi 5 filters them';

const blogKnownDifferences: Record<string, string> = {
  'users-permissions.roles': roleIds,
  'relations.inverse.author': inverseOrder,
  'components.update.publishedIds': sharedComponentIds,
  'upload.ref.draftId.readPublished': draftMedia,
  'upload.ref.id.read': draftMedia,
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
  'articles.list.populate.nested': inverseOrder,
  'articles.list.unknownParam': idOrder,
  'articles.list.locale': idOrder,
  'articles.list.publicationState': idOrder,
  'authors.list': inverseOrder,
  'v4format.upload.files': componentRef,
  'final.articles.draft': draftMedia,
  'pending.articles.draft': graphqlReplayed,
  'draftLinks.author.articles.draft': draftOtherSide,
  'cr.create.shorthand.read.draft': draftTargets,
  'cr.update.ids': draftTargets,
  'cr.target.publish.read.draft': draftTargets,
  'cr.target.publish.read': publishedLinksAtPublish,
  'cr.filter.seoTags': componentRelationFilters,
  'cr.filter.linkArticle': componentRelationFilters,
};


const i18nKnownDifferences: Record<string, string> = {
  'pages.localize.fr.draft': draftLocales,
  'pages.list.*': localesStar,
  'pages.list.default': idOrder,
};


const sets = [
  { set: 'blog' as const, script: recordBlog, knownDifferences: blogKnownDifferences },
  { set: 'i18n' as const, script: recordI18n, knownDifferences: i18nKnownDifferences },
];

describe.each(sets)('v5 REST dialect: the $set recording of Strapi 5.54.0', ({ set, script, knownDifferences }) => {
  it('answers the recorded script as Strapi 5 did, but for the known differences', async () => {
    const replay = await replayRecording(set, 'v5', { v5: { rest: { prefix: '/api' } } }, script);
    const found = differences(replay, (request) => !notRestApi(request));
    const report = process.env.V5_REST_REPORT ? `${process.env.V5_REST_REPORT}.${set}` : undefined;
    expect(await unexpected(found, knownDifferences, report)).toEqual({ unexpected: [], nowMatching: [] });
  }, 600_000);
});
