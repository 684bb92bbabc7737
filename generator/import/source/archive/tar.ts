/**
 * The entries of a tar or tar.gz file, one at a time, through tar-stream: each entry's content
 * is a stream the handler must read to its end before the next entry is parsed, so an archive
 * of any size is read in bounded memory.
 */
import { createReadStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import type { ArchiveFormat } from './format.js';

export interface TarEntry {
  /** Path inside the archive, `/`-separated, without a leading `./`. */
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly content: Readable;
}

export async function readTar(file: string, format: ArchiveFormat, onEntry: (entry: TarEntry) => Promise<void>): Promise<void> {
  const extract = tarStream.extract();
  // A handler's own error, rather than the "premature close" its stopping reading leads to.
  let failure: unknown;
  extract.on('entry', (header, content, next) => {
    const entry: TarEntry = { name: header.name.replace(/^\.\//, ''), type: header.type ?? 'file', size: header.size ?? 0, content };
    onEntry(entry).then(
      () => {
        // Whatever the handler left unread is skipped, so the parser can go on.
        content.resume();
        next();
      },
      (error: unknown) => {
        failure ??= error;
        extract.destroy(error as Error);
      },
    );
  });
  const stages = format === 'tar.gz' ? [createReadStream(file), createGunzip(), extract] : [createReadStream(file), extract];
  try {
    await pipeline(stages as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream]);
  } catch (error) {
    await new Promise((resolve) => setImmediate(resolve));
    throw failure ?? error;
  }
}

/** The lines of a JSONL entry, parsed, a line at a time as the entry streams in. */
export async function* jsonLines(content: Readable): AsyncGenerator<unknown> {
  let rest = '';
  // Through a core stream: a handler that throws stops reading it, and the archive's parser then
  // fails with the handler's error (readTar) instead of a close of its own.
  const text = content.pipe(new PassThrough({ encoding: 'utf8' }));
  for await (const chunk of text as AsyncIterable<string>) {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) if (line.trim()) yield JSON.parse(line);
  }
  if (rest.trim()) yield JSON.parse(rest);
}
