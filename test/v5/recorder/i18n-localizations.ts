/**
 * The order of `localizations` (issue 30, rest-recorded's former `localizationsOrder`): a document
 * made in en, then fr, then de, read on REST and GraphQL without a sort (Strapi 5 reads them with
 * no ORDER BY: the database's order) and with one. Creation order (fr, de) and locale order (de,
 * fr) differ, so the answers say which one Strapi 5 follows.
 */
import { publicAuth, query, type Auth, type StrapiClient } from '../../import/recorder/client.js';

export async function recordI18nLocalizations(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const gql = client.graphql.bind(client);
  const en = (await rec('order.create.en', 'POST', '/api/pages', full, { data: { heading: 'Order en' } }))?.data;
  const D = en?.documentId;
  await rec('order.localize.fr', 'PUT', `/api/pages/${D}${query({ locale: 'fr' })}`, full, { data: { heading: 'Order fr' } });
  await rec('order.localize.de', 'PUT', `/api/pages/${D}${query({ locale: 'de' })}`, full, { data: { heading: 'Order de' } });
  for (const locale of ['en', 'fr', 'de']) {
    await rec(`order.rest.${locale}`, 'GET', `/api/pages/${D}${query({ locale, fields: ['heading'], populate: { localizations: { fields: ['heading', 'locale'] } } })}`, publicAuth);
  }
  await rec('order.rest.en.sorted', 'GET', `/api/pages/${D}${query({ fields: ['heading'], populate: { localizations: { fields: ['locale'], sort: 'locale:desc' } } })}`, publicAuth);
  // A draft edit of en (its published row gets a new id at publish in Strapi 5), then published.
  await rec('order.update.en', 'PUT', `/api/pages/${D}`, full, { data: { heading: 'Order en, again' } });
  await rec('order.rest.fr.afterPublish', 'GET', `/api/pages/${D}${query({ locale: 'fr', fields: ['heading'], populate: { localizations: { fields: ['locale'] } } })}`, publicAuth);
  for (const locale of ['en', 'fr', 'de']) {
    await gql(`order.graphql.${locale}`, `query($documentId: ID!) { page(documentId: $documentId, locale: "${locale}") { heading locale localizations { heading locale } } }`, publicAuth, { documentId: D });
  }
  await gql('order.graphql.en.sorted', `query($documentId: ID!) { page(documentId: $documentId) { locale localizations(sort: "locale:desc") { locale } } }`, publicAuth, { documentId: D });
  await gql('order.graphql.list.de', `query { pages(locale: "de", filters: { heading: { startsWith: "Order" } }) { heading localizations { locale } } }`, publicAuth);
  await rec('order.delete', 'DELETE', `/api/pages/${D}${query({ locale: '*' })}`, full);
}
