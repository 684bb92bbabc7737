import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** out/.contentgen/manifest.json: which files the last build generated, with their hashes. */
export const manifestPath = '.contentgen/manifest.json';

export interface Manifest {
  readonly generator: 'contentgen';
  /** Generated file path → sha256 of its content. */
  readonly files: Readonly<Record<string, string>>;
}

export async function readManifest(outDir: string): Promise<Manifest | undefined> {
  const text = await readFile(path.join(outDir, manifestPath), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const json = JSON.parse(text) as Manifest;
  return json.generator === 'contentgen' ? json : undefined;
}
