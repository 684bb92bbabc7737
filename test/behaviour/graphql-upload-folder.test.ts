/**
 * The upload plugin's GraphQL schema as Strapi 4.26 prints it (issue 12, item 11): the
 * `UploadFolder` types, queries and mutations (guarded by the folder actions, which only a
 * full-access token holds, as in Strapi), `UploadFile.related: [GenericMorph]` (the entries
 * whose media fields hold the file, batched, only of types the caller may read), the file's
 * private `folder`/`folderPath` in its input and filters types (writable; refused in a filter
 * as any private attribute), and Strapi's descriptions on the users-permissions mutations.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, statementsOf } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let admin: Record<string, string>;
let fileId: number;
let published: number;

async function gql(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: (await res.json()) as any };
}

async function data(query: string, variables?: Record<string, unknown>, headers: Record<string, string> = admin) {
  const res = await gql(query, variables, headers);
  if (res.status !== 200 || res.body.errors) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  admin = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } }).png().toBuffer();
  const form = new FormData();
  form.append('files', new Blob([Uint8Array.from(png)], { type: 'image/png' }), 'cover.png');
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: admin });
  expect(res.status).toBe(200);
  fileId = ((await res.json()) as { id: number }[])[0]!.id;
  const api = client(server.url, admin);
  published = (await api.post('/api/articles', { data: { title: 'Published with cover', cover: fileId } })).body.data.id;
  await api.post('/api/articles', { data: { title: 'Draft with cover', cover: fileId, publishedAt: null } });
  await api.post('/api/articles', { data: { title: 'No cover' } });
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('schema', () => {
  it('has the folder types, the morph union and the file’s folder fields, as Strapi prints them', async () => {
    const { __schema } = await data(
      '{ __schema { types { name kind possibleTypes { name } fields { name type { kind name ofType { name } } } inputFields { name type { name kind } } } } }',
      undefined,
      {},
    );
    const types = new Map<string, any>(__schema.types.map((t: any) => [t.name, t]));
    for (const name of ['UploadFolder', 'UploadFolderEntity', 'UploadFolderEntityResponse', 'UploadFolderEntityResponseCollection', 'UploadFolderRelationResponseCollection', 'UploadFolderFiltersInput', 'UploadFolderInput']) {
      expect(types.has(name), name).toBe(true);
    }
    expect(types.get('UploadFolder').fields.map((f: any) => f.name)).toEqual(['name', 'pathId', 'parent', 'children', 'files', 'path', 'createdAt', 'updatedAt']);
    expect(types.get('UploadFolderInput').inputFields.map((f: any) => f.name)).toEqual(['name', 'pathId', 'parent', 'children', 'files', 'path']);
    const file = types.get('UploadFile').fields.map((f: any) => f.name);
    expect(file.slice(file.indexOf('provider_metadata'))).toEqual(['provider_metadata', 'related', 'createdAt', 'updatedAt']);
    expect(types.get('UploadFile').fields.find((f: any) => f.name === 'related').type).toEqual({ kind: 'LIST', name: null, ofType: { name: 'GenericMorph' } });
    expect(types.get('UploadFileInput').inputFields.filter((f: any) => f.name.startsWith('folder'))).toEqual([
      { name: 'folder', type: { name: 'ID', kind: 'SCALAR' } },
      { name: 'folderPath', type: { name: 'String', kind: 'SCALAR' } },
    ]);
    expect(types.get('UploadFileFiltersInput').inputFields.filter((f: any) => f.name.startsWith('folder'))).toEqual([
      { name: 'folder', type: { name: 'UploadFolderFiltersInput', kind: 'INPUT_OBJECT' } },
      { name: 'folderPath', type: { name: 'StringFilterInput', kind: 'INPUT_OBJECT' } },
    ]);
    const morph = types.get('GenericMorph');
    expect(morph.kind).toBe('UNION');
    const members = morph.possibleTypes.map((t: any) => t.name);
    expect(members.slice(0, 4)).toEqual(['ComponentSharedLink', 'ComponentSharedQuote', 'ComponentSharedRichText', 'ComponentSharedSeo']);
    expect(members).toEqual(expect.arrayContaining(['UploadFile', 'UploadFolder', 'UsersPermissionsUser', 'Article', 'Tag']));
    expect(members.indexOf('UploadFile')).toBeLessThan(members.indexOf('Article'));
    const query = types.get('Query').fields.map((f: any) => f.name);
    expect(query).toEqual(expect.arrayContaining(['uploadFolder', 'uploadFolders']));
    const mutation = types.get('Mutation').fields.map((f: any) => f.name);
    expect(mutation).toEqual(expect.arrayContaining(['createUploadFolder', 'updateUploadFolder', 'deleteUploadFolder']));
  });

  it('describes the users-permissions mutations with Strapi’s words', async () => {
    const { __type } = await data('{ __type(name: "Mutation") { fields { name description } } }', undefined, {});
    const described = Object.fromEntries(__type.fields.filter((f: any) => f.description).map((f: any) => [f.name, f.description]));
    expect(described).toEqual({
      createUsersPermissionsRole: 'Create a new role',
      updateUsersPermissionsRole: 'Update an existing role',
      deleteUsersPermissionsRole: 'Delete an existing role',
      createUsersPermissionsUser: 'Create a new user',
      updateUsersPermissionsUser: 'Update an existing user',
      deleteUsersPermissionsUser: 'Delete an existing user',
      register: 'Register a user',
      forgotPassword: 'Request a reset password token',
      resetPassword: 'Reset user password. Confirm with a code (resetToken from forgotPassword)',
      changePassword: 'Change user password. Confirm with the current password.',
      emailConfirmation: 'Confirm an email users email address',
    });
  });
});

describe('folders', () => {
  it('create, nest, list, update and delete with a full-access token', async () => {
    const root = (await data('mutation { createUploadFolder(data: { name: "Photos", pathId: 1, path: "/1" }) { data { id attributes { name path pathId } } } }')).createUploadFolder.data;
    expect(root.attributes).toEqual({ name: 'Photos', path: '/1', pathId: 1 });
    const child = (
      await data('mutation ($parent: ID!) { createUploadFolder(data: { name: "2024", pathId: 2, path: "/1/2", parent: $parent }) { data { id attributes { parent { data { id attributes { name } } } } } } }', {
        parent: root.id,
      })
    ).createUploadFolder.data;
    expect(child.attributes.parent.data).toEqual({ id: root.id, attributes: { name: 'Photos' } });
    const listed = await data('{ uploadFolders(sort: "pathId") { data { attributes { name children { data { attributes { name } } } } } meta { pagination { total } } } }');
    expect(listed.uploadFolders).toEqual({
      data: [{ attributes: { name: 'Photos', children: { data: [{ attributes: { name: '2024' } }] } } }, { attributes: { name: '2024', children: { data: [] } } }],
      meta: { pagination: { total: 2 } },
    });
    const renamed = await data('mutation ($id: ID!) { updateUploadFolder(id: $id, data: { name: "Pictures" }) { data { attributes { name } } } }', { id: root.id });
    expect(renamed.updateUploadFolder.data.attributes.name).toBe('Pictures');

    // A file moved into a folder (folder and folderPath are writable, as in Strapi) …
    await data('mutation ($id: ID!, $folder: ID!) { updateUploadFile(id: $id, data: { folder: $folder, folderPath: "/1/2" }) { data { id } } }', { id: String(fileId), folder: child.id });
    const files = await data('query ($id: ID) { uploadFolder(id: $id) { data { attributes { files { data { id attributes { name } } } } } } }', { id: child.id });
    expect(files.uploadFolder.data.attributes.files.data).toEqual([{ id: String(fileId), attributes: { name: 'cover.png' } }]);
    // … but neither is ever returned by the REST upload API.
    const rest = await client(server.url, admin).get(`/api/upload/files/${fileId}`);
    expect(rest.status).toBe(200);
    expect(rest.body).not.toHaveProperty('folder');
    expect(rest.body).not.toHaveProperty('folderPath');

    const deleted = await data('mutation ($id: ID!) { deleteUploadFolder(id: $id) { data { attributes { name } } } }', { id: child.id });
    expect(deleted.deleteUploadFolder.data.attributes.name).toBe('2024');
  });

  it('are forbidden to roles: the folder actions are not the content API’s (as in Strapi)', async () => {
    const asPublic = await gql('{ uploadFolders { data { id } } }');
    expect(asPublic.body.errors[0]).toMatchObject({ message: 'Forbidden access', extensions: { code: 'FORBIDDEN' } });
    const asPublicCreate = await gql('mutation { createUploadFolder(data: { name: "x", pathId: 9, path: "/9" }) { data { id } } }');
    expect(asPublicCreate.body.errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
  });
});

describe('UploadFile.related', () => {
  const relatedQuery = 'query ($id: ID) { uploadFile(id: $id) { data { attributes { related { __typename ... on Article { title } } } } } }';

  it('lists the live entries whose media fields hold the file', async () => {
    const result = await data(relatedQuery, { id: String(fileId) });
    expect(result.uploadFile.data.attributes.related).toEqual([{ __typename: 'Article', title: 'Published with cover' }]);
  });

  it('leaves out the types the caller may not read', async () => {
    const filesOnly = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::upload.content-api.findOne'] }));
    const result = await data(relatedQuery, { id: String(fileId) }, filesOnly);
    expect(result.uploadFile.data.attributes.related).toEqual([]);
    const withArticles = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::upload.content-api.findOne', 'api::article.article.find'] }));
    expect((await data(relatedQuery, { id: String(fileId) }, withArticles)).uploadFile.data.attributes.related).toEqual([{ __typename: 'Article', title: 'Published with cover' }]);
  });

  it('is read in a number of statements set by the schema, not by the number of files', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } }).png().toBuffer();
    const api = client(server.url, admin);
    for (let i = 0; i < 3; i++) {
      const form = new FormData();
      form.append('files', new Blob([Uint8Array.from(png)], { type: 'image/png' }), `extra-${i}.png`);
      const [extra] = (await (await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: admin })).json()) as { id: number }[];
      await api.put(`/api/articles/${published}`, { data: { cover: extra!.id } });
      await api.post('/api/articles', { data: { title: `Another ${i}`, cover: extra!.id } });
    }
    const query = (limit: number) => `{ uploadFiles(sort: "id", pagination: { limit: ${limit} }) { data { id attributes { related { ... on Article { title } } } } } }`;
    const all = await data(query(10));
    const byFile = all.uploadFiles.data.map((f: any) => f.attributes.related.map((r: any) => r.title));
    expect(byFile).toEqual([[], ['Another 0'], ['Another 1'], ['Published with cover', 'Another 2']]);
    // The same statements for one file as for four (Server-Timing counts them).
    const timed = await startServer(built.dir, { SERVER_TIMING: '1' });
    try {
      const statements = async (limit: number) => {
        const res = await fetch(`${timed.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...admin }, body: JSON.stringify({ query: query(limit) }) });
        expect(res.status).toBe(200);
        return statementsOf(res.headers);
      };
      const [one, four] = [await statements(1), await statements(4)];
      expect(one).toBeGreaterThan(0);
      expect(four).toBe(one);
    } finally {
      await timed.stop();
    }
  });

  it('refuses the private folder attributes in a filter, precisely', async () => {
    for (const filter of ['{ folderPath: { eq: "/" } }', '{ folder: { name: { eq: "Photos" } } }']) {
      const res = await gql(`{ uploadFiles(filters: ${filter}) { data { id } } }`, undefined, admin);
      expect(res.body.data).toEqual({ uploadFiles: null });
      expect(res.body.errors[0].message).toMatch(/^Invalid parameter folder(Path)?$/);
      expect(res.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    }
  });
});
