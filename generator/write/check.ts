/**
 * `contentgen build --check`: compares what a build would write with what is on disk and
 * never writes. Lists generated files that differ or are missing, user files and migrations
 * that are missing, and generated files that a build would remove; generated files edited by
 * hand since the last build (which a build refuses to overwrite without --force) say so.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileMap } from '../emit/file-map.js';
import { findHandEdits, type HandEditKind } from './hand-edits.js';
import { readManifest } from './manifest.js';

export interface StaleFile {
  readonly path: string;
  readonly reason: 'differs' | 'missing' | 'would be removed' | HandEditKind;
}

export async function checkOutput(outDir: string, files: FileMap): Promise<StaleFile[]> {
  const manifest = await readManifest(outDir);
  const edited = new Map((await findHandEdits(outDir, files, manifest)).map((e) => [e.path, e.kind]));
  const stale: StaleFile[] = [];
  for (const file of files.files()) {
    const existing = await readFile(path.join(outDir, file.path), 'utf8').catch(() => undefined);
    if (existing === undefined) stale.push({ path: file.path, reason: 'missing' });
    else if (file.ownership === 'generated' && existing !== file.content) stale.push({ path: file.path, reason: edited.get(file.path) ?? 'differs' });
  }
  for (const old of Object.keys(manifest?.files ?? {})) {
    if (!files.get(old)) stale.push({ path: old, reason: edited.get(old) ?? 'would be removed' });
  }
  return stale;
}
