/**
 * The data of set `import` (fixtures/import/models), written through Strapi's REST API in a fixed
 * order so every recording holds the same ids: users, tags, profiles, authors, uploads, articles
 * (every scalar type, drafts, relations with `connect` positions, components, a dynamic zone),
 * updates, deletes that leave id gaps, the single type, morph relations, and uploads linked with
 * ref/refId/field, into components too.
 */
import { png, type Auth, type StrapiClient } from './client.js';

export interface RecordedUser {
  username: string;
  email: string;
  password: string;
  id: number;
  jwt: string;
  role: string;
  blocked: boolean;
}

const image = (name: string, rgb: [number, number, number], width = 320, height = 200) => ({ name, type: 'image/png', data: png(width, height, rgb) });

export async function registerUsers(client: StrapiClient, specs: { username: string; role: string; blocked?: boolean }[], admin: Auth): Promise<RecordedUser[]> {
  const users: RecordedUser[] = [];
  for (const spec of specs) {
    const email = `${spec.username}@example.com`;
    const password = `${spec.username.charAt(0).toUpperCase()}${spec.username.slice(1)}Pass123`;
    const { jwt, user } = await client.send('POST', '/api/auth/local/register', { kind: 'public' }, { username: spec.username, email, password });
    users.push({ username: spec.username, email, password, id: user.id, jwt, role: spec.role, blocked: Boolean(spec.blocked) });
  }
  const roles = (await client.send('GET', '/api/users-permissions/roles', admin)).roles as { id: number; type: string }[];
  for (const user of users) {
    const role = roles.find((r) => r.type === user.role);
    if (!role) throw new Error(`no role ${user.role}`);
    if (user.role !== 'authenticated' || user.blocked) await client.send('PUT', `/api/users/${user.id}`, admin, { role: role.id, blocked: user.blocked });
  }
  return users;
}

export async function fillImport(client: StrapiClient, admin: Auth): Promise<{ users: RecordedUser[] }> {
  const users = await registerUsers(
    client,
    [{ username: 'alice', role: 'authenticated' }, { username: 'bob', role: 'editor' }, { username: 'carol', role: 'authenticated', blocked: true }],
    admin,
  );
  const [aliceUser, bobUser] = users as [RecordedUser, RecordedUser, RecordedUser];
  const alice: Auth = { kind: 'user', name: 'alice', jwt: aliceUser.jwt };

  const create = async (plural: string, data: Record<string, unknown>, auth = admin) => (await client.send('POST', `/api/${plural}`, auth, { data })).data.id as number;
  const update = (plural: string, id: number, data: Record<string, unknown>) => client.send('PUT', `/api/${plural}/${id}`, admin, { data });
  const remove = (plural: string, id: number) => client.send('DELETE', `/api/${plural}/${id}`, admin);

  // Tags 1-5, tag 4 deleted later.
  const tag: number[] = [];
  for (const name of ['news', 'tech', 'life', 'gone', 'misc']) tag.push(await create('tags', { name }));
  const [t1, t2, t3, t4, t5] = tag as [number, number, number, number, number];

  const p1 = await create('profiles', { bio: 'Writes about code.', website: 'https://ada.example.com' });
  const p2 = await create('profiles', { bio: 'Writes about life.', website: null });

  // Files uploaded on their own, then used by id.
  const [avatar] = await client.upload(admin, [image('avatar.png', [200, 40, 40])], { fileInfo: JSON.stringify({ alternativeText: 'Ada', caption: 'Portrait' }) });
  const [heroImage, picture1, picture2] = await client.upload(admin, [image('hero.png', [40, 200, 40], 400, 240), image('pic-one.png', [40, 40, 200]), image('pic-two.png', [200, 200, 40])]);
  const [ctaIcon] = await client.upload(admin, [image('icon.png', [10, 10, 10], 64, 64)]);
  const [dropped] = await client.upload(admin, [image('dropped.png', [90, 90, 90], 64, 64)]);
  const [notes] = await client.upload(admin, [{ name: 'notes.txt', type: 'text/plain', data: Buffer.from('plain text attachment\n') }]);

  const a1 = await create('authors', { name: 'Ada', email: 'ada@example.com', avatar: avatar.id, profile: p1 });
  const a2 = await create('authors', { name: 'Brian', email: 'brian@example.com', profile: p2 });
  const a3 = await create('authors', { name: 'Gone Author', email: null });

  const hero = (heading: string, extra: Record<string, unknown> = {}) => ({
    __component: 'sections.hero',
    heading,
    image: heroImage.id,
    pictures: [picture2.id, picture1.id],
    author: a2,
    tags: [t3, t1],
    ctas: [
      { label: 'Read more', icon: ctaIcon.id, style: { color: 'red', bold: true } },
      { label: 'Subscribe', style: { color: 'blue', bold: false } },
      { label: 'Plain' },
    ],
    ...extra,
  });

  const A1 = await create('articles', {
    title: 'Hello World',
    slug: 'hello-world',
    summary: 'The first article.\nTwo lines.',
    body: '# Hello\n\nSome **rich** text with `code`.',
    contactEmail: 'hello@example.com',
    views: 10,
    bignum: '9007199254740993',
    price: 9.99,
    rating: 4.5,
    featured: true,
    publishDate: '2024-01-15',
    readTime: '10:30:00.000',
    scheduledAt: '2024-01-15T10:30:00.000Z',
    meta: { lang: 'en', n: 1, nested: { list: [1, 2, 3], flag: true }, nothing: null },
    kind: 'news',
    secret: 'first secret',
    author: a1,
    tags: { connect: [{ id: t1 }, { id: t3 }] },
    owner: aliceUser.id,
    seo: { metaTitle: 'Hello', metaDescription: 'First post', noIndex: false },
    links: [{ label: 'Home', url: 'https://example.com' }, { label: 'Docs', url: 'https://example.com/docs' }],
    blocks: [hero('Welcome'), { __component: 'shared.quote', text: 'Stay hungry', by: 'SJ' }, { __component: 'shared.rich-text', body: 'Some *rich* block' }],
    gallery: [picture1.id, notes.id, heroImage.id],
    publishedAt: '2024-01-15T09:00:00.000Z',
  });
  const A2 = await create('articles', { title: 'Draft ideas', slug: 'draft-ideas', views: 7, kind: 'guide', author: a1, tags: [t2], publishedAt: null });
  const A3 = await create('articles', {
    title: 'Edge values',
    slug: 'edge-values',
    views: -2147483648,
    bignum: '-9223372036854775808',
    price: 0,
    rating: -0.125,
    featured: false,
    publishDate: '1999-12-31',
    readTime: '23:59:59.999',
    scheduledAt: '2030-06-30T22:00:00.000Z',
    meta: [1, 'two', { three: 3 }],
    kind: 'opinion piece',
    secret: 'edge secret',
    author: a2,
    tags: { connect: [{ id: t2 }, { id: t1, position: { start: true } }, { id: t5, position: { after: t2 } }] },
    seo: { metaTitle: 'Edges', noIndex: true },
    links: [],
    blocks: [],
  });
  const A4 = await create('articles', { title: 'To be deleted', slug: 'to-be-deleted', author: a2, tags: [t1] });
  const A5 = await create('articles', {
    title: 'Related reading',
    slug: 'related-reading',
    summary: 'Unicode: café, 東京, emoji 🎉, quote \' and "double".',
    views: 2147483647,
    bignum: '9223372036854775807',
    price: 12345678.9,
    rating: 3.14159,
    kind: 'guide',
    author: { connect: [{ id: a2 }] },
    related: [A1, A3],
    tags: [t5, t3],
    owner: bobUser.id,
    blocks: [{ __component: 'shared.rich-text', body: 'Only text' }, hero('Second hero', { ctas: [{ label: 'Go', style: { color: 'green' } }] })],
  });
  const A6 = await create('articles', { title: 'Draft related', slug: 'draft-related', related: [A5, A2, A1], tags: [t3], author: a1, publishedAt: null, meta: { draft: true } }, alice);

  // Updates: positions on both sides of relations, a replaced component, a re-published entry.
  await update('articles', A1, { title: 'Hello World (edited)', tags: { connect: [{ id: t2, position: { before: t3 } }] }, views: 11 });
  await update('articles', A3, { related: { connect: [{ id: A1, position: { start: true } }] }, seo: { metaTitle: 'Edges v2', noIndex: false } });
  await update('authors', a2, { articles: { connect: [{ id: A5, position: { start: true } }] } });
  await update('tags', t3, { articles: { connect: [{ id: A6, position: { start: true } }] } });
  await update('articles', A2, { summary: 'Still a draft' });

  // Deletes: ids with gaps.
  await remove('articles', A4);
  await remove('tags', t4);
  await remove('authors', a3);
  await client.send('DELETE', `/api/upload/files/${dropped.id}`, admin);

  // Single type: created, deleted and created again (id 2).
  await client.send('PUT', '/api/homepage', admin, { data: { title: 'First home' } });
  await client.send('DELETE', '/api/homepage', admin);
  await client.send('PUT', '/api/homepage', admin, {
    data: {
      title: 'Home',
      hero: { heading: 'Home hero', image: heroImage.id, author: a1, tags: [t2], ctas: [{ label: 'Start', icon: ctaIcon.id, target: A3, style: { color: 'green', bold: true } }] },
      featured: [A3, A1],
      seo: { metaTitle: 'Home', metaDescription: 'The home page' },
    },
  });

  // Morph relations.
  await create('notes', { title: 'About an article', subject: { __type: 'api::article.article', id: A1 }, items: [{ __type: 'api::tag.tag', id: t1 }, { __type: 'api::author.author', id: a1 }, { __type: 'api::article.article', id: A3 }] });
  await create('notes', { title: 'Empty note' });

  // Uploads linked by ref/refId/field: a field of an entry, media inside components.
  await client.upload(admin, [image('cover.png', [250, 120, 0], 800, 500)], { ref: 'api::article.article', refId: String(A1), field: 'cover' });
  await client.upload(admin, [image('cover-five.png', [0, 120, 250])], { ref: 'api::article.article', refId: String(A5), field: 'cover' });
  const a1Seo = (await client.send('GET', `/api/articles/${A1}?populate[seo]=true`, admin)).data.attributes.seo.id;
  await client.upload(admin, [image('share.png', [120, 0, 120])], { ref: 'shared.seo', refId: String(a1Seo), field: 'shareImage' });
  const a5 = await client.send('GET', `/api/articles/${A5}?populate[blocks][on][sections.hero][populate][ctas]=true`, admin);
  const a5Hero = a5.data.attributes.blocks.find((b: any) => b.__component === 'sections.hero');
  await client.upload(admin, [image('go.png', [0, 250, 0], 64, 64)], { ref: 'sections.cta', refId: String(a5Hero.ctas[0].id), field: 'icon' });
  // A file's information updated after upload.
  await client.upload(admin, [], { fileInfo: JSON.stringify({ alternativeText: 'A hero', caption: 'Hero caption', name: 'hero-renamed.png' }) }, `?id=${heroImage.id}`);

  return { users };
}
