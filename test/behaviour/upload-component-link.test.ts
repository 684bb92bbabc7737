/**
 * `POST /api/upload` with `ref` a component uid, `refId` an instance id and `field` one of its
 * media fields links the files into that instance, as Strapi does (issue 27 item 1): a
 * component of an entry, media of a component in a dynamic zone, and of a repeatable
 * component nested in it; a single media field takes the last file, a multiple one adds them.
 * Refused with nothing stored: an instance that does not exist, a field that is not media, a
 * file the field does not allow, a caller who may not update the entry holding it. GraphQL's
 * `upload(ref, refId, field)` does the same. On fixtures/import/models, on SQLite, PostgreSQL
 * and MariaDB.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let token: string;
let api: ReturnType<typeof client>;

// A 1×1 PNG.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

async function uploadRequest(files: { name: string; type: string; bytes: Uint8Array }[], fields: Record<string, string>, auth = bearer(token)): Promise<{ status: number; body: any }> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([Uint8Array.from(file.bytes)], { type: file.type }), file.name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: auth });
  return { status: res.status, body: await res.json() };
}

async function upload(names: string[], fields: Record<string, string>): Promise<any[]> {
  const res = await uploadRequest(names.map((name) => ({ name, type: 'image/png', bytes: png })), fields);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const populate =
  'populate[seo][populate]=shareImage&populate[blocks][on][sections.hero][populate][pictures]=true&populate[blocks][on][sections.hero][populate][image]=true' +
  '&populate[blocks][on][sections.hero][populate][ctas][populate]=icon&populate[blocks][on][shared.quote]=true';

async function read(id: number): Promise<any> {
  const res = await api.get(`/api/articles/${id}?${populate}`);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.attributes;
}

let article: number;
let other: number;

beforeAll(async () => {
  built = await buildModels(path.resolve('fixtures/import/models'), 'upload-component-link');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  api = client(server.url, bearer(token));
  const data = (title: string) => ({
    title,
    seo: { metaTitle: `${title} seo` },
    blocks: [
      { __component: 'shared.quote', text: 'q' },
      { __component: 'sections.hero', heading: 'Hero', ctas: [{ label: 'one' }, { label: 'two' }] },
    ],
  });
  other = (await api.post('/api/articles', { data: data('Other') })).body.data.id;
  article = (await api.post('/api/articles', { data: data('Linked') })).body.data.id;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('upload linked to a component instance', () => {
  it('links into a component of the entry, into a zone’s component and into a component nested in it', async () => {
    const before = await read(article);
    const hero = before.blocks.find((b: any) => b.__component === 'sections.hero');
    const [share] = await upload(['share.png'], { ref: 'shared.seo', refId: String(before.seo.id), field: 'shareImage' });
    const [first, second] = await upload(['one.png', 'two.png'], { ref: 'sections.hero', refId: String(hero.id), field: 'pictures' });
    const [third] = await upload(['three.png'], { ref: 'sections.hero', refId: String(hero.id), field: 'pictures' });
    const [icon] = await upload(['icon.png'], { ref: 'sections.cta', refId: String(hero.ctas[1].id), field: 'icon' });
    const [image, lastImage] = await upload(['a.png', 'b.png'], { ref: 'sections.hero', refId: String(hero.id), field: 'image' });
    expect(image.id).toBeLessThan(lastImage.id);

    const after = await read(article);
    expect(after.seo).toMatchObject({ id: before.seo.id, metaTitle: 'Linked seo', shareImage: { data: { id: share.id } } });
    const linked = after.blocks.find((b: any) => b.__component === 'sections.hero');
    expect(linked.id).toBe(hero.id);
    expect(linked.pictures.data.map((f: any) => f.id)).toEqual([first.id, second.id, third.id]);
    expect(linked.image.data.id).toBe(lastImage.id);
    expect(linked.ctas.map((c: any) => [c.label, c.icon.data?.id ?? null])).toEqual([['one', null], ['two', icon.id]]);
    expect(after.blocks.find((b: any) => b.__component === 'shared.quote').text).toBe('q');

    // The other entry's instances are untouched.
    const untouched = await read(other);
    expect(untouched.seo.shareImage.data).toBeNull();
    expect(untouched.blocks.find((b: any) => b.__component === 'sections.hero').pictures.data).toBeNull();
  });

  it('refuses an instance that does not exist, a field that is not media, a file the field does not allow, a caller who may not update the entry: nothing stored', async () => {
    const seo = (await read(other)).seo.id;
    const files = (await api.get('/api/upload/files')).body.length;
    for (const fields of [
      { ref: 'shared.seo', refId: '999999', field: 'shareImage' },
      { ref: 'shared.seo', refId: String(seo), field: 'metaTitle' },
      { ref: 'shared.seo', refId: String(seo), field: 'nope' },
      { ref: 'shared.seo', refId: 'x', field: 'shareImage' },
    ]) {
      const res = await uploadRequest([{ name: 'x.png', type: 'image/png', bytes: png }], fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'ref, refId and field must name an entry and one of its media fields' });
    }
    const text = await uploadRequest([{ name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode('hi') }], { ref: 'shared.seo', refId: String(seo), field: 'shareImage' });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe('shareImage only accepts images: "notes.txt" is text/plain');
    const uploader = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::upload.content-api.upload'] }));
    const forbidden = await uploadRequest([{ name: 'y.png', type: 'image/png', bytes: png }], { ref: 'shared.seo', refId: String(seo), field: 'shareImage' }, uploader);
    expect(forbidden.status).toBe(403);
    expect((await api.get('/api/upload/files')).body.length).toBe(files);
    expect((await read(other)).seo.shareImage.data).toBeNull();
  });

  it('GraphQL upload(ref, refId, field) links into an instance the same way, and refuses the same links', async () => {
    const gqlUpload = async (refId: string) => {
      const form = new FormData();
      const query = 'mutation($file: Upload!, $refId: ID) { upload(file: $file, ref: "shared.seo", refId: $refId, field: "shareImage") { data { id } } }';
      form.append('operations', JSON.stringify({ query, variables: { file: null, refId } }));
      form.append('map', JSON.stringify({ 0: ['variables.file'] }));
      form.append('0', new Blob([Uint8Array.from(png)], { type: 'image/png' }), 'graphql.png');
      const res = await fetch(`${server.url}/graphql`, { method: 'POST', body: form, headers: bearer(token) });
      return (await res.json()) as any;
    };
    const seo = (await read(other)).seo.id;
    const missing = await gqlUpload('999999');
    expect(missing.errors[0]).toMatchObject({ message: 'ref, refId and field must name an entry and one of its media fields', extensions: { code: 'BAD_USER_INPUT' } });
    const linked = await gqlUpload(String(seo));
    expect(linked.errors).toBeUndefined();
    expect((await read(other)).seo.shareImage.data.id).toBe(Number(linked.data.upload.data.id));
  });
});
