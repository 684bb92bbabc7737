/**
 * The upload plugin (media): Strapi v4's `/api/upload` routes, a local provider storing
 * under `<server root>/public/uploads/` with the middleware serving `/uploads/<name>`, or a
 * provider the server was built with (providers.ts; aws-s3 stores in a bucket), with no
 * middleware then: the storage serves the files.
 *
 * Mounting (see README of the runtime):
 * - `routes` go on the REST router like content-type routes (under `/api`); each names its
 *   permission action (`plugin::upload.content-api.upload|find|findOne|destroy`).
 * - `middleware` goes after the error middleware (it throws NotFoundError) and before the
 *   router; it answers only GET/HEAD under `/uploads/`.
 * - A JSON body parser in front of the router must leave `multipart/form-data` requests
 *   unread: `POST /api/upload` streams its body itself, and so do entry writes sent as a
 *   form (`data` + `files.<path>`, see entry-files.ts), through `entryFiles`.
 */
import os from 'node:os';
import path from 'node:path';
import type { Middleware } from 'koa';
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, Registry } from '../meta.js';
import type { Route } from '../rest/routes.js';
import { resolveUploadConfig, type UploadConfig, type UploadUserConfig } from './config.js';
import { EntryFiles } from './entry-files.js';
import { LocalProvider } from './provider-local.js';
import { uploadProviderFactory } from './providers.js';
import { uploadRoutes } from './routes.js';
import { serveUploads } from './serve.js';
import { UploadService } from './service.js';
import type { Outbox } from '../webhooks/index.js';

export const fileUid = 'plugin::upload.file';

export interface UploadPluginOptions {
  readonly db: Database;
  /** The server's root folder: files go to `<root>/public/uploads/`. */
  readonly root: string;
  /** Settings over the defaults (see UploadConfig). */
  readonly config?: UploadUserConfig;
  /** The server's registry; `plugin::upload.file` is taken from it unless `meta` is given. */
  readonly registry?: Registry;
  /** Metadata of `plugin::upload.file` (the generated `uploadFile`). */
  readonly meta?: ContentTypeMeta;
  /** Failures that do not fail a request (a stored file that could not be removed). */
  readonly log?: (err: unknown) => void;
  /** Where file writes record their `media.*` webhook events (webhooks/). */
  readonly events?: Outbox;
}

export interface UploadPlugin {
  readonly routes: Route[];
  readonly middleware: Middleware[];
  /** For entry writes: multipart `files.<field>` uploads, and linking checks. */
  readonly service: UploadService;
  /** Entry writes sent as multipart forms: `data` and `files.<path>` (what REST create and update use). */
  readonly entryFiles: EntryFiles;
  readonly config: UploadConfig;
  /** Absolute path of the local provider's uploads folder (unused with another provider). */
  readonly uploadsDir: string;
}

export function uploadPlugin(options: UploadPluginOptions): UploadPlugin {
  const meta = options.meta ?? options.registry?.contentTypes.get(fileUid);
  if (!meta) throw new Error(`upload plugin: no ${fileUid} content type (give registry or meta)`);
  const config = resolveUploadConfig(options.config);
  const tmpDir = path.resolve(config.tmpDir ?? path.join(os.tmpdir(), 'contentgen-uploads'));
  const local = new LocalProvider(options.root);
  const provider = 'settings' in config.provider ? uploadProviderFactory(config.provider.name, 'config plugins.upload.config').create(config.provider.settings) : local;
  const service = new UploadService({
    db: options.db,
    meta,
    config,
    provider,
    tmpDir,
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.events ? { events: options.events } : {}),
  });
  return {
    routes: uploadRoutes(meta, service, config, tmpDir, options.registry),
    middleware: provider === local ? [serveUploads({ dir: local.dir, prefix: local.urlPrefix, maxAge: config.maxAge }) as Middleware] : [],
    service,
    entryFiles: new EntryFiles({ service, config, tmpDir, ...(options.registry ? { registry: options.registry } : {}) }),
    config,
    uploadsDir: local.dir,
  };
}

export { assertAllowedTypes, isAllowedType, mediaTypeOf, type MediaType } from './allowed-types.js';
export { defaultBreakpoints, defaultUploadConfig, multipartLimits, resolveUploadConfig, type StrapiUploadConfig, type UploadConfig, type UploadProviderConfig, type UploadUserConfig } from './config.js';
export { EntryFiles, type EntryWrite } from './entry-files.js';
export { readMultipart, readMultipartRequest, type MultipartBody, type MultipartLimits, type ReceivedFile } from './multipart.js';
export { LocalProvider, type StoredName, type UploadProvider } from './provider-local.js';
export { registerUploadProvider, type UploadProviderFactory, type UploadProviderOptions } from './providers.js';
export { filesField, uploadActions, uploadRoutes } from './routes.js';
export { serveUploads } from './serve.js';
export { parseFileInfo, UploadService, type FileInfo, type FileObject, type StagedUpload } from './service.js';
