/**
 * The data of set `import-i18n` (fixtures/import-i18n/models): localized pages, categories and a
 * single type in en (default), fr and de, made through Strapi's `/localizations` routes; a whole
 * group, a partial group (no de), a lone entry in a non-default locale, a draft, a deleted
 * localization, components and media per locale.
 */
import { png, type Auth, type StrapiClient } from './client.js';
import { registerUsers, type RecordedUser } from './fill-import.js';

export async function fillI18n(client: StrapiClient, admin: Auth): Promise<{ users: RecordedUser[] }> {
  const users = await registerUsers(client, [{ username: 'alice', role: 'authenticated' }], admin);
  const create = async (plural: string, data: Record<string, unknown>) => (await client.send('POST', `/api/${plural}`, admin, { data })).data.id as number;
  // Strapi 4's localization route takes the fields unwrapped and answers the entry unwrapped.
  const localize = async (plural: string, id: number, body: Record<string, unknown>) => (await client.send('POST', `/api/${plural}/${id}/localizations`, admin, body)).id as number;

  const [cover] = await client.upload(admin, [{ name: 'cover.png', type: 'image/png', data: png(300, 180, [30, 90, 200]) }]);
  const [share] = await client.upload(admin, [{ name: 'share-fr.png', type: 'image/png', data: png(64, 64, [200, 30, 90]) }]);

  const newsEn = await create('categories', { name: 'News', locale: 'en' });
  const newsFr = await localize('categories', newsEn, { name: 'Actualités', locale: 'fr' });
  const docsEn = await create('categories', { name: 'Docs', locale: 'en' });

  const homeEn = await create('pages', {
    title: 'Home',
    slug: 'home',
    body: 'Welcome **home**',
    views: 100,
    cover: cover.id,
    seo: { metaTitle: 'Home EN' },
    sections: [{ __component: 'shared.quote', text: 'Hello', by: 'EN' }],
    category: newsEn,
    locale: 'en',
  });
  const homeFr = await localize('pages', homeEn, {
    title: 'Accueil',
    slug: 'accueil',
    body: 'Bienvenue',
    seo: { metaTitle: 'Accueil FR', shareImage: share.id },
    sections: [{ __component: 'shared.quote', text: 'Bonjour', by: 'FR' }, { __component: 'shared.seo', metaTitle: 'Section FR' }],
    category: newsFr,
    locale: 'fr',
    publishedAt: '2024-02-01T08:00:00.000Z',
  });
  const homeDe = await localize('pages', homeFr, { title: 'Startseite', slug: 'startseite', locale: 'de', publishedAt: null });

  const aboutEn = await create('pages', { title: 'About', slug: 'about', views: 5, category: docsEn, locale: 'en' });
  await localize('pages', aboutEn, { title: 'À propos', slug: 'a-propos', locale: 'fr' });
  const aboutDe = await localize('pages', aboutEn, { title: 'Über uns (gelöscht)', slug: 'uber-uns', locale: 'de' });
  await client.send('DELETE', `/api/pages/${aboutDe}`, admin);

  await create('pages', { title: 'Legal', slug: 'legal', locale: 'en', publishedAt: null });
  await create('pages', { title: 'Seulement en français', slug: 'seulement', locale: 'fr' });

  // A shared (non-localized) attribute written on one localization.
  await client.send('PUT', `/api/pages/${homeEn}`, admin, { data: { views: 101 } });

  await client.send('PUT', '/api/global', admin, { data: { siteName: 'My site', footer: 'Made in EN', locale: 'en' } });
  await client.send('POST', '/api/global/localizations', admin, { siteName: 'Mon site', footer: 'Fait en FR', locale: 'fr' });

  await client.upload(admin, [{ name: 'cover-de.png', type: 'image/png', data: png(64, 64, [90, 200, 30]) }], { ref: 'api::page.page', refId: String(homeDe), field: 'cover' });
  return { users };
}
