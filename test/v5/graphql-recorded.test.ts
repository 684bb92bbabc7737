/**
 * The Strapi 5 GraphQL endpoint (templates/runtime/graphql-v5) against Strapi 5.54.0's own
 * answers, reads and writes: the recorder's scripts (test/v5/recorder/blog.ts with
 * blog-graphql.ts, i18n.ts) are run again, unchanged, against a generated server of the same
 * models whose src/config.ts mounts the v5 dialects where Strapi 5 has them (REST on `/api`,
 * GraphQL on `/graphql`; v4's GraphQL moves to `/v4/graphql`), and every GraphQL answer is
 * compared with the recording, documentIds, times, JWTs and ids normalised (recorded.ts).
 *
 * `knownDifferences` lists, with the reason, the requests that do not match yet; every other
 * GraphQL request must. A request that starts matching must be taken off the list.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/strapi-data.js';
import { recordBlog } from './recorder/blog.js';
import { recordI18n } from './recorder/i18n.js';
import { differences, replayRecording, unexpected } from './recorded.js';

const isGraphql = (request: RecordedRequest) => request.path === '/graphql';

const userConfig = { v5: { rest: { prefix: '/api' }, graphql: { path: '/graphql' } }, plugins: { graphql: { endpoint: '/v4/graphql' } } };

// Why a request does not match yet (its first difference is in the report: V5_GRAPHQL_REPORT=<file>).
// The reasons the REST dialect's answers give too are rest-recorded.test.ts's, explained there.
const idOrder = 'idOrder: Strapi gives the published copy a new id at every publish, so an unsorted list comes in publish order there';
const componentRef = 'componentRef: the REST upload linked to a component (linked3.png) is refused here, so the file list lacks it';
const relatedFails = 'Strapi 5.54.0 fails on `UploadFile.related` ("Missing schema in validateQuery", INTERNAL_SERVER_ERROR per file); answered here';
const deleteLocaleBug = '`deletePage(documentId, locale: "fr")` deleted the default locale (en) in Strapi 5.54.0 and kept fr; the fr localization is deleted here';

const blogKnownDifferences: Record<string, string> = {
  'graphql.articles.overMax': idOrder,
  'graphql.articles.filters.relation': idOrder,
  'graphql.uploadFiles': componentRef,
  'graphql.uploadFiles.related': relatedFails,
  'graphql.uploadFiles_connection': componentRef,
};

const localizationsIdOrder =
  "`localizations` without a sort come in row-id order on Strapi 5's GraphQL (its `load` has no ORDER BY, SQLite reads by rowid; REST's populate walks the documents index: locale order), as here; but Strapi's re-published en row got a new id (order.update.en), so en comes last there and first here, where ids are stable";
const i18nKnownDifferences: Record<string, string> = {
  'graphql.pages.afterDelete': deleteLocaleBug,
  'order.graphql.fr': localizationsIdOrder,
  'order.graphql.de': localizationsIdOrder,
  'order.graphql.list.de': localizationsIdOrder,
};

const sets = [
  { set: 'blog' as const, script: recordBlog, knownDifferences: blogKnownDifferences },
  { set: 'i18n' as const, script: recordI18n, knownDifferences: i18nKnownDifferences },
];

describe.each(sets)('v5 GraphQL: the $set recording of Strapi 5.54.0', ({ set, script, knownDifferences }) => {
  it('answers the recorded GraphQL operations as Strapi 5 did, but for the known differences', async () => {
    const replay = await replayRecording(set, 'v5-graphql', userConfig, script);
    const found = differences(replay, isGraphql);
    const report = process.env.V5_GRAPHQL_REPORT ? `${process.env.V5_GRAPHQL_REPORT}.${set}` : undefined;
    expect(await unexpected(found, knownDifferences, report)).toEqual({ unexpected: [], nowMatching: [] });
  }, 600_000);
});
