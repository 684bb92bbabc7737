/**
 * The aws-s3 provider, Strapi v4's `@strapi/provider-upload-aws-s3`: files go to an S3
 * bucket, or to any S3-compatible storage (MinIO, Cloudflare R2, DigitalOcean Spaces…),
 * through the official AWS SDK (`@aws-sdk/client-s3`).
 *
 * - The object key is `<rootPath>/<hash><ext>` (`<hash><ext>` without rootPath); formats are
 *   objects of their own (`thumbnail_<hash><ext>`, …) beside it.
 * - A file's `url` is `<baseUrl>/<key>` when `baseUrl` is set (a CDN in front of the bucket),
 *   else the object's URL as the SDK addresses it: `https://<bucket>.s3.<region>.amazonaws.com/<key>`,
 *   or `<endpoint>/<bucket>/<key>` for a custom endpoint with `forcePathStyle`.
 * - `ContentType` is the file's MIME type; `ACL` is `params.ACL`, sent only when set (Strapi
 *   sends `public-read` when it is not: buckets with ACLs disabled refuse any ACL). Files are
 *   served by the storage, not by this server: make them publicly readable (ACL or bucket
 *   policy) or serve them through `baseUrl`. Signed URLs for private buckets are not made.
 * - Uploads overwrite: keys carry a random part (see filename.ts), so the same key is only
 *   written again on purpose, by a replace (`POST /api/upload?id=`).
 * - Deleting an object that is already gone is not an error.
 * - Files up to 8 MB are read into memory and sent in one request that the SDK retries on
 *   transient errors; larger ones are streamed from disk (a streamed body is not retried).
 * - No request checksum unless an operation requires one (`requestChecksumCalculation:
 *   'WHEN_REQUIRED'`, what the SDK versions Strapi v4 ships with do): S3-compatible servers
 *   often refuse the SDK's newer default, or store its aws-chunked encoding as the content.
 *   Any `S3Client` option set in `s3Options` wins.
 * - The SDK is loaded at the first upload or delete: a server that never stores a file does
 *   not pay for it at start.
 * - This module registers the provider when imported (providers.ts): an emitted server has it,
 *   and the SDK in its package.json, only when its build includes the provider (src/config.ts
 *   selects 'aws-s3', or the Strapi project installs @strapi/provider-upload-aws-s3).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { ObjectCannedACL, PutObjectCommandInput, S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import type { StoredName, UploadProvider } from './provider-local.js';
import { registerUploadProvider } from './providers.js';

/**
 * `providerOptions.s3Options`: options of the `S3Client`, with the bucket in `params`. Keys
 * are optional in the type so values read from the environment (`string | undefined`) fit.
 * As with Strapi's provider, a project whose environment does not set them yet still starts: a
 * missing region, or credentials with neither key set, are left to the SDK's own chain
 * (AWS_REGION, AWS_ACCESS_KEY_ID, ~/.aws/config); a missing params.Bucket makes the first
 * upload fail, naming the key to set. A malformed option still stops the server at start.
 */
export type S3Options = Omit<S3ClientConfig, 'credentials' | 'region' | 'endpoint' | 'forcePathStyle'> & {
  /** Both keys, or none: then the SDK's default chain (AWS_ACCESS_KEY_ID…, instance or task role). */
  credentials?: { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string };
  /** The bucket's region (`auto` or any name for most S3-compatible storages); else the SDK's default (AWS_REGION). */
  region?: string;
  /** An S3-compatible storage's URL, `https://…` (AWS's endpoint when absent). */
  endpoint?: string;
  /** Address the bucket in the path (`<endpoint>/<bucket>/<key>`), not the host name. */
  forcePathStyle?: boolean;
  /** Required, with Bucket. */
  params?: {
    Bucket?: string;
    ACL?: ObjectCannedACL;
    /** Accepted so Strapi configurations paste as they are; unused (no signed URLs). */
    signedUrlExpires?: number | string;
  };
};

/** Strapi's `upload.config.providerOptions` for aws-s3. */
export interface S3ProviderOptions {
  /** Base URL files are served from (a CDN): their url is `<baseUrl>/<key>`. */
  baseUrl?: string;
  /** Folder of the bucket the files go in (key prefix). */
  rootPath?: string;
  /** Required. */
  s3Options?: S3Options;
}

/** Strapi's `upload.config.actionOptions`: more parameters of the S3 requests (PutObject, DeleteObject). */
export interface S3ActionOptions {
  upload?: Record<string, unknown>;
  uploadStream?: Record<string, unknown>;
  delete?: Record<string, unknown>;
}

/** Checked settings of the provider (see resolveS3Options). */
export interface S3ProviderConfig {
  /** Without a trailing slash. */
  readonly baseUrl: string | null;
  /** `''`, or the key prefix ending with `/`. */
  readonly prefix: string;
  /** `''` when not set: the first upload then fails, naming bucketKey. */
  readonly bucket: string;
  readonly bucketKey: string;
  readonly acl: ObjectCannedACL | null;
  /** Options of the S3Client (region, credentials, endpoint, forcePathStyle, and any other given). */
  readonly client: S3ClientConfig;
  /** Where the region is named, for the error when neither it nor the SDK's chain has one. */
  readonly regionKey: string;
  /** Extra parameters of PutObject and DeleteObject. */
  readonly uploadParams: Readonly<Record<string, unknown>>;
  readonly deleteParams: Readonly<Record<string, unknown>>;
}

/** S3's canned ACLs (`x-amz-acl`). */
export const cannedAcls = [
  'private',
  'public-read',
  'public-read-write',
  'authenticated-read',
  'aws-exec-read',
  'bucket-owner-read',
  'bucket-owner-full-control',
] as const satisfies readonly ObjectCannedACL[];

/** Keys of providerOptions before Strapi 4.15 moved them into s3Options. */
const legacyKeys: Readonly<Record<string, string>> = {
  accessKeyId: 's3Options.credentials.accessKeyId',
  secretAccessKey: 's3Options.credentials.secretAccessKey',
  region: 's3Options.region',
  endpoint: 's3Options.endpoint',
  params: 's3Options.params',
  forcePathStyle: 's3Options.forcePathStyle',
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Checks Strapi's `providerOptions` (and `actionOptions`) of the aws-s3 provider; a wrong or
 * missing option throws, naming it under `at` (`config plugins.upload.config`).
 */
export function resolveS3Options(providerOptions: unknown, actionOptions: unknown, at: string): S3ProviderConfig {
  const key = (name: string) => `${at}.${name}`;
  if (!isObject(providerOptions)) throw new Error(`${key('providerOptions')} must be an object with s3Options (provider 'aws-s3')`);
  for (const name of Object.keys(providerOptions)) {
    if (legacyKeys[name]) throw new Error(`${key(`providerOptions.${name}`)}: move it to providerOptions.${legacyKeys[name]} (Strapi 4.15's layout)`);
    if (!['baseUrl', 'rootPath', 's3Options'].includes(name)) throw new Error(`${key(`providerOptions.${name}`)} is not an option of the aws-s3 provider (baseUrl, rootPath, s3Options)`);
  }
  const { baseUrl, rootPath, s3Options } = providerOptions;
  if (baseUrl !== undefined && baseUrl !== null && baseUrl !== '' && !isHttpUrl(baseUrl)) {
    throw new Error(`${key('providerOptions.baseUrl')} must be an http(s) URL such as 'https://cdn.example.com', got ${JSON.stringify(baseUrl)}`);
  }
  if (rootPath !== undefined && rootPath !== null && typeof rootPath !== 'string') throw new Error(`${key('providerOptions.rootPath')} must be a folder name`);
  const s3 = key('providerOptions.s3Options');
  if (!isObject(s3Options)) throw new Error(`${s3} must be an object with region and params.Bucket`);
  const { credentials, region, endpoint, forcePathStyle, params, ...other } = s3Options;
  const unset = (value: unknown) => value === undefined || value === null || value === '';
  const chainCredentials = credentials === undefined || (isObject(credentials) && unset(credentials['accessKeyId']) && unset(credentials['secretAccessKey']));
  if (!chainCredentials) {
    if (!isObject(credentials)) throw new Error(`${s3}.credentials must be { accessKeyId, secretAccessKey }`);
    for (const name of ['accessKeyId', 'secretAccessKey'] as const) {
      if (!nonEmpty(credentials[name])) throw new Error(`${s3}.credentials.${name} must be set (a non-empty string)`);
    }
    if (credentials['sessionToken'] !== undefined && typeof credentials['sessionToken'] !== 'string') throw new Error(`${s3}.credentials.sessionToken must be a string`);
  }
  if (region !== undefined && region !== null && typeof region !== 'string') throw new Error(`${s3}.region must be a region name such as 'eu-west-1'`);
  if (endpoint !== undefined && endpoint !== null && endpoint !== '' && !isHttpUrl(endpoint)) {
    throw new Error(`${s3}.endpoint must be an http(s) URL such as 'https://s3.example.com', got ${JSON.stringify(endpoint)}`);
  }
  if (forcePathStyle !== undefined && typeof forcePathStyle !== 'boolean') throw new Error(`${s3}.forcePathStyle must be true or false`);
  if (!isObject(params)) throw new Error(`${s3}.params must be an object with Bucket`);
  for (const name of Object.keys(params)) {
    if (!['Bucket', 'ACL', 'signedUrlExpires'].includes(name)) throw new Error(`${s3}.params.${name} is not used (Bucket, ACL)`);
  }
  if (!unset(params['Bucket']) && !nonEmpty(params['Bucket'])) throw new Error(`${s3}.params.Bucket must be the bucket's name`);
  const acl = params['ACL'];
  if (acl !== undefined && acl !== null && acl !== '' && !(cannedAcls as readonly unknown[]).includes(acl)) {
    throw new Error(`${s3}.params.ACL must be one of ${cannedAcls.join(', ')}, got ${JSON.stringify(acl)}`);
  }
  const actions = actionOptions ?? {};
  if (!isObject(actions)) throw new Error(`${key('actionOptions')} must be an object`);
  for (const name of Object.keys(actions)) {
    if (!['upload', 'uploadStream', 'delete'].includes(name)) throw new Error(`${key(`actionOptions.${name}`)} is not an action (upload, uploadStream, delete)`);
    if (actions[name] !== undefined && !isObject(actions[name])) throw new Error(`${key(`actionOptions.${name}`)} must be an object of request parameters`);
  }

  const client: S3ClientConfig = {
    requestChecksumCalculation: 'WHEN_REQUIRED',
    ...(other as S3ClientConfig),
    ...(nonEmpty(region) ? { region: region.trim() } : {}),
    ...(chainCredentials ? {} : { credentials: credentials as { accessKeyId: string; secretAccessKey: string } }),
    ...(nonEmpty(endpoint) ? { endpoint: endpoint.trim() } : {}),
    ...(forcePathStyle !== undefined ? { forcePathStyle } : {}),
  };
  const folder = typeof rootPath === 'string' ? rootPath.trim().replace(/^\/+|\/+$/g, '') : '';
  return {
    baseUrl: nonEmpty(baseUrl) ? baseUrl.trim().replace(/\/+$/, '') : null,
    prefix: folder ? `${folder}/` : '',
    bucket: nonEmpty(params['Bucket']) ? params['Bucket'].trim() : '',
    bucketKey: `${s3}.params.Bucket`,
    acl: nonEmpty(acl) ? (acl as ObjectCannedACL) : null,
    client,
    regionKey: `${s3}.region`,
    uploadParams: { ...(actions['upload'] as object | undefined), ...(actions['uploadStream'] as object | undefined) },
    deleteParams: { ...(actions['delete'] as object | undefined) },
  };
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.search === '' && url.hash === '';
  } catch {
    return false;
  }
}

/** Names this provider stores: our own hashes and extensions, as the local provider accepts them. */
const storedName = /^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?$/;

/** Files up to this size are sent from memory (retried on transient errors); larger ones streamed. */
const bufferedMax = 8 * 1024 * 1024;

type Sdk = typeof import('@aws-sdk/client-s3');

interface Connection {
  readonly sdk: Sdk;
  readonly client: S3Client;
  /** The bucket's URL, without a trailing slash: object URLs are `<bucketUrl>/<key>`. */
  readonly bucketUrl: string;
}

export class S3Provider implements UploadProvider {
  readonly name = 'aws-s3';
  private connection: Promise<Connection> | undefined;

  constructor(readonly config: S3ProviderConfig) {}

  /** The object key of a stored file: `<rootPath>/<hash><ext>`. */
  keyOf(file: StoredName): string {
    const name = `${file.hash}${file.ext}`;
    if (!storedName.test(name)) throw new Error(`refusing to use stored file name ${JSON.stringify(name)}`);
    return `${this.config.prefix}${name}`;
  }

  /** The public URL of a stored file: `<baseUrl>/<key>`, else the object's URL (the bucket's as the SDK addresses it, then the key). */
  async urlOf(file: StoredName): Promise<string> {
    const path = this.keyOf(file).split('/').map(encodeKeySegment).join('/');
    return `${this.config.baseUrl ?? (await this.connect()).bucketUrl}/${path}`;
  }

  async upload(file: StoredName, source: string, options: { replace?: boolean; mime?: string } = {}): Promise<{ url: string }> {
    const { sdk, client } = await this.connect();
    const key = this.keyOf(file);
    const { size } = await stat(source);
    const input: PutObjectCommandInput = {
      Bucket: this.config.bucket,
      Key: key,
      Body: size <= bufferedMax ? await readFile(source) : createReadStream(source),
      ContentLength: size,
      ...(options.mime ? { ContentType: options.mime } : {}),
      ...(this.config.acl ? { ACL: this.config.acl } : {}),
      ...this.config.uploadParams,
    };
    await client.send(new sdk.PutObjectCommand(input));
    return { url: await this.urlOf(file) };
  }

  async delete(file: StoredName): Promise<void> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(file), ...this.config.deleteParams }));
    } catch (err) {
      // S3 answers 204 for a missing key; some compatible storages answer 404.
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404 || (err as Error).name === 'NoSuchKey') return;
      throw err;
    }
  }

  /** Loads the SDK and makes the client once; a failure is not kept, so the next call tries again. */
  private connect(): Promise<Connection> {
    this.connection ??= this.open().catch((err: unknown) => {
      this.connection = undefined;
      throw err;
    });
    return this.connection;
  }

  private async open(): Promise<Connection> {
    if (!this.config.bucket) throw new Error(`${this.config.bucketKey} is not set: set the bucket's name`);
    const sdk = await import('@aws-sdk/client-s3');
    const client = new sdk.S3Client(this.config.client);
    const { config } = client;
    const region = await config.region().catch((err: unknown) => {
      throw new Error(`${this.config.regionKey} is not set and the AWS SDK found no region (AWS_REGION): set one ('auto' or any name for most S3-compatible storages)`, { cause: err });
    });
    const [useFips, useDualStack] = await Promise.all([config.useFipsEndpoint(), config.useDualstackEndpoint()]);
    const endpoint = config.endpointProvider({
      Bucket: this.config.bucket,
      Region: region,
      UseFIPS: useFips,
      UseDualStack: useDualStack,
      ForcePathStyle: config.forcePathStyle,
      Accelerate: config.useAccelerateEndpoint,
      ...(typeof this.config.client.endpoint === 'string' ? { Endpoint: this.config.client.endpoint } : {}),
    });
    return { sdk, client, bucketUrl: endpoint.url.href.replace(/\/+$/, '') };
  }
}

/** A key segment in a URL: encodeURIComponent, plus the characters it leaves that S3 escapes. */
function encodeKeySegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

declare module './providers.js' {
  interface UploadProviderOptions {
    'aws-s3': {
      /** baseUrl, rootPath and s3Options (the bucket's region, credentials, endpoint, params.Bucket). */
      providerOptions?: S3ProviderOptions;
      /** More parameters of its PutObject (`upload`, `uploadStream`) and DeleteObject (`delete`) requests. */
      actionOptions?: S3ActionOptions;
    };
  }
}

registerUploadProvider('aws-s3', {
  resolve: resolveS3Options,
  create: (settings: S3ProviderConfig) => new S3Provider(settings),
});
