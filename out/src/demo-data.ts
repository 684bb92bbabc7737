/**
 * The demo's sample content (`npm run demo` in the contentgen repository): a few articles with
 * authors, tags, a category, a cover image, components, a dynamic zone and a draft, written once
 * into an empty database by `bootstrap` in src/index.ts. This file is the demo's own code, an
 * example of seeding through the services (lifecycle hooks and validation apply).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { BootstrapContext } from './runtime/extend/index.js';

export async function seedDemoData({ service, db }: BootstrapContext, root: string): Promise<boolean> {
  const articles = service('api::article.article');
  const existing = await articles.find({ pagination: { limit: 1 }, publicationState: 'preview' });
  if (existing.data.length > 0) return false;

  const id = (entry: unknown) => (entry as { id: number }).id;
  const create = async (uid: string, data: Record<string, unknown>) => id(await service(uid).create({ data }, {}));
  const ada = await create('api::author.author', { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Wrote the first program.' });
  const alan = await create('api::author.author', { name: 'Alan Turing', email: 'alan@example.com' });
  const engineering = await create('api::category.category', { name: 'Engineering', slug: 'engineering' });
  const [typescript, strapi, graphql] = await Promise.all(['typescript', 'strapi', 'graphql'].map((name) => create('api::tag.tag', { name })));
  const cover = await demoCover(db, root);

  const now = new Date();
  await create('api::article.article', {
    title: 'Hello from contentgen',
    slug: 'hello-from-contentgen',
    description: 'A generated server that answers like Strapi v4.',
    content: '# Hello\n\nEvery route here was generated from `schema.json` models.',
    status: 'final',
    views: 42,
    featured: true,
    publishDate: now.toISOString().slice(0, 10),
    author: ada,
    category: engineering,
    tags: [typescript, strapi],
    cover,
    seo: { metaTitle: 'Hello from contentgen', metaDescription: 'The demo article.' },
    links: [{ label: 'Strapi v4 docs', url: 'https://docs-v4.strapi.io' }],
    blocks: [
      { __component: 'shared.quote', title: 'A note', body: 'Same paths, same envelope, same errors.' },
      { __component: 'shared.rich-text', body: 'Try `?populate=*` on this list.' },
    ],
    publishedAt: now.toISOString(),
  });
  await create('api::article.article', {
    title: 'Querying with GraphQL',
    slug: 'querying-with-graphql',
    description: 'Shadow CRUD, as Strapi\'s GraphQL plugin.',
    status: 'in review',
    author: alan,
    category: engineering,
    tags: [graphql],
    seo: { metaTitle: 'Querying with GraphQL' },
    publishedAt: now.toISOString(),
  });
  await create('api::article.article', {
    title: 'A draft in progress',
    slug: 'a-draft-in-progress',
    status: 'draft',
    author: alan,
    publishedAt: null,
  });
  await service('api::global.global').upsertSingle({ data: { siteName: 'contentgen demo', siteDescription: 'Sample content of the demo server.' } }, {});
  return true;
}

/** A small generated PNG in public/uploads and its file row (what an upload would have stored). */
async function demoCover(db: BootstrapContext['db'], root: string): Promise<number> {
  const [width, height] = [240, 120];
  const name = 'demo_cover_3f9a1c2b7d.png';
  const png = await gradientPng(width, height);
  await mkdir(path.join(root, 'public/uploads'), { recursive: true });
  await writeFile(path.join(root, 'public/uploads', name), png);
  const now = new Date();
  const file = await db.prisma.uploadFile.create({
    data: {
      name: 'demo-cover.png',
      alternativeText: 'A blue to green gradient',
      width,
      height,
      hash: 'demo_cover_3f9a1c2b7d',
      ext: '.png',
      mime: 'image/png',
      size: Math.round((png.length / 1000) * 100) / 100,
      url: `/uploads/${name}`,
      provider: 'local',
      folderPath: '/',
      createdAt: now,
      updatedAt: now,
    },
    select: { id: true },
  });
  return file.id;
}

/** An RGB PNG (sharp, the upload plugin's image library): a horizontal blue-to-green gradient. */
function gradientPng(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels.set([32, Math.round(96 + (x / width) * 128), Math.round(224 - (x / width) * 128)], (y * width + x) * 3);
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).png().toBuffer();
}
