/**
 * The typed client of a server with localized types (issue 15 × issue 14): the i18n fixture's
 * build, its own client/dist imported as a frontend would. Creates an entry and its
 * localizations (`createLocalization`, Strapi's unwrapped body and bare answer), reads per
 * locale (`locale`, `locale: 'all'`), populates `localizations`, on a collection and a single
 * type. On SQLite, PostgreSQL and MariaDB.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import type * as ClientModule from '../../fixtures/i18n/expected/client/dist/index.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof ClientModule.createClient>;
let client: typeof ClientModule;

beforeAll(async () => {
  built = await buildFixture('i18n');
  server = await startServer(built.dir);
  const token = await createApiToken(built.dir, { type: 'full-access' });
  client = (await import(pathToFileURL(path.join(built.dir, 'client/dist/index.js')).href)) as typeof ClientModule;
  api = client.createClient({ url: server.url, token });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('localized types through the typed client', () => {
  it('creates localizations and reads them per locale', async () => {
    const en = await api.pages.create({ heading: 'Hello', slug: 'hello', views: 3 });
    expect(en.data.attributes).toMatchObject({ heading: 'Hello', locale: 'en' });
    const fr = await api.pages.createLocalization(en.data.id, { heading: 'Bonjour', slug: 'bonjour', locale: 'fr' });
    // The bare entry, with the group's other localizations and the shared attributes.
    expect(fr).toMatchObject({ id: expect.any(Number), heading: 'Bonjour', locale: 'fr', views: 3 });
    expect(fr.localizations.map((l) => [l.id, l.locale])).toEqual([[en.data.id, 'en']]);

    const french = await api.pages.find({ locale: 'fr', fields: ['heading'], publicationState: 'preview' });
    expect(french.data.map((e) => e.attributes.heading)).toEqual(['Bonjour']);
    const everything = await api.pages.find({ locale: 'all', fields: ['heading', 'locale'], sort: 'locale:asc', publicationState: 'preview' });
    expect(everything.data.map((e) => [e.attributes.locale, e.attributes.heading])).toEqual([
      ['en', 'Hello'],
      ['fr', 'Bonjour'],
    ]);
    const withGroup = await api.pages.findOne(en.data.id, { fields: ['heading'], populate: { localizations: { fields: ['locale', 'heading'], publicationState: 'preview' } } });
    // The new localization is a draft: populated relations show drafts with publicationState preview.
    expect(withGroup.data.attributes.localizations.data.map((l) => l.attributes.locale)).toEqual(['fr']);

    const refused = await api.pages.createLocalization(en.data.id, { heading: 'Again', locale: 'en' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(client.StrapiError);
    expect((refused as InstanceType<typeof client.StrapiError>).error).toMatchObject({ status: 400, name: 'ApplicationError', message: 'locale is already used' });
  });

  it('a localized single type: update per locale, createLocalization, find per locale', async () => {
    await api.global.update({ siteName: 'Site' });
    const fr = await api.global.createLocalization({ siteName: 'Site FR', locale: 'fr' });
    expect(fr).toMatchObject({ siteName: 'Site FR', locale: 'fr' });
    expect((await api.global.find({ locale: 'fr' })).data.attributes.siteName).toBe('Site FR');
    expect((await api.global.find()).data.attributes.siteName).toBe('Site');
  });
});
