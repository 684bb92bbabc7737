/**
 * `contentgen build --check`: compares what a build would write with what is on disk and
 * never writes. Lists generated files that differ or are missing, user files and migrations
 * that are missing, and generated files that a build would remove.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileMap } from '../emit/file-map.js';
import { readManifest } from './manifest.js';

export interface StaleFile {
  readonly path: string;
  readonly reason: 'differs' | 'missing' | 'would be removed';
}

export async function checkOutput(outDir: string, files: FileMap): Promise<StaleFile[]> {
  const stale: StaleFile[] = [];
  for (const file of files.files()) {
    const existing = await readFile(path.join(outDir, file.path), 'utf8').catch(() => undefined);
    if (existing === undefined) stale.push({ path: file.path, reason: 'missing' });
    else if (file.ownership === 'generated' && existing !== file.content) stale.push({ path: file.path, reason: 'differs' });
  }
  const manifest = await readManifest(outDir);
  for (const old of Object.keys(manifest?.files ?? {})) {
    if (!files.get(old)) stale.push({ path: old, reason: 'would be removed' });
  }
  return stale;
}
