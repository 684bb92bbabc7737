/**
 * What the import finds wrong in the Strapi data: each problem names the table, the rows it
 * concerns and what to do. `error`s stop a real import (unless --skip-invalid, which leaves the
 * rows out and says so in the report); `notice`s are rows Strapi itself never shows (a join row
 * to a component row that is gone, files linked to a type that no longer exists): left out, said.
 */
export interface Problem {
  readonly level: 'error' | 'notice';
  /** Strapi table the rows are in. */
  readonly table: string;
  /** Short kind, for grouping: `duplicate unique value`, `dangling link`, `missing file`… */
  readonly kind: string;
  /** The rows (ids) concerned. */
  readonly rows: readonly (number | string)[];
  readonly message: string;
  /** What to do about it. */
  readonly fix: string;
}

/** Problems of one kind in one table, merged: one line per (table, kind, message). */
export class ProblemLog {
  private readonly byKey = new Map<string, { problem: Problem; rows: (number | string)[] }>();

  add(problem: Problem): void {
    const key = `${problem.level}\0${problem.table}\0${problem.kind}\0${problem.message}`;
    const existing = this.byKey.get(key);
    if (existing) existing.rows.push(...problem.rows);
    else this.byKey.set(key, { problem, rows: [...problem.rows] });
  }

  all(): Problem[] {
    return [...this.byKey.values()].map(({ problem, rows }) => ({ ...problem, rows }));
  }

  get errors(): Problem[] {
    return this.all().filter((p) => p.level === 'error');
  }
}

const shownRows = 20;

export function formatProblem(p: Problem): string {
  const rows = p.rows.length > shownRows ? `${p.rows.slice(0, shownRows).join(', ')} and ${p.rows.length - shownRows} more` : p.rows.join(', ');
  return `${p.level === 'error' ? 'problem' : 'note'}: ${p.table}: ${p.message} (${p.rows.length} row${p.rows.length === 1 ? '' : 's'}: ${rows})\n    → ${p.fix}`;
}

/** The --skip-invalid report: every row left out, all of them, in Markdown. */
export function skippedReport(problems: readonly Problem[], when: Date): string {
  const lines = [`# contentgen import: rows left out`, '', `Import of ${when.toISOString()}. Each section is one problem; the rows listed were not imported.`, ''];
  for (const p of problems) {
    lines.push(`## ${p.table}: ${p.kind}`, '', p.message, '', `What to do: ${p.fix}`, '', `Rows (${p.rows.length}): ${p.rows.join(', ')}`, '');
  }
  return lines.join('\n');
}
