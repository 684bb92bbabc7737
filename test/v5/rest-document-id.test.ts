/**
 * The v5 dialect on the stored documentId (docs/strapi5.md "REST"): all locales of a document
 * share it, a path picks the row of `?locale=` (the default locale without one), a PUT in a
 * locale the document lacks adds that locale under the same documentId, filters on documentId
 * (any operator, also through relations) and relation writes (with an item's `locale`) go
 * through the column, answers at every level carry it, v4 answers do not.
 */
import { describe, expect, it } from 'vitest';
import { useFixtureServer } from '../helpers/server.js';

describe('v5 REST: stored documentIds', () => {
  const fixture = useFixtureServer('i18n');

  it('shares a documentId across locales, and resolves paths, filters and relation writes through it', async () => {
    const en = await fixture.api.post('/v5/api/pages?locale=en', { data: { heading: 'Hello' } }, fixture.auth);
    expect(en.status).toBe(201);
    const { documentId: D, id: enId } = en.body.data;
    const fr = await fixture.api.put(`/v5/api/pages/${D}?locale=fr`, { data: { heading: 'Bonjour' } }, fixture.auth);
    expect(fr.status).toBe(200);
    expect(fr.body.data).toMatchObject({ documentId: D, locale: 'fr', heading: 'Bonjour' });
    const frId = fr.body.data.id;
    expect(frId).not.toBe(enId);
    const other = (await fixture.api.post('/v5/api/pages?locale=en', { data: { heading: 'Other' } }, fixture.auth)).body.data.documentId;
    expect(other).not.toBe(D);

    expect((await fixture.api.get(`/v5/api/pages/${D}?locale=fr`)).body.data).toMatchObject({ id: frId, documentId: D, heading: 'Bonjour' });
    expect((await fixture.api.get(`/v5/api/pages/${D}`)).body.data).toMatchObject({ id: enId, documentId: D, heading: 'Hello' });
    expect((await fixture.api.get(`/v5/api/pages/${D}?locale=de`)).status).toBe(404);
    // v4 does not see it.
    expect((await fixture.api.get(`/api/pages/${frId}?locale=fr`)).body.data.attributes).not.toHaveProperty('documentId');

    const ids = async (query: string) => ((await fixture.api.get(`/v5/api/pages?locale=*&sort=id&${query}`)).body.data as { id: number }[]).map((p) => p.id);
    expect(await ids(`filters[documentId][$eq]=${D}`)).toEqual([enId, frId]);
    expect(await ids(`filters[documentId][$in][0]=${D}&filters[documentId][$in][1]=${other}`)).toHaveLength(3);
    expect(await ids(`filters[documentId][$startsWith]=${D.slice(0, 12)}`)).toEqual([enId, frId]);
    expect(await ids(`filters[documentId][$ne]=${D}`)).not.toContain(enId);
    expect(await ids(`filters[$or][0][documentId]=${other}&filters[$or][1][heading]=Bonjour`)).toHaveLength(2);
    expect(await ids('filters[documentId][$eq]=zzzzzzzzzzzzzzzzzzzzzzzz')).toEqual([]);
    expect((await fixture.api.get('/v5/api/pages?sort=documentId:asc')).status).toBe(200);

    // Relation writes: a localized target in the item's locale, else the default one.
    const category = await fixture.api.post('/v5/api/categories?populate=pages', { data: { name: 'News', pages: { connect: [{ documentId: D, locale: 'fr' }, other] } } }, fixture.auth);
    expect(category.status).toBe(201);
    expect(category.body.data.pages.map((p: { id: number; documentId: string }) => [p.id, p.documentId]).sort()).toEqual(
      [[frId, D], [expect.any(Number), other]].sort(),
    );
    const C = category.body.data.documentId;
    const missing = await fixture.api.put(`/v5/api/categories/${C}`, { data: { pages: { connect: [{ documentId: D, locale: 'de' }] } } }, fixture.auth);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(`Document with id "${D}", locale "de" not found`);
    const through = await fixture.api.get(`/v5/api/categories?filters[pages][documentId][$eq]=${D}&populate[pages][fields][0]=heading`);
    expect(through.body.data.map((c: { documentId: string }) => c.documentId)).toEqual([C]);
    expect(through.body.data[0].pages.map((p: { documentId: string }) => p.documentId).sort()).toEqual([D, other].sort());

    // Deletes: one locale, then every locale.
    expect((await fixture.api.del(`/v5/api/pages/${D}?locale=fr`, fixture.auth)).status).toBe(204);
    expect((await fixture.api.get(`/v5/api/pages/${D}?locale=fr`)).status).toBe(404);
    expect((await fixture.api.get(`/v5/api/pages/${D}`)).body.data.id).toBe(enId);
    await fixture.api.put(`/v5/api/pages/${D}?locale=de`, { data: { heading: 'Hallo' } }, fixture.auth);
    expect((await fixture.api.del(`/v5/api/pages/${D}?locale=*`, fixture.auth)).status).toBe(204);
    expect(await ids(`filters[documentId][$eq]=${D}`)).toEqual([]);
  });
});
