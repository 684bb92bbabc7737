/**
 * The i18n set (fixtures/i18n/models: locales en (default), fr, de) through Strapi 5, where i18n is
 * built in: `locale` on create, update, reads and deletes; every locale of a document shares its
 * documentId; non-localized fields follow the group; drafts per locale; GraphQL `locale`.
 */
import { publicAuth, query, type Auth, type StrapiClient } from '../../import/recorder/client.js';
import { recordI18nLocalizations } from './i18n-localizations.js';

export async function recordI18n(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  await rec('i18n.locales', 'GET', '/api/i18n/locales', publicAuth);
  const cat = (await rec('categories.create', 'POST', '/api/categories', full, { data: { name: 'Guides' } }))?.data;

  // A document in the default locale, then its fr localization by PUT ?locale=fr, a de one by POST ?locale=de.
  const en = (await rec('pages.create.en', 'POST', `/api/pages${query({ populate: '*' })}`, full, {
    data: { heading: 'Hello', slug: 'hello', code: 'hello', views: 1, featured: true, metadata: { metaTitle: 'Hello' }, settings: { theme: 'dark', wide: true }, contentSections: [{ __component: 'sections.hero', title: 'Hero en' }], category: cat?.documentId },
  }))?.data;
  const D = en?.documentId;
  await rec('pages.localize.fr', 'PUT', `/api/pages/${D}${query({ locale: 'fr', populate: '*' })}`, full, { data: { heading: 'Bonjour', slug: 'bonjour', metadata: { metaTitle: 'Bonjour' }, contentSections: [{ __component: 'sections.rich-text', body: 'texte' }] } });
  await rec('pages.create.de', 'POST', `/api/pages${query({ locale: 'de' })}`, full, { data: { heading: 'Hallo', views: 7 } });
  await rec('pages.create.localeInBody', 'POST', '/api/pages', full, { data: { heading: 'Body locale', locale: 'fr' } });
  await rec('pages.create.unknownLocale', 'POST', `/api/pages${query({ locale: 'xx' })}`, full, { data: { heading: 'Unknown locale' } });
  await rec('pages.localize.unknownLocale', 'PUT', `/api/pages/${D}${query({ locale: 'xx' })}`, full, { data: { heading: 'Unknown locale' } });
  await rec('pages.update.nonLocalized', 'PUT', `/api/pages/${D}${query({ locale: 'en' })}`, full, { data: { views: 42, featured: false } });
  await rec('pages.read.fr.afterNonLocalized', 'GET', `/api/pages/${D}${query({ locale: 'fr', fields: ['heading', 'views', 'featured', 'locale'] })}`, publicAuth);
  await rec('pages.localize.fr.draft', 'PUT', `/api/pages/${D}${query({ locale: 'fr', status: 'draft' })}`, full, { data: { heading: 'Bonjour (brouillon)' } });

  await rec('pages.read.fr.draftWhilePublished', 'GET', `/api/pages/${D}${query({ locale: 'fr', fields: ['heading', 'publishedAt'] })}`, publicAuth);
  await rec('pages.v4format.fr', 'GET', `/api/pages/${D}${query({ locale: 'fr', populate: ['localizations', 'metadata'] })}`, publicAuth, undefined, { 'Strapi-Response-Format': 'v4' });

  // Reads.
  for (const locale of ['en', 'fr', 'de', '*', 'all']) {
    await rec(`pages.list.${locale}`, 'GET', `/api/pages${query({ locale, sort: ['heading:asc'], populate: { localizations: { fields: ['heading', 'locale'] }, category: { fields: ['name'] } } })}`, publicAuth);
  }
  await rec('pages.list.default', 'GET', `/api/pages${query({ fields: ['heading', 'locale'] })}`, publicAuth);
  await rec('pages.list.fr.draft', 'GET', `/api/pages${query({ locale: 'fr', status: 'draft', fields: ['heading', 'locale', 'publishedAt'] })}`, publicAuth);
  await rec('pages.list.filter.locale', 'GET', `/api/pages${query({ filters: { locale: { $eq: 'fr' } }, fields: ['heading', 'locale'] })}`, publicAuth);
  await rec('pages.findOne.fr', 'GET', `/api/pages/${D}${query({ locale: 'fr', populate: '*' })}`, publicAuth);
  await rec('pages.findOne.de.missing', 'GET', `/api/pages/${D}${query({ locale: 'de' })}`, publicAuth);
  await rec('pages.findOne.default', 'GET', `/api/pages/${D}${query({ populate: ['localizations'] })}`, publicAuth);
  await rec('categories.list.pages', 'GET', `/api/categories${query({ populate: { pages: { fields: ['heading', 'locale'] } } })}`, publicAuth);
  await rec('categories.list.locale', 'GET', `/api/categories${query({ locale: 'fr' })}`, publicAuth);

  // Localized single type.
  await rec('global.put.en', 'PUT', `/api/global${query({ populate: '*' })}`, full, { data: { siteName: 'Site', contactEmail: 'a@example.com', seo: { metaTitle: 'Site' } } });
  await rec('global.put.fr', 'PUT', `/api/global${query({ locale: 'fr', populate: '*' })}`, full, { data: { siteName: 'Site FR', seo: { metaTitle: 'Site FR' } } });
  await rec('global.get.fr', 'GET', `/api/global${query({ locale: 'fr', populate: '*' })}`, publicAuth);
  await rec('global.get.de', 'GET', `/api/global${query({ locale: 'de' })}`, publicAuth);
  await rec('global.get.localizations', 'GET', `/api/global${query({ populate: ['localizations'] })}`, publicAuth);
  await rec('global.delete.fr', 'DELETE', `/api/global${query({ locale: 'fr' })}`, full);
  await rec('global.get.fr.afterDelete', 'GET', `/api/global${query({ locale: 'fr' })}`, publicAuth);

  // Deletes per locale and of the whole document.
  await rec('pages.delete.fr', 'DELETE', `/api/pages/${D}${query({ locale: 'fr' })}`, full);
  await rec('pages.delete.fr.read', 'GET', `/api/pages${query({ locale: '*', fields: ['heading', 'locale'], sort: 'heading:asc' })}`, publicAuth);
  await rec('pages.delete.all', 'DELETE', `/api/pages/${D}${query({ locale: '*' })}`, full);
  await rec('pages.delete.all.read', 'GET', `/api/pages${query({ locale: '*', fields: ['heading', 'locale'], sort: 'heading:asc' })}`, publicAuth);

  // GraphQL.
  const gql = client.graphql.bind(client);
  const created = await gql('graphql.createPage.en', `mutation { createPage(data: { heading: "GraphQL page", views: 3 }) { documentId heading locale views } }`, full);
  const G = created?.data?.createPage?.documentId;
  await gql('graphql.updatePage.fr', `mutation($documentId: ID!) { updatePage(documentId: $documentId, locale: "fr", data: { heading: "Page GraphQL" }) { documentId heading locale views } }`, full, { documentId: G });
  await gql('graphql.createPage.de', `mutation { createPage(locale: "de", data: { heading: "GraphQL Seite" }) { documentId heading locale } }`, full);
  await gql('graphql.pages.fr', `query { pages(locale: "fr", sort: "heading:asc") { documentId heading locale views localizations { heading locale } category { name } } }`, publicAuth);
  await gql('graphql.pages.all', `query { pages(locale: "*", sort: "heading:asc") { documentId heading locale } }`, publicAuth);
  await gql('graphql.pages_connection.de', `query { pages_connection(locale: "de") { nodes { heading locale } pageInfo { total } } }`, publicAuth);
  await gql('graphql.page.fr', `query($documentId: ID!) { page(documentId: $documentId, locale: "fr") { documentId heading locale localizations { locale heading } } }`, publicAuth, { documentId: G });
  await gql('graphql.updatePage.fr.draft', `mutation($documentId: ID!) { updatePage(documentId: $documentId, locale: "fr", status: DRAFT, data: { heading: "Page GraphQL (brouillon)" }) { heading locale publishedAt } }`, full, { documentId: G });
  await gql('graphql.page.draft.fr', `query($documentId: ID!) { page(documentId: $documentId, locale: "fr", status: DRAFT) { heading publishedAt } }`, full, { documentId: G });
  await gql('graphql.global.fr', `query { global(locale: "fr") { siteName locale } }`, publicAuth);
  await gql('graphql.i18NLocales', `query { i18NLocales { documentId name code } }`, publicAuth);
  await gql('graphql.deletePage.fr', `mutation($documentId: ID!) { deletePage(documentId: $documentId, locale: "fr") { documentId } }`, full, { documentId: G });
  await gql('graphql.pages.afterDelete', `query { pages(locale: "*", sort: "heading:asc") { documentId heading locale } }`, publicAuth);
  await recordI18nLocalizations(client, full);
}
