/**
 * Strapi v4 projects Strapi 4.26.2 starts with, that contentgen once refused
 * (fixtures/projects/lenient-graphql and lenient-plain: one set of models, with and without
 * @strapi/plugin-graphql):
 *
 *  - enumeration values in Cyrillic: named as Strapi names them (`В работе` → `V_rabote`);
 *  - `api::upload-file.upload-file`, whose GraphQL type would be the upload plugin's
 *    `UploadFile`: served over REST, left out of GraphQL;
 *  - a component enumeration whose values give no GraphQL name (`★`, `☆`): the attribute is
 *    served over REST, left out of GraphQL;
 *  - keys Strapi ignores (targetField on a string, description, conditions, …);
 *  - custom fields: a known plugin's (color-picker: string), a local plugin's read from its
 *    register() call (shade-picker: string), and an unknown one, stored as json as sent.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { fixturesDir } from '../helpers/paths.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** Values an unknown custom field must keep exactly as sent. */
const extras: unknown[] = [{ a: [1, { b: null }], s: 'x', n: 1.5, t: true }, 'plain text', 42, [1, 'two', { three: 3 }], false];

describe.each(['lenient-graphql', 'lenient-plain'])('project %s', (fixture) => {
  let built: BuiltServer;
  let server: RunningServer;
  let api: ReturnType<typeof client>;
  let token: string;

  beforeAll(async () => {
    built = await buildModels(path.join(fixturesDir, 'projects', fixture), fixture);
    server = await startServer(built.dir);
    token = await createApiToken(built.dir, { type: 'full-access' });
    api = client(server.url, bearer(token));
  });

  afterAll(async () => {
    await server?.stop();
    await built?.cleanup();
  });

  it('REST stores Cyrillic enumeration values, custom fields and a component whose enumeration GraphQL cannot name', async () => {
    const data = { name: 'Москва', stage: 'В работе', color: '#ff0000', shade: 'dark', extra: extras[0], badge: { label: 'L', mark: '★' } };
    const created = await ok(api.post('/api/states', { data }));
    const read = await ok(api.get(`/api/states/${created.data.id}?populate=badge`));
    expect(read.data.attributes).toMatchObject({ ...data, badge: { label: 'L', mark: '★' } });
    expect(read.data.attributes.extra).toEqual(extras[0]);
    // The enumeration still refuses what it does not list.
    const bad = await api.post('/api/states', { data: { name: 'x', stage: 'Новая' } });
    expect(bad.status).toBe(400);
  });

  it('an unknown custom field keeps every JSON value as sent', async () => {
    for (const extra of extras) {
      const created = await ok(api.post('/api/states', { data: { name: 'json', extra } }));
      expect(created.data.attributes.extra).toEqual(extra);
      expect((await ok(api.get(`/api/states/${created.data.id}`))).data.attributes.extra).toEqual(extra);
    }
  });

  it('REST serves api::upload-file.upload-file', async () => {
    const state = (await ok(api.post('/api/states', { data: { name: 'for a file' } }))).data.id;
    const created = await ok(api.post('/api/upload-files', { data: { title: 'Register', state } }));
    const read = await ok(api.get(`/api/upload-files/${created.data.id}?populate=state`));
    expect(read.data.attributes).toMatchObject({ title: 'Register', state: { data: { id: state, attributes: { name: 'for a file' } } } });
    expect((await ok(api.get('/api/upload-files'))).data.map((e: any) => e.attributes.title)).toContain('Register');
  });

  if (fixture === 'lenient-graphql') {
    const gql = async (query: string, variables?: Record<string, unknown>) => {
      const res = await fetch(`${server.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...bearer(token) }, body: JSON.stringify({ query, variables }) });
      return res.json() as Promise<any>;
    };

    it('GraphQL names Cyrillic enumeration values as Strapi does, and serves custom fields', async () => {
      const created = await gql('mutation($data: StateInput!) { createState(data: $data) { data { id attributes { stage extra color } } } }', {
        data: { name: 'Казань', stage: 'Zavershyon', extra: extras[3], color: '#00ff00' },
      });
      expect(created.errors).toBeUndefined();
      expect(created.data.createState.data.attributes).toEqual({ stage: 'Zavershyon', extra: extras[3], color: '#00ff00' });
      const id = created.data.createState.data.id;
      expect((await ok(api.get(`/api/states/${id}`))).data.attributes.stage).toBe('Завершён');
      const values = await gql('{ __type(name: "ENUM_STATE_STAGE") { enumValues { name } } }');
      expect(values.data.__type.enumValues.map((v: any) => v.name)).toEqual(['Novyj', 'V_rabote', 'Zavershyon']);
      const list = await gql('{ states(filters: { stage: { eq: "В работе" } }) { data { attributes { name stage badge { label } } } } }');
      expect(list.errors).toBeUndefined();
      expect(list.data.states.data).toContainEqual({ attributes: { name: 'Москва', stage: 'V_rabote', badge: { label: 'L' } } });
    });

    it('GraphQL lacks what it cannot name: the component attribute and the content type', async () => {
      const badge = await gql('{ __type(name: "ComponentSharedBadge") { fields { name } } }');
      expect(badge.data.__type.fields.map((f: any) => f.name)).toEqual(['id', 'label']);
      const mark = await gql('{ states { data { attributes { badge { mark } } } } }');
      expect(mark.errors[0].message).toBe('Cannot query field "mark" on type "ComponentSharedBadge".');
      // UploadFile is the upload plugin's type, untouched; the content type has none.
      const file = await gql('{ __type(name: "UploadFile") { fields { name } } }');
      const fields = file.data.__type.fields.map((f: any) => f.name);
      expect(fields).toContain('url');
      expect(fields).not.toContain('title');
      const relation = await gql('{ __type(name: "State") { fields { name } } }');
      expect(relation.data.__type.fields.map((f: any) => f.name)).not.toContain('upload_files');
      const query = await gql('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }');
      const names = [...query.data.__schema.queryType.fields, ...query.data.__schema.mutationType.fields].map((f: any) => f.name);
      expect(names).toEqual(expect.arrayContaining(['uploadFile', 'uploadFiles', 'states', 'createState']));
      const plugin = await gql('{ uploadFiles { data { id attributes { name url } } } }');
      expect(plugin.errors).toBeUndefined();
    });
  }
});
