/**
 * Media end to end on the emitted blog server: files uploaded through /api/upload, linked to
 * a media field, populated in entries, served at /uploads, refused when the field's
 * allowedTypes forbid them, and populated for anyone who may read the entry (as Strapi).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { bearer, buildFixture, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

let built: BuiltServer;
let server: RunningServer;
let token: string;
let api: ReturnType<typeof client>;

async function upload(name: string, type: string, bytes: Uint8Array, fields: Record<string, string> = {}): Promise<any> {
  const res = await uploadRequest(name, type, bytes, fields);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function uploadRequest(name: string, type: string, bytes: Uint8Array, fields: Record<string, string> = {}, auth = bearer(token)): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('files', new Blob([Uint8Array.from(bytes)], { type }), name);
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  const res = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form, headers: auth });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  built = await buildFixture('blog');
  server = await startServer(built.dir);
  token = await createApiToken(built.dir, { type: 'full-access' });
  api = client(server.url, bearer(token));
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
});

describe('media fields', () => {
  it('links an uploaded image to an entry and populates it with its formats', async () => {
    const png = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 80, b: 40 } } }).png().toBuffer();
    const [file] = await upload('Cover Photo.png', 'image/png', png);
    expect(file).toMatchObject({ name: 'Cover Photo.png', mime: 'image/png', width: 1200, height: 800, provider: 'local' });
    expect(Object.keys(file.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);

    const created = await api.post('/api/articles?populate[cover]=true&fields[0]=title', { data: { title: 'With cover', cover: file.id } });
    expect(created.status).toBe(200);
    expect(created.body.data.attributes.cover.data).toMatchObject({ id: file.id, attributes: { name: 'Cover Photo.png', url: file.url, width: 1200 } });

    const served = await fetch(`${server.url}${file.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
  });

  it('ref, refId and field link the uploaded file to the entry (as Strapi), replacing a single media', async () => {
    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#08f' } }).png().toBuffer();
    const article = (await api.post('/api/articles', { data: { title: 'Linked on upload' } })).body.data.id;
    const [first] = await upload('first.png', 'image/png', png, { ref: 'api::article.article', refId: String(article), field: 'cover' });
    expect((await api.get(`/api/articles/${article}?populate=cover`)).body.data.attributes.cover.data.id).toBe(first.id);
    const [second] = await upload('second.png', 'image/png', png, { ref: 'api::article.article', refId: String(article), field: 'cover' });
    expect((await api.get(`/api/articles/${article}?populate=cover`)).body.data.attributes.cover.data.id).toBe(second.id);
  });

  it('a link that names no entry or media field, a file the field does not allow, or a caller who may not update the type: refused, nothing stored', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer();
    const before = (await api.get('/api/upload/files')).body.length;
    const article = (await api.post('/api/articles', { data: { title: 'Not linked' } })).body.data.id;
    const links: Record<string, string>[] = [
      { ref: 'api::article.article', refId: '999999', field: 'cover' },
      { ref: 'api::article.article', refId: String(article), field: 'title' },
      { ref: 'api::nope.nope', refId: '1', field: 'cover' },
      { ref: 'api::article.article', field: 'cover' },
    ];
    for (const fields of links) {
      const res = await uploadRequest('x.png', 'image/png', png, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.error).toMatchObject({ name: 'ValidationError', message: 'ref, refId and field must name an entry and one of its media fields' });
    }
    const text = await uploadRequest('notes.txt', 'text/plain', new TextEncoder().encode('hi'), { ref: 'api::article.article', refId: String(article), field: 'cover' });
    expect(text.status).toBe(400);
    expect(text.body.error.message).toBe('cover only accepts images: "notes.txt" is text/plain');
    const uploader = bearer(await createApiToken(built.dir, { type: 'custom', actions: ['plugin::upload.content-api.upload'] }));
    expect((await uploadRequest('y.png', 'image/png', png, { ref: 'api::article.article', refId: String(article), field: 'cover' }, uploader)).status).toBe(403);
    expect((await api.get('/api/upload/files')).body.length).toBe(before);
    expect((await api.get(`/api/articles/${article}?populate=cover`)).body.data.attributes.cover.data).toBeNull();
  });

  it('refuses a file whose type the field does not allow', async () => {
    const [text] = await upload('notes.txt', 'text/plain', new TextEncoder().encode('hello'));
    const res = await api.post('/api/articles', { data: { title: 'Text cover', cover: text.id } });
    expect(res.status).toBe(400);
    expect(res.body.error.name).toBe('ValidationError');
    expect(res.body.error.details.errors[0].path).toEqual(['cover']);
  });

  it('deleting the file unlinks it from entries', async () => {
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).png().toBuffer();
    const [file] = await upload('small.png', 'image/png', png);
    const article = (await api.post('/api/articles', { data: { title: 'Doomed cover', cover: file.id } })).body.data.id;
    expect((await api.del(`/api/upload/files/${file.id}`)).status).toBe(200);
    const read = await api.get(`/api/articles/${article}?populate=cover&fields[0]=title`);
    expect(read.body.data.attributes.cover.data).toBeNull();
  });

  it('the public role, without upload find, gets media populated as Strapi does; the upload routes stay guarded', async () => {
    const png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#08f' } }).png().toBuffer();
    const [cover] = await upload('public-cover.png', 'image/png', png);
    const created = await api.post('/api/articles', { data: { title: 'Public media', cover: cover.id } });
    expect(created.status).toBe(200);
    const anonymous = client(server.url);
    const byName = await anonymous.get('/api/articles?populate=cover&fields[0]=title&filters[title]=Public media');
    expect(byName.body.data[0].attributes.cover.data).toMatchObject({ id: cover.id, attributes: { url: cover.url } });
    const star = await anonymous.get('/api/articles?populate=*&filters[title]=Public media');
    expect(star.body.data[0].attributes.cover.data.id).toBe(cover.id);
    const graphql = await anonymous.post('/graphql', { query: '{ articles(filters: { title: { eq: "Public media" } }) { data { attributes { cover { data { attributes { url } } } } } } }' });
    expect(graphql.body).toEqual({ data: { articles: { data: [{ attributes: { cover: { data: { attributes: { url: cover.url } } } } }] } } });
    expect((await anonymous.get('/api/upload/files')).status).toBe(403);
    expect((await anonymous.post('/graphql', { query: '{ uploadFiles { data { id } } }' })).body.errors[0].extensions.code).toBe('FORBIDDEN');
  });
});
