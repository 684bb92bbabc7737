/**
 * What emitters return: output files keyed by path, each with an ownership class that
 * decides how the write stage treats it.
 *  - generated: banner added, rewritten every build, removed when no longer emitted;
 *  - user: written only when absent, then belongs to the user;
 *  - migration: append-only, written once and never rewritten.
 */
export type Ownership = 'generated' | 'user' | 'migration';

export interface OutputFile {
  readonly path: string;
  readonly content: string;
  readonly ownership: Ownership;
}

export class FileMap {
  readonly #files = new Map<string, OutputFile>();

  add(path: string, content: string, ownership: Ownership = 'generated'): this {
    if (this.#files.has(path)) throw new Error(`two emitters produced ${path}`);
    this.#files.set(path, { path, content, ownership });
    return this;
  }

  merge(other: FileMap): this {
    for (const file of other.files()) this.add(file.path, file.content, file.ownership);
    return this;
  }

  get(path: string): OutputFile | undefined {
    return this.#files.get(path);
  }

  /** Sorted by path, so every consumer sees one deterministic order. */
  files(): OutputFile[] {
    return [...this.#files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
}
