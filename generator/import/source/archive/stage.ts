/**
 * A `strapi export` archive (Strapi 4.26.2's data-transfer file format) laid out again as the
 * SQLite database Strapi would have written, so that the import reads it with the SQLite reader
 * and plans, checks and writes it exactly as a database it reached:
 *
 *   entities/*.jsonl    `{type, id, data}`: data by attribute name, components and dynamic
 *                       zones nested in it with their instance ids (Strapi's export populates
 *                       them) → the type's table, the component tables, `<table>_components`
 *   links/*.jsonl       `{kind, relation, left: {type, ref, field, pos}, right: {…}}`, one per
 *                       join-table row (`pos`: Strapi's order columns) → `_links` tables,
 *                       `files_related_morphs`, morph tables and columns
 *   configuration/      `{type: 'core-store' | 'webhook', value}` → strapi_core_store_settings,
 *                       strapi_webhooks
 *   assets/uploads/     the local provider's files → a folder the upload stage copies from
 *   metadata.json       the Strapi version that wrote it
 *
 * Each entry is streamed a line at a time into the staging database (a file on disk): memory
 * stays bounded whatever the archive's size. Table and column names come from the project's
 * models (the IR names them as Strapi does). What the archive cannot hold (Strapi leaves admin
 * users, API and transfer tokens, releases and audit logs out of every export; link rows carry
 * no ids; id counters are not exported) is said in `notes`.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import type { Attribute, Schema, ScalarType } from '../../../ir/types.js';
import { planImport, type ComponentPlan } from '../../plan/plan.js';
import { safeUploadName } from '../../write/uploads.js';
import type { ArchiveFormat } from './format.js';
import { jsonLines, readTar } from './tar.js';

export interface StagedArchive {
  /** The SQLite database in Strapi's layout. */
  readonly database: string;
  /** The archive's uploads (assets/uploads), for the upload stage. */
  readonly uploads: string;
  /** What the archive held and what it could not hold, a line each. */
  readonly notes: readonly string[];
  cleanup(): Promise<void>;
}

interface Link {
  readonly left: { readonly type: string; readonly ref: number; readonly field: string; readonly pos?: number | null };
  readonly right: { readonly type: string; readonly ref: number; readonly field?: string | null; readonly pos?: number | null };
}

/** The types Strapi 4.26.2's `strapi export` leaves out (its DEFAULT_IGNORED_CONTENT_TYPES). */
const neverExported =
  'admin users and roles, API tokens, transfer tokens, releases and audit logs: `strapi export` leaves them out of every archive (create API tokens again with `npm run token -- create` in the server, and give users of the admin panel another way in)';

export async function stageArchive(file: string, format: ArchiveFormat, ir: Schema): Promise<StagedArchive> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contentgen-archive-'));
  const uploads = path.join(dir, 'uploads');
  await mkdir(uploads);
  const database = path.join(dir, 'strapi.db');
  const staging = new StagingDatabase(database, ir);
  const cleanup = () => rm(dir, { recursive: true, force: true });
  try {
    const seen = { entities: 0, links: 0, configuration: 0, assets: 0, metadata: undefined as { strapi?: { version?: string }; createdAt?: string } | undefined };
    await readTar(file, format, async (entry) => {
      if (entry.type !== 'file') return;
      const [top] = entry.name.split('/');
      if (entry.name === 'metadata.json') {
        seen.metadata = (await jsonDocument(entry.content)) as typeof seen.metadata;
      } else if (top === 'entities' && entry.name.endsWith('.jsonl')) {
        for await (const line of jsonLines(entry.content)) {
          staging.entity(line as { type: string; id: number; data: Record<string, unknown> });
          seen.entities += 1;
        }
      } else if (top === 'links' && entry.name.endsWith('.jsonl')) {
        for await (const line of jsonLines(entry.content)) {
          staging.link(line as Link);
          seen.links += 1;
        }
      } else if (top === 'configuration' && entry.name.endsWith('.jsonl')) {
        for await (const line of jsonLines(entry.content)) {
          staging.configuration(line as { type: string; value: Record<string, unknown> });
          seen.configuration += 1;
        }
      } else if (entry.name.startsWith('assets/uploads/')) {
        const name = entry.name.slice('assets/uploads/'.length);
        // A name the local provider would not serve (a path, `..`) is not written anywhere; the
        // upload stage reports its file as missing.
        if (!safeUploadName.test(name)) return;
        await pipeline(entry.content, createWriteStream(path.join(uploads, name)));
        seen.assets += 1;
      }
    });
    const version = seen.metadata?.strapi?.version;
    const notes = [
      `archive ${path.basename(file)}${version ? ` (written by Strapi ${version}${seen.metadata?.createdAt ? ` on ${seen.metadata.createdAt}` : ''})` : ' (no metadata.json)'}: ${seen.entities} entities, ${seen.links} links, ${seen.configuration} settings and webhooks, ${seen.assets} upload files`,
      ...(version && !version.startsWith('4.') ? [`the archive was written by Strapi ${version}: contentgen reads Strapi 4's archives; check what moved`] : []),
      `not in the archive: ${neverExported}`,
      'id counters: Strapi does not export them, so each type counts on from its highest id in the archive (an id of an entry deleted since may be given again)',
      ...staging.notes(),
    ];
    staging.finish();
    staging.close();
    return { database, uploads, notes, cleanup };
  } catch (error) {
    staging.close();
    await cleanup();
    throw error;
  }
}

/** A whole JSON entry (metadata.json, a few lines). */
async function jsonDocument(content: NodeJS.ReadableStream): Promise<unknown> {
  let text = '';
  for await (const chunk of content as AsyncIterable<Buffer | string>) text += String(chunk);
  return JSON.parse(text);
}

interface TypeLayout {
  readonly table: string;
  readonly scalars: readonly { readonly name: string; readonly column: string; readonly type: ScalarType }[];
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** `<table>_components`, when the type holds components or zones. */
  readonly componentsTable?: string;
}

/**
 * The staging database: Strapi's tables for the project's models (SQLite layout, AUTOINCREMENT
 * so that `sqlite_sequence` gives each table's highest id), and one prepared statement per
 * table and column list.
 */
class StagingDatabase {
  private readonly db: Database.Database;
  private readonly types = new Map<string, TypeLayout>();
  private readonly components: ReadonlyMap<string, ComponentPlan>;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly columns = new Map<string, Set<string>>();
  /** Columns the import looks rows up by (Strapi's database has these indexes too), built after loading. */
  private readonly lookups: [string, string[]][] = [];
  private readonly skipped = { types: new Map<string, number>(), links: new Map<string, number>(), configuration: new Map<string, number>(), roundedBigIntegers: new Map<string, number>() };

  constructor(file: string, ir: Schema) {
    this.db = new Database(file);
    // A throwaway file: no journal, no syncs, one transaction (committed by finish()).
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.exec('BEGIN');
    this.components = planImport(ir, ir, 'sqlite').components;
    for (const type of [...ir.contentTypes, ...ir.components]) {
      const scalars = type.attributes.flatMap((a) => (a.kind === 'scalar' && a.name !== 'id' ? [{ name: a.name, column: a.column, type: a.type }] : []));
      const morphColumns = type.attributes.flatMap((a) => (a.kind === 'morph' && a.columns ? [a.columns.id, a.columns.type] : []));
      const holdsComponents = type.attributes.some((a) => a.kind === 'component' || a.kind === 'dynamiczone');
      const table = type.names.table;
      const layout: TypeLayout = { table, scalars, attributes: new Map(type.attributes.map((a) => [a.name, a])), ...(holdsComponents ? { componentsTable: `${table}_components` } : {}) };
      this.types.set(type.uid, layout);
      this.createTable(table, [...scalars.map((s) => s.column), ...morphColumns]);
      if (layout.componentsTable) this.createTable(layout.componentsTable, ['entity_id', 'component_id', 'component_type', 'field', 'order'], ['entity_id']);
      for (const a of type.attributes) {
        if (a.kind === 'relation' && a.link?.owning) this.createTable(a.link.table, [a.link.ownerColumn, a.link.targetColumn, a.link.orderColumn, a.link.inverseOrderColumn], [a.link.ownerColumn]);
        if (a.kind === 'morph' && a.table) this.createTable(a.table.table, [a.table.ownerColumn, a.table.idColumn, a.table.typeColumn, 'field', 'order'], [a.table.ownerColumn]);
      }
    }
    for (const c of this.components.values()) for (const r of Object.values(c.relations)) this.createTable(r.table, [r.ownerColumn, r.targetColumn, r.orderColumn], [r.ownerColumn]);
    this.createTable('files_related_morphs', ['file_id', 'related_id', 'related_type', 'field', 'order'], ['related_type', 'related_id']);
    this.createTable('strapi_core_store_settings', ['key', 'value', 'type', 'environment', 'tag']);
    this.createTable('strapi_webhooks', ['name', 'url', 'headers', 'events', 'enabled']);
  }

  private createTable(table: string, columns: readonly string[], lookup?: string[]): void {
    if (this.columns.has(table)) return;
    this.db.exec(`CREATE TABLE ${quote(table)} (id INTEGER PRIMARY KEY AUTOINCREMENT${columns.map((c) => `, ${quote(c)}`).join('')})`);
    this.columns.set(table, new Set(['id', ...columns]));
    if (lookup) this.lookups.push([table, lookup]);
  }

  /** Inserts a row, or with an `id` that is there already, sets these columns of it. */
  private put(table: string, row: Record<string, unknown>): void {
    const known = this.columns.get(table)!;
    const names = Object.keys(row).filter((c) => known.has(c));
    const key = `${table}\u0000${names.join('\u0000')}`;
    let statement = this.statements.get(key);
    if (!statement) {
      const q = quote;
      const updates = names.filter((c) => c !== 'id').map((c) => `${q(c)} = excluded.${q(c)}`);
      const upsert = 'id' in row && updates.length ? ` ON CONFLICT(id) DO UPDATE SET ${updates.join(', ')}` : 'id' in row ? ' ON CONFLICT(id) DO NOTHING' : '';
      statement = this.db.prepare(`INSERT INTO ${q(table)} (${names.map(q).join(', ')}) VALUES (${names.map(() => '?').join(', ')})${upsert}`);
      this.statements.set(key, statement);
    }
    statement.run(...names.map((c) => row[c]));
  }

  entity(entity: { type: string; id: number; data: Record<string, unknown> }): void {
    const layout = this.types.get(entity.type);
    if (!layout) return count(this.skipped.types, entity.type);
    this.instance(layout, entity.id, entity.data ?? {});
  }

  /** One row of a type or component, and (recursively) the components it holds. */
  private instance(layout: TypeLayout, id: number, data: Record<string, unknown>): void {
    const row: Record<string, unknown> = { id };
    for (const s of layout.scalars) {
      if (!(s.name in data)) continue;
      row[s.column] = stored(data[s.name], s.type);
      if (s.type === 'biginteger' && typeof row[s.column] === 'bigint' && !Number.isSafeInteger(Number(row[s.column]))) count(this.skipped.roundedBigIntegers, `${layout.table}.${s.column}`);
    }
    this.put(layout.table, row);
    for (const [name, value] of Object.entries(data)) {
      const a = layout.attributes.get(name);
      if (!a || (a.kind !== 'component' && a.kind !== 'dynamiczone') || value === null || value === undefined || !layout.componentsTable) continue;
      const items = (Array.isArray(value) ? value : [value]) as Record<string, unknown>[];
      items.forEach((item, index) => {
        const uid = a.kind === 'component' ? a.component : String(item.__component ?? '');
        const component = this.types.get(uid);
        if (!component || typeof item.id !== 'number') return count(this.skipped.types, uid || `${name} (a zone item without __component)`);
        this.put(layout.componentsTable!, { entity_id: id, component_id: item.id, component_type: uid, field: name, order: index + 1 });
        const { id: instanceId, __component: _, ...rest } = item;
        this.instance(component, instanceId as number, rest);
      });
    }
  }

  link(link: Link): void {
    const { left, right } = link;
    if (left.type === 'plugin::upload.file' && left.field === 'related') {
      return this.put('files_related_morphs', { file_id: left.ref, related_id: right.ref, related_type: right.type, field: right.field ?? null, order: right.pos ?? null });
    }
    const a = this.types.get(left.type)?.attributes.get(left.field);
    if (a?.kind === 'relation' && a.link?.owning && this.columns.has(a.link.table)) {
      const l = a.link;
      return this.put(l.table, { [l.ownerColumn]: left.ref, [l.targetColumn]: right.ref, [l.orderColumn]: left.pos ?? null, [l.inverseOrderColumn]: right.pos ?? null });
    }
    // The other side of two relations inversedBy each other: Strapi exports the pair's rows from
    // both sides (both own), and the owning side's copy above carries them.
    if (a?.kind === 'relation' && a.link?.owning === false && a.inversedBy !== undefined) return;
    if (a?.kind === 'morph' && a.columns) return this.put(this.types.get(left.type)!.table, { id: left.ref, [a.columns.id]: right.ref, [a.columns.type]: right.type });
    if (a?.kind === 'morph' && a.table) {
      const t = a.table;
      return this.put(t.table, { [t.ownerColumn]: left.ref, [t.idColumn]: right.ref, [t.typeColumn]: right.type, field: right.field ?? null, order: right.pos ?? null });
    }
    const inComponent = this.components.get(left.type)?.relations[left.field];
    if (inComponent) return this.put(inComponent.table, { [inComponent.ownerColumn]: left.ref, [inComponent.targetColumn]: right.ref, [inComponent.orderColumn]: left.pos ?? null });
    count(this.skipped.links, `${left.type}.${left.field}`);
  }

  configuration(item: { type: string; value: Record<string, unknown> }): void {
    const v = item.value ?? {};
    if (item.type === 'core-store') {
      // Strapi exports the stored text parsed; the reader expects it as stored.
      return this.put('strapi_core_store_settings', { id: v.id, key: v.key, value: v.value === undefined || v.value === null ? null : JSON.stringify(v.value), type: v.type ?? null, environment: v.environment ?? null, tag: v.tag ?? null });
    }
    if (item.type === 'webhook') {
      return this.put('strapi_webhooks', { id: v.id, name: v.name ?? null, url: v.url ?? null, headers: stored(v.headers ?? {}, 'json'), events: stored(v.events ?? [], 'json'), enabled: stored(v.enabled ?? v.isEnabled ?? true, 'boolean') });
    }
    count(this.skipped.configuration, item.type);
  }

  notes(): string[] {
    const lines: string[] = [];
    const list = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} (${n})`).join(', ');
    if (this.skipped.types.size) lines.push(`entities of types the models do not have, left out: ${list(this.skipped.types)}`);
    if (this.skipped.links.size) lines.push(`links of fields the models do not have, left out: ${list(this.skipped.links)}`);
    if (this.skipped.configuration.size) lines.push(`configuration items contentgen does not read, left out: ${list(this.skipped.configuration)}`);
    if (this.skipped.roundedBigIntegers.size) {
      lines.push(`biginteger values beyond 2^53: ${list(this.skipped.roundedBigIntegers)}; if Strapi ran on SQLite, its export holds them rounded (its driver read them as JS numbers: 9007199254740993 became 9007199254740992): check them, or import from the database itself`);
    }
    return lines;
  }

  /** Builds the lookup indexes and commits. */
  finish(): void {
    this.lookups.forEach(([table, columns], i) => this.db.exec(`CREATE INDEX lookup_${i} ON ${quote(table)} (${columns.map(quote).join(', ')})`));
    this.db.exec('COMMIT');
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

const int64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

/** An exported value as Strapi's SQLite database stores it (source/decode.ts reads it back). */
function stored(value: unknown, type: ScalarType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'datetime':
    case 'timestamp': {
      const time = Date.parse(String(value));
      return Number.isNaN(time) ? String(value) : time;
    }
    case 'boolean':
      return value === true || value === 1 || value === '1' || value === 't' || value === 'true' ? 1 : 0;
    case 'json':
    case 'array':
      return JSON.stringify(value);
    case 'biginteger': {
      if (typeof value !== 'string' && typeof value !== 'number') return value;
      const text = String(value);
      if (!/^-?\d+$/.test(text)) return text;
      // A rounded -2^63 or 2^63 - 1 (Strapi's export of a SQLite bigint) is one past the range.
      const n = BigInt(text);
      return n > int64.max ? int64.max : n < int64.min ? int64.min : n;
    }
    default:
      return typeof value === 'object' ? JSON.stringify(value) : typeof value === 'boolean' ? Number(value) : value;
  }
}
