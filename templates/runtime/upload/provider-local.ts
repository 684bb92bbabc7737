/**
 * The local provider: files live in `<server root>/public/uploads/<hash><ext>` and are
 * served at `/uploads/<hash><ext>` (see serve.ts). Other providers implement the same
 * interface and register themselves (providers.ts; provider-s3.ts for S3 buckets, in a
 * server built with it).
 */
import { constants } from 'node:fs';
import { copyFile, link, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** What a provider needs to know of a file (or of one of its formats). */
export interface StoredName {
  readonly hash: string;
  readonly ext: string;
}

export interface UploadProvider {
  /** The `provider` column of files it stores. */
  readonly name: string;
  /**
   * Stores the content of `source` (a temporary file, which the provider may move away)
   * and answers the file's public URL; `mime` is the file's MIME type. Without `replace`, the
   * local provider refuses to overwrite an existing file of that name (object storages
   * overwrite: names carry a random part).
   */
  upload(file: StoredName, source: string, options?: { replace?: boolean; mime?: string }): Promise<{ url: string }>;
  /** Removes a stored file; one that is already gone is not an error. */
  delete(file: StoredName): Promise<void>;
}

/** Names the local provider writes: our own hashes and extensions, nothing a client can steer. */
const storedName = /^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?$/;

export class LocalProvider implements UploadProvider {
  readonly name = 'local';
  /** Absolute path of the uploads folder. */
  readonly dir: string;
  /** URL path prefix, `/uploads`. */
  readonly urlPrefix = '/uploads';

  constructor(root: string) {
    this.dir = path.resolve(root, 'public', 'uploads');
  }

  /** The absolute path of a stored file; throws for a name that could leave the folder. */
  pathOf(file: StoredName): string {
    const name = `${file.hash}${file.ext}`;
    if (!storedName.test(name)) throw new Error(`refusing to use stored file name ${JSON.stringify(name)}`);
    return path.join(this.dir, name);
  }

  async upload(file: StoredName, source: string, options: { replace?: boolean } = {}): Promise<{ url: string }> {
    const target = this.pathOf(file);
    await mkdir(this.dir, { recursive: true });
    if (options.replace) await moveReplacing(source, target);
    else await moveExclusive(source, target);
    return { url: `${this.urlPrefix}/${path.basename(target)}` };
  }

  async delete(file: StoredName): Promise<void> {
    await rm(this.pathOf(file), { force: true });
  }
}

/** Moves without ever overwriting: a hard link fails if the target exists, then the source goes. */
async function moveExclusive(source: string, target: string): Promise<void> {
  try {
    await link(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV' && (err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    // Another file system (or one without hard links): copy, still refusing to overwrite.
    await copyFile(source, target, constants.COPYFILE_EXCL);
  }
  await rm(source, { force: true });
}

async function moveReplacing(source: string, target: string): Promise<void> {
  try {
    await rename(source, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    // A dot name: never served while it is being copied.
    const staged = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.tmp`);
    await copyFile(source, staged);
    await rename(staged, target);
    await rm(source, { force: true });
  }
}
