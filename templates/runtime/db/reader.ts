/**
 * A read executor: runs the SELECTs query/ compiled from validated input outside write
 * transactions, on the database driver directly instead of Prisma's raw-query pipeline.
 * On PostgreSQL and MySQL/MariaDB they return the values Prisma's `$queryRawUnsafe` would
 * return for the same statement (test/behaviour/db-readers.test.ts compares them column type
 * by column type), so the code that reads rows does not know which one ran; SQLite's returns
 * SQLite's own values, the forms query/ writes for it.
 */
export type Row = Record<string, unknown>;

export interface Reader {
  query(sql: string, params: readonly unknown[]): Row[] | Promise<Row[]>;
  close(): void | Promise<void>;
}

/** `2024-03-05 10:30:00.120`: a UTC date-time as a text parameter, whatever the process's time zone. */
export function utcDateTimeText(date: Date): string {
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
