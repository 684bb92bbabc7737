/**
 * Polymorphic relations on the morph models (fixtures/morph): a note's `subject`
 * (morphToOne) and `items` (morphToMany) link entries of any type; `tag.notes` (morphMany,
 * morphBy items) and `page.pinnedNote` (morphOne, morphBy subject) are their other sides.
 * Writes take `{ __type, id }`; reads answer them only when populated, unwrapped as Strapi
 * 4.26 does; deleting an entry removes its links; GraphQL resolves them through GenericMorph.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';
import { client } from '../helpers/http.js';

let built: BuiltServer;
let server: RunningServer;
let api: ReturnType<typeof client>;
let anonymous: ReturnType<typeof client>;
let token: string;

async function ok(res: Promise<{ status: number; body: any }>): Promise<any> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

const tag = async (name: string, data: Record<string, unknown> = {}) => (await ok(api.post('/api/tags', { data: { name, internal: `hidden ${name}`, ...data } }))).data.id as number;
const page = async (heading: string) => (await ok(api.post('/api/pages', { data: { heading } }))).data.id as number;
const note = async (data: Record<string, unknown>) => (await ok(api.post('/api/notes', { data: { title: 'n', ...data } }))).data.id as number;
const T = 'api::tag.tag';
const P = 'api::page.page';

async function graphql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

beforeAll(async () => {
  built = await buildFixture('morph');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  api = client(server.url, bearer(token));
  anonymous = client(server.url);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('REST writes and reads', () => {
  it('a create takes {__type, id} items; the answer leaves the morph fields out; populate=* answers them unwrapped', async () => {
    const t1 = await tag('t1');
    const p1 = await page('p1');
    const created = await ok(api.post('/api/notes', { data: { title: 'first', items: [{ __type: P, id: p1 }, { __type: T, id: t1 }], subject: { __type: T, id: t1 } } }));
    expect(Object.keys(created.data.attributes).sort()).toEqual(['createdAt', 'title', 'updatedAt']);
    const read = await ok(api.get(`/api/notes/${created.data.id}?populate=*`));
    const { items, subject } = read.data.attributes;
    expect(items.map((i: any) => [i.__type, i.id])).toEqual([[P, p1], [T, t1]]);
    expect(items[1]).toMatchObject({ __type: T, id: t1, name: 't1' });
    expect(Object.keys(items[1]).sort()).toEqual(['__type', 'createdAt', 'id', 'name', 'publishedAt', 'updatedAt']);
    expect(items[0]).toMatchObject({ __type: P, id: p1, heading: 'p1' });
    // The to-one has no __type; private attributes of the target are never returned.
    expect(subject).toMatchObject({ id: t1, name: 't1' });
    expect(subject).not.toHaveProperty('__type');
    expect(subject).not.toHaveProperty('internal');
  });

  it('populate[field]=true and a populate list name them; without populate they are absent', async () => {
    const t = await tag('named');
    const id = await note({ items: [{ __type: T, id: t }], subject: { __type: T, id: String(t) } });
    const plain = await ok(api.get(`/api/notes/${id}`));
    expect(plain.data.attributes).not.toHaveProperty('items');
    expect(plain.data.attributes).not.toHaveProperty('subject');
    const one = await ok(api.get(`/api/notes/${id}?populate[items]=true`));
    expect(one.data.attributes.items.map((i: any) => i.name)).toEqual(['named']);
    expect(one.data.attributes).not.toHaveProperty('subject');
    const list = await ok(api.get(`/api/notes?populate=subject,items&filters[id][$eq]=${id}`));
    expect(list.data[0].attributes.subject.name).toBe('named');
    // `on` narrows a morphTo populate to the types it names.
    const p = await page('only-pages');
    const mixed = await note({ items: [{ __type: T, id: t }, { __type: P, id: p }] });
    const onPages = await ok(api.get(`/api/notes/${mixed}?populate[items][on][${P}]=true`));
    expect(onPages.data.attributes.items.map((i: any) => i.__type)).toEqual([P]);
  });

  it('an update replaces the list in the order given; null clears; an empty morphToMany is no key (as Strapi answers)', async () => {
    const a = await tag('a');
    const b = await tag('b');
    const p = await page('pp');
    const id = await note({ items: [{ __type: T, id: a }] });
    await ok(api.put(`/api/notes/${id}`, { data: { items: [{ __type: T, id: b }, { __type: P, id: p }, { __type: T, id: a }] } }));
    let read = await ok(api.get(`/api/notes/${id}?populate=*`));
    expect(read.data.attributes.items.map((i: any) => `${i.__type}:${i.id}`)).toEqual([`${T}:${b}`, `${P}:${p}`, `${T}:${a}`]);
    expect(read.data.attributes.subject).toBeNull();
    await ok(api.put(`/api/notes/${id}`, { data: { items: null, subject: { __type: P, id: p } } }));
    read = await ok(api.get(`/api/notes/${id}?populate=*`));
    expect(read.data.attributes).not.toHaveProperty('items');
    expect(read.data.attributes.subject).toMatchObject({ id: p, heading: 'pp' });
    await ok(api.put(`/api/notes/${id}`, { data: { subject: null } }));
    expect((await ok(api.get(`/api/notes/${id}?populate=subject`))).data.attributes.subject).toBeNull();
  });

  it('refuses unknown types, missing entries and malformed items with a 400 ValidationError, writing nothing', async () => {
    const before = (await ok(api.get('/api/notes?pagination[withCount]=true'))).meta.pagination.total;
    for (const data of [
      { items: [{ __type: 'api::nope.nope', id: 1 }] },
      { items: [{ __type: T, id: 999999 }] },
      { items: [{ id: 1 }] },
      { items: { __type: T, id: 1 } },
      { subject: [{ __type: T, id: 1 }] },
      { subject: { __type: T } },
    ]) {
      const res = await api.post('/api/notes', { data: { title: 'bad', ...data } });
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
      expect(res.body.data).toBeNull();
    }
    expect((await ok(api.get('/api/notes?pagination[withCount]=true'))).meta.pagination.total).toBe(before);
  });

  it('links to a type the caller may not read are dropped from the input (Strapi sanitizeInput), the field with the last one', async () => {
    const t = await tag('readable');
    const p = await page('unreadable');
    const writer = client(server.url, bearer(await createApiToken(built.dir, { type: 'custom', actions: ['api::note.note.create', 'api::note.note.findOne', 'api::tag.tag.find'] })));
    const created = await writer.post('/api/notes', { data: { title: 'restricted', items: [{ __type: P, id: p }, { __type: T, id: t }], subject: { __type: P, id: p } } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const stored = await ok(api.get(`/api/notes/${created.body.data.id}?populate=*`));
    expect(stored.data.attributes.items.map((i: any) => [i.__type, i.id])).toEqual([[T, t]]);
    expect(stored.data.attributes.subject).toBeNull();
  });

  it('drafts are left out of a live list, shown by findOne', async () => {
    const draft = await tag('draft', { publishedAt: null });
    const id = await note({ items: [{ __type: T, id: draft }] });
    const list = await ok(api.get(`/api/notes?populate=items&filters[id][$eq]=${id}`));
    expect(list.data[0].attributes).not.toHaveProperty('items');
    const preview = await ok(api.get(`/api/notes?populate=items&filters[id][$eq]=${id}&publicationState=preview`));
    expect(preview.data[0].attributes.items.map((i: any) => i.id)).toEqual([draft]);
  });
});

describe('the other side: morphMany and morphOne', () => {
  it('tag.notes lists the notes it wrote into their items (wrapped like a relation); the notes see the tag', async () => {
    const t = await tag('owner');
    const n1 = await note({ title: 'n1' });
    const n2 = await note({ title: 'n2' });
    await ok(api.put(`/api/tags/${t}`, { data: { notes: [n2, n1] } }));
    const read = await ok(api.get(`/api/tags/${t}?populate=notes`));
    expect(read.data.attributes.notes.data.map((n: any) => n.attributes.title)).toEqual(['n2', 'n1']);
    const fromNote = await ok(api.get(`/api/notes/${n1}?populate=items`));
    expect(fromNote.data.attributes.items).toEqual([expect.objectContaining({ __type: T, id: t, name: 'owner' })]);
    // Links written from the note's side carry no field: Strapi's morphMany does not show them.
    const other = await tag('other');
    await note({ items: [{ __type: T, id: other }] });
    expect((await ok(api.get(`/api/tags/${other}?populate=notes`))).data.attributes.notes.data).toEqual([]);
    // A missing note is refused as for relations.
    const bad = await api.put(`/api/tags/${t}`, { data: { notes: [999999] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('1 relation(s) of type api::note.note associated with this entity do not exist');
  });

  it('page.pinnedNote reads the note whose subject is the page, and writes it', async () => {
    const p = await page('home');
    const n = await note({ title: 'pinned', subject: { __type: P, id: p } });
    let read = await ok(api.get(`/api/pages/${p}?populate=pinnedNote`));
    expect(read.data.attributes.pinnedNote.data).toMatchObject({ id: n, attributes: { title: 'pinned' } });
    const other = await note({ title: 'other' });
    await ok(api.put(`/api/pages/${p}`, { data: { pinnedNote: other } }));
    read = await ok(api.get(`/api/pages/${p}?populate=pinnedNote`));
    expect(read.data.attributes.pinnedNote.data.id).toBe(other);
    expect((await ok(api.get(`/api/notes/${n}?populate=subject`))).data.attributes.subject).toBeNull();
    expect((await ok(api.get(`/api/notes/${other}?populate=subject`))).data.attributes.subject).toMatchObject({ id: p, heading: 'home' });
  });
});

describe('deletes and permissions', () => {
  it('deleting a note removes its rows; deleting a linked entry removes the links to it', async () => {
    const a = await tag('del-a');
    const b = await tag('del-b');
    const p = await page('del-p');
    const id = await note({ items: [{ __type: T, id: a }, { __type: T, id: b }], subject: { __type: P, id: p } });
    await ok(api.del(`/api/tags/${a}`));
    await ok(api.del(`/api/pages/${p}`));
    const read = await ok(api.get(`/api/notes/${id}?populate=*`));
    expect(read.data.attributes.items.map((i: any) => i.id)).toEqual([b]);
    expect(read.data.attributes.subject).toBeNull();
    // A new page must not inherit the deleted one's links.
    const again = await page('new-p');
    expect((await ok(api.get(`/api/pages/${again}?populate=pinnedNote`))).data.attributes.pinnedNote.data).toBeNull();
    await ok(api.del(`/api/notes/${id}`));
    expect((await ok(api.get(`/api/tags/${b}?populate=notes`))).data.attributes.notes.data).toEqual([]);
  });

  it('a caller who may not find a type does not see its entries (public role: notes and tags, not pages)', async () => {
    const t = await tag('visible');
    const p = await page('invisible');
    const id = await note({ items: [{ __type: P, id: p }, { __type: T, id: t }], subject: { __type: P, id: p } });
    const read = await ok(anonymous.get(`/api/notes/${id}?populate=*`));
    expect(read.data.attributes.items.map((i: any) => i.__type)).toEqual([T]);
    expect(read.data.attributes.subject).toBeNull();
    const only = await note({ items: [{ __type: P, id: p }] });
    expect((await ok(anonymous.get(`/api/notes/${only}?populate=items`))).data.attributes).not.toHaveProperty('items');
  });

  it('filters and sort on a morph field are refused (400)', async () => {
    for (const query of ['filters[items][id][$eq]=1', 'filters[subject][$null]=true', 'sort=items', 'sort=subject:asc']) {
      const res = await api.get(`/api/notes?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error.name).toBe('ValidationError');
    }
    expect((await api.get('/api/tags?filters[notes][id][$eq]=1')).status).toBe(400);
  });
});

describe('GraphQL', () => {
  it('types morphTo fields with GenericMorph (entity types as members) and leaves morphOne/morphMany out', async () => {
    const body = await graphql(`{ __type(name: "Note") { fields { name type { kind name ofType { name } } } } u: __type(name: "GenericMorph") { possibleTypes { name } } t: __type(name: "Tag") { fields { name } } }`);
    const fields = new Map(body.data.__type.fields.map((f: any) => [f.name, f.type]));
    expect(fields.get('subject')).toEqual({ kind: 'UNION', name: 'GenericMorph', ofType: null });
    expect(fields.get('items')).toEqual({ kind: 'LIST', name: null, ofType: { name: 'GenericMorph' } });
    const members = body.data.u.possibleTypes.map((t: any) => t.name);
    expect(members).toEqual(expect.arrayContaining(['Note', 'Tag', 'Page', 'UploadFile']));
    expect(body.data.t.fields.map((f: any) => f.name)).not.toContain('notes');
    // schema.graphql of the build is the schema served.
    const file = await readFile(path.join(built.dir, 'schema.graphql'), 'utf8');
    expect(file).toContain('items: [GenericMorph]');
    expect(server.output()).not.toContain('schema.graphql does not match');
  });

  it('resolves them to the linked entries, in order, with fragments on the entity types', async () => {
    const t = await tag('gq-tag');
    const p = await page('gq-page');
    const id = await note({ title: 'gq', items: [{ __type: T, id: t }, { __type: P, id: p }], subject: { __type: P, id: p } });
    const body = await graphql(
      `query($id: ID) { note(id: $id) { data { id attributes { title
        items { __typename ... on Tag { name } ... on Page { heading } }
        subject { __typename ... on Page { heading } } } } } }`,
      { id },
    );
    expect(body.errors).toBeUndefined();
    const attributes = body.data.note.data.attributes;
    expect(attributes.items).toEqual([{ __typename: 'Tag', name: 'gq-tag' }, { __typename: 'Page', heading: 'gq-page' }]);
    expect(attributes.subject).toEqual({ __typename: 'Page', heading: 'gq-page' });
    // A list: every entry's links (read together).
    const other = await note({ title: 'gq2', items: [{ __type: P, id: p }] });
    const listed = await graphql(
      `query($ids: [ID]) { notes(filters: { id: { in: $ids } }, sort: "id") { data { id attributes { items { ... on Tag { name } ... on Page { heading } } } } } }`,
      { ids: [id, other] },
    );
    expect(listed.errors).toBeUndefined();
    expect(listed.data.notes.data.map((n: any) => n.attributes.items)).toEqual([[{ name: 'gq-tag' }, { heading: 'gq-page' }], [{ heading: 'gq-page' }]]);
    const empty = await graphql(`query($id: ID) { note(id: $id) { data { attributes { items { __typename } subject { __typename } } } } }`, { id: await note({}) });
    expect(empty.data.note.data.attributes).toEqual({ items: [], subject: null });
  });
});
