/**
 * The aws-s3 upload provider: its settings (Strapi v4's `upload.config` shape, checked at
 * start), object keys and URLs, and its requests against a local S3-compatible server
 * (s3rver, helpers/s3.ts).
 */
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveUploadConfig, type UploadUserConfig } from '../../../../templates/runtime/upload/config.js';
import { S3Provider, type S3ProviderConfig } from '../../../../templates/runtime/upload/provider-s3.js';
import { tempDir } from '../../../helpers/paths.js';
import { s3rverCredentials, startLocalS3, type LocalS3 } from '../../../helpers/s3.js';

const at = 'config plugins.upload.config';

function s3Upload(s3Options: Record<string, unknown>, providerOptions: Record<string, unknown> = {}, rest: Record<string, unknown> = {}): UploadUserConfig {
  return { config: { provider: 'aws-s3', providerOptions: { s3Options, ...providerOptions }, ...rest } } as UploadUserConfig;
}

const minimal = { region: 'eu-west-3', params: { Bucket: 'media' } };

function s3Settings(user: UploadUserConfig): S3ProviderConfig {
  const { provider } = resolveUploadConfig(user);
  if (provider.name !== 'aws-s3' || !('settings' in provider)) throw new Error('expected the aws-s3 provider');
  return provider.settings as S3ProviderConfig;
}

describe('aws-s3 settings', () => {
  it('reads Strapi v4 config/plugins.js `upload.config` as written there', () => {
    const config = resolveUploadConfig({
      config: {
        provider: 'aws-s3',
        providerOptions: {
          baseUrl: 'https://cdn.example.com/',
          rootPath: '/site/media/',
          s3Options: {
            credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
            region: 'eu-west-3',
            params: { ACL: 'public-read', signedUrlExpires: 900, Bucket: 'media' },
            maxAttempts: 5,
          },
        },
        actionOptions: { upload: { CacheControl: 'max-age=3600' }, uploadStream: {}, delete: {} },
        sizeLimit: 1000,
        breakpoints: { xl: 1920 },
      },
    });
    expect(config).toMatchObject({ sizeLimit: 1000, breakpoints: { xl: 1920 } });
    expect(config.provider).toEqual({
      name: 'aws-s3',
      settings: {
        baseUrl: 'https://cdn.example.com',
        prefix: 'site/media/',
        bucket: 'media',
        bucketKey: `${at}.providerOptions.s3Options.params.Bucket`,
        acl: 'public-read',
        client: { requestChecksumCalculation: 'WHEN_REQUIRED', maxAttempts: 5, region: 'eu-west-3', credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' } },
        regionKey: `${at}.providerOptions.s3Options.region`,
        uploadParams: { CacheControl: 'max-age=3600' },
        deleteParams: {},
      },
    });
  });

  it('defaults: no prefix, no base URL, no ACL, the SDK default credentials chain; S3Client options given win', () => {
    const settings = s3Settings(s3Upload({ ...minimal, requestChecksumCalculation: 'WHEN_SUPPORTED' }));
    expect(settings).toMatchObject({ baseUrl: null, prefix: '', acl: null });
    expect(settings.client).toEqual({ requestChecksumCalculation: 'WHEN_SUPPORTED', region: 'eu-west-3' });
  });

  it('without a region (as a project may run on Strapi until its first upload), the SDK chain decides; none there names the key', async () => {
    const settings = s3Settings(s3Upload({ endpoint: 'https://fra1.digitaloceanspaces.com', params: { Bucket: 'media' } }));
    expect(settings.client).not.toHaveProperty('region');
    const saved = { AWS_REGION: process.env['AWS_REGION'], AWS_DEFAULT_REGION: process.env['AWS_DEFAULT_REGION'], AWS_CONFIG_FILE: process.env['AWS_CONFIG_FILE'] };
    try {
      delete process.env['AWS_REGION'];
      delete process.env['AWS_DEFAULT_REGION'];
      process.env['AWS_CONFIG_FILE'] = '/nonexistent/aws-config';
      await expect(new S3Provider(settings).urlOf({ hash: 'a_0a1b2c3d4e', ext: '.png' })).rejects.toThrow(
        `${at}.providerOptions.s3Options.region is not set and the AWS SDK found no region (AWS_REGION)`,
      );
      process.env['AWS_REGION'] = 'nyc3';
      expect(await new S3Provider(settings).urlOf({ hash: 'a_0a1b2c3d4e', ext: '.png' })).toBe('https://media.fra1.digitaloceanspaces.com/a_0a1b2c3d4e.png');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('without the environment a config reads (credentials, bucket: saharshsoftware/corta-news-strapi-backend), it starts as Strapi does; the first upload names the bucket key', async () => {
    const env = { accessKeyId: undefined, secretAccessKey: '' };
    for (const params of [{}, { Bucket: undefined }, { Bucket: '' }]) {
      const settings = s3Settings(s3Upload({ credentials: env, region: 'eu-west-3', params }));
      expect(settings).toMatchObject({ bucket: '', client: { region: 'eu-west-3' } });
      expect(settings.client).not.toHaveProperty('credentials');
      await expect(new S3Provider(settings).urlOf({ hash: 'a_0a1b2c3d4e', ext: '.png' })).rejects.toThrow(`${at}.providerOptions.s3Options.params.Bucket is not set: set the bucket's name`);
    }
  });

  it('local is the default, and ignores providerOptions (a provider chosen from the environment)', () => {
    expect(resolveUploadConfig({}).provider).toEqual({ name: 'local' });
    expect(resolveUploadConfig({ config: { provider: 'local', providerOptions: { s3Options: {} } } } as UploadUserConfig).provider).toEqual({ name: 'local' });
  });

  it('a setting given both flat and under config must agree', () => {
    expect(resolveUploadConfig({ sizeLimit: 5, config: { sizeLimit: 5 } }).sizeLimit).toBe(5);
    expect(() => resolveUploadConfig({ sizeLimit: 5, config: { sizeLimit: 6 } })).toThrow('config plugins.upload.sizeLimit and config plugins.upload.config.sizeLimit disagree');
  });

  it.each([
    [{ config: { provider: 'aws-s4' } }, `${at}.provider "aws-s4" is not built into this server (it has 'local', 'aws-s3')`],
    [{ config: { provider: 3 } }, `${at}.provider must be a provider's name`],
    [{ config: { provider: 'aws-s3' } }, `${at}.providerOptions must be an object with s3Options`],
    [s3Upload(undefined as never), `${at}.providerOptions.s3Options must be an object`],
    [s3Upload({ region: 3, params: { Bucket: 'media' } }), `${at}.providerOptions.s3Options.region must be a region name`],
    [s3Upload({ region: 'eu-west-3' }), `${at}.providerOptions.s3Options.params must be an object with Bucket`],
    [s3Upload({ region: 'eu-west-3', params: { Bucket: 3 } }), `${at}.providerOptions.s3Options.params.Bucket must be the bucket's name`],
    [s3Upload({ ...minimal, params: { Bucket: 'media', ACL: 'public' } }), `${at}.providerOptions.s3Options.params.ACL must be one of private, public-read`],
    [s3Upload({ ...minimal, params: { Bucket: 'media', bucket: 'x' } }), `${at}.providerOptions.s3Options.params.bucket is not used`],
    [s3Upload({ ...minimal, credentials: { accessKeyId: 'AKIA', secretAccessKey: undefined } }), `${at}.providerOptions.s3Options.credentials.secretAccessKey must be set`],
    [s3Upload({ ...minimal, credentials: 'AKIA:secret' }), `${at}.providerOptions.s3Options.credentials must be { accessKeyId, secretAccessKey }`],
    [s3Upload({ ...minimal, endpoint: 'minio:9000' }), `${at}.providerOptions.s3Options.endpoint must be an http(s) URL`],
    [s3Upload({ ...minimal, forcePathStyle: 'yes' }), `${at}.providerOptions.s3Options.forcePathStyle must be true or false`],
    [s3Upload(minimal, { baseUrl: 'cdn.example.com' }), `${at}.providerOptions.baseUrl must be an http(s) URL`],
    [s3Upload(minimal, { rootPath: 3 }), `${at}.providerOptions.rootPath must be a folder name`],
    [s3Upload(minimal, { accessKeyId: 'AKIA' }), `${at}.providerOptions.accessKeyId: move it to providerOptions.s3Options.credentials.accessKeyId`],
    [s3Upload(minimal, { bucket: 'media' }), `${at}.providerOptions.bucket is not an option of the aws-s3 provider`],
    [s3Upload(minimal, {}, { actionOptions: { copy: {} } }), `${at}.actionOptions.copy is not an action`],
    [s3Upload(minimal, {}, { actionOptions: { upload: 'public' } }), `${at}.actionOptions.upload must be an object`],
  ])('refuses %j, naming the key', (user, message) => {
    expect(() => resolveUploadConfig(user as UploadUserConfig)).toThrow(message);
  });
});

describe('object keys and URLs', () => {
  const provider = (s3Options: Record<string, unknown>, providerOptions: Record<string, unknown> = {}) =>
    new S3Provider(s3Settings(s3Upload({ credentials: s3rverCredentials, ...s3Options }, providerOptions)));
  const file = { hash: 'photo_0a1b2c3d4e', ext: '.png' };

  it('keys are <rootPath>/<hash><ext>; names that are not ours are refused', () => {
    expect(provider(minimal).keyOf(file)).toBe('photo_0a1b2c3d4e.png');
    expect(provider(minimal, { rootPath: 'a/b/' }).keyOf({ hash: 'thumbnail_photo_0a1b2c3d4e', ext: '.png' })).toBe('a/b/thumbnail_photo_0a1b2c3d4e.png');
    expect(() => provider(minimal).keyOf({ hash: '../x', ext: '.png' })).toThrow('refusing');
  });

  it('AWS: virtual-hosted style, or path style when the bucket name is not a host name', async () => {
    expect(await provider(minimal).urlOf(file)).toBe('https://media.s3.eu-west-3.amazonaws.com/photo_0a1b2c3d4e.png');
    expect(await provider({ ...minimal, params: { Bucket: 'my.media' } }).urlOf(file)).toBe('https://s3.eu-west-3.amazonaws.com/my.media/photo_0a1b2c3d4e.png');
    expect(await provider({ ...minimal, forcePathStyle: true }).urlOf(file)).toBe('https://s3.eu-west-3.amazonaws.com/media/photo_0a1b2c3d4e.png');
  });

  it('a custom endpoint: <endpoint>/<bucket>/<key> with forcePathStyle, else the bucket as a subdomain', async () => {
    expect(await provider({ ...minimal, endpoint: 'http://127.0.0.1:9000/', forcePathStyle: true }).urlOf(file)).toBe('http://127.0.0.1:9000/media/photo_0a1b2c3d4e.png');
    expect(await provider({ ...minimal, region: 'auto', endpoint: 'https://acc.r2.cloudflarestorage.com' }).urlOf(file)).toBe('https://media.acc.r2.cloudflarestorage.com/photo_0a1b2c3d4e.png');
  });

  it('baseUrl replaces the bucket URL; key segments are URL-encoded', async () => {
    expect(await provider(minimal, { baseUrl: 'https://cdn.example.com/x/', rootPath: 'my files' }).urlOf(file)).toBe('https://cdn.example.com/x/my%20files/photo_0a1b2c3d4e.png');
  });
});

describe('requests to an S3-compatible server', () => {
  let s3: LocalS3;
  let dir: string;
  let provider: S3Provider;

  beforeAll(async () => {
    s3 = await startLocalS3('unit');
    dir = await tempDir('provider-s3');
    provider = new S3Provider(
      s3Settings(s3Upload({ credentials: s3rverCredentials, region: s3.region, endpoint: s3.endpoint, forcePathStyle: true, params: { Bucket: s3.bucket } }, { rootPath: 'u' })),
    );
  });

  afterAll(async () => {
    await s3?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function temp(bytes: Buffer): Promise<string> {
    const file = path.join(dir, randomBytes(6).toString('hex'));
    await writeFile(file, bytes);
    return file;
  }

  it('uploads with the content type given, at the URL it answers; deletes; a missing object is not an error', async () => {
    const bytes = randomBytes(1000);
    const { url } = await provider.upload({ hash: 'a_1', ext: '.bin' }, await temp(bytes), { mime: 'application/x-test' });
    expect(url).toBe(`${s3.endpoint}/unit/u/a_1.bin`);
    const object = await s3.object('u/a_1.bin');
    expect(object?.contentType).toBe('application/x-test');
    expect(object!.bytes.equals(bytes)).toBe(true);
    expect(Buffer.from(await (await fetch(url)).arrayBuffer()).equals(bytes)).toBe(true);
    await provider.delete({ hash: 'a_1', ext: '.bin' });
    expect(await s3.object('u/a_1.bin')).toBeNull();
    await expect(provider.delete({ hash: 'a_1', ext: '.bin' })).resolves.toBeUndefined();
  });

  it('a file past 8 MB is streamed from disk, byte for byte; a replace overwrites', async () => {
    const big = randomBytes(9 * 1024 * 1024);
    await provider.upload({ hash: 'big_1', ext: '.dat' }, await temp(big), { mime: 'application/octet-stream' });
    expect((await s3.object('u/big_1.dat'))!.bytes.equals(big)).toBe(true);
    const small = randomBytes(10);
    await provider.upload({ hash: 'big_1', ext: '.dat' }, await temp(small), { replace: true });
    expect((await s3.object('u/big_1.dat'))!.bytes.equals(small)).toBe(true);
    await provider.delete({ hash: 'big_1', ext: '.dat' });
  });

  it('a storage error fails the upload', async () => {
    s3.failWhen = (req) => req.method === 'PUT';
    try {
      await expect(provider.upload({ hash: 'c_1', ext: '.txt' }, await temp(Buffer.from('x')), { mime: 'text/plain' })).rejects.toMatchObject({ name: 'InternalError' });
    } finally {
      s3.failWhen = null;
    }
    expect(await s3.object('u/c_1.txt')).toBeNull();
  });
});
