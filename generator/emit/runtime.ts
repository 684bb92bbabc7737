/** Copies the shared runtime (templates/runtime, minus tests) to out/src/runtime/. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { FileMap } from './file-map.js';
import { templatesDir } from './templates.js';

export function emitRuntime(): FileMap {
  const files = new FileMap();
  const root = path.join(templatesDir, 'runtime');
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const rel = path.relative(root, full).split(path.sep).join('/');
        files.add(`src/runtime/${rel}`, readFileSync(full, 'utf8'));
      }
    }
  };
  walk(root);
  return files;
}
