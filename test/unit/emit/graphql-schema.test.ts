/**
 * The GraphQL schema emitter on a tiny model: the Shadow CRUD types Strapi v4 names, the
 * shared internals, pruning, ordering, and every extension-service setting reflected in the
 * printed SDL (schema.graphql), including extensions' typeDefs, code-first types and plugins.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitGraphql, printGraphqlSchema } from '../../../generator/emit/graphql/graphql.js';
import type { Schema } from '../../../generator/ir/types.js';
import { generate } from '../../../generator/pipeline.js';
import type { GraphqlExtensionService } from '../../../templates/runtime/graphql/extension.js';

let dir: string;
let ir: Schema;

const models: Record<string, unknown> = {
  'post.json': {
    info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string', required: true },
      status: { type: 'enumeration', enum: ['draft', 'in review', 'Ünïcode & co'] },
      secret: { type: 'string', private: true },
      views: { type: 'biginteger' },
      writer: { type: 'relation', relation: 'manyToOne', target: 'api::writer.writer', inversedBy: 'posts' },
      cover: { type: 'media', multiple: false },
      seo: { type: 'component', component: 'meta.seo' },
      body: { type: 'dynamiczone', components: ['meta.seo'] },
    },
  },
  'writer.json': {
    info: { singularName: 'writer', pluralName: 'writers', displayName: 'Writer' },
    attributes: {
      name: { type: 'string' },
      posts: { type: 'relation', relation: 'oneToMany', target: 'api::post.post', mappedBy: 'writer' },
    },
  },
  'components/meta/seo.json': { collectionName: 'components_meta_seos', info: { displayName: 'Seo' }, attributes: { metaTitle: { type: 'string', required: true } } },
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'graphql-schema-'));
  for (const [file, json] of Object.entries(models)) {
    await mkdir(path.dirname(path.join(dir, 'models', file)), { recursive: true });
    await writeFile(path.join(dir, 'models', file), JSON.stringify(json));
  }
  const result = await generate({ modelsDir: path.join(dir, 'models'), outDir: path.join(dir, 'out'), provider: 'sqlite', check: false, acceptDataLoss: false });
  if (!result.ok) throw new Error(JSON.stringify(result));
  ir = result.ir;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One definition of the printed SDL (`type Post`, `input PostInput`, …), or undefined. */
/** The schema's top-level definitions (a blank line inside a type, before a described field, does not split it). */
const definitions = (sdl: string) => sdl.split(/\n\n(?=\S)/);

function block(sdl: string, name: string): string | undefined {
  return definitions(sdl).find((b) => new RegExp(`^(type|input|enum|union|scalar) ${name}\\b`, 'm').test(b.replace(/^"""[\s\S]*?"""\n/, '')));
}

const print = (register?: (extension: GraphqlExtensionService) => void, shadowCRUD = true) =>
  printGraphqlSchema(ir, { shadowCRUD, ...(register ? { register: register as never } : {}) });

describe('Shadow CRUD types', () => {
  it('X: attributes in model order, required non-null, no id or private fields; relations, media, components, dynamic zones', () => {
    expect(block(print(), 'Post')).toMatchInlineSnapshot(`
      "type Post {
        title: String!
        status: ENUM_POST_STATUS
        views: Long
        writer: WriterEntityResponse
        cover: UploadFileEntityResponse
        seo: ComponentMetaSeo
        body: [PostBodyDynamicZone]
        createdAt: DateTime
        updatedAt: DateTime
        publishedAt: DateTime
      }"
    `);
    expect(block(print(), 'Writer')).toMatchInlineSnapshot(`
      "type Writer {
        name: String
        posts(filters: PostFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], publicationState: PublicationState = LIVE): PostRelationResponseCollection
        createdAt: DateTime
        updatedAt: DateTime
      }"
    `);
  });

  it('entity, responses, filters (private attributes left out) and input (private attributes and publishedAt included)', () => {
    const sdl = print();
    expect(block(sdl, 'PostEntity')).toBe('type PostEntity {\n  id: ID\n  attributes: Post\n}');
    expect(block(sdl, 'PostEntityResponse')).toBe('type PostEntityResponse {\n  data: PostEntity\n}');
    expect(block(sdl, 'PostEntityResponseCollection')).toBe('type PostEntityResponseCollection {\n  data: [PostEntity!]!\n  meta: ResponseCollectionMeta!\n}');
    expect(block(sdl, 'PostRelationResponseCollection')).toBe('type PostRelationResponseCollection {\n  data: [PostEntity!]!\n}');
    expect(block(sdl, 'PostFiltersInput')).toMatchInlineSnapshot(`
      "input PostFiltersInput {
        id: IDFilterInput
        title: StringFilterInput
        status: StringFilterInput
        views: LongFilterInput
        writer: WriterFiltersInput
        seo: ComponentMetaSeoFiltersInput
        createdAt: DateTimeFilterInput
        updatedAt: DateTimeFilterInput
        publishedAt: DateTimeFilterInput
        and: [PostFiltersInput]
        or: [PostFiltersInput]
        not: PostFiltersInput
      }"
    `);
    expect(block(sdl, 'PostInput')).toMatchInlineSnapshot(`
      "input PostInput {
        title: String
        status: ENUM_POST_STATUS
        secret: String
        views: Long
        writer: ID
        cover: ID
        seo: ComponentMetaSeoInput
        body: [PostBodyDynamicZoneInput!]
        publishedAt: DateTime
      }"
    `);
  });

  it('enums slugify their values; dynamic zones are unions with Error and an input scalar; components carry an id', () => {
    const sdl = print();
    expect(block(sdl, 'ENUM_POST_STATUS')).toBe('enum ENUM_POST_STATUS {\n  draft\n  in_review\n  Uenicode_and_co\n}');
    expect(block(sdl, 'PostBodyDynamicZone')).toBe('union PostBodyDynamicZone = ComponentMetaSeo | Error');
    expect(block(sdl, 'PostBodyDynamicZoneInput')).toBe('scalar PostBodyDynamicZoneInput');
    expect(block(sdl, 'ComponentMetaSeo')).toBe('type ComponentMetaSeo {\n  id: ID!\n  metaTitle: String!\n}');
    expect(block(sdl, 'ComponentMetaSeoInput')).toBe('input ComponentMetaSeoInput {\n  id: ID\n  metaTitle: String\n}');
  });

  it('queries and mutations per type, then the plugins’ operations', () => {
    const sdl = print();
    const query = block(sdl, 'Query')!;
    expect(query).toContain('  post(id: ID): PostEntityResponse\n');
    expect(query).toContain('  posts(filters: PostFiltersInput, pagination: PaginationArg = {}, sort: [String] = [], publicationState: PublicationState = LIVE): PostEntityResponseCollection\n');
    expect(query).toContain('  writers(filters: WriterFiltersInput, pagination: PaginationArg = {}, sort: [String] = []): WriterEntityResponseCollection\n');
    expect(query).toContain('  usersPermissionsUsers(');
    expect(query).toContain('  uploadFiles(');
    expect(query).toMatch(/ {2}me: UsersPermissionsMe\n}$/);
    expect(query).not.toContain('usersPermissionsPermission');
    const mutation = block(sdl, 'Mutation')!;
    expect(mutation).toContain('  createPost(data: PostInput!): PostEntityResponse\n');
    expect(mutation).toContain('  updatePost(id: ID!, data: PostInput!): PostEntityResponse\n');
    expect(mutation).toContain('  deletePost(id: ID!): PostEntityResponse\n');
    expect(mutation).toContain('  login(input: UsersPermissionsLoginInput!): UsersPermissionsLoginPayload!\n');
    expect(mutation).toContain('  upload(refId: ID, ref: String, field: String, info: FileInfoInput, file: Upload!): UploadFileEntityResponse!\n');
    expect(mutation).not.toMatch(/createUsersPermissionsUser\(data: UsersPermissionsUserInput!\): UsersPermissionsUserEntityResponse\n/);
  });

  it('shared internals with Strapi’s members; unused ones pruned', () => {
    const sdl = print();
    expect(block(sdl, 'Pagination')).toBe('type Pagination {\n  total: Int!\n  page: Int!\n  pageSize: Int!\n  pageCount: Int!\n}');
    expect(block(sdl, 'PaginationArg')).toBe('input PaginationArg {\n  page: Int\n  pageSize: Int\n  start: Int\n  limit: Int\n}');
    expect(block(sdl, 'PublicationState')).toBe('enum PublicationState {\n  LIVE\n  PREVIEW\n}');
    expect(block(sdl, 'StringFilterInput')).toMatchInlineSnapshot(`
      "input StringFilterInput {
        and: [String]
        or: [String]
        not: StringFilterInput
        eq: String
        eqi: String
        ne: String
        nei: String
        startsWith: String
        endsWith: String
        contains: String
        notContains: String
        containsi: String
        notContainsi: String
        gt: String
        gte: String
        lt: String
        lte: String
        null: Boolean
        notNull: Boolean
        in: [String]
        notIn: [String]
        between: [String]
      }"
    `);
    // No time attribute anywhere: no Time scalar, no TimeFilterInput.
    expect(block(sdl, 'Time')).toBeUndefined();
    expect(block(sdl, 'TimeFilterInput')).toBeUndefined();
    // Writer is never written through a component: its filters exist, Seo's filters too.
    expect(block(sdl, 'ComponentMetaSeoFiltersInput')).toBeDefined();
  });

  it('types sorted by name, deterministic', () => {
    const sdl = print();
    const names = definitions(sdl).map((b) => /^(?:type|input|enum|union|scalar) (\w+)/m.exec(b.replace(/^"""[\s\S]*?"""\n/, ''))?.[1]);
    expect(names).toEqual([...names].sort());
    expect(print()).toBe(sdl);
  });

  it('emits the schema’s TypeScript types; they compile', async () => {
    const types = emitGraphql(ir).get('src/generated/graphql/types.ts')!.content;
    expect(types).toContain("export type ENUM_POST_STATUS = \"draft\" | \"in_review\" | \"Uenicode_and_co\";");
    expect(types).toContain('export interface QueryPostsArgs {\n  filters?: PostFiltersInput | null;\n  pagination?: PaginationArg | null;\n  sort?: Array<Scalars[\'String\'] | null> | null;\n  publicationState?: PublicationState | null;\n}');
    expect(types).toContain('export interface MutationUpdatePostArgs {\n  id: Scalars[\'ID\'];\n  data: PostInput;\n}');
    expect(types).toContain("export type PostBodyDynamicZone = ComponentMetaSeo | Error;");
    const file = path.join(dir, 'types.ts');
    await writeFile(file, types);
    const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
  });

  it('emits schema.graphql with a note, and the user-owned extension file', () => {
    const files = emitGraphql(ir);
    expect(files.get('schema.graphql')!.content).toMatch(/^# The GraphQL schema served at \/graphql/);
    const extension = files.get('src/extensions/graphql.ts')!;
    expect(extension.ownership).toBe('user');
    expect(extension.content).toContain("extension.shadowCRUD('api::post.post')");
    expect(extension.content).toContain('export default function register(extension: GraphqlExtensionService): void');
  });
});

describe('the extension service in schema.graphql', () => {
  it('shadowCRUD(uid).disable() removes the type and every field, filter and input pointing at it', () => {
    const sdl = print((ext) => ext.shadowCRUD('api::writer.writer').disable());
    expect(block(sdl, 'Writer')).toBeUndefined();
    expect(block(sdl, 'WriterFiltersInput')).toBeUndefined();
    expect(block(sdl, 'Post')).not.toContain('writer');
    expect(block(sdl, 'PostFiltersInput')).not.toContain('writer');
    expect(block(sdl, 'PostInput')).not.toContain('writer');
    expect(block(sdl, 'Query')).not.toContain('writers');
  });

  it('disableQueries() and disableMutations()', () => {
    const sdl = print((ext) => {
      ext.shadowCRUD('api::writer.writer').disableQueries();
      ext.shadowCRUD('api::post.post').disableMutations();
    });
    expect(block(sdl, 'Query')).not.toMatch(/writers?\(/);
    expect(block(sdl, 'Query')).toContain('posts(');
    expect(block(sdl, 'Mutation')).not.toMatch(/(create|update|delete)Post\(/);
    expect(block(sdl, 'Mutation')).toContain('createWriter(');
    // The type stays: it is still reached through relations.
    expect(block(sdl, 'Writer')).toBeDefined();
  });

  it('disableAction(name), disableActions([...]) and "*"', () => {
    const one = print((ext) => ext.shadowCRUD('api::post.post').disableAction('findOne'));
    expect(block(one, 'Query')).not.toContain('post(id');
    expect(block(one, 'Query')).toContain('posts(');
    const some = print((ext) => ext.shadowCRUD('api::post.post').disableActions(['create', 'delete']));
    expect(block(some, 'Mutation')).not.toMatch(/(create|delete)Post\(/);
    expect(block(some, 'Mutation')).toContain('updatePost(');
    const all = print((ext) => ext.shadowCRUD('api::post.post').disableAction('*'));
    expect(block(all, 'Query')).not.toMatch(/\bposts?\(/);
    expect(block(all, 'Mutation')).not.toMatch(/Post\(/);
  });

  it('field(name).disableOutput(), disableInput(), disableFilters() and disable()', () => {
    const out = print((ext) => ext.shadowCRUD('api::post.post').field('views').disableOutput());
    expect(block(out, 'Post')).not.toContain('views');
    expect(block(out, 'PostInput')).toContain('views');
    expect(block(out, 'PostFiltersInput')).toContain('views');
    const input = print((ext) => ext.shadowCRUD('api::post.post').field('views').disableInput());
    expect(block(input, 'PostInput')).not.toContain('views');
    expect(block(input, 'Post')).toContain('views');
    const filters = print((ext) => ext.shadowCRUD('api::post.post').field('views').disableFilters());
    expect(block(filters, 'PostFiltersInput')).not.toContain('views');
    expect(block(filters, 'Post')).toContain('views');
    const all = print((ext) => ext.shadowCRUD('api::post.post').field('views').disable());
    for (const name of ['Post', 'PostInput', 'PostFiltersInput']) expect(block(all, name)).not.toContain('views');
    // field('id') controls the id of components, inputs and filters.
    const ids = print((ext) => {
      ext.shadowCRUD('meta.seo').field('id').disable();
      ext.shadowCRUD('api::post.post').field('id').disableFilters();
    });
    expect(block(ids, 'ComponentMetaSeo')).not.toContain('id: ID');
    expect(block(ids, 'ComponentMetaSeoInput')).not.toContain('id: ID');
    expect(block(ids, 'PostFiltersInput')).not.toContain('id: IDFilterInput');
  });

  it('use(): typeDefs, code-first types from a factory, and plugins’ transformSchema', () => {
    const sdl = print((ext) => {
      ext.use({ typeDefs: 'type Greeting { text: String! }\nextend type Query { hello(name: String!): Greeting }', resolvers: { Query: { hello: () => null } } });
      ext.use(({ graphql, typeRegistry }) => ({
        types: [
          new graphql.GraphQLObjectType({
            name: 'PostStats',
            fields: { count: { type: new graphql.GraphQLNonNull(graphql.GraphQLInt) }, latest: { type: typeRegistry.get('PostEntity') as never } },
          }),
        ],
        typeDefs: 'extend type Query { postStats: PostStats }',
      }));
      ext.use({
        plugins: [
          {
            name: 'deprecate-writers',
            transformSchema: (schema) => {
              const writers = schema.getQueryType()!.getFields()['writers']!;
              writers.deprecationReason = 'use posts';
              return schema;
            },
          },
        ],
      });
    });
    expect(block(sdl, 'Greeting')).toBe('type Greeting {\n  text: String!\n}');
    expect(block(sdl, 'Query')).toContain('  hello(name: String!): Greeting\n');
    expect(block(sdl, 'PostStats')).toBe('type PostStats {\n  count: Int!\n  latest: PostEntity\n}');
    expect(block(sdl, 'Query')).toContain('  postStats: PostStats\n');
    expect(block(sdl, 'Query')).toMatch(/writers\(.*\): WriterEntityResponseCollection @deprecated\(reason: "use posts"\)/);
  });

  it('shadowCRUD: false keeps only what extensions add', () => {
    const sdl = print((ext) => ext.use({ typeDefs: 'type Query { ping: String }' }), false);
    expect(block(sdl, 'Query')?.trim()).toBe('type Query {\n  ping: String\n}');
    expect(block(sdl, 'Post')).toBeUndefined();
    expect(block(sdl, 'Mutation')).toBeUndefined();
  });

  it('an extension that throws stops the build, naming the file', () => {
    expect(() =>
      print(() => {
        throw new Error('boom');
      }),
    ).toThrow('src/extensions/graphql.ts: boom; nothing was written');
    expect(() => print((ext) => ext.use({ resolvers: { Query: { nope: () => 1 } } }))).toThrow(/src\/extensions\/graphql.ts: Query.nope defined in resolvers, but not in schema/);
  });

  it('a misspelled uid or field is an error naming it', () => {
    expect(() => print((ext) => ext.shadowCRUD('api::postt.postt').disable())).toThrow(/shadowCRUD\('api::postt.postt'\): no content type or component has this uid/);
    expect(() => print((ext) => ext.shadowCRUD('api::post.post').field('titel').disable())).toThrow(/api::post.post has no field "titel"/);
  });
});
