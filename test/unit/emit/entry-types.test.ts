/**
 * The entry types emitted per content type (`<Type>Attributes`, `<Type>Entry`, `<Type>Input`)
 * and per component (`<Ident>Component`, `<Ident>ComponentInput`): typed code written against
 * the blog fixture's build compiles, and wrong code does not (`@ts-expect-error` lines, which
 * tsc reports when they expect an error that is not there); identifiers stay valid and
 * distinct for odd component names; relations and media inside components are typed too.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitContentTypes, entryTypeNaming } from '../../../generator/emit/rest/content-types.js';
import { emitRuntime } from '../../../generator/emit/runtime.js';
import { buildIr } from '../../../generator/ir/build-ir.js';
import type { Schema } from '../../../generator/ir/types.js';
import { loadModels } from '../../../generator/load/load-models.js';
import { validateModels } from '../../../generator/validate/validate.js';
import { modelsOf, repoRoot, tempDir } from '../../helpers/paths.js';

const dirs: string[] = [];

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/**
 * `tsc --noEmit` on some files of an emitted server, with its tsconfig's options: the
 * diagnostics, or '' when they compile.
 */
async function typecheck(outDir: string, files: readonly string[]): Promise<string> {
  const config = path.join(outDir, 'tsconfig.entry-types.json');
  await writeFile(config, JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true, incremental: false }, include: [], files }));
  const result = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', config], { encoding: 'utf8' });
  return `${result.stdout}${result.stderr}`.trim() + (result.status === 0 ? '' : `\n(tsc exit code ${result.status})`);
}

describe('blog fixture', () => {
  let out: string;

  beforeAll(async () => {
    const dir = await tempDir('entry-types');
    dirs.push(dir);
    out = path.join(dir, 'out');
    const build = spawnSync(process.execPath, [path.join(repoRoot, 'bin/contentgen.js'), 'build', modelsOf('blog'), '-o', out], { encoding: 'utf8' });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}${build.stderr}`);
  }, 60_000);

  it('types typed code against the REST shapes and rejects wrong code', async () => {
    await writeFile(path.join(out, 'src', 'typed-usage.ts'), blogUsage);
    expect(await typecheck(out, ['src/typed-usage.ts'])).toBe('');
  }, 60_000);
});

const blogUsage = `
import type { ArticleAttributes, ArticleEntry, ArticleInput } from './generated/content-types/article.js';
import type { AuthorEntry } from './generated/content-types/author.js';
import type { GlobalInput } from './generated/content-types/global.js';
import type { UploadFileEntry } from './generated/content-types/upload.file.js';
import type { UsersPermissionsUserAttributes, UsersPermissionsUserEntry, UsersPermissionsUserInput } from './generated/content-types/users-permissions.user.js';
import type { SharedLinkComponent } from './generated/components/shared.link.js';
import type { SharedSeoComponent, SharedSeoComponentInput } from './generated/components/shared.seo.js';
import type { RelationChanges } from './runtime/entry-types.js';

const at = '2024-03-05T10:30:00.000Z';

export const author: AuthorEntry = { id: 2, attributes: { name: 'Ann', email: null, bio: null, createdAt: at, updatedAt: at } };
export const seo: SharedSeoComponent = { id: 1, metaTitle: 'Hello', metaDescription: null };
export const links: SharedLinkComponent[] = [{ id: 1, label: 'Home', url: '/' }];

export const entry: ArticleEntry = {
  id: 1,
  attributes: {
    title: 'Hello',
    slug: 'hello',
    description: null,
    content: null,
    status: 'in review',
    views: 3,
    rating: 4.5,
    price: 9.99,
    impressions: '9007199254740993',
    featured: true,
    publishDate: '2024-03-05',
    readingTime: '00:05:00.000',
    lastReviewedAt: null,
    metadata: { any: ['json'] },
    author: { data: author },
    category: { data: null },
    tags: { data: [{ id: 3, attributes: { name: 'news', createdAt: at, updatedAt: at } }] },
    cover: { data: null },
    seo,
    links,
    blocks: [
      { __component: 'shared.quote', id: 1, title: null, body: 'Quoted' },
      { __component: 'shared.rich-text', id: 2, body: '# Title' },
    ],
    createdAt: at,
    updatedAt: at,
    publishedAt: null,
  },
};

// Populated members are optional: a default response has none of them.
export const unpopulated: ArticleAttributes = { ...entry.attributes, author: undefined, tags: undefined, seo: undefined, blocks: undefined };
export const authorName: string | null | undefined = entry.attributes.author?.data?.attributes.name;
export const tagNames: (string | null)[] = (entry.attributes.tags?.data ?? []).map((tag) => tag.attributes.name);
export const cover: UploadFileEntry | null | undefined = entry.attributes.cover?.data;

// Dynamic-zone items narrow on __component.
export function blockText(block: NonNullable<ArticleAttributes['blocks']>[number]): string | null {
  return block.__component === 'shared.quote' ? block.title ?? block.body : block.body;
}

export const create: ArticleInput = {
  title: 'Hello',
  status: 'final',
  price: '1.50',
  impressions: '9223372036854775807',
  publishDate: new Date(),
  lastReviewedAt: at,
  metadata: [1, 'two'],
  editorNote: 'private, but writable',
  author: 2,
  category: null,
  tags: [1, { id: 2 }],
  cover: 5,
  seo: { metaTitle: 'Hello' },
  links: [{ id: 1, label: 'Home', url: '/' }, { label: 'New', url: '/new' }],
  blocks: [{ __component: 'shared.rich-text', body: 'x' }, { __component: 'shared.quote', title: 'T' }],
  publishedAt: null,
};
const tagChanges: RelationChanges = { connect: [{ id: 4, position: { before: 1 } }, 5, { id: 6, position: { end: true } }], disconnect: [2] };
export const update: ArticleInput = { tags: tagChanges, author: { set: [{ id: 3 }] }, category: { disconnect: [1] }, seo: null };
export const globalInput: GlobalInput = { siteName: 'Site', defaultSeo: { id: 1, metaTitle: 'Kept id' } satisfies SharedSeoComponentInput };
export const user: UsersPermissionsUserInput = { username: 'ann', email: 'ann@example.com', password: 'secret123', role: 1 };
export const userEntry: UsersPermissionsUserEntry = {
  id: 1,
  attributes: { username: 'ann', email: 'ann@example.com', provider: 'local', confirmed: true, blocked: false, createdAt: at, updatedAt: at },
};

// @ts-expect-error: not one of the enum values
export const wrongEnum: ArticleInput = { status: 'published' };
// @ts-expect-error: not one of the enum values, in a response either
export const wrongEnumRead: ArticleAttributes['status'] = 'published';
// @ts-expect-error: a dynamic-zone item needs its __component
export const missingComponent: ArticleInput = { blocks: [{ body: 'x' }] };
// @ts-expect-error: shared.seo is not allowed in this zone
export const foreignComponent: ArticleInput = { blocks: [{ __component: 'shared.seo', metaTitle: 'x' }] };
// @ts-expect-error: response items carry __component too
export const missingComponentRead: ArticleAttributes['blocks'] = [{ id: 1, body: 'x' }];
// @ts-expect-error: no such attribute
export const unknownAttribute: ArticleInput = { subtitle: 'x' };
// @ts-expect-error: no such attribute in a component
export const unknownComponentAttribute: ArticleInput = { seo: { metaTitle: 'x', keywords: 'y' } };
// @ts-expect-error: a to-many relation takes a list or changes
export const toManyShorthand: ArticleInput = { tags: 3 };
// @ts-expect-error: a single media takes one id
export const mediaList: ArticleInput = { cover: [1, 2] };
// @ts-expect-error: id and timestamps are not written
export const writeCreatedAt: ArticleInput = { createdAt: at };
// @ts-expect-error: private attributes are not returned
export const privateRead = entry.attributes.editorNote;
// @ts-expect-error: passwords are never returned
export const passwordRead: UsersPermissionsUserAttributes['password'] = 'x';
// @ts-expect-error: a populated relation holds entries, not ids
export const relationIds: ArticleAttributes['author'] = { data: 2 };
// @ts-expect-error: bigintegers are answered as strings
export const bigNumber: ArticleAttributes['impressions'] = 12;
`;

describe('odd names and nested links', () => {
  const models: Record<string, unknown> = {
    // Its Input is named like shared.seo's natural `SharedSeoComponentInput`.
    'shared-seo-component.json': {
      info: { singularName: 'shared-seo-component', pluralName: 'shared-seo-components', displayName: 'Shared seo component' },
      attributes: {
        seo: { type: 'component', component: 'shared.seo' },
        meta: { type: 'component', component: 'shared.seo-meta', repeatable: true },
        zone: { type: 'dynamiczone', components: ['2col.1st'] },
        card: { type: 'component', component: 'shared.card', required: true },
        owner: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
      },
    },
    'components/shared/seo.json': { collectionName: 'components_shared_seos', attributes: { title: { type: 'string' } } },
    'components/shared/seo-meta.json': { collectionName: 'components_shared_seo_metas', attributes: { a: { type: 'string' } } },
    // (shared.seoMeta beside shared.seo-meta would be one GraphQL type, ComponentSharedSeoMeta, in Strapi too: refused, see validate.test.ts.)
    'components/2col/1st.json': { collectionName: 'components_2col_1sts', attributes: { left: { type: 'text' } } },
    // Its metadata constant would be `contentTypes`, which index.ts exports.
    'components/content/types.json': { collectionName: 'components_content_types', attributes: { c: { type: 'boolean' } } },
    'components/shared/card.json': {
      collectionName: 'components_shared_cards',
      attributes: {
        kind: { type: 'enumeration', enum: ['plain', "it's odd"] },
        link: { type: 'relation', relation: 'oneToOne', target: 'api::shared-seo-component.shared-seo-component' },
        links: { type: 'relation', relation: 'oneToMany', target: 'api::shared-seo-component.shared-seo-component' },
        image: { type: 'media' },
        images: { type: 'media', multiple: true },
        inner: { type: 'component', component: 'content.types', repeatable: true },
      },
    },
  };
  let dir: string;
  let ir: Schema;

  beforeAll(async () => {
    dir = await tempDir('entry-types-odd');
    dirs.push(dir);
    for (const [file, json] of Object.entries(models)) {
      await mkdir(path.dirname(path.join(dir, 'models', file)), { recursive: true });
      await writeFile(path.join(dir, 'models', file), JSON.stringify(json));
    }
    const loaded = await loadModels(path.join(dir, 'models'));
    const errors = validateModels(loaded);
    if (errors.length > 0) throw new Error(JSON.stringify(errors));
    ir = buildIr(loaded, 'sqlite');
  });

  it('names every component with a valid identifier that no other emitted name has', () => {
    const naming = entryTypeNaming(ir);
    const of = (uid: string) => naming.component(uid);
    expect(of('shared.seo')).toEqual({ value: 'sharedSeo_2', type: 'SharedSeo_2Component', input: 'SharedSeo_2ComponentInput', file: 'shared.seo' });
    expect(of('shared.seo-meta')).toMatchObject({ value: 'sharedSeoMeta', type: 'SharedSeoMetaComponent' });
    expect(of('2col.1st')).toMatchObject({ value: '_2col1st', type: '_2col1stComponent', input: '_2col1stComponentInput' });
    expect(of('content.types')).toMatchObject({ value: 'contentTypes_2', type: 'ContentTypes_2Component' });
    expect(of('shared.card')).toMatchObject({ value: 'sharedCard', type: 'SharedCardComponent' });
    const all = ir.components.flatMap((c) => [of(c.uid).value, of(c.uid).type, of(c.uid).input]);
    expect(new Set(all).size).toBe(all.length);
    for (const name of all) expect(name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });

  it('types relations and media inside components, and the emitted files compile', async () => {
    const out = path.join(dir, 'out');
    const files = emitContentTypes(ir).merge(emitRuntime(ir.plugins)).files();
    for (const file of files) {
      if (!file.path.startsWith('src/generated/content-types/') && !file.path.startsWith('src/generated/components/') && !file.path.startsWith('src/runtime/')) continue;
      await mkdir(path.dirname(path.join(out, file.path)), { recursive: true });
      await writeFile(path.join(out, file.path), file.content);
    }
    const card = files.find((f) => f.path === 'src/generated/components/shared.card.ts')!.content;
    expect(card).toContain(
      [
        'export interface SharedCardComponent {',
        '  id: number;',
        "  kind: 'plain' | 'it\\'s odd' | null;",
        '  link?: { data: SharedSeoComponentEntry | null };',
        '  links?: { data: SharedSeoComponentEntry[] };',
        '  image?: { data: UploadFileEntry | null };',
        '  images?: { data: UploadFileEntry[] | null };',
        '  inner?: ContentTypes_2Component[];',
        '}',
      ].join('\n'),
    );
    expect(card).toContain(
      [
        'export interface SharedCardComponentInput {',
        '  id?: number;',
        "  kind?: 'plain' | 'it\\'s odd' | null;",
        '  link?: ToOneRelationWrite;',
        '  links?: ToManyRelationWrite;',
        '  image?: number | null;',
        '  images?: number[];',
        '  inner?: ContentTypes_2ComponentInput[] | null;',
        '}',
      ].join('\n'),
    );
    expect(card).toContain(
      [
        "import type { ComponentMeta } from '../../runtime/meta.js';",
        "import type { ToManyRelationWrite, ToOneRelationWrite } from '../../runtime/entry-types.js';",
        "import type { SharedSeoComponentEntry } from '../content-types/shared-seo-component.js';",
        "import type { UploadFileEntry } from '../content-types/upload.file.js';",
        "import type { ContentTypes_2Component, ContentTypes_2ComponentInput } from './content.types.js';",
      ].join('\n'),
    );
    const ct = files.find((f) => f.path === 'src/generated/content-types/shared-seo-component.ts')!.content;
    expect(ct).toContain("  zone?: Array<{ __component: '2col.1st' } & _2col1stComponent>;");
    expect(ct).toContain('  card?: SharedCardComponentInput;'); // required: no null
    expect(ct).toContain('export interface SharedSeoComponentInput {');
    expect(ct).toContain('  seo?: SharedSeo_2ComponentInput | null;');
    // index.ts imports every component's constant beside the content types' and its own exports.
    const index = files.find((f) => f.path === 'src/generated/index.ts')!.content;
    const declared = [...index.matchAll(/^import \{ (\w+) \}/gm), ...index.matchAll(/^export const (\w+)/gm)].map((m) => m[1]);
    expect(declared).toContain('contentTypes_2');
    expect(new Set(declared).size).toBe(declared.length);

    await writeFile(path.join(out, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: [] } }));
    await writeFile(path.join(out, 'src', 'typed-usage.ts'), oddUsage);
    const generated = files.filter((f) => /^src\/generated\/(content-types|components)\//.test(f.path)).map((f) => f.path);
    expect(await typecheck(out, [...generated, 'src/typed-usage.ts'])).toBe('');
  }, 60_000);
});

const oddUsage = `
import type { SharedSeoComponentEntry, SharedSeoComponentInput } from './generated/content-types/shared-seo-component.js';
import type { SharedCardComponent } from './generated/components/shared.card.js';

export const card: SharedCardComponent = {
  id: 1,
  kind: "it's odd",
  link: { data: null },
  images: { data: [] },
  inner: [{ id: 2, c: true }],
};
export const input: SharedSeoComponentInput = {
  card: { link: 3, links: { connect: [4] }, image: 5, images: [6, 7], inner: [{ c: false }] },
  zone: [{ __component: '2col.1st', left: 'text' }],
  seo: { title: 'x' },
  meta: [{ a: 'x' }],
  owner: null,
};
export const entry: SharedSeoComponentEntry['attributes']['owner'] = { data: null };
// @ts-expect-error: card is required, so not null
export const nullCard: SharedSeoComponentInput = { card: null };
`;
