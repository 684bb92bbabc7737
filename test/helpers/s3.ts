/**
 * A local S3-compatible server for tests: s3rver (the S3 REST protocol, SigV4 checked, objects
 * in a temporary folder) on 127.0.0.1, an ephemeral port, behind a plain node:http server so a
 * test can make chosen requests fail (`failWhen`). `client` is an @aws-sdk/client-s3 client
 * on it, for looking at the bucket directly.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { tempDir } from './paths.js';

// The SDK warns once per process that its 2027 releases will need Node 22; not news in test output.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** s3rver's own access key; it checks request signatures against it. */
export const s3rverCredentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface LocalS3 {
  /** `http://127.0.0.1:<port>` */
  readonly endpoint: string;
  readonly bucket: string;
  readonly region: string;
  readonly client: S3Client;
  /** Requests matching it are answered 500 InternalError without reaching s3rver (null: none). */
  failWhen: ((req: http.IncomingMessage) => boolean) | null;
  /** Requests received, as `METHOD /path` (query left out). */
  readonly requests: string[];
  /** Keys in the bucket under `prefix`, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's content type and bytes, or null when there is none. */
  object(key: string): Promise<{ contentType: string | undefined; bytes: Buffer } | null>;
  /** Removes every object under `prefix`. */
  clear(prefix?: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startLocalS3(bucket = 'media'): Promise<LocalS3> {
  const directory = await tempDir('s3rver');
  const s3rver = new S3rver({ silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    if (local.failWhen?.(req)) {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/xml' });
        res.end('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code><Message>Injected by the test.</Message></Error>');
      });
      return;
    }
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const region = 'us-east-1';
  const client = new S3Client({ region, endpoint, forcePathStyle: true, credentials: s3rverCredentials, requestChecksumCalculation: 'WHEN_REQUIRED' });

  const keys = async (prefix = '') => {
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    return (listed.Contents ?? []).map((object) => object.Key!).sort();
  };
  const local: LocalS3 = {
    endpoint,
    bucket,
    region,
    client,
    failWhen: null,
    requests,
    keys,
    async object(key) {
      try {
        await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw err;
      }
      const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { contentType: got.ContentType, bytes: Buffer.from(await got.Body!.transformToByteArray()) };
    },
    async clear(prefix = '') {
      const found = await keys(prefix);
      if (found.length) await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: found.map((Key) => ({ Key })) } }));
    },
    async stop() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(directory, { recursive: true, force: true });
    },
  };
  return local;
}
