/**
 * The entries of one content type (storage reference §4), a batch at a time: Strapi's ids,
 * timestamps and `published_at` (drafts stay drafts) kept, `created_by_id`/`updated_by_id`
 * dropped (contentgen has no admin users), components and zones folded into their JSON
 * columns. Values contentgen's database would refuse are problems: a value a unique index
 * already holds (Strapi checked `unique` in code only), a number or text beyond the column.
 * With --skip-invalid such a value is left out (NULL) and the entry kept.
 */
import type { ProblemLog } from '../check/problems.js';
import type { Provider } from '../../ir/scalars.js';
import type { NormalizedValue, StrapiSource } from '../source/types.js';
import { encodeValue } from '../write/encode.js';
import { foldComponents, type FoldContext } from './components.js';
import { keptRows } from './documents.js';
import type { StrapiLayout } from '../source/layout.js';
import { documentIdColumn, newDocumentId } from '../../../templates/runtime/entity/document-id.js';
import type { ColumnMap, EntryPlan } from './plan.js';

export interface EntryBatch {
  readonly columns: readonly string[];
  readonly rows: unknown[][];
  /** The normalized source rows (the upload stage reads `files` rows from them). */
  readonly source: readonly Readonly<Record<string, NormalizedValue>>[];
}

const int32 = { min: -2147483648, max: 2147483647 };
/** Strapi's string types: VARCHAR(255) on MySQL/MariaDB in contentgen. */
const shortText = new Set(['string', 'email', 'enumeration', 'uid', 'password']);

/** Values of unique columns held by more than one row: every row but the lowest id, by column. */
export async function duplicateUniques(source: StrapiSource, plan: EntryPlan, problems: ProblemLog, layout: StrapiLayout): Promise<Map<string, Set<number>>> {
  const q = source.quote;
  const table = entryRows(source, plan, layout);
  const out = new Map<string, Set<number>>();
  for (const c of plan.columns.filter((c) => c.unique)) {
    // Grouped as contentgen's database compares (case-sensitive), whatever Strapi's collation was.
    const value = source.dialect === 'mysql' ? `BINARY ${q(c.source)}` : q(c.source);
    const sql =
      `SELECT t.id AS id FROM ${table} t JOIN (SELECT ${value} AS v, MIN(id) AS keep FROM ${table} u WHERE ${q(c.source)} IS NOT NULL ` +
      `GROUP BY ${value} HAVING COUNT(*) > 1) d ON ${source.dialect === 'mysql' ? `BINARY t.${q(c.source)}` : `t.${q(c.source)}`} = d.v AND t.id <> d.keep ORDER BY t.id`;
    const ids = new Set<number>();
    for await (const batch of source.select(sql, [], {})) for (const r of batch) ids.add(Number(r.id));
    if (ids.size === 0) continue;
    out.set(c.source, ids);
    problems.add({
      level: 'error',
      table: plan.sourceTable,
      kind: 'duplicate unique value',
      rows: [...ids],
      message: `${c.attribute} is unique, but these rows repeat a value an earlier row has (Strapi checked it only when writing; contentgen's database keeps a unique index)`,
      fix: `give them distinct ${c.attribute} values in Strapi (or --skip-invalid imports them with ${c.attribute} empty)`,
    });
  }
  return out;
}

/** The rows a type's entries are read from: its table, or (Strapi 5) its documents' kept rows (documents.ts). */
export function entryRows(source: StrapiSource, plan: EntryPlan, layout: StrapiLayout): string {
  return layout.documents ? keptRows(source, plan.sourceTable) : source.quote(plan.sourceTable);
}

export async function* entryBatches(
  fold: FoldContext,
  plan: EntryPlan,
  dialect: Provider,
  options: {
    readonly duplicates: ReadonlyMap<string, ReadonlySet<number>>;
    readonly defaultLocale: string;
    readonly batchSize: number;
    /** The documentIds of the localization groups' entries (links.ts groupDocumentIds); the others get new ones. */
    readonly documentIds?: ReadonlyMap<number, string>;
    /** Other rows of the type's table than its entries (a derived table, Strapi 5: pending drafts). */
    readonly from?: string;
  },
): AsyncGenerator<EntryBatch> {
  const { source, problems } = fold;
  const types = Object.fromEntries(plan.columns.map((c) => [c.source, c.type]));
  const columns = [...plan.columns.map((c) => c.target), ...plan.rawColumns.map((c) => c.target), ...plan.componentFields.map((f) => f.target), documentIdColumn];
  // A Strapi 5 database's rows keep the documentId they have.
  const documentIdOf = (row: Readonly<Record<string, NormalizedValue>>, id: number) =>
    (typeof row[documentIdColumn] === 'string' && row[documentIdColumn] !== '' ? row[documentIdColumn] : undefined) ?? options.documentIds?.get(id) ?? newDocumentId();
  const from = options.from ?? (fold.layout.documents ? entryRows(source, plan, fold.layout) : undefined);
  const batches = from ? source.select(`SELECT * FROM ${from} d ORDER BY id`, [], types, options.batchSize) : source.rows({ table: plan.sourceTable }, types, options.batchSize);
  for await (const batch of batches) {
    const ids = batch.map((r) => Number(r.id));
    const folded = await foldComponents(fold, plan.componentsTable, ids, plan.componentFields);
    const rows = batch.map((row) => {
      const id = Number(row.id);
      const values = plan.columns.map((c) => encodeValue(checkedValue(row, c, id), c.type, dialect));
      const raw = plan.rawColumns.map((c) => row[c.source] ?? null);
      const json = plan.componentFields.map((f) => {
        const value = folded.get(id)![f.attribute];
        return value === null ? null : JSON.stringify(value);
      });
      return [...values, ...raw, ...json, documentIdOf(row, id)];
    });
    yield { columns, rows, source: batch };
  }

  function checkedValue(row: Readonly<Record<string, NormalizedValue>>, c: ColumnMap, id: number): NormalizedValue {
    let value = row[c.source] ?? null;
    const refuse = (kind: string, message: string, fix: string) => {
      problems.add({ level: 'error', table: plan.sourceTable, kind, rows: [id], message: `${c.attribute}: ${message}`, fix });
      value = null;
    };
    if (options.duplicates.get(c.source)?.has(id)) return null;
    if ((c.attribute === 'createdAt' || c.attribute === 'updatedAt') && value === null) {
      problems.add({ level: 'notice', table: plan.sourceTable, kind: 'missing timestamp', rows: [id], message: `${c.attribute} is empty; contentgen requires it`, fix: 'nothing: the import sets it to the time of the import' });
      return new Date();
    }
    if (c.attribute === 'locale' && plan.localized && value === null) {
      problems.add({ level: 'notice', table: plan.sourceTable, kind: 'missing locale', rows: [id], message: `entries without a locale (created before the type was localized)`, fix: `nothing: they get the default locale "${options.defaultLocale}"` });
      return options.defaultLocale;
    }
    if (value === null) return null;
    if (c.type === 'integer' && dialect !== 'sqlite' && (typeof value !== 'number' || value < int32.min || value > int32.max)) {
      refuse('value out of range', `${String(value)} does not fit the 32-bit integer column of ${dialect === 'mysql' ? 'MySQL' : 'PostgreSQL'}`, 'make it a biginteger in the model, or change the value in Strapi (or --skip-invalid leaves it empty)');
    } else if (shortText.has(c.type) && dialect === 'mysql' && typeof value === 'string' && [...value].length > 255) {
      refuse('value too long', `${[...value].length} characters; MySQL's VARCHAR(255) holds 255`, 'make it a text attribute in the model, or shorten it in Strapi (or --skip-invalid leaves it empty)');
    }
    return value;
  }
}
