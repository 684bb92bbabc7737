/**
 * Which Strapi `strapi export` archive a file is (Strapi 4's data-transfer file provider writes
 * `<name>.tar`, `.tar.gz` with --no-encrypt, and `.tar.gz.enc`/`.tar.enc` encrypted by default),
 * told by its first bytes, with the name as a hint: gzip starts 1f 8b, a tar carries `ustar` at
 * byte 257. An encrypted archive (AES, no header of its own) is neither.
 */
import { closeSync, openSync, readSync } from 'node:fs';

export type ArchiveFormat = 'tar' | 'tar.gz';

/** Names `--from` takes as an archive rather than an SQLite file. */
const archiveName = /\.(tar|tar\.gz|tgz)(\.enc)?$/i;

export function looksLikeArchive(file: string): boolean {
  return archiveName.test(file) || sniff(file) !== undefined;
}

/** The archive's format, or a sentence saying why contentgen cannot read it. */
export function archiveFormat(file: string): ArchiveFormat | string {
  let head: Buffer;
  try {
    head = readHead(file);
  } catch (e) {
    return `${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`;
  }
  const format = sniffHead(head);
  if (format) return format;
  const reexport = 'export it again without encryption: `strapi export --no-encrypt` (contentgen reads .tar and .tar.gz archives)';
  if (/\.enc$/i.test(file)) return `${file} is an encrypted Strapi export archive: ${reexport}`;
  return `${file} is neither a tar nor a gzip file: if it is an encrypted Strapi export archive, ${reexport}`;
}

function sniff(file: string): ArchiveFormat | undefined {
  try {
    return sniffHead(readHead(file));
  } catch {
    return undefined;
  }
}

function sniffHead(head: Buffer): ArchiveFormat | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head.length >= 262 && head.toString('latin1', 257, 262) === 'ustar') return 'tar';
  return undefined;
}

function readHead(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(512);
    const n = readSync(fd, head, 0, 512, 0);
    return head.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}
