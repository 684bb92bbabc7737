/**
 * Makes a PostgreSQL driver adapter run migration scripts the way Prisma's native engine does.
 *
 * The schema engine hands each `migration.sql` to the adapter's `executeScript`. The pg adapter
 * (@prisma/adapter-pg 7.10) splits the script on every `;` and runs the pieces one by one, which
 * breaks any statement with a `;` inside a string or a function body (`DEFAULT 'a;b'`, plpgsql)
 * and leaves a failing script half applied. Sent as one simple-protocol query instead, PostgreSQL
 * runs all its statements in one implicit transaction: a script applies whole or not at all.
 */
import { DriverAdapterError, type SqlDriverAdapter } from '@prisma/driver-adapter-utils';

/** The part of node-postgres' Pool used here (the adapter exposes it as `underlyingDriver()`). */
interface PgPool {
  query(text: string): Promise<unknown>;
}

/** node-postgres' DatabaseError fields (a plain Error for connection failures). */
interface PgError extends Error {
  code?: string;
  severity?: string;
  detail?: string;
  column?: string;
  hint?: string;
}

/** Replaces `executeScript` on this adapter instance; adapters without a pg pool are left alone. */
export function runPostgresScriptsWhole(adapter: SqlDriverAdapter): void {
  const driver = (adapter as { underlyingDriver?: () => unknown }).underlyingDriver?.();
  if (!isPgPool(driver)) return;
  adapter.executeScript = async (script: string): Promise<void> => {
    try {
      await driver.query(script); // no parameters → simple query protocol, several statements allowed
    } catch (error) {
      const e = error as PgError;
      if (typeof e.code !== 'string' || typeof e.severity !== 'string') throw error;
      // The shape the engine understands, so its message (and the `logs` column of
      // _prisma_migrations) carries PostgreSQL's own text.
      throw new DriverAdapterError({
        kind: 'postgres',
        code: e.code,
        severity: e.severity,
        message: e.message,
        detail: e.detail,
        column: e.column,
        hint: e.hint,
      });
    }
  };
}

function isPgPool(value: unknown): value is PgPool {
  return typeof value === 'object' && value !== null && typeof (value as PgPool).query === 'function';
}
