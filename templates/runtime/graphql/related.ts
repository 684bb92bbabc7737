/**
 * `UploadFile.related`: the entries whose media fields hold a file (Strapi's morph relation
 * of the upload plugin). Batched per request like every relation (loader.ts): the files of
 * one level are looked up together, one statement per media link table, then one read per
 * content type that has hits, through that type's service, so the reader's permissions,
 * publication state and private attributes apply as in any query.
 *
 * Types the caller may not `find` are not looked at: their entries never appear (Strapi
 * returns them whatever the caller's permissions). Files used inside components are not
 * listed: a component's media are ids in its JSON, not links.
 */
import type { Database } from '../db/database.js';
import type { ContentTypeMeta, MediaFieldMeta, Registry } from '../meta.js';
import { SqlBuilder } from '../query/sql.js';
import type { Entry } from '../rest/transform.js';

/** Reads entries of a type by id, as the caller may see them (its service, its access). */
export type ReadEntries = (meta: ContentTypeMeta, ids: readonly number[]) => Promise<Entry[]>;

export interface RelatedEntry {
  readonly meta: ContentTypeMeta;
  readonly entry: Entry;
}

interface Waiting {
  readonly fileId: number;
  resolve(value: RelatedEntry[]): void;
  reject(err: unknown): void;
}

export class RelatedEntriesLoader {
  #waiting: Waiting[] = [];

  constructor(
    private readonly db: Database,
    private readonly registry: Registry,
    private readonly canFind: (uid: string) => boolean,
    private readonly read: ReadEntries,
  ) {}

  load(fileId: number): Promise<RelatedEntry[]> {
    return new Promise((resolve, reject) => {
      if (this.#waiting.length === 0) setImmediate(() => void this.dispatch());
      this.#waiting.push({ fileId, resolve, reject });
    });
  }

  private async dispatch(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = [];
    try {
      const found = await this.related([...new Set(waiting.map((w) => w.fileId))]);
      for (const w of waiting) w.resolve(found.get(w.fileId) ?? []);
    } catch (err) {
      for (const w of waiting) w.reject(err);
    }
  }

  /** Related entries by file id, in type order, then owner id. */
  private async related(fileIds: readonly number[]): Promise<Map<number, RelatedEntry[]>> {
    const out = new Map<number, RelatedEntry[]>();
    for (const meta of this.registry.contentTypes.values()) {
      if (!this.canFind(meta.uid)) continue;
      const media = Object.values(meta.fields).filter((f): f is MediaFieldMeta & { link: NonNullable<MediaFieldMeta['link']> } => f.kind === 'media' && f.link !== undefined && !f.private);
      if (media.length === 0) continue;
      const pairs: { file: number; owner: number }[] = [];
      for (const field of media) {
        const sql = new SqlBuilder(this.db.dialect);
        const { link } = field;
        const statement = sql.finish(
          `SELECT ${sql.ident(link.ownerColumn)} AS ${sql.ident('owner')}, ${sql.ident(link.targetColumn)} AS ${sql.ident('file')} ` +
            `FROM ${sql.ident(link.table)} WHERE ${sql.ident(link.targetColumn)} IN (${fileIds.map((id) => sql.param(id)).join(', ')})`,
        );
        for (const row of await this.db.query(statement.sql, statement.params)) pairs.push({ file: Number(row.file), owner: Number(row.owner) });
      }
      if (pairs.length === 0) continue;
      const owners = [...new Set(pairs.map((p) => p.owner))].sort((a, b) => a - b);
      const entries = new Map((await this.read(meta, owners)).map((entry) => [entry.id, entry]));
      // One entry per file once, even when several of its media fields hold the file.
      const seen = new Set<string>();
      for (const { file, owner } of pairs.sort((a, b) => a.owner - b.owner)) {
        const entry = entries.get(owner);
        if (!entry || seen.has(`${file}:${owner}`)) continue;
        seen.add(`${file}:${owner}`);
        let list = out.get(file);
        if (!list) out.set(file, (list = []));
        list.push({ meta, entry });
      }
    }
    return out;
  }
}
