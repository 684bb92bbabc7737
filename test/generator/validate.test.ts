/**
 * Bad models: one clear message per problem, naming the file, the JSON pointer, the
 * content type and the attribute; the CLI exits 1 and writes nothing.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../generator/cli.js';
import { loadModels } from '../../generator/load/load-models.js';
import { formatModelError } from '../../generator/validate/model-error.js';
import { checkModels, validateModels } from '../../generator/validate/validate.js';
import { buildIr } from '../../generator/ir/build-ir.js';
import { modelsOf, tempDir } from '../helpers/paths.js';

type Files = Record<string, unknown>;

async function writeModels(files: Files): Promise<string> {
  const dir = await tempDir('models');
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/** Errors and warnings, formatted as the CLI prints them. */
async function problemsOf(files: Files): Promise<{ errors: string[]; warnings: string[] }> {
  const dir = await writeModels(files);
  try {
    const { errors, warnings } = checkModels(await loadModels(dir));
    return { errors: errors.map(formatModelError), warnings: warnings.map(formatModelError) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function errorsOf(files: Files): Promise<string[]> {
  const dir = await writeModels(files);
  try {
    return validateModels(await loadModels(dir)).map(formatModelError);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const article = (attributes: Record<string, unknown>, info: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', ...info },
  attributes,
});

describe('model validation', () => {
  it('accepts a valid model', async () => {
    expect(await errorsOf({ 'article.json': article({ title: { type: 'string' } }) })).toEqual([]);
  });

  it('accepts scalar attribute names with letters outside ASCII (Strapi serves `año`, its column `ano`), takes relations, morph relations, media, components and zones, refuses column clashes', async () => {
    const { errors, warnings } = await problemsOf({ 'article.json': article({ año: { type: 'integer' }, descripción: { type: 'text' }, 'año_2': { type: 'string' } }) });
    expect(errors).toEqual([]);
    expect(warnings).toContainEqual(expect.stringContaining('article.json /attributes/año: content type "api::article.article", attribute "año": left out of the GraphQL schema, served over REST only: GraphQL names are [_a-zA-Z0-9] only'));
    expect(
      await errorsOf({
        'article.json': article({ año: { type: 'integer' }, ano: { type: 'integer' }, etiquetas_ñ: { type: 'relation', relation: 'oneToMany', target: 'api::article.article' }, portada_ñ: { type: 'media' }, cosa_ñ: { type: 'relation', relation: 'morphToMany' }, 'a-ño': { type: 'string' } }),
      }),
    ).toEqual([
      'article.json /attributes/ano: content type "api::article.article", attribute "ano": its column "ano" is also the column of attribute "año"',
      'article.json /attributes/a-ño: content type "api::article.article", attribute "a-ño": attribute names must start with a letter and contain only letters, digits and _',
    ]);
  });

  it('names file, pointer, type and attribute for an unknown type, with a suggestion', async () => {
    expect(await errorsOf({ 'article.json': article({ title: { type: 'strng' } }) })).toEqual([
      'article.json /attributes/title/type: content type "api::article.article", attribute "title": unknown type "strng". Did you mean "string"?',
    ]);
  });

  it('reports missing singularName and pluralName', async () => {
    const errors = await errorsOf({ 'article.json': { info: { displayName: 'A' }, attributes: {} } });
    expect(errors).toEqual([
      'article.json /info/singularName: content type "api::article.article": missing info.singularName',
      'article.json /info/pluralName: content type "api::article.article": missing info.pluralName',
    ]);
  });

  it('reports two types with the same plural name', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'post.json': article({}, { singularName: 'post' }),
    });
    expect(errors).toContain('post.json /info/pluralName: content type "api::post.post": pluralName "articles" is already used by "api::article.article"');
  });

  it("reports a type whose table is another type's drafts table", async () => {
    const errors = await errorsOf({
      'article.json': { ...article({}), options: { draftAndPublish: true } },
      'draft.json': { ...article({}, { singularName: 'draft', pluralName: 'drafts' }), collectionName: 'articles_drafts' },
    });
    expect(errors).toEqual(['draft.json /collectionName: content type "api::draft.draft": table "articles_drafts" is already used by the drafts of api::article.article']);
  });

  it("reports a type whose table is another type's drafts' links table", async () => {
    const errors = await errorsOf({
      'article.json': { ...article({}), options: { draftAndPublish: true } },
      'link.json': { ...article({}, { singularName: 'link', pluralName: 'links' }), collectionName: 'articles_drafts_lnk' },
    });
    expect(errors).toEqual(['link.json /collectionName: content type "api::link.link": table "articles_drafts_lnk" is already used by the drafts of api::article.article']);
  });

  it('reports an enumeration without values', async () => {
    expect(await errorsOf({ 'article.json': article({ status: { type: 'enumeration', enum: [] } }) })).toEqual([
      'article.json /attributes/status/enum: content type "api::article.article", attribute "status": an enumeration needs a non-empty "enum" list of values',
    ]);
  });

  it('reports a relation whose target does not exist', async () => {
    expect(await errorsOf({ 'article.json': article({ author: { type: 'relation', relation: 'manyToOne', target: 'api::autor.autor' } }) })).toEqual([
      'article.json /attributes/author/target: content type "api::article.article", attribute "author": relation target "api::autor.autor" does not exist.',
    ]);
  });

  it('reports an unknown component, with a suggestion', async () => {
    const errors = await errorsOf({
      'article.json': article({ seo: { type: 'component', component: 'shared.seoo' } }),
      'components/shared/seo.json': { collectionName: 'components_shared_seos', attributes: {} },
    });
    expect(errors).toEqual([
      'article.json /attributes/seo/component: content type "api::article.article", attribute "seo": unknown component "shared.seoo". Did you mean "shared.seo"?',
    ]);
  });

  it('reports invalid JSON with its line', async () => {
    const errors = await errorsOf({ 'article.json': '{\n  "info": {\n    "singularName": "article",\n  }\n}\n' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^article\.json: invalid JSON at line 4, column \d+/);
  });

  it('collects every problem instead of stopping at the first', async () => {
    const errors = await errorsOf({
      'article.json': article({ a: { type: 'nope' }, b: { type: 'enumeration' }, id: { type: 'string' } }),
    });
    expect(errors).toHaveLength(3);
  });

  it('rejects reserved attribute names and column clashes', async () => {
    const errors = await errorsOf({ 'article.json': article({ createdAt: { type: 'string' }, fooBar: { type: 'string' }, foo_bar: { type: 'string' } }) });
    expect(errors).toEqual([
      'article.json /attributes/createdAt: content type "api::article.article", attribute "createdAt": "createdAt" is reserved (contentgen adds createdAt itself)',
      'article.json /attributes/foo_bar: content type "api::article.article", attribute "foo_bar": its column "foo_bar" is also the column of attribute "fooBar"',
    ]);
  });

  it("rejects Strapi 5's documentId, which every content type's table has (docs/strapi5.md)", async () => {
    const errors = await errorsOf({ 'article.json': article({ documentId: { type: 'string' }, document_id: { type: 'string' } }) });
    expect(errors).toEqual([
      'article.json /attributes/documentId: content type "api::article.article", attribute "documentId": "documentId" is reserved (contentgen adds documentId itself)',
      'article.json /attributes/document_id: content type "api::article.article", attribute "document_id": its column "document_id" is also the column of attribute "documentId"',
    ]);
  });

  it("a Strapi 5 project: names Strapi 5.54.0 refuses at start are refused in its words, `status` of a draft-and-publish type is its warning and served", async () => {
    const files = {
      'article.json': article({ ID: { type: 'string' }, documentId: { type: 'string' }, status: { type: 'string' }, meta: { type: 'string' }, entryId: { type: 'string' } }, {}),
      'page.json': { kind: 'collectionType', info: { singularName: 'page', pluralName: 'pages' }, options: { draftAndPublish: false }, attributes: { status: { type: 'string' } } },
      'components/shared/link.json': { collectionName: 'components_shared_links', attributes: { document_id: { type: 'string' }, url: { type: 'string' } } },
    };
    (files['article.json'] as Record<string, unknown>).options = { draftAndPublish: true };
    const dir = await writeModels(files);
    try {
      const loaded = await loadModels(dir);
      const v5 = checkModels({ ...loaded, project: { root: dir, strapiVersion: '5.54.0', dependencies: {} } });
      expect(v5.errors.map(formatModelError)).toEqual([
        'article.json /attributes/ID: content type "api::article.article", attribute "ID": The attribute "ID" is reserved and cannot be used in a model. Please rename "article" attribute "ID" to something else. (Strapi 5 does not start with it.)',
        'article.json /attributes/documentId: content type "api::article.article", attribute "documentId": The attribute "documentId" is reserved and cannot be used in a model. Please rename "article" attribute "documentId" to something else. (Strapi 5 does not start with it.)',
        'components/shared/link.json /attributes/document_id: component "shared.link", attribute "document_id": The attribute "document_id" is reserved and cannot be used in a model. Please rename "link" attribute "document_id" to something else. (Strapi 5 does not start with it.)',
      ]);
      expect(v5.warnings.map(formatModelError)).toEqual([
        expect.stringContaining("article.json /attributes/status: content type \"api::article.article\", attribute \"status\": The attribute name 'status' on content type 'api::article.article' is reserved when 'draftAndPublish' is enabled."),
      ]);
      // A Strapi 4 project: contentgen's own words, and a component may have a documentId (v4 serves it).
      const v4 = checkModels({ ...loaded, project: { root: dir, strapiVersion: '4.26.2', dependencies: {} } });
      expect(v4.errors.map(formatModelError)).toEqual([
        'article.json /attributes/documentId: content type "api::article.article", attribute "documentId": "documentId" is reserved (contentgen adds documentId itself)',
      ]);
      expect(v4.warnings).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a Strapi 5 project: a type's own `locale`/`localizations` are Strapi 5's i18n fields (a warning), and a relation to an installed plugin's type is left out (a warning); Strapi 4 keeps refusing both", async () => {
    // Shapes of salahgh/leqta_strapi (a partner request with its own `locale`) and
    // SKLINET/strapi-boilerplate (a form block → plugin::form-builder.built-form); own models.
    const files = {
      'enquiry.json': { kind: 'collectionType', info: { singularName: 'enquiry', pluralName: 'enquiries' }, attributes: { name: { type: 'string' }, locale: { type: 'string' }, note: { type: 'text' }, updatedBy: { type: 'string' } } },
      'landing.json': { kind: 'collectionType', info: { singularName: 'landing', pluralName: 'landings' }, pluginOptions: { i18n: { localized: true } }, attributes: { locale: { type: 'string' }, title: { type: 'string' }, localizations: { type: 'relation', relation: 'oneToMany', target: 'api::landing.landing' } } },
      'components/blocks/form-block.json': { collectionName: 'components_blocks_form_blocks', attributes: { form: { type: 'relation', relation: 'oneToOne', target: 'plugin::forms.form' }, other: { type: 'relation', relation: 'oneToOne', target: 'plugin::polls.poll' } } },
    };
    const dir = await writeModels(files);
    try {
      const loaded = await loadModels(dir);
      const customFields = { plugins: new Set<string>(), registered: new Map(), notInstalled: ['@acme/strapi-plugin-forms'] };
      const project = (strapiVersion: string) => ({ ...loaded, project: { root: dir, strapiVersion, dependencies: { '@acme/strapi-plugin-forms': '1.0.0' } }, projectCustomFields: customFields as never });
      const v5 = checkModels(project('5.54.0'));
      expect(v5.errors.map(formatModelError)).toEqual([
        // a plugin the project does not install: Strapi 5 does not start either
        'components/blocks/form-block.json /attributes/other/target: component "blocks.form-block", attribute "other": relation target "plugin::polls.poll" does not exist.',
      ]);
      expect(v5.warnings.map(formatModelError)).toEqual([
        expect.stringContaining('enquiry.json /attributes/locale: content type "api::enquiry.enquiry", attribute "locale": Strapi 5 replaces a content type\'s own "locale" with its i18n field: a private string'),
        'enquiry.json /attributes/updatedBy: content type "api::enquiry.enquiry", attribute "updatedBy": Strapi 5 replaces a content type\'s own "updatedBy" with its own creator field (a relation to admin::user); served so here, as on every type',
        expect.stringContaining('landing.json /attributes/locale: content type "api::landing.landing", attribute "locale": Strapi 5 replaces a content type\'s own "locale" with its i18n field: the document\'s locale'),
        expect.stringContaining('landing.json /attributes/localizations: content type "api::landing.landing", attribute "localizations": Strapi 5 replaces'),
        expect.stringContaining('components/blocks/form-block.json /attributes/form/target: component "blocks.form-block", attribute "form": relation target "plugin::forms.form" is a content type of plugin "forms", which the project installs'),
      ]);
      const v4 = checkModels(project('4.26.2'));
      expect(v4.errors.map(formatModelError)).toEqual(expect.arrayContaining([
        'enquiry.json /attributes/locale: content type "api::enquiry.enquiry", attribute "locale": "locale" is reserved (contentgen adds locale itself)',
      ]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('checks two-way relations point at each other', async () => {
    const errors = await errorsOf({
      'article.json': article({ author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'posts' } }),
      'author.json': { info: { singularName: 'author', pluralName: 'authors' }, attributes: { name: { type: 'string' } } },
    });
    expect(errors).toEqual([
      'article.json /attributes/author/inversedBy: content type "api::article.article", attribute "author": inversedBy "posts" is not a relation attribute of "api::author.author" (Strapi refuses to start on it)',
    ]);
  });

  it('validates permissions.json against the models', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'permissions.json': { public: ['api::article.article.find', 'api::article.article.fnd', 'api::articel.articel.find'] },
    });
    expect(errors).toEqual([
      'permissions.json /public/1: role "public": unknown action "fnd" in "api::article.article.fnd" (one of find, findOne, create, update, delete, or a custom route\'s handler declared in src/api). Did you mean "find"?',
      'permissions.json /public/2: role "public": unknown content type "api::articel.articel" in "api::articel.articel.find". Did you mean "api::article.article"?',
    ]);
  });

  it('takes a role with a name and description of its own ({ name, description, actions }), its actions checked the same', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'permissions.json': {
        editor: { name: 'Editor', description: 'Role editor', actions: ['api::article.article.find'] },
        reviewer: { name: 3, actions: ['api::article.article.fnd'], colour: 'red' },
        writer: { name: 'Writer' },
      },
    });
    expect(errors).toEqual([
      'permissions.json /reviewer/colour: role "reviewer": unknown key "colour" (name, description, actions)',
      'permissions.json /reviewer/name: role "reviewer": name must be a string',
      'permissions.json /reviewer/actions/0: role "reviewer": unknown action "fnd" in "api::article.article.fnd" (one of find, findOne, create, update, delete, or a custom route\'s handler declared in src/api). Did you mean "find"?',
      'permissions.json /writer/actions: role "writer": expected a list of action strings',
    ]);
  });

  it('rejects plugin actions that do not exist, with a suggestion', async () => {
    const errors = await errorsOf({
      'article.json': article({}),
      'permissions.json': { authenticated: ['plugin::users-permissions.user.me', 'plugin::upload.content-api.uplod'] },
    });
    expect(errors).toEqual([
      'permissions.json /authenticated/1: role "authenticated": unknown plugin action "plugin::upload.content-api.uplod". Did you mean "plugin::upload.content-api.upload"?',
    ]);
  });

  it('rejects a route that clashes with the plugins (/api/users); a GraphQL type that does (UploadFile) is left out of GraphQL with a warning', async () => {
    const problems = await problemsOf({
      'member.json': { info: { singularName: 'member', pluralName: 'users' }, attributes: {} },
      'upload-file.json': { info: { singularName: 'upload-file', pluralName: 'upload-files' }, attributes: {} },
    });
    expect(problems).toEqual({
      errors: ['member.json /info/pluralName: content type "api::member.member": pluralName "users" is already used by "plugin::users-permissions.user"'],
      warnings: [
        'upload-file.json /info/singularName: content type "api::upload-file.upload-file": left out of the GraphQL schema, served over REST only: its GraphQL type "UploadFile" is also content type "plugin::upload.file" (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
      ],
    });
  });

  it('the CLI exits 1, lists the problems and writes nothing', async () => {
    const models = await writeModels({ 'article.json': article({ title: { type: 'strng' } }) });
    const outDir = path.join(path.dirname(models), `${path.basename(models)}-out`);
    let stderr = '';
    const code = await main(['build', models, '-o', outDir], { write: () => true } as never, { write: (s: string) => ((stderr += s), true) } as never);
    expect(code).toBe(1);
    expect(stderr).toContain('1 problem');
    expect(stderr).toContain('attribute "title": unknown type "strng"');
    expect(await readdir(outDir).catch(() => 'absent')).toBe('absent');
    await rm(models, { recursive: true, force: true });
  });
});

const type = (singular: string, plural: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  kind: 'collectionType',
  info: { singularName: singular, pluralName: plural, displayName: singular },
  ...extra,
  attributes,
});
const at = (uid: string, attribute: string) => `content type "${uid}", attribute "${attribute}"`;

describe('shapes of real Strapi projects', () => {
  it('the real-shapes fixture builds, with a warning for each ambiguous relation and nothing else', async () => {
    const { errors, warnings } = checkModels(await loadModels(modelsOf('real-shapes')));
    expect(errors).toEqual([]);
    expect(warnings.map(formatModelError)).toEqual([
      `api/article/content-types/article/schema.json /attributes/reviewer/target: ${at('api::article.article', 'reviewer')}: a relation to "admin::user" (the admin panel's users) is never served by Strapi's Content API, so it is left out of answers, populate and writes; contentgen keeps no admin users, so nothing stores it`,
      `api/category/content-types/category/schema.json /attributes/products/inversedBy: ${at('api::category.category', 'products')}: "api::category.category".products and "api::product.product".categories are inversedBy each other (both owning sides): Strapi stores the relation in the table of the one it reads last, "api::product.product".categories ("products_categories_links"), and reads this side from it, as if it said mappedBy "categories"`,
      `api/package/content-types/package/schema.json /attributes/subscribers/mappedBy: ${at('api::package.package', 'subscribers')}: mappedBy "pack", but "api::subscription.subscription" has no relation attribute "pack": Strapi keeps no storage for this side, so it always reads empty (null or []) and writes to it are ignored`,
      `api/writer/content-types/writer/schema.json /attributes/articles/mappedBy: ${at('api::writer.writer', 'articles')}: "api::article.article".author and "api::article.article".editor are both inversedBy "articles": Strapi links this side to the last it reads, "api::article.article".editor (not the one its mappedBy "author" names), in "articles_editor_links"; "api::article.article".author keeps its own table, which this side does not show`,
    ]);
  });

  it('the CLI builds it and prints each warning', async () => {
    const outDir = await tempDir('real-shapes-out');
    let stderr = '';
    const code = await main(['build', modelsOf('real-shapes'), '-o', path.join(outDir, 'out')], { write: () => true } as never, { write: (s: string) => ((stderr += s), true) } as never);
    await rm(outDir, { recursive: true, force: true });
    expect(code).toBe(0);
    expect(stderr.split('\n').filter((line) => line.startsWith('contentgen: warning: '))).toHaveLength(4);
  });

  it('names every generated identifier validly and distinctly: a component and a type of one name, reserved words, Prisma\'s names', async () => {
    const dir = await writeModels({
      'merchant-home.json': type('merchant-home', 'merchant-homes', { hero: { type: 'component', component: 'merchant.home' } }),
      'package.json': type('package', 'packages', { name: { type: 'string' } }),
      'prisma-client.json': type('prisma-client', 'prisma-clients', { name: { type: 'string' } }),
      'admin-api-token.json': type('admin-api-token', 'admin-api-tokens', { name: { type: 'string' } }),
      'article.json': type('article', 'articles', { tags: { type: 'relation', relation: 'manyToMany', target: 'api::article-tags-link.article-tags-link' }, tagsLinks: { type: 'string' } }),
      'article-tags-link.json': type('article-tags-link', 'article-tags-links', { name: { type: 'string' } }),
      'components/merchant/home.json': { collectionName: 'components_merchant_homes', attributes: { headline: { type: 'string' } } },
    });
    try {
      const models = await loadModels(dir);
      expect(validateModels(models).map(formatModelError)).toEqual([]);
      const ir = buildIr(models, 'sqlite');
      const names = (uid: string) => ir.contentTypes.find((ct) => ct.uid === uid)!.names;
      expect(names('api::merchant-home.merchant-home')).toMatchObject({ camel: 'merchantHome', model: 'MerchantHome' });
      expect(ir.components[0]!.names).toMatchObject({ ident: 'merchantHome_2', type: 'MerchantHome_2Component', pascal: 'ComponentMerchantHome' });
      expect(names('api::package.package')).toMatchObject({ camel: 'package_2', model: 'Package', delegate: 'package' });
      expect(names('api::prisma-client.prisma-client')).toMatchObject({ camel: 'prismaClient', model: 'PrismaClient_2', delegate: 'prismaClient_2' });
      expect(names('api::admin-api-token.admin-api-token')).toMatchObject({ model: 'AdminApiToken_2' });
      // The link model of article.tags would be ArticleTagsLink, the model of type article-tags-link.
      const tags = ir.contentTypes.find((ct) => ct.uid === 'api::article.article')!.attributes.find((a) => a.name === 'tags');
      expect(tags).toMatchObject({ link: { model: 'ArticleTagsLink_2', table: 'articles_tags_links' } });
      expect(names('api::article-tags-link.article-tags-link').model).toBe('ArticleTagsLink');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('leaves out of GraphQL, with a warning naming both, what would break Strapi\'s GraphQL names; refuses the enumeration values Strapi refuses', async () => {
    const problems = await problemsOf({
      'components/blog/post-card.json': { collectionName: 'components_blog_post_cards', attributes: { title: { type: 'string' } } },
      'components/blog-post/card.json': { collectionName: 'components_blog_post_card2s', attributes: { title: { type: 'string' }, mark: { type: 'enumeration', enum: ['★', '☆'] } } },
      'query.json': type('query', 'queries', {}),
      'color.json': type('color', 'colors', { tone: { type: 'enumeration', enum: ['dark red', 'dark-red', 'blue', '1st', '★', 'Новый', 'Старый'] } }),
    });
    expect(problems).toEqual({
      errors: [
        `color.json /attributes/tone/enum: ${at('api::color.color', 'tone')}: enumeration values "dark red" and "dark-red" are both "dark_red" once normalized; Strapi refuses to start on it ("collide when normalized"): make them differ in letters or digits`,
        `color.json /attributes/tone/enum: ${at('api::color.color', 'tone')}: enumeration value "1st" becomes "1st", which starts with a digit; Strapi refuses to start on it ("Invalid enumeration value"): begin it with a letter`,
        `color.json /attributes/tone/enum: ${at('api::color.color', 'tone')}: enumeration value "★" has no letter or digit Strapi can spell; Strapi refuses to start on it ("Invalid enumeration value"): give it a letter`,
      ],
      warnings: [
        'query.json /info/singularName: content type "api::query.query": left out of the GraphQL schema, served over REST only: its GraphQL type "Query" is also the GraphQL schema\'s own type (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
        'components/blog-post/card.json /attributes/mark: component "blog-post.card", attribute "mark": left out of the GraphQL schema, served over REST only: enumeration value "★" gives no GraphQL enum value (it has no letter or digit Strapi can spell) (Strapi\'s GraphQL plugin refuses to start on it)',
        'components/blog/post-card.json: component "blog.post-card": left out of the GraphQL schema, served over REST only: its GraphQL type "ComponentBlogPostCard" is also component "blog-post.card" (Strapi\'s GraphQL plugin refuses to start on it); rename it to have it in GraphQL',
      ],
    });
  });

  it('builds, with a warning, a relation inversedBy an attribute that targets another type (Strapi starts on it; ysset/strapi-service-api)', async () => {
    const dir = await writeModels({
      'agent.json': type('agent', 'agents', { owners: { type: 'relation', relation: 'oneToMany', target: 'api::rent.rent', mappedBy: 'agent' } }),
      'owner.json': type('owner', 'owners', { agent: { type: 'relation', relation: 'manyToOne', target: 'api::agent.agent', inversedBy: 'owners' } }),
      'rent.json': type('rent', 'rents', { agent: { type: 'relation', relation: 'manyToOne', target: 'api::agent.agent', inversedBy: 'owners' } }),
      // Read last: Strapi would read agent2.owners (targets rent2) from owner2.agent's table.
      'agent2.json': type('agent2', 'agent2s', { owners: { type: 'relation', relation: 'oneToMany', target: 'api::rent2.rent2', mappedBy: 'agent' } }),
      'rent2.json': type('rent2', 'rent2s', { agent: { type: 'relation', relation: 'manyToOne', target: 'api::agent2.agent2', inversedBy: 'owners' } }),
      'zowner2.json': type('zowner2', 'zowner2s', { agent: { type: 'relation', relation: 'manyToOne', target: 'api::agent2.agent2', inversedBy: 'owners' } }),
    });
    try {
      const models = await loadModels(dir);
      const { errors, warnings } = checkModels(models);
      expect(errors).toEqual([]);
      expect(warnings.map(formatModelError)).toEqual([
        `owner.json /attributes/agent/inversedBy: ${at('api::owner.owner', 'agent')}: inversedBy "owners", but "api::agent.agent".owners has target "api::rent.rent", not "api::owner.owner": Strapi starts and reads "api::agent.agent".owners from "api::rent.rent".agent, read after this one; this side keeps its own table ("owners_agent_links"), which "api::agent.agent".owners does not show; make "api::agent.agent".owners target "api::owner.owner" with mappedBy "agent", or drop inversedBy here`,
        `zowner2.json /attributes/agent/inversedBy: ${at('api::zowner2.zowner2', 'agent')}: inversedBy "owners", but "api::agent2.agent2".owners has target "api::rent2.rent2", not "api::zowner2.zowner2": Strapi starts, but reads "api::agent2.agent2".owners from this side's table as "api::rent2.rent2" entries (wrong rows); here this side keeps its own table ("zowner_2_s_agent_links"), which "api::agent2.agent2".owners does not show (it reads "api::rent2.rent2".agent); make "api::agent2.agent2".owners target "api::zowner2.zowner2" with mappedBy "agent", or drop inversedBy here`,
      ]);
      const ir = buildIr(models, 'sqlite');
      const attr = (uid: string, name: string) => ir.contentTypes.find((ct) => ct.uid === uid)!.attributes.find((a) => a.name === name);
      expect(attr('api::agent.agent', 'owners')).toMatchObject({ link: { table: 'rents_agent_links' } });
      expect(attr('api::owner.owner', 'agent')).toMatchObject({ link: { table: 'owners_agent_links' } });
      expect(attr('api::agent2.agent2', 'owners')).toMatchObject({ link: { table: 'rent_2_s_agent_links' } });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('without the GraphQL plugin no GraphQL name is checked', async () => {
    const dir = await writeModels({
      'upload-file.json': type('upload-file', 'upload-files', {}),
      'components/blog/card.json': { collectionName: 'components_blog_cards', attributes: { mark: { type: 'enumeration', enum: ['★', '☆'] } } },
    });
    try {
      const loaded = await loadModels(dir, { graphql: false, i18n: true, documentation: true, populateDeep: false, transformer: false, uploadAwsS3: false });
      const { errors, warnings } = checkModels(loaded);
      expect({ errors, warnings }).toEqual({ errors: [], warnings: [] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('transliterates Cyrillic and Greek enumeration values as Strapi does (no clash)', async () => {
    expect(await problemsOf({ 'state.json': type('state', 'states', { stage: { type: 'enumeration', enum: ['Новый', 'В работе', 'Завершён', 'Ελλάδα'] } }) })).toEqual({ errors: [], warnings: [] });
  });

  it('ignores, with a warning, the length, bound and regex options Strapi ignores when malformed', async () => {
    const problems = await problemsOf({
      'page.json': type('page', 'pages', {
        title: { type: 'string', minLength: '3', maxLength: 2.5, regex: '[a-' },
        rank: { type: 'integer', min: '1', max: 10 },
        code: { type: 'string', minLength: 5, maxLength: 2 },
      }),
    });
    const owner = (name: string) => at('api::page.page', name);
    expect(problems).toEqual({
      errors: [],
      warnings: [
        `page.json /attributes/title/minLength: ${owner('title')}: minLength "3" is not a non-negative integer: ignored, as Strapi ignores it`,
        `page.json /attributes/title/maxLength: ${owner('title')}: maxLength 2.5 is not a non-negative integer: ignored, as Strapi ignores it`,
        `page.json /attributes/title/regex: ${owner('title')}: regex is ignored: it does not compile: Invalid regular expression: /[a-/: Unterminated character class (Strapi starts, then fails every write of the attribute)`,
        `page.json /attributes/rank/min: ${owner('rank')}: min "1" is not a number: ignored, as Strapi ignores it`,
        `page.json /attributes/code/minLength: ${owner('code')}: minLength is greater than maxLength: no value but an empty one can be written (as in Strapi)`,
      ],
    });
  });

  it('ignores the keys Strapi ignores: targetField on a string, description, configurable, conditions, any pluginOptions', async () => {
    expect(
      await problemsOf({
        'page.json': type('page', 'pages', {
          title: { type: 'string', targetField: 'slug', description: 'shown in the admin', configurable: 'no', visible: 'sometimes', conditions: { visible: { '==': [{ var: 'x' }, 1] } }, pluginOptions: { seo: { weird: [1] } } },
        }),
      }),
    ).toEqual({ errors: [], warnings: [] });
  });

  it('a type named subscription is an ordinary type', async () => {
    expect(await problemsOf({ 'subscription.json': type('subscription', 'subscriptions', { email: { type: 'email' } }) })).toEqual({ errors: [], warnings: [] });
  });

  it('accepts the four polymorphic relation kinds in the shapes Strapi starts with', async () => {
    expect(
      await problemsOf({
        'article.json': article({
          subject: { type: 'relation', relation: 'morphToOne' },
          items: { type: 'relation', relation: 'morphToMany' },
          pinned: { type: 'relation', relation: 'morphOne', target: 'api::article.article', morphBy: 'subject' },
          listed: { type: 'relation', relation: 'morphMany', target: 'api::article.article', morphBy: 'items' },
        }),
      }),
    ).toEqual({ errors: [], warnings: [] });
  });

  it('refuses what Strapi refuses about polymorphic relations, one precise message per problem', async () => {
    const errors = await errorsOf({
      'article.json': article({
        a: { type: 'relation', relation: 'morphToOne' },
        b: { type: 'relation', relation: 'morphToOne' },
        c: { type: 'relation', relation: 'morphToMany', target: 'api::article.article' },
        d: { type: 'relation', relation: 'morphOne' },
        e: { type: 'relation', relation: 'morphMany', target: 'api::article.article', morphBy: 'title' },
        f: { type: 'relation', relation: 'morphMany', target: 'api::article.article', morphBy: 'nothing' },
        targetId: { type: 'integer' },
        title: { type: 'string' },
      }),
      'components/shared/box.json': { collectionName: 'components_shared_boxes', info: { displayName: 'Box' }, attributes: { m: { type: 'relation', relation: 'morphToMany' } } },
    });
    const a = (name: string) => at('api::article.article', name);
    expect(errors.sort()).toEqual(
      [
        `article.json /attributes/b/relation: ${a('b')}: a content type has at most one morphToOne relation: Strapi keeps it in the table's columns target_id and target_type, which "a" already uses (Strapi does not start: duplicate column)`,
        `article.json /attributes/c/target: ${a('c')}: a morphToMany relation links entries of any type: remove "target" (contentgen does not serve Strapi's GraphQL union of a target list)`,
        `article.json /attributes/d/target: ${a('d')}: missing "target": a morphOne relation names the content type whose morphToOne/morphToMany attribute (morphBy) points at this one`,
        `article.json /attributes/d/morphBy: ${a('d')}: missing "morphBy": the morphToOne or morphToMany attribute of the target that this morphOne relation reads`,
        `article.json /attributes/e/morphBy: ${a('e')}: morphBy "title": "api::article.article".title is not a morphToOne or morphToMany relation (its morph relations: a, b, c; Strapi fails on it)`,
        `article.json /attributes/f/morphBy: ${a('f')}: morphBy "nothing": "api::article.article" has no attribute "nothing" (its morph relations: a, b, c; Strapi fails on it)`,
        `article.json /attributes/targetId: ${a('targetId')}: its column "target_id" is one of the columns of the morphToOne relation "a" (Strapi keeps it in target_id and target_type): rename it`,
        'components/shared/box.json /attributes/m/relation: component "shared.box", attribute "m": polymorphic relation "morphToMany" inside a component is not supported: contentgen keeps a component\'s relations as ids in its JSON, which cannot say which type an id belongs to; declare it on a content type',
      ].sort(),
    );
  });

  it('builds custom fields of known plugins and of customFields.json; an unknown one is stored as json with a warning', async () => {
    const ok = await problemsOf({
      'product.json': type('product', 'products', {
        color: { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
        html: { type: 'customField', customField: 'plugin::ckeditor.CKEditor' },
        html5: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor' },
        stars: { type: 'customField', customField: 'global::stars', max: 5 },
      }),
      'customFields.json': { 'global::stars': 'integer' },
    });
    expect(ok).toEqual({ errors: [], warnings: [] });
    const problems = await problemsOf({
      'product.json': type('product', 'products', {
        icon: { type: 'customField', customField: 'plugin::some-icons.icon' },
        stars: { type: 'customField', customField: 'global::stars', max: 'five' },
      }),
      'customFields.json': { 'global::stars': 'integer', 'plugin::x.y': 'strng' },
    });
    expect(problems).toEqual({
      errors: [
        'customFields.json /plugin::x.y: custom field "plugin::x.y": "strng" is not a type a custom field stores (one of biginteger, boolean, date, datetime, decimal, email, enumeration, float, integer, json, password, richtext, string, text, time, uid, blocks). Did you mean "string"?',
      ],
      warnings: [
        `product.json /attributes/icon/customField: ${at('api::product.product', 'icon')}: custom field "plugin::some-icons.icon" of plugin "some-icons": contentgen does not know which type it stores, so it is stored as json (every value kept as sent); if it stores something else, say so in customFields.json beside the models: "plugin::some-icons.icon": "string"`,
        `product.json /attributes/stars/max: ${at('api::product.product', 'stars')}: max "five" is not a number: ignored, as Strapi ignores it`,
      ],
    });
  });

  it('accepts blocks', async () => {
    expect(await problemsOf({ 'article.json': article({ body: { type: 'blocks', required: true } }) })).toEqual({ errors: [], warnings: [] });
  });

  it('refuses the two-way relations Strapi refuses to start with', async () => {
    const errors = await errorsOf({
      'author.json': type('author', 'authors', { posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', inversedBy: 'author' } }),
      'post.json': type('post', 'posts', { author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', mappedBy: 'posts' } }),
    });
    expect(errors).toEqual([
      `author.json /attributes/posts/inversedBy: ${at('api::author.author', 'posts')}: a oneToMany relation cannot own a two-way relation (Strapi refuses to start: "one side of a oneToMany cannot be the owner side in a bidirectional relation"): give it mappedBy, and the other side's manyToOne inversedBy`,
      `post.json /attributes/author/mappedBy: ${at('api::post.post', 'author')}: a manyToOne relation must own a two-way relation (Strapi refuses to start: "The many side of a manyToOne must be the owning side"): give it inversedBy, and the other side's oneToMany mappedBy`,
    ]);
  });
});
