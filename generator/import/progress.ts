/**
 * What `contentgen import` shows while it writes, a table at a time. On a terminal: a progress
 * bar per table (cli-progress), left as that table's line when it is done; elsewhere (CI logs, a pipe): plain lines, one when a table is done and one every
 * `every` ms for a table that takes longer, so a log shows where a long import is without a
 * line per batch.
 */
import cliProgress from 'cli-progress';

export interface ImportProgress {
  /** A table starts; `total`: the Strapi rows it comes from (its rows may end up fewer: left out, or more: links made whole). */
  start(table: string, total: number): void;
  /** Rows written to the current table so far. */
  update(rows: number): void;
  /** The current table is done with `rows` rows. */
  done(rows: number): void;
  /** A line of its own, kept above the bar on a terminal. */
  log(line: string): void;
  /** Removes the bar (call once, also after a failure). */
  stop(): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
}

/** Nothing shown (runImport without a CLI). */
export const silentProgress: ImportProgress = { start() {}, update() {}, done() {}, log() {}, stop() {} };

export function importProgress(stream: ProgressStream, options: { prefix?: string; every?: number } = {}): ImportProgress {
  const prefix = options.prefix ?? '';
  return stream.isTTY ? terminalProgress(stream, prefix) : lineProgress(stream, prefix, options.every ?? 10_000);
}

const rowsText = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'row' : 'rows'}`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function doneLine(prefix: string, table: string, rows: number, ms: number): string {
  const rate = ms >= 1000 ? `, ${Math.round((rows * 1000) / ms).toLocaleString('en-US')} rows/s` : '';
  return `${prefix}${table}: ${rowsText(rows)} (${seconds(ms)}${rate})`;
}

function lineProgress(stream: ProgressStream, prefix: string, every: number): ImportProgress {
  let table = '';
  let total = 0;
  let started = 0;
  let said = 0;
  return {
    start(name, rows) {
      table = name;
      total = rows;
      started = said = Date.now();
    },
    update(rows) {
      const now = Date.now();
      if (now - said < every) return;
      said = now;
      stream.write(`${prefix}${table}: ${rows.toLocaleString('en-US')}/${rowsText(total)}\n`);
    },
    done(rows) {
      stream.write(`${doneLine(prefix, table, rows, Date.now() - started)}\n`);
    },
    log(line) {
      stream.write(`${line}\n`);
    },
    stop() {},
  };
}

function terminalProgress(stream: ProgressStream, prefix: string): ImportProgress {
  let bar: cliProgress.SingleBar | undefined;
  const finish = () => {
    bar?.stop();
    bar = undefined;
  };
  return {
    start(table, total) {
      finish();
      // A bar a table: stopped, it stays as that table's line.
      bar = new cliProgress.SingleBar(
        { stream: stream as NodeJS.WritableStream, format: `${prefix}{table} [{bar}] {value}/{total} rows | {duration_formatted}`, hideCursor: true, fps: 5 },
        cliProgress.Presets.shades_classic,
      );
      bar.start(total, 0, { table });
    },
    update(rows) {
      // Links made whole may outnumber the rows they come from.
      if (bar && rows > bar.getTotal()) bar.setTotal(rows);
      bar?.update(rows);
    },
    done(rows) {
      this.update(rows);
      finish();
    },
    log(line) {
      if (!bar) return void stream.write(`${line}\n`);
      stream.write(`\r\u001b[K${line}\n`);
      bar.render();
    },
    stop: finish,
  };
}
