/**
 * Decides whether this build adds a migration: none exist yet → `0001_init` from an empty
 * database; the Prisma schema changed since the last build → the next numbered migration
 * with the SQL between the two schemas. A change that would lose data (dropped or retyped
 * tables and columns) is refused unless the user accepts it.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { prismaSchemaPath } from '../emit/prisma/schema.js';
import type { FileMap } from '../emit/file-map.js';
import type { Provider } from '../ir/scalars.js';
import { snakeCase } from '../ir/names.js';
import { draftLinksBackfill } from './drafts.js';
import { localeBackfill } from './i18n.js';
import { delocalizedDocumentIds, documentIdBackfill, relaxedSchema, typesGainingDocumentId } from './document-id.js';
import { findDataLoss, describe } from './data-loss.js';
import { diffSchemas } from './diff.js';
import { droppedComponents, planRenames, type Rename } from './renames.js';
import type { ModelSummary } from '../changes/summary.js';
import type { Schema } from '../ir/types.js';

export interface MigrationPlan {
  /** The migration to add, if any: `prisma/migrations/<name>/migration.sql`. */
  readonly added?: { readonly name: string; readonly path: string; readonly sql: string };
  /** Data-loss changes that were accepted with --accept-data-loss. */
  readonly dataLoss: readonly string[];
  /** Tables, columns and stored names renamed in place (--rename, or names now spelt as Strapi does), data kept. */
  readonly renamed?: readonly string[];
  readonly errors: readonly string[];
}

export const migrationsDir = 'prisma/migrations';

export interface RenameOptions {
  readonly ir: Schema;
  readonly renames: readonly Rename[];
  /** The previous build's model summary: where its types kept their data. */
  readonly previous: ModelSummary | undefined;
  /** `--rename` flags that would keep the data a refused change drops (renames.ts). */
  readonly suggestions: readonly string[];
}

export async function planMigration(outDir: string, files: FileMap, provider: Provider, acceptDataLoss: boolean, rename?: RenameOptions): Promise<MigrationPlan> {
  const next = files.get(prismaSchemaPath)!.content;
  const existing = await existingMigrations(outDir);
  const lock = await readFile(path.join(outDir, migrationsDir, 'migration_lock.toml'), 'utf8').catch(() => undefined);
  const lockProvider = lock && /provider\s*=\s*"([^"]+)"/.exec(lock)?.[1];
  if (existing.length > 0 && lockProvider && lockProvider !== provider) {
    return {
      dataLoss: [],
      errors: [`${path.join(outDir, migrationsDir)} holds ${lockProvider} migrations; the build is for ${provider}. Build into another folder, or delete the migrations to start over.`],
    };
  }

  if (existing.length === 0) {
    const sql = await diffSchemas({ provider, from: null, to: next });
    return { added: migration(1, 'init', sql), dataLoss: [], errors: [] };
  }

  const previous = await readFile(path.join(outDir, prismaSchemaPath), 'utf8').catch(() => undefined);
  if (previous === undefined) {
    return { dataLoss: [], errors: [`${path.join(outDir, prismaSchemaPath)} is missing, so the change since the last migration cannot be computed`] };
  }
  // Renames: diff from the schema as the renames leave the database.
  // Also when nothing is renamed: names contentgen now spells otherwise (Strapi's) are renamed, not dropped.
  const renames = rename?.previous?.storage ? planRenames(rename.renames, rename.ir, rename.previous, previous, provider) : undefined;
  if (renames?.errors.length) return { dataLoss: [], errors: renames.errors };
  // Components live as JSON in their owners' columns: dropping one changes no table.
  const componentLosses = rename?.previous ? droppedComponents(rename.previous, rename.ir, rename.renames) : [];
  if (previous === next && !renames?.sql && componentLosses.length === 0) return { dataLoss: [], errors: [] };
  const from = renames?.previousSchema ?? previous;
  // Tables with rows and no documentId yet: the column is added nullable, filled, then required (document-id.ts).
  const gaining = rename ? typesGainingDocumentId(rename.ir, from) : [];
  const relaxed = gaining.length ? relaxedSchema(next, gaining) : next;
  const sql =
    `${renames?.sql ?? ''}${rename ? delocalizedDocumentIds(rename.ir, from, provider) : ''}${previous === next && !renames?.sql ? '' : await diffSchemas({ provider, from, to: relaxed })}${rename ? localeBackfill(rename.ir, from, provider) : ''}${rename ? draftLinksBackfill(rename.ir, from, provider) : ''}` +
    (gaining.length ? `${documentIdBackfill(gaining, provider)}
${await diffSchemas({ provider, from: relaxed, to: next })}` : '');
  if (sql.trim() === '' && componentLosses.length === 0) return { dataLoss: [], errors: [] };

  const losses = [...findDataLoss(from, next).map(describe), ...componentLosses];
  if (losses.length > 0 && !acceptDataLoss) {
    const suggestions = rename?.suggestions ?? [];
    return {
      dataLoss: losses,
      errors: [
        'this model change would lose data:',
        ...losses.map((l) => `  - ${l}`),
        ...(suggestions.length
          ? ['If a content type, component or attribute was renamed, keep its data by naming the rename (repeat --rename for each):', ...suggestions.map((s) => `  ${s}`)]
          : []),
        'Nothing was written. Re-run with --accept-data-loss to generate the migration anyway.',
      ],
    };
  }
  const sequence = Math.max(...existing.map((name) => Number.parseInt(name, 10) || 0)) + 1;
  return { added: migration(sequence, gaining.length ? 'document_id' : slug(previous, next), sql), dataLoss: losses, ...(renames?.described.length ? { renamed: renames.described } : {}), errors: [] };
}

function migration(sequence: number, slugText: string, sql: string) {
  const name = `${String(sequence).padStart(4, '0')}_${slugText}`;
  return { name, path: `${migrationsDir}/${name}/migration.sql`, sql };
}

async function existingMigrations(outDir: string): Promise<string[]> {
  const entries = await readdir(path.join(outDir, migrationsDir), { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
}

/** Names the models whose blocks changed: `0002_article_category`. */
function slug(previous: string, next: string): string {
  const blocks = (schema: string) => new Map([...schema.matchAll(/^model (\w+) \{[\s\S]*?^\}/gm)].map((m) => [m[1]!, m[0]]));
  const before = blocks(previous);
  const after = blocks(next);
  const names = [...new Set([...before.keys(), ...after.keys()])].filter((n) => before.get(n) !== after.get(n)).sort();
  if (names.length === 0) return 'update';
  const shown = names.slice(0, 3).map(snakeCase).join('_');
  return names.length > 3 ? `${shown}_and_${names.length - 3}_more` : shown;
}
