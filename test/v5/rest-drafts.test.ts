/**
 * Drafts of published documents (docs/strapi5.md "Drafts"): a v5 `PUT ?status=draft` on a
 * published article keeps its edits apart (`<table>_drafts`) while the live row keeps being
 * served (REST and the v5 GraphQL schema read both views); v4 readers (REST, GraphQL, population from the other side, counts) see the live row
 * only; a v4 write leaves the draft pending; the next v5 write without `status=draft` publishes
 * it onto the same row id; the user's code may discard it; deleting the document deletes it.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { png } from '../import/recorder/client.js';
import { bearer, buildFixture, createApiToken, startServer, useFixtureServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

describe('v5 REST: drafts of published documents', () => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    built = await buildFixture('blog');
    // The user's code calls discardDraft (Strapi 5's Content API has no route for it): a custom route here.
    await writeFile(
      path.join(built.dir, 'src/api/article.ts'),
      `import { appendFileSync } from 'node:fs';
import { defineContentApi } from '../runtime/extend/index.js';
export default defineContentApi('api::article.article', {
  controllers: () => ({
    async discard(ctx) {
      await ctx.state.service.discardDraft(Number(ctx.params.id));
      return { discarded: true };
    },
  }),
  routes: { custom: [{ method: 'POST', path: '/articles/:id/discard', handler: 'discard' }] },
  lifecycles: {
    beforeUpdate(event) {
      appendFileSync('hooks.log', JSON.stringify({ action: event.action, id: event.params.where.id, data: event.params.data }) + '\\n');
    },
    afterUpdate(event) {
      appendFileSync('hooks.log', JSON.stringify({ action: event.action, id: event.result.id, title: event.result.attributes.title, publishedAt: event.result.attributes.publishedAt }) + '\\n');
    },
  },
});
`,
    );
    // The app's in-process listener: the events a webhook would receive.
    await writeFile(
      path.join(built.dir, 'src/index.ts'),
      `import { appendFileSync } from 'node:fs';
import { defineApp } from './runtime/extend/index.js';

export default defineApp({
  onEvent(event) {
    appendFileSync('events.log', JSON.stringify(event) + '\\n');
  },
});
`,
    );
    server = await startServer(built.dir);
    auth = bearer(await createApiToken(built.dir, { type: 'full-access' }));
    api = client(server.url);
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('keeps a draft apart from the live row until a v5 write publishes it', async () => {
    const author = (await api.post('/v5/api/authors', { data: { name: 'Ada', email: 'ada@example.com' } }, auth)).body.data;
    const created = await api.post('/v5/api/articles', { data: { title: 'Live title', slug: 'live-slug', views: 1, seo: { metaTitle: 'Live seo' }, author: author.documentId } }, auth);
    expect(created.status).toBe(201);
    const { id, documentId: D } = created.body.data;
    await api.post('/v5/api/articles?status=draft', { data: { title: 'Never published' } }, auth);

    const saved = await api.put(`/v5/api/articles/${D}?status=draft&populate[seo]=true`, { data: { title: 'Draft title', slug: 'live-slug', views: 2, seo: { metaTitle: 'Draft seo' } } }, auth);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ id, documentId: D, title: 'Draft title', views: 2, publishedAt: null, seo: { metaTitle: 'Draft seo' } });

    // v5: the published version by default, the draft with status=draft (relations are the live row's).
    const live = await api.get(`/v5/api/articles/${D}?populate[seo]=true`, auth);
    expect(live.body.data).toMatchObject({ id, title: 'Live title', views: 1, seo: { metaTitle: 'Live seo' } });
    expect(live.body.data.publishedAt).not.toBeNull();
    const draft = await api.get(`/v5/api/articles/${D}?status=draft&populate[author][fields][0]=name`, auth);
    expect(draft.body.data).toMatchObject({ id, title: 'Draft title', views: 2, publishedAt: null, author: { name: 'Ada' } });
    const titles = async (query: string) => ((await api.get(`/v5/api/articles?fields[0]=title&sort=title&${query}`, auth)).body.data as { title: string }[]).map((a) => a.title);
    expect(await titles('status=draft')).toEqual(['Draft title', 'Never published']);
    expect(await titles('status=draft&filters[title][$contains]=Draft')).toEqual(['Draft title']);
    expect(await titles('status=draft&publicationFilter=modified')).toEqual(['Draft title']);
    expect(await titles('status=draft&publicationFilter=never-published')).toEqual(['Never published']);
    expect(await titles('publicationFilter=modified')).toEqual(['Live title']);
    expect(await titles('publicationFilter=unmodified')).toEqual([]);

    // The v5 GraphQL schema reads the same views.
    const v5graphql = async (args: string) =>
      ((await api.post('/v5/graphql', { query: `{ articles(${args}, sort: "title") { title publishedAt } }` }, auth)).body.data.articles as { title: string; publishedAt: string | null }[]);
    expect(await v5graphql('status: DRAFT')).toEqual([{ title: 'Draft title', publishedAt: null }, { title: 'Never published', publishedAt: null }]);
    expect((await v5graphql('status: DRAFT, publicationFilter: MODIFIED')).map((a) => a.title)).toEqual(['Draft title']);
    expect((await v5graphql('status: PUBLISHED, publicationFilter: MODIFIED')).map((a) => a.title)).toEqual(['Live title']);

    // v4 readers see the live row only: REST (live and preview), counts, the other side, GraphQL.
    expect((await api.get(`/api/articles/${id}`, auth)).body.data.attributes).toMatchObject({ title: 'Live title', views: 1 });
    const preview = await api.get('/api/articles?publicationState=preview&sort=title', auth);
    expect(preview.body.data.map((a: { attributes: { title: string } }) => a.attributes.title)).toEqual(['Live title', 'Never published']);
    expect(preview.body.meta.pagination.total).toBe(2);
    const side = await api.get(`/api/authors/${author.id}?populate[articles][fields][0]=title`, auth);
    expect(side.body.data.attributes.articles.data.map((a: { id: number; attributes: { title: string } }) => [a.id, a.attributes.title])).toEqual([[id, 'Live title']]);
    const graphql = await api.post('/graphql', { query: '{ articles(publicationState: PREVIEW, sort: "title") { data { id attributes { title } } } }' }, auth);
    expect(graphql.body.data.articles.data.map((a: { attributes: { title: string } }) => a.attributes.title)).toEqual(['Live title', 'Never published']);

    // A v4 write changes the live row and leaves the draft pending.
    expect((await api.put(`/api/articles/${id}`, { data: { views: 5 } }, auth)).status).toBe(200);
    expect((await api.get(`/v5/api/articles/${D}?status=draft`, auth)).body.data).toMatchObject({ title: 'Draft title', views: 2 });
    expect((await api.get(`/v5/api/articles/${D}`, auth)).body.data).toMatchObject({ title: 'Live title', views: 5 });

    // Publishing: the draft's values and the body onto the same row.
    const published = await api.put(`/v5/api/articles/${D}?populate[seo]=true`, { data: { views: 3 } }, auth);
    expect(published.status).toBe(200);
    expect(published.body.data).toMatchObject({ id, documentId: D, title: 'Draft title', slug: 'live-slug', views: 3, seo: { metaTitle: 'Draft seo' } });
    expect(published.body.data.publishedAt).not.toBeNull();
    expect((await api.get(`/api/articles/${id}`, auth)).body.data.attributes).toMatchObject({ title: 'Draft title', views: 3 });
    expect(await titles('publicationFilter=modified')).toEqual([]);
    expect(await titles('status=draft')).toEqual(['Draft title', 'Never published']);

    // discardDraft drops a pending draft, the live row stays.
    await api.put(`/v5/api/articles/${D}?status=draft`, { data: { title: 'Discarded draft' } }, auth);
    expect(await titles('status=draft')).toEqual(['Discarded draft', 'Never published']);
    expect((await api.post(`/api/articles/${id}/discard`, {}, auth)).body).toEqual({ discarded: true });
    expect(await titles('status=draft')).toEqual(['Draft title', 'Never published']);
    expect(await titles('publicationFilter=modified')).toEqual([]);

    // Deleting the document deletes its draft.
    await api.put(`/v5/api/articles/${D}?status=draft`, { data: { title: 'Another draft' } }, auth);
    expect((await api.del(`/v5/api/articles/${D}`, auth)).status).toBe(204);
    expect((await api.get(`/v5/api/articles/${D}?status=draft`, auth)).status).toBe(404);
    expect(await titles('status=draft')).toEqual(['Never published']);
  });
  it("keeps a draft's own relations and media until it is published", async () => {
    const tag = async (name: string) => (await api.post('/v5/api/tags', { data: { name } }, auth)).body.data as { id: number; documentId: string };
    const [t1, t2, t3] = [await tag('one'), await tag('two'), await tag('three')];
    const grace = (await api.post('/v5/api/authors', { data: { name: 'Grace', email: 'grace@example.com' } }, auth)).body.data;
    const linus = (await api.post('/v5/api/authors', { data: { name: 'Linus', email: 'linus@example.com' } }, auth)).body.data;
    const form = new FormData();
    form.append('files', new Blob([Uint8Array.from(await png(3, 2, [10, 200, 10]))], { type: 'image/png' }), 'green.png');
    const [file] = (await (await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: auth })).json()) as { id: number }[];
    const created = await api.post('/v5/api/articles', { data: { title: 'Linked', slug: 'linked', author: grace.documentId, tags: [t1.documentId, t2.documentId] } }, auth);
    expect(created.status).toBe(201);
    const { id, documentId: D } = created.body.data;
    const populate = 'populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[cover][fields][0]=name';
    const links = (entry: { author: { name: string } | null; tags: { name: string }[]; cover: { name: string } | null }) => ({
      author: entry.author?.name ?? null,
      tags: entry.tags.map((t) => t.name),
      cover: entry.cover?.name ?? null,
    });
    const liveLinks = { author: 'Grace', tags: ['one', 'two'], cover: null };

    // A draft save: connect (with a position), disconnect, a to-one and a media field.
    const saved = await api.put(
      `/v5/api/articles/${D}?status=draft&${populate}`,
      { data: { title: 'Linked (draft)', author: linus.documentId, tags: { connect: [{ documentId: t3.documentId, position: { start: true } }], disconnect: [t1.documentId] }, cover: file!.id } },
      auth,
    );
    expect(saved.status).toBe(200);
    const draftLinks = { author: 'Linus', tags: ['three', 'two'], cover: 'green.png' };
    expect(links(saved.body.data)).toEqual(draftLinks);
    expect(links((await api.get(`/v5/api/articles/${D}?status=draft&${populate}`, auth)).body.data)).toEqual(draftLinks);
    // A second draft save edits the draft's links, not the live ones.
    const again = await api.put(`/v5/api/articles/${D}?status=draft&${populate}`, { data: { tags: { connect: [{ documentId: t1.documentId, position: { after: t3.documentId } }] } } }, auth);
    expect(links(again.body.data)).toEqual({ ...draftLinks, tags: ['three', 'one', 'two'] });

    // The draft view filters, sorts and counts through the draft's links; the published view through the live ones.
    const titles = async (query: string) => ((await api.get(`/v5/api/articles?fields[0]=title&sort=title&${query}`, auth)).body.data as { title: string }[]).map((a) => a.title);
    expect(await titles('status=draft&filters[author][name]=Linus')).toEqual(['Linked (draft)']);
    expect(await titles('status=draft&filters[author][name]=Grace')).toEqual([]);
    expect(await titles('status=draft&filters[tags][name]=three')).toEqual(['Linked (draft)']);
    expect(await titles('status=draft&filters[cover][$notNull]=true')).toEqual(['Linked (draft)']);
    expect(await titles('filters[author][name]=Grace')).toEqual(['Linked']);
    expect(await titles('filters[tags][name]=three')).toEqual([]);
    const sorted = await api.get(`/v5/api/articles?status=draft&fields[0]=title&sort[0]=author.name:desc&sort[1]=title&filters[title][$startsWith]=Linked`, auth);
    expect(sorted.body.data.map((a: { title: string }) => a.title)).toEqual(['Linked (draft)']);
    const counted = await api.get(`/v5/api/articles/${D}?status=draft&fields[0]=title&populate[tags][count]=true`, auth);
    expect(counted.body.data.tags).toEqual({ count: 3 });

    // The published view and every v4 reader see the live links.
    expect(links((await api.get(`/v5/api/articles/${D}?${populate}`, auth)).body.data)).toEqual(liveLinks);
    const v4 = (await api.get(`/api/articles/${id}?populate[author][fields][0]=name&populate[tags][fields][0]=name&populate[cover][fields][0]=name`, auth)).body.data.attributes;
    expect([v4.author.data.attributes.name, v4.tags.data.map((t: { attributes: { name: string } }) => t.attributes.name), v4.cover.data]).toEqual(['Grace', ['one', 'two'], null]);
    const fromTag = (await api.get(`/api/tags/${t3.id}?populate[articles][fields][0]=title`, auth)).body.data.attributes.articles.data;
    expect(fromTag).toEqual([]);
    const fromAuthor = (await api.get(`/v5/api/authors/${linus.documentId}?populate[articles][fields][0]=title`, auth)).body.data.articles;
    expect(fromAuthor).toEqual([]);
    const gql = await api.post('/graphql', { query: `{ article(id: ${id}) { data { attributes { author { data { attributes { name } } } tags { data { attributes { name } } } } } } }` }, auth);
    expect(gql.body.data.article.data.attributes.author.data.attributes.name).toBe('Grace');
    expect(gql.body.data.article.data.attributes.tags.data.map((t: { attributes: { name: string } }) => t.attributes.name)).toEqual(['one', 'two']);

    // The v5 GraphQL schema: a draft's relations are the draft's links.
    const v5 = async (status: string) =>
      (await api.post('/v5/graphql', { query: `query($d: ID!) { article(documentId: $d, status: ${status}) { author { name } tags { name } cover { name } } }`, variables: { d: D } }, auth)).body.data.article;
    expect(await v5('DRAFT')).toEqual({ author: { name: 'Linus' }, tags: [{ name: 'three' }, { name: 'one' }, { name: 'two' }], cover: { name: 'green.png' } });
    expect(await v5('PUBLISHED')).toEqual({ author: { name: 'Grace' }, tags: [{ name: 'one' }, { name: 'two' }], cover: null });

    // Discarding drops the draft's links: the draft view is the live row again.
    expect((await api.post(`/api/articles/${id}/discard`, {}, auth)).status).toBe(200);
    expect(links((await api.get(`/v5/api/articles/${D}?status=draft&${populate}`, auth)).body.data)).toEqual(liveLinks);

    // Publishing applies the draft's links onto the live row (same id); the other side sees them then.
    await api.put(`/v5/api/articles/${D}?status=draft`, { data: { author: linus.documentId, tags: { set: [t3.documentId, t2.documentId] }, cover: file!.id } }, auth);
    const published = await api.put(`/v5/api/articles/${D}?${populate}`, { data: {} }, auth);
    expect(published.status).toBe(200);
    expect(published.body.data.id).toBe(id);
    expect(links(published.body.data)).toEqual({ author: 'Linus', tags: ['three', 'two'], cover: 'green.png' });
    const v4After = (await api.get(`/api/tags/${t3.id}?populate[articles][fields][0]=title`, auth)).body.data.attributes.articles.data;
    expect(v4After.map((a: { id: number }) => a.id)).toEqual([id]);
    expect(await titles('publicationFilter=modified')).toEqual([]);

    // A draft's links go with its document.
    await api.put(`/v5/api/articles/${D}?status=draft`, { data: { tags: [t1.documentId] } }, auth);
    expect((await api.del(`/v5/api/articles/${D}`, auth)).status).toBe(204);
    expect((await api.get(`/v5/api/tags/${t1.documentId}?populate[articles][fields][0]=title`, auth)).body.data.articles).toEqual([]);
  });
  it('runs the update hooks and records entry.update for a draft save, as Strapi 5 does', async () => {
    const created = (await api.post('/v5/api/articles', { data: { title: 'Hooked', slug: 'hooked' } }, auth)).body.data;
    const saved = await api.put(`/v5/api/articles/${created.documentId}?status=draft`, { data: { title: 'Hooked (draft)' } }, auth);
    expect(saved.status).toBe(200);
    const lines = async (file: string) => (await readFile(path.join(built.dir, file), 'utf8').catch(() => '')).trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    const hooks = (await lines('hooks.log')).filter((h) => h.id === created.id);
    expect(hooks).toEqual([
      { action: 'beforeUpdate', id: created.id, data: { title: 'Hooked (draft)' } },
      { action: 'afterUpdate', id: created.id, title: 'Hooked (draft)', publishedAt: null },
    ]);
    // The event carries the draft (its delivery is asynchronous: wait for it).
    let events: any[] = [];
    for (let i = 0; i < 100 && !events.some((e) => e.event === 'entry.update'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      events = (await lines('events.log')).filter((e) => e.uid === 'api::article.article' && e.entry?.id === created.id);
    }
    expect(events.map((e) => e.event)).toEqual(['entry.create', 'entry.publish', 'entry.update']);
    expect(events[2].entry).toMatchObject({ id: created.id, title: 'Hooked (draft)', publishedAt: null });
    // The live row is unchanged.
    expect((await api.get(`/api/articles/${created.id}`, auth)).body.data.attributes.title).toBe('Hooked');
  });
});

describe('v5 REST: drafts of published documents, per locale', () => {
  const fixture = useFixtureServer('i18n');

  it('keeps a draft per locale; publishing one shares its non-localized fields with the other locales', async () => {
    const en = (await fixture.api.post('/v5/api/pages?locale=en', { data: { heading: 'Hello', views: 1 } }, fixture.auth)).body.data;
    const D = en.documentId;
    const fr = (await fixture.api.put(`/v5/api/pages/${D}?locale=fr`, { data: { heading: 'Bonjour' } }, fixture.auth)).body.data;
    const read = async (query: string) => (await fixture.api.get(`/v5/api/pages/${D}?fields[0]=heading&fields[1]=views&fields[2]=publishedAt&${query}`, fixture.auth)).body.data;

    const saved = await fixture.api.put(`/v5/api/pages/${D}?locale=en&status=draft`, { data: { heading: 'Hello (draft)', views: 9 } }, fixture.auth);
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ id: en.id, heading: 'Hello (draft)', views: 9, publishedAt: null, locale: 'en' });
    expect(await read('locale=en&status=draft')).toMatchObject({ heading: 'Hello (draft)', views: 9, publishedAt: null });
    expect(await read('locale=fr&status=draft')).toMatchObject({ id: fr.id, heading: 'Bonjour', views: 1, publishedAt: null });
    expect(await read('locale=en')).toMatchObject({ heading: 'Hello', views: 1 });
    expect((await fixture.api.get(`/api/pages/${fr.id}?locale=fr`, fixture.auth)).body.data.attributes).toMatchObject({ heading: 'Bonjour', views: 1 });
    const modified = await fixture.api.get('/v5/api/pages?locale=*&fields[0]=heading&publicationFilter=modified', fixture.auth);
    expect(modified.body.data.map((p: { heading: string }) => p.heading)).toEqual(['Hello']);

    const published = await fixture.api.put(`/v5/api/pages/${D}?locale=en`, { data: {} }, fixture.auth);
    expect(published.body.data).toMatchObject({ id: en.id, heading: 'Hello (draft)', views: 9 });
    expect(await read('locale=fr')).toMatchObject({ id: fr.id, heading: 'Bonjour', views: 9 });
    expect((await fixture.api.get(`/api/pages/${fr.id}?locale=fr`, fixture.auth)).body.data.attributes).toMatchObject({ views: 9 });
  });
});
