/** Copies the shared runtime (templates/runtime, minus tests) to out/src/runtime/. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProjectPlugins } from '../ir/project-plugins.js';
import { FileMap } from './file-map.js';
import { templatesDir } from './templates.js';

/**
 * Upload providers a build carries only when the project uses them: the runtime module,
 * which registers the provider when src/server.ts imports it, and the npm packages it needs
 * (the server's package.json has them only then).
 */
export const optionalUploadProviders: readonly { readonly plugin: keyof ProjectPlugins; readonly module: string; readonly packages: readonly string[] }[] = [
  { plugin: 'uploadAwsS3', module: 'upload/provider-s3.ts', packages: ['@aws-sdk/client-s3'] },
];

/** The optional upload providers `plugins` includes. */
export function uploadProvidersOf(plugins: ProjectPlugins) {
  return optionalUploadProviders.filter((p) => plugins[p.plugin]);
}

export function emitRuntime(plugins: ProjectPlugins): FileMap {
  const files = new FileMap();
  const root = path.join(templatesDir, 'runtime');
  const leftOut = new Set(optionalUploadProviders.filter((p) => !plugins[p.plugin]).map((p) => p.module));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const rel = path.relative(root, full).split(path.sep).join('/');
        if (!leftOut.has(rel)) files.add(`src/runtime/${rel}`, readFileSync(full, 'utf8'));
      }
    }
  };
  walk(root);
  return files;
}
