/** What each part of the auth import hands back; index.ts joins the parts. */

/** A row for a contentgen table, keyed by its column names, values as the database driver takes them. */
export type TargetRow = Record<string, unknown>;

export interface ImportFile {
  /** Relative to `root`. */
  readonly path: string;
  /**
   * `models`: beside the models the build reads (a Strapi project's `src/`), so the next
   * `contentgen build` picks it up. `server`: inside the generated server's folder.
   */
  readonly root: 'models' | 'server';
  /** `secrets`: holds values copied from Strapi that may be credentials; write it mode 0600, never commit it. */
  readonly kind: 'permissions' | 'config' | 'secrets';
  readonly content: string;
}

/**
 * Rows contentgen's constraints would refuse (a duplicate under a unique index, a link to
 * nothing). They are left out of `rows`; a real import refuses unless told to skip them.
 */
export interface AuthProblem {
  /** The Strapi table the rows come from. */
  readonly table: string;
  /** Their Strapi ids. */
  readonly rows: readonly number[];
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
}

/** `3 users` / `1 user`. */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A short list for a report line: the first few, then how many more. */
export function listed(items: readonly string[], max = 8): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
}
