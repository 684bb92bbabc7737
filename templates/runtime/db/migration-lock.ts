/**
 * A PostgreSQL advisory lock held while migrations are applied, so that several server processes
 * starting at once on one database apply each migration exactly once: the first applies, the
 * others wait, then find nothing pending.
 *
 * The schema engine also takes `pg_advisory_lock(72707369)` (as `prisma migrate deploy` does),
 * but through the adapter's pool: it is held by whichever pooled connection ran it until the
 * pool closes, is not logged, and is an engine internal. This lock, with its own key, is taken
 * before the engine starts, so the whole start-up is serialised, waiting is bounded and the
 * timeout message is ours. It is transaction-scoped on a dedicated connection: the adapter's
 * `startTransaction` pins one pooled connection, and if the process dies the connection closes
 * and the lock goes with it.
 *
 * (MySQL takes its named lock in mysql-migrations.ts; SQLite needs none, the engine opens the
 * file in exclusive locking mode.)
 */
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';

/** 'cgmg' as a 32-bit number: arbitrary, fixed, and shared by every contentgen server. */
export const POSTGRES_MIGRATION_LOCK_KEY = 0x63676d67;

export async function withPostgresMigrationLock<T>(
  factory: SqlDriverAdapterFactory,
  timeoutSeconds: number,
  run: () => Promise<T>,
): Promise<T> {
  const adapter = await factory.connect();
  try {
    const tx = await adapter.startTransaction();
    try {
      const timeoutMs = Math.max(1, Math.round(timeoutSeconds * 1000));
      await tx.executeRaw({ sql: `SET LOCAL lock_timeout = ${timeoutMs}`, args: [], argTypes: [] });
      try {
        // executeRaw, not queryRaw: the function returns `void`, a column type adapters refuse.
        await tx.executeRaw({
          sql: `SELECT pg_advisory_xact_lock(${POSTGRES_MIGRATION_LOCK_KEY})`,
          args: [],
          argTypes: [],
        });
      } catch (error) {
        if (postgresErrorCode(error) === '55P03') {
          throw new Error(
            `Timed out after ${timeoutSeconds} s waiting for another process to finish applying migrations ` +
              `(PostgreSQL advisory lock ${POSTGRES_MIGRATION_LOCK_KEY}).`,
            { cause: error },
          );
        }
        throw error;
      }
      return await run();
    } finally {
      await tx.rollback(); // ends the transaction, which releases the lock
    }
  } finally {
    await adapter.dispose();
  }
}

function postgresErrorCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { kind?: unknown; code?: unknown } } | undefined)?.cause;
  return cause?.kind === 'postgres' && typeof cause.code === 'string' ? cause.code : undefined;
}
