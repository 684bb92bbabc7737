/**
 * The aws-s3 upload provider end to end: the emitted blog server, built with the provider (its
 * src/config.ts selects 'aws-s3' when the build runs) and configured there as a Strapi v4
 * project's config/plugins.js would be, stores files in a bucket
 * of a local S3-compatible server (s3rver, over the real S3 protocol, started here on
 * 127.0.0.1). The bucket is looked at directly through @aws-sdk/client-s3, and the files'
 * URLs are fetched over HTTP from the storage.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client } from '../helpers/http.js';
import { modelsOf, tempDir } from '../helpers/paths.js';
import { s3rverCredentials, startLocalS3, type LocalS3 } from '../helpers/s3.js';
import { bearer, buildFixture, buildModels, createApiToken, startServer, type BuiltServer, type RunningServer } from '../helpers/server.js';

const rootPath = 'cms/media';
const formatKeys = ['thumbnail', 'large', 'medium', 'small'];

let s3: LocalS3;
let built: BuiltServer;
let server: RunningServer;
let auth: Record<string, string>;
let api: ReturnType<typeof client>;

/** src/config.ts selecting the aws-s3 provider, in Strapi's `upload.config` shape. */
function s3Config(local: LocalS3, providerOptions: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    plugins: {
      upload: {
        config: {
          provider: 'aws-s3',
          providerOptions: {
            rootPath,
            s3Options: {
              credentials: s3rverCredentials,
              region: local.region,
              endpoint: local.endpoint,
              forcePathStyle: true,
              params: { Bucket: local.bucket, ACL: 'public-read', signedUrlExpires: 900 },
            },
            ...providerOptions,
          },
          actionOptions: { upload: {}, uploadStream: {}, delete: {} },
        },
      },
    },
  };
}

async function writeConfig(outDir: string, config: Record<string, unknown>): Promise<void> {
  const text = ["import type { UserConfig } from './runtime/config.js';", '', `export default ${JSON.stringify(config, null, 2)} satisfies UserConfig;`, ''].join('\n');
  await writeFile(path.join(outDir, 'src/config.ts'), text);
}

/**
 * The blog server built as a user selecting S3 builds it: src/config.ts names 'aws-s3' when
 * `contentgen build` runs (settings from the environment; the tests write their own after).
 */
async function buildWithS3(): Promise<BuiltServer> {
  const code = await tempDir('s3-code');
  await mkdir(path.join(code, 'src'));
  const config = {
    plugins: { upload: { config: { provider: 'aws-s3', providerOptions: { s3Options: { region: '__AWS_REGION__', params: { Bucket: '__AWS_BUCKET__' } } } } } },
  };
  const text = JSON.stringify(config, null, 2).replace(/'?"__(AWS_\w+)__"'?/g, 'process.env.$1');
  await writeFile(path.join(code, 'src/config.ts'), `import type { UserConfig } from './runtime/config.js';\n\nexport default ${text} satisfies UserConfig;\n`);
  return buildModels(modelsOf('blog'), 'blog-s3', undefined, code);
}

async function png(width: number, height: number, background = { r: 200, g: 80, b: 40 }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } }).png().toBuffer();
}

async function upload(name: string, type: string, bytes: Uint8Array, query = ''): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('files', new Blob([Uint8Array.from(bytes)], { type }), name);
  const res = await fetch(`${server.url}/api/upload${query}`, { method: 'POST', body: form, headers: auth });
  return { status: res.status, body: await res.json() };
}

async function uploadOk(name: string, type: string, bytes: Uint8Array): Promise<any> {
  const res = await upload(name, type, bytes);
  if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body[0];
}

/** The object key a stored name has under this configuration. */
const keyOf = (stored: { hash: string; ext: string }) => `${rootPath}/${stored.hash}${stored.ext}`;
/** Its URL on the storage: custom endpoint with forcePathStyle, `<endpoint>/<bucket>/<key>`. */
const urlOf = (stored: { hash: string; ext: string }) => `${s3.endpoint}/${s3.bucket}/${keyOf(stored)}`;

async function fetchBytes(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

beforeAll(async () => {
  s3 = await startLocalS3();
  built = await buildWithS3();
  await writeConfig(built.dir, s3Config(s3));
  server = await startServer(built.dir, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
  auth = bearer(await createApiToken(built.dir, { type: 'full-access' }));
  api = client(server.url, auth);
});

afterAll(async () => {
  await server?.stop();
  await built?.cleanup();
  await s3?.stop();
});

beforeEach(() => {
  s3.failWhen = null;
});

describe('uploads to an S3 bucket', () => {
  it('stores an image and its formats as objects, with their content type, at the URLs it answers', async () => {
    const image = await png(1200, 800);
    const file = await uploadOk('Cover Photo.png', 'image/png', image);
    expect(file).toMatchObject({ name: 'Cover Photo.png', mime: 'image/png', ext: '.png', width: 1200, height: 800, provider: 'aws-s3' });
    expect(Object.keys(file.formats)).toEqual(formatKeys);
    expect(file.url).toBe(urlOf(file));

    const keys = [keyOf(file), ...formatKeys.map((key) => keyOf(file.formats[key]))];
    expect(await s3.keys(`${rootPath}/`)).toEqual(expect.arrayContaining(keys));
    for (const key of keys) expect(key).toMatch(new RegExp(`^${rootPath}/(thumbnail_|large_|medium_|small_)?Cover_Photo_[0-9a-f]{10}\\.png$`));

    // The main file: the object's bytes are the file, served from the storage at its url.
    const main = await s3.object(keyOf(file));
    expect(main?.contentType).toBe('image/png');
    expect(file.size).toBeCloseTo(main!.bytes.length / 1024, 1);
    const served = await fetchBytes(file.url);
    expect(served).toMatchObject({ status: 200, type: 'image/png' });
    expect(served.bytes.equals(main!.bytes)).toBe(true);
    expect(await sharp(served.bytes).metadata()).toMatchObject({ format: 'png', width: 1200, height: 800 });

    for (const key of formatKeys) {
      const format = file.formats[key];
      expect(format.url).toBe(urlOf(format));
      const object = await s3.object(keyOf(format));
      expect(object?.contentType).toBe('image/png');
      expect(object!.bytes.length).toBe(format.sizeInBytes);
      const fetched = await fetchBytes(format.url);
      expect(fetched.status).toBe(200);
      expect(fetched.bytes.equals(object!.bytes)).toBe(true);
      expect(await sharp(fetched.bytes).metadata()).toMatchObject({ width: format.width, height: format.height });
    }

    // The server does not serve /uploads with this provider.
    expect((await fetch(`${server.url}/uploads/${file.hash}${file.ext}`)).status).toBe(404);
  });

  it('stores other files byte for byte with their MIME type', async () => {
    const text = new TextEncoder().encode('hello, bucket\n');
    const file = await uploadOk('notes.txt', 'text/plain', text);
    expect(file).toMatchObject({ mime: 'text/plain', formats: null, provider: 'aws-s3', url: urlOf(file) });
    const object = await s3.object(keyOf(file));
    expect(object?.contentType).toBe('text/plain');
    expect(object!.bytes.equals(Buffer.from(text))).toBe(true);
    expect((await fetchBytes(file.url)).bytes.toString()).toBe('hello, bucket\n');
  });

  it('entries populate their media with the S3 URLs', async () => {
    const file = await uploadOk('populated.png', 'image/png', await png(800, 600));
    const created = await api.post('/api/articles', { data: { title: 'With an S3 cover', cover: file.id } });
    expect(created.status).toBe(200);
    const read = await api.get(`/api/articles/${created.body.data.id}?populate=cover&fields[0]=title`);
    expect(read.status).toBe(200);
    const cover = read.body.data.attributes.cover.data;
    expect(cover).toMatchObject({ id: file.id, attributes: { url: urlOf(file), provider: 'aws-s3', width: 800, height: 600 } });
    expect(cover.attributes.formats.thumbnail.url).toBe(urlOf(file.formats.thumbnail));
    expect(Object.keys(cover.attributes.formats)).toEqual(['thumbnail', 'medium', 'small']);
    expect((await fetchBytes(cover.attributes.url)).status).toBe(200);
    expect((await fetchBytes(cover.attributes.formats.small.url)).status).toBe(200);
  });

  it('deleting the file removes its objects', async () => {
    const file = await uploadOk('doomed.png', 'image/png', await png(1100, 700));
    const keys = [keyOf(file), ...Object.values<any>(file.formats).map(keyOf)];
    expect(keys).toHaveLength(5);
    for (const key of keys) expect(await s3.object(key)).not.toBeNull();

    const res = await api.del(`/api/upload/files/${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, url: file.url });
    for (const key of keys) expect(await s3.object(key)).toBeNull();
    expect((await fetchBytes(file.url)).status).toBe(404);
    expect((await api.get(`/api/upload/files/${file.id}`)).status).toBe(404);
  });

  it('replacing a file overwrites its objects and removes formats it no longer has', async () => {
    const file = await uploadOk('replaced.png', 'image/png', await png(1200, 800));
    const res = await upload('smaller.png', 'image/png', await png(400, 300, { r: 0, g: 0, b: 255 }), `?id=${file.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: file.id, hash: file.hash, url: file.url, width: 400, height: 300 });
    expect(Object.keys(res.body.formats)).toEqual(['thumbnail']);
    expect(res.body.formats.thumbnail.url).toBe(file.formats.thumbnail.url);
    expect(await sharp((await fetchBytes(file.url)).bytes).metadata()).toMatchObject({ width: 400, height: 300 });
    for (const key of ['large', 'medium', 'small']) expect(await s3.object(keyOf(file.formats[key]))).toBeNull();
    expect(await s3.keys(`${rootPath}/thumbnail_${file.hash}`)).toHaveLength(1);
  });
});

describe('a failed upload leaves no object', () => {
  it('the storage failing on the last object: the formats already stored are removed, no row is written', async () => {
    // Formats are stored first, the file itself last: fail that one.
    s3.failWhen = (req) => req.method === 'PUT' && new URL(req.url!, s3.endpoint).pathname.startsWith(`/${s3.bucket}/${rootPath}/exploding_`);
    const before = s3.requests.length;
    const res = await upload('exploding.png', 'image/png', await png(1200, 800));
    expect(res.status).toBe(500);
    expect(res.body.error).toMatchObject({ status: 500, name: 'InternalServerError' });
    // Every format was stored before the failure, then deleted again.
    const sent = s3.requests.slice(before);
    for (const key of formatKeys) expect(sent.filter((r) => r.startsWith(`PUT /${s3.bucket}/${rootPath}/${key}_exploding_`))).toHaveLength(1);
    for (const key of formatKeys) expect(sent.filter((r) => r.startsWith(`DELETE /${s3.bucket}/${rootPath}/${key}_exploding_`))).toHaveLength(1);
    const leftovers = (await s3.keys(`${rootPath}/`)).filter((key) => key.includes('exploding_'));
    expect(leftovers).toEqual([]);
    const rows = await api.get('/api/upload/files?filters[name][$eq]=exploding.png');
    expect(rows.body).toEqual([]);
  });

  it('an entry refused with its files: the stored objects are removed', async () => {
    const form = new FormData();
    form.append('data', JSON.stringify({ title: 'no' })); // shorter than minLength 3
    form.append('files.cover', new Blob([Uint8Array.from(await png(900, 600))], { type: 'image/png' }), 'refused.png');
    const before = s3.requests.length;
    const res = await fetch(`${server.url}/api/articles`, { method: 'POST', body: form, headers: auth });
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error.name).toBe('ValidationError');
    // The files were stored before the entry was validated in its transaction, then removed.
    expect(s3.requests.slice(before).filter((r) => r.startsWith(`PUT /${s3.bucket}/${rootPath}/`)).length).toBeGreaterThan(0);
    expect((await s3.keys(`${rootPath}/`)).filter((key) => key.includes('refused_'))).toEqual([]);
    expect((await api.get('/api/upload/files?filters[name][$eq]=refused.png')).body).toEqual([]);
  });
});

describe('configuration', () => {
  it('baseUrl makes the URLs <baseUrl>/<key>', async () => {
    const other = await buildWithS3();
    try {
      await writeConfig(other.dir, s3Config(s3, { baseUrl: 'https://cdn.example.com/assets/', rootPath: '/site/' }));
      const running = await startServer(other.dir, { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' });
      try {
        const token = bearer(await createApiToken(other.dir, { type: 'full-access' }));
        const form = new FormData();
        form.append('files', new Blob([Uint8Array.from(await png(400, 300))], { type: 'image/png' }), 'cdn.png');
        const res = await fetch(`${running.url}/api/upload`, { method: 'POST', body: form, headers: token });
        const [file] = (await res.json()) as any[];
        expect(file.url).toBe(`https://cdn.example.com/assets/site/${file.hash}.png`);
        expect(file.formats.thumbnail.url).toBe(`https://cdn.example.com/assets/site/thumbnail_${file.hash}.png`);
        expect(await s3.keys('site/')).toEqual([`site/${file.hash}.png`, `site/thumbnail_${file.hash}.png`]);
        await s3.clear('site/');
      } finally {
        await running.stop();
      }
    } finally {
      await other.cleanup();
    }
  });

  it('a malformed option stops the server at start, naming it (a missing Bucket does not: Strapi starts without it)', async () => {
    const other = await buildWithS3();
    try {
      const config = s3Config(s3) as any;
      config.plugins.upload.config.providerOptions.s3Options.endpoint = 'minio:9000';
      await writeConfig(other.dir, config);
      const failed = await startServer(other.dir).then(
        async (running) => {
          await running.stop();
          return null;
        },
        (err: Error) => err.message,
      );
      expect(failed).toContain('config plugins.upload.config.providerOptions.s3Options.endpoint must be an http(s) URL');
    } finally {
      await other.cleanup();
    }
  });

  it('the build includes the provider and the AWS SDK because src/config.ts selects it; a build without it refuses the provider at start, saying what to do', async () => {
    const pkg = JSON.parse(await readFile(path.join(built.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).toContain('@aws-sdk/client-s3');
    expect(await readFile(path.join(built.dir, 'src/server.ts'), 'utf8')).toContain("import './runtime/upload/provider-s3.js';");

    const plain = await buildFixture('blog');
    try {
      const plainPkg = JSON.parse(await readFile(path.join(plain.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      expect(Object.keys(plainPkg.dependencies).filter((name) => name.startsWith('@aws-sdk/'))).toEqual([]);
      await writeConfig(plain.dir, s3Config(s3));
      const failed = await startServer(plain.dir).then(
        async (running) => {
          await running.stop();
          return null;
        },
        (err: Error) => err.message,
      );
      expect(failed).toContain('config plugins.upload.config.provider "aws-s3" is not built into this server (it has \'local\')');
      expect(failed).toContain('run `contentgen build` again');
    } finally {
      await plain.cleanup();
    }
  });
});
