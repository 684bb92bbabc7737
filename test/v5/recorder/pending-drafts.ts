/**
 * The blog set's end state with published documents carrying unpublished edits (issue #30 item 5:
 * `contentgen import` keeps them): run last, so the database Strapi leaves holds two published
 * articles whose draft rows differ from their published rows, and the reads of both views.
 *
 * - "Pending edits": published with an author, tags, a cover, a component, a repeatable
 *   component and a zone; then saved as a draft with other scalars, components and zone (its
 *   relations and media unchanged).
 * - "Pending links": published with a category, tags and a cover; then its title saved as a
 *   draft, and then its category, tags and cover changed in the draft (relations and media of
 *   the draft row only).
 */
import { query, type Auth, type StrapiClient } from '../../import/recorder/client.js';

const populateAll = { author: true, category: true, tags: { sort: 'name:asc' }, cover: true, seo: true, links: true, blocks: { populate: '*' } };
/** Without relations and media: what the draft view answers alike wherever a draft's links are its live row's. */
const populateOwn = { seo: true, links: true, blocks: { populate: '*' } };

export async function recordPendingDrafts(client: StrapiClient, full: Auth): Promise<void> {
  const rec = client.record.bind(client);
  const ids = async (path: string) => ((await client.request('GET', path, full)).json?.data ?? []) as { id: number; documentId: string; name?: string }[];
  const [author] = await ids(`/api/authors${query({ sort: 'name:asc' })}`);
  const categories = await ids(`/api/categories${query({ sort: 'name:asc' })}`);
  const tags = await ids(`/api/tags${query({ sort: 'name:asc' })}`);
  const files = (await client.request('GET', `/api/upload/files${query({ sort: 'id:asc', filters: { mime: { $contains: 'image' } } })}`, full)).json as { id: number }[];

  const edits = (
    await rec('pending.edits.create', 'POST', '/api/articles', full, {
      data: {
        title: 'Pending edits',
        description: 'published version',
        views: 100,
        featured: false,
        metadata: { version: 'published' },
        author: author?.documentId,
        tags: tags.slice(0, 2).map((t) => t.documentId),
        cover: files[0]?.id,
        seo: { metaTitle: 'Published seo', metaDescription: 'published' },
        links: [{ label: 'published', url: 'https://published.example' }],
        blocks: [{ __component: 'shared.quote', title: 'Published quote', body: 'as published' }],
      },
    })
  )?.data;
  await rec('pending.edits.draft', 'PUT', `/api/articles/${edits?.documentId}${query({ status: 'draft', populate: populateOwn })}`, full, {
    data: {
      title: 'Pending edits (draft)',
      description: 'draft version',
      views: 101,
      featured: true,
      metadata: { version: 'draft', list: [1, 2] },
      seo: { metaTitle: 'Draft seo', metaDescription: 'draft' },
      links: [{ label: 'draft one', url: 'https://draft-one.example' }, { label: 'draft two', url: 'https://draft-two.example' }],
      blocks: [{ __component: 'shared.rich-text', body: 'draft **rich**' }, { __component: 'shared.quote', title: 'Draft quote', body: 'as drafted' }],
    },
  });

  const links = (
    await rec('pending.links.create', 'POST', '/api/articles', full, {
      data: { title: 'Pending links', views: 200, category: categories[0]?.documentId, tags: [tags[0]?.documentId], cover: files[0]?.id },
    })
  )?.data;
  await rec('pending.links.draft', 'PUT', `/api/articles/${links?.documentId}${query({ status: 'draft' })}`, full, { data: { title: 'Pending links (draft)', views: 201 } });
  await rec('pending.links.draftLinks', 'PUT', `/api/articles/${links?.documentId}${query({ status: 'draft' })}`, full, {
    data: { category: categories[1]?.documentId, tags: { set: tags.slice(1, 3).map((t) => t.documentId) }, cover: files[1]?.id ?? null },
  });

  // The end state in both views: the published one whole; the draft one without relations and
  // media (the "Pending links" draft's are its own in Strapi), and the modified documents.
  await rec('pending.articles.published', 'GET', `/api/articles${query({ populate: populateAll, sort: 'title:asc' })}`, full);
  await rec('pending.articles.draft', 'GET', `/api/articles${query({ populate: populateOwn, status: 'draft', sort: 'title:asc' })}`, full);
  await rec('pending.articles.draft.links', 'GET', `/api/articles${query({ populate: populateAll, status: 'draft', sort: 'title:asc', filters: { title: { $startsWith: 'Pending' } } })}`, full);
  await rec('pending.articles.modified', 'GET', `/api/articles${query({ status: 'draft', publicationFilter: 'modified', fields: ['title', 'views'], sort: 'title:asc' })}`, full);
}
