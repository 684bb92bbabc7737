/**
 * Entries created and updated with their files in one multipart/form-data request, Strapi
 * v4's form: `data` holds the entry's data as JSON, files go in `files.<path>`. Run against
 * emitted servers over HTTP: the blog fixture (article's single `cover`, images only) and a
 * small model with a multiple media field, media inside components and a single type.
 *
 * After every refused request nothing remains: no file rows, no stored files, no temporary
 * files (the servers receive into a folder of their own, so the tests can look at it).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { tempDir } from '../helpers/paths.js';
import { bearer, buildFixture, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const missingData = "When using multipart/form-data you need to provide your data in a JSON 'data' field.";
const invalidData = "Invalid 'data' field. 'data' should be a valid JSON.";

/** A server under test, with a full-access token and the folders its uploads go through. */
interface Target {
  readonly built: BuiltServer;
  readonly server: RunningServer;
  readonly auth: Record<string, string>;
  readonly tmpDir: string;
  readonly uploadsDir: string;
}

/** A file part: `field` is the form field (`files.cover`). */
interface Part {
  readonly field: string;
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** The server receives uploads into `<build>/.upload-tmp`, not the shared system folder. */
async function start(built: BuiltServer): Promise<Target> {
  const tmpDir = path.join(built.dir, '.upload-tmp');
  await writeFile(path.join(built.dir, 'src/config.ts'), `export default { plugins: { upload: { tmpDir: ${JSON.stringify(tmpDir)} } } };\n`);
  const server = await startServer(built.dir);
  const auth = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  return { built, server, auth, tmpDir, uploadsDir: path.join(built.dir, 'public', 'uploads') };
}

async function stop(target: Target | undefined): Promise<void> {
  await target?.server.stop();
  await target?.built.cleanup();
}

/** A multipart form: `data` as given (a value is sent as JSON, a string as is, undefined not at all), then the files. */
function form(data: unknown, parts: readonly Part[] = []): FormData {
  const body = new FormData();
  if (data !== undefined) body.append('data', typeof data === 'string' ? data : JSON.stringify(data));
  for (const part of parts) body.append(part.field, new Blob([Uint8Array.from(part.bytes)], { type: part.type }), part.name);
  return body;
}

async function send(target: Target, method: 'POST' | 'PUT', url: string, body: FormData, headers: Record<string, string> = target.auth) {
  const res = await fetch(`${target.server.url}${url}`, { method, body, headers });
  return { status: res.status, body: (await res.json()) as any };
}

async function png(width: number, height: number, background = '#c85028'): Promise<Uint8Array> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

const image = async (field: string, name = 'photo.png', size = 40): Promise<Part> => ({ field, name, type: 'image/png', bytes: await png(size, size) });
const text = (field: string, name = 'notes.txt'): Part => ({ field, name, type: 'text/plain', bytes: new TextEncoder().encode('hello') });

/** What the server holds of uploads: file rows (by id), stored files and temporary files. */
async function uploadState(target: Target) {
  const rows = await client(target.server.url, target.auth).get('/api/upload/files');
  const list = async (dir: string) => (existsSync(dir) ? (await readdir(dir)).sort() : []);
  return { rows: (rows.body as { id: number }[]).map((file) => file.id), stored: await list(target.uploadsDir), temporary: await list(target.tmpDir) };
}

/** Runs a refused request and checks it left the uploads as they were; answers its response. */
async function refusedWithoutTrace(target: Target, request: () => Promise<{ status: number; body: any }>) {
  const before = await uploadState(target);
  const res = await request();
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(await uploadState(target)).toEqual(before);
  expect(before.temporary).toEqual([]);
  return res;
}

const fieldError = (path: string[], message: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError' }] } },
});

// --- the blog: article.cover is a single media field that allows images only ----------------

describe('blog articles with a cover', () => {
  let blog: Target;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    blog = await start(await buildFixture('blog'));
    api = client(blog.server.url, blog.auth);
  });

  afterAll(() => stop(blog));

  let article: number;
  let firstCover: any;

  it('creates an entry with its file, answering like a JSON create', async () => {
    const res = await send(blog, 'POST', '/api/articles?fields[0]=title&populate=cover', form({ title: 'With a cover' }, [await image('files.cover', 'Cover Photo.png', 1200)]));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data', 'meta']);
    expect(res.body.meta).toEqual({});
    article = res.body.data.id;
    firstCover = res.body.data.attributes.cover.data;
    expect(res.body.data.attributes.title).toBe('With a cover');
    // Uploaded by the upload service: name, MIME type, dimensions, formats, url.
    expect(firstCover.attributes).toMatchObject({ name: 'Cover Photo.png', mime: 'image/png', ext: '.png', width: 1200, height: 1200, provider: 'local' });
    expect(Object.keys(firstCover.attributes.formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    const served = await fetch(`${blog.server.url}${firstCover.attributes.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');

    const library = await api.get(`/api/upload/files/${firstCover.id}`);
    expect(library.body).toMatchObject({ id: firstCover.id, hash: firstCover.attributes.hash });
    // Received into the server's own folder, which nothing is left in.
    expect(existsSync(blog.tmpDir)).toBe(true);
    expect((await uploadState(blog)).temporary).toEqual([]);
  });

  it('does not populate the media field unless asked, like JSON', async () => {
    const res = await send(blog, 'POST', '/api/articles', form({ title: 'Cover not populated' }, [await image('files.cover')]));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).not.toHaveProperty('cover');
    const read = await api.get(`/api/articles/${res.body.data.id}?populate=cover&fields[0]=title`);
    expect(read.body.data.attributes.cover.data.attributes.name).toBe('photo.png');
  });

  it('updates an entry, replacing the file of its single media field', async () => {
    const res = await send(blog, 'PUT', `/api/articles/${article}?populate=cover`, form({ description: 'New cover' }, [await image('files.cover', 'second.png')]));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ title: 'With a cover', description: 'New cover' });
    const cover = res.body.data.attributes.cover.data;
    expect(cover.id).not.toBe(firstCover.id);
    expect(cover.attributes.name).toBe('second.png');
    // The file it replaced stays in the library, as when a JSON update links another file.
    expect((await api.get(`/api/upload/files/${firstCover.id}`)).status).toBe(200);
  });

  it('without files, a form writes the entry like JSON', async () => {
    const res = await send(blog, 'PUT', `/api/articles/${article}?fields[0]=description`, form({ description: 'Only data' }));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: article, attributes: { description: 'Only data' } });
  });

  it("refuses a form without a 'data' field with Strapi's message", async () => {
    const res = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form(undefined, [await image('files.cover')])));
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: missingData, details: {} } });
    const empty = await send(blog, 'POST', '/api/articles', form(''));
    expect(empty.body.error.message).toBe(missingData);
  });

  it("refuses a 'data' field that is not JSON", async () => {
    const res = await refusedWithoutTrace(blog, async () => send(blog, 'PUT', `/api/articles/${article}`, form('{"title": ', [await image('files.cover')])));
    expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: invalidData, details: {} } });
  });

  it("refuses 'data' that is not an object as JSON would", async () => {
    const json = await api.post('/api/articles', { data: [1] });
    const res = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form([1], [await image('files.cover')])));
    expect(res.body).toEqual(json.body);
  });

  it('refuses file fields outside files.<field>, with the upload untouched', async () => {
    for (const field of ['files', 'cover']) {
      const res = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form({ title: 'Unprefixed' }, [await image(field)])));
      expect(res.status).toBe(400);
      expect(res.body.error.name).toBe('BadRequestError');
      expect(res.body.error.message).toMatch(/^When using multipart\/form-data you need to provide your files by prefixing them with the 'files'\./);
    }
    const notMedia = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form({ title: 'Not media' }, [await image('files.title')])));
    expect(notMedia.body).toEqual(fieldError(['title'], 'files.title does not name a media field'));
  });

  it("refuses a file the field's allowedTypes forbid, storing nothing", async () => {
    const res = await refusedWithoutTrace(blog, () => send(blog, 'POST', '/api/articles', form({ title: 'Text cover' }, [text('files.cover')])));
    expect(res.body).toEqual(fieldError(['cover'], 'cover only accepts images: "notes.txt" is text/plain'));
  });

  it('refuses more than one file for a single media field, or a file and an id', async () => {
    const two = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form({ title: 'Two covers' }, [await image('files.cover', 'a.png'), await image('files.cover', 'b.png')])));
    expect(two.body).toEqual(fieldError(['cover'], 'cover takes a single file, but files.cover holds 2'));
    const both = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form({ title: 'Id and file', cover: firstCover.id }, [await image('files.cover')])));
    expect(both.body).toEqual(fieldError(['cover'], 'cover takes a single file: send it in files.cover or name it in data, not both'));
  });

  it('leaves nothing when the entry is refused, with the error a JSON request gets', async () => {
    await api.post('/api/articles', { data: { title: 'Taken slug', slug: 'taken' } });
    const refusals = [
      { title: 'ab' }, // too short
      { description: 'no title' }, // required title missing
      { title: 'Taken again', slug: 'taken' }, // unique
      { title: 'Missing author', author: 99999 }, // relation to an id that does not exist
    ];
    for (const data of refusals) {
      const json = await api.post('/api/articles', { data });
      expect(json.status).toBe(400);
      const res = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form(data, [await image('files.cover')])));
      expect(res.body).toEqual(json.body);
    }
  });

  it('leaves nothing when the entry to update does not exist', async () => {
    const res = await refusedWithoutTrace(blog, async () => send(blog, 'PUT', '/api/articles/99999', form({ title: 'Nobody' }, [await image('files.cover')])));
    expect(res.body.error).toMatchObject({ status: 404, name: 'NotFoundError' });
  });

  it('needs the create or update permission, and nothing more', async () => {
    // The public role may read articles but not create them.
    const res = await refusedWithoutTrace(blog, async () => send(blog, 'POST', '/api/articles', form({ title: 'Anonymous' }, [await image('files.cover')]), {}));
    expect(res.status).toBe(403);
    expect(res.body.error.name).toBe('ForbiddenError');
    // A token with article create (and no upload action) may send files with the entry.
    const writer = bearer(await createApiToken(blog.built.dir, { type: 'custom', actions: ['api::article.article.create'] }));
    const created = await send(blog, 'POST', '/api/articles', form({ title: 'By a writer' }, [await image('files.cover')]), writer);
    expect(created.status).toBe(200);
    const read = await api.get(`/api/articles/${created.body.data.id}?populate=cover&fields[0]=title`);
    expect(read.body.data.attributes.cover.data.attributes.name).toBe('photo.png');
  });
});

// --- a multiple media field, media inside components, a single type --------------------------

const models: Record<string, unknown> = {
  'album.json': {
    info: { singularName: 'album', pluralName: 'albums', displayName: 'Album' },
    attributes: {
      title: { type: 'string', required: true },
      photos: { type: 'media', multiple: true, allowedTypes: ['images'] },
      hero: { type: 'component', component: 'media.figure' },
      figures: { type: 'component', component: 'media.figure', repeatable: true },
      sections: { type: 'dynamiczone', components: ['media.figure', 'media.note'] },
    },
  },
  'home.json': {
    kind: 'singleType',
    info: { singularName: 'home', pluralName: 'homes', displayName: 'Home' },
    attributes: { headline: { type: 'string' }, logo: { type: 'media', allowedTypes: ['images'] } },
  },
  'components/media/figure.json': {
    collectionName: 'components_media_figures',
    info: { displayName: 'Figure' },
    attributes: { caption: { type: 'string' }, image: { type: 'media', allowedTypes: ['images'] }, attachments: { type: 'media', multiple: true } },
  },
  'components/media/note.json': { collectionName: 'components_media_notes', info: { displayName: 'Note' }, attributes: { body: { type: 'text' } } },
};

describe('multiple media, components and single types', () => {
  let modelsDir: string;
  let target: Target;
  let api: ReturnType<typeof client>;

  beforeAll(async () => {
    modelsDir = await tempDir('multipart-entries-models');
    for (const [file, json] of Object.entries(models)) {
      await mkdir(path.dirname(path.join(modelsDir, file)), { recursive: true });
      await writeFile(path.join(modelsDir, file), JSON.stringify(json));
    }
    target = await start(await buildModels(modelsDir, 'multipart-entries'));
    api = client(target.server.url, target.auth);
  });

  afterAll(async () => {
    await stop(target);
    await rm(modelsDir, { recursive: true, force: true });
  });

  const photoNames = (entry: any) => entry.attributes.photos.data.map((file: any) => file.attributes.name);
  let album: number;

  it('links every file of a multiple media field, in the order sent', async () => {
    const parts = [await image('files.photos', 'one.png'), await image('files.photos', 'two.png'), await image('files.photos', 'three.png')];
    const res = await send(target, 'POST', '/api/albums?populate=photos', form({ title: 'Holidays' }, parts));
    expect(res.status).toBe(200);
    album = res.body.data.id;
    expect(photoNames(res.body.data)).toEqual(['one.png', 'two.png', 'three.png']);
  });

  it('appends files on update, after the ones data gives', async () => {
    const appended = await send(target, 'PUT', `/api/albums/${album}?populate=photos`, form({}, [await image('files.photos', 'four.png')]));
    expect(photoNames(appended.body.data)).toEqual(['one.png', 'two.png', 'three.png', 'four.png']);

    const [first] = appended.body.data.attributes.photos.data;
    const replaced = await send(target, 'PUT', `/api/albums/${album}?populate=photos`, form({ photos: [first.id] }, [await image('files.photos', 'five.png')]));
    expect(photoNames(replaced.body.data)).toEqual(['one.png', 'five.png']);

    const connected = await send(target, 'PUT', `/api/albums/${album}?populate=photos`, form({ photos: { connect: [], disconnect: [first.id] } }, [await image('files.photos', 'six.png')]));
    expect(photoNames(connected.body.data)).toEqual(['five.png', 'six.png']);
  });

  it("checks every file against the field's allowedTypes", async () => {
    const res = await refusedWithoutTrace(target, async () => send(target, 'POST', '/api/albums', form({ title: 'Mixed' }, [await image('files.photos'), text('files.photos')])));
    expect(res.body).toEqual(fieldError(['photos'], 'photos only accepts images: "notes.txt" is text/plain'));
  });

  it('puts files into components and dynamic zones by their path', async () => {
    const data = {
      title: 'Nested',
      hero: { caption: 'Hero' },
      figures: [{ caption: 'first' }, { caption: 'second', attachments: [] }],
      sections: [{ __component: 'media.note', body: 'text' }, { __component: 'media.figure', caption: 'in a zone' }],
    };
    const parts = [
      await image('files.hero.image', 'hero.png'),
      await image('files.figures[1].image', 'second.png'),
      text('files.figures.1.attachments', 'a.txt'),
      text('files.figures.1.attachments', 'b.txt'),
      await image('files.sections.1.image', 'zone.png'),
    ];
    const res = await send(target, 'POST', '/api/albums?populate=*', form(data, parts));
    expect(res.status).toBe(200);
    const files = (await api.get('/api/upload/files')).body as { id: number; name: string }[];
    const idOf = (name: string) => files.filter((file) => file.name === name).at(-1)!.id;
    const read = await api.get(
      `/api/albums/${res.body.data.id}?populate[hero][populate]=image&populate[figures][populate]=*&populate[sections][populate]=*`,
    );
    const { hero, figures, sections } = read.body.data.attributes;
    expect(hero).toMatchObject({ caption: 'Hero', image: { data: { id: idOf('hero.png') } } });
    expect(figures[0]).toMatchObject({ caption: 'first', image: { data: null } });
    expect(figures[1]).toMatchObject({ caption: 'second', image: { data: { id: idOf('second.png') } } });
    expect(figures[1].attachments.data.map((file: any) => file.attributes.name)).toEqual(['a.txt', 'b.txt']);
    expect(sections[1]).toMatchObject({ __component: 'media.figure', caption: 'in a zone', image: { data: { id: idOf('zone.png') } } });
  });

  it('refuses a file for a component that data does not give, or a path that is not a media field', async () => {
    const missing = await refusedWithoutTrace(target, async () => send(target, 'POST', '/api/albums', form({ title: 'No hero' }, [await image('files.hero.image')])));
    expect(missing.body).toEqual(
      fieldError(['hero', 'image'], 'files.hero.image goes into hero, which data does not give: a file inside a component needs the component in data'),
    );
    const outOfRange = await refusedWithoutTrace(target, async () => send(target, 'POST', '/api/albums', form({ title: 'One figure', figures: [{}] }, [await image('files.figures.1.image')])));
    expect(outOfRange.body.error.details.errors[0].path).toEqual(['figures', '1', 'image']);
    const wrongComponent = await refusedWithoutTrace(target, async () =>
      send(target, 'POST', '/api/albums', form({ title: 'Note', sections: [{ __component: 'media.note' }] }, [await image('files.sections.0.image')])),
    );
    expect(wrongComponent.body).toEqual(fieldError(['sections', '0', 'image'], 'files.sections.0.image does not name a media field'));
  });

  it('writes a single type with its file: PUT creates it, then replaces the file', async () => {
    const created = await send(target, 'PUT', '/api/home?populate=logo', form({ headline: 'Welcome' }, [await image('files.logo', 'logo.png')]));
    expect(created.status).toBe(200);
    expect(created.body.data.attributes).toMatchObject({ headline: 'Welcome', logo: { data: { attributes: { name: 'logo.png' } } } });
    const updated = await send(target, 'PUT', '/api/home?populate=logo', form({}, [await image('files.logo', 'logo-2.png')]));
    expect(updated.body.data.id).toBe(created.body.data.id);
    expect(updated.body.data.attributes).toMatchObject({ headline: 'Welcome', logo: { data: { attributes: { name: 'logo-2.png' } } } });
    const refused = await refusedWithoutTrace(target, () => send(target, 'PUT', '/api/home', form({ headline: 'Text logo' }, [text('files.logo')])));
    expect(refused.body.error.details.errors[0].path).toEqual(['logo']);
    expect((await api.get('/api/home')).body.data.attributes.headline).toBe('Welcome');
  });
});
