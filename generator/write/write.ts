/**
 * Stage 5: put a FileMap on disk.
 *
 * Everything is rendered before this runs, so the only failures left are I/O. Files are
 * staged in a sibling temporary folder first; a fresh output folder is then swapped in
 * with one rename, an existing one receives each file by rename (atomic per file) and
 * the manifest last. Generated files that are no longer emitted are removed; user files
 * are created only when absent; migrations are never rewritten.
 *
 * Before anything is staged, generated files edited by hand since the last build (their hash
 * no longer matches the manifest) are looked for: unless `force`, the build is refused with
 * a HandEditsError and nothing is written.
 */
import { mkdir, mkdtemp, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileMap, OutputFile } from '../emit/file-map.js';
import { findHandEdits, HandEditsError, sha256 } from './hand-edits.js';
import { manifestPath, readManifest, type Manifest } from './manifest.js';

export interface WriteResult {
  readonly written: string[];
  readonly removed: string[];
  /** Files edited by hand that `force` overwrote or removed. */
  readonly overwritten: string[];
}

export interface WriteOptions {
  /** Overwrite (and remove) generated files edited by hand since the last build. */
  readonly force?: boolean;
}

export async function writeOutput(outDir: string, files: FileMap, options: WriteOptions = {}): Promise<WriteResult> {
  const previous = await readManifest(outDir);
  await assertSafeTarget(outDir, previous);
  const edits = await findHandEdits(outDir, files, previous);
  if (edits.length > 0 && !options.force) throw new HandEditsError(outDir, edits);

  const toWrite: OutputFile[] = [];
  for (const file of files.files()) {
    const target = path.join(outDir, file.path);
    const existing = await readFile(target, 'utf8').catch(() => undefined);
    if (file.ownership !== 'generated' && existing !== undefined) continue; // user files and migrations are never rewritten
    if (existing === file.content) continue; // unchanged bytes are not rewritten
    toWrite.push(file);
  }
  const manifest = buildManifest(files);
  const manifestText = `${JSON.stringify(manifest, null, 2)}\n`;
  // No longer emitted at all; a path that became user-owned stays, now the user's.
  const removed = Object.keys(previous?.files ?? {}).filter((p) => !files.get(p));

  const parent = path.dirname(path.resolve(outDir));
  await mkdir(parent, { recursive: true });
  const stage = await mkdtemp(path.join(parent, `.${path.basename(outDir)}.contentgen-`));
  try {
    for (const file of toWrite) await writeStaged(stage, file.path, file.content);
    await writeStaged(stage, manifestPath, manifestText);

    if (!(await exists(outDir))) {
      await rename(stage, outDir);
    } else {
      for (const file of toWrite) await moveInto(stage, outDir, file.path);
      for (const stale of removed) await rm(path.join(outDir, stale), { force: true });
      await moveInto(stage, outDir, manifestPath);
    }
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
  return { written: toWrite.map((f) => f.path), removed, overwritten: edits.map((e) => e.path) };
}

/** Never write into a folder that has content but no manifest: it is not ours to clobber. */
async function assertSafeTarget(outDir: string, manifest: Manifest | undefined): Promise<void> {
  if (manifest || !(await exists(outDir))) return;
  const entries = (await readdir(outDir)).filter((e) => e !== '.DS_Store');
  if (entries.length > 0) {
    throw new Error(`${outDir} is not empty and was not written by contentgen (no ${manifestPath}); refusing to write there`);
  }
}

export function buildManifest(files: FileMap): Manifest {
  const generated: Record<string, string> = {};
  for (const file of files.files()) if (file.ownership === 'generated') generated[file.path] = sha256(file.content);
  return { generator: 'contentgen', files: generated };
}

async function writeStaged(stage: string, rel: string, content: string): Promise<void> {
  const target = path.join(stage, rel);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, content);
}

async function moveInto(stage: string, outDir: string, rel: string): Promise<void> {
  const target = path.join(outDir, rel);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(path.join(stage, rel), target);
}

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => undefined)) !== undefined;
}
