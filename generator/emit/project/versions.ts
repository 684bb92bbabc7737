/**
 * Versions of the emitted server's dependencies, pinned so two builds give the same
 * package.json. Read from contentgen's own package.json: the versions it is tested with.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const own = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  overrides: Record<string, string>;
};

const all: Record<string, string> = { ...own.dependencies, ...own.devDependencies };

/** The pinned version of a package contentgen depends on; throws for one it does not pin. */
export function versionOf(name: string): string {
  const version = all[name];
  if (version === undefined) throw new Error(`contentgen's package.json does not pin ${name}`);
  return version;
}

/** The version contentgen's package.json forces for a transitive dependency (its `overrides`). */
export function overrideOf(name: string): string {
  const version = own.overrides[name];
  if (version === undefined) throw new Error(`contentgen's package.json does not override ${name}`);
  return version;
}
