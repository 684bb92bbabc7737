/**
 * The local provider's files (storage reference §7.3): `public/uploads/<hash><ext>` and one file
 * per format, copied under the same names into the server's `public/uploads` (the files rows
 * keep their `url`s). Files of other providers (S3, Cloudinary…) stay where they are.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProblemLog } from '../check/problems.js';
import type { NormalizedRow } from '../source/types.js';

/** Names the local provider serves: contentgen's refuses anything else (path tricks). */
export const safeUploadName = /^[A-Za-z0-9_][A-Za-z0-9_-]*(\.[A-Za-z0-9]+)?$/;

export class UploadCopies {
  readonly names: string[] = [];

  constructor(
    private readonly uploadsDir: string,
    private readonly problems: ProblemLog,
  ) {}

  /** Notes the files of these `files` rows, reporting the missing ones. */
  add(rows: readonly NormalizedRow[]): void {
    for (const row of rows) {
      if (row.provider !== 'local') continue;
      const names = [fileName(row)];
      const formats = row.formats;
      if (formats && typeof formats === 'object' && !Array.isArray(formats)) {
        for (const format of Object.values(formats)) if (format && typeof format === 'object' && !Array.isArray(format)) names.push(fileName(format as NormalizedRow));
      }
      for (const name of names) {
        if (!name || !safeUploadName.test(name)) {
          this.problems.add({ level: 'error', table: 'files', kind: 'unsafe file name', rows: [Number(row.id)], message: `hash and ext make the file name ${JSON.stringify(name)}, which the local provider does not serve`, fix: 'rename the file in Strapi (or --skip-invalid leaves the file out; its row is kept)' });
        } else if (!existsSync(path.join(this.uploadsDir, name))) {
          this.problems.add({ level: 'error', table: 'files', kind: 'missing file', rows: [Number(row.id)], message: `${name} is not in ${this.uploadsDir}`, fix: 'point --uploads at the folder holding Strapi\'s public/uploads (or --skip-invalid imports the row without its file)' });
        } else {
          this.names.push(name);
        }
      }
    }
  }

  async copyTo(serverDir: string): Promise<number> {
    const to = path.join(serverDir, 'public', 'uploads');
    await mkdir(to, { recursive: true });
    for (const name of this.names) await copyFile(path.join(this.uploadsDir, name), path.join(to, name));
    return this.names.length;
  }
}

function fileName(row: NormalizedRow): string {
  return `${String(row.hash ?? '')}${String(row.ext ?? '')}`;
}
