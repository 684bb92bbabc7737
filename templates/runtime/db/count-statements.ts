/**
 * Every statement Prisma sends to the database, counted for `Server-Timing`
 * (http/server-timing.ts): the driver adapter Prisma runs on is wrapped, so the typed
 * delegates' statements (`create`, `update`, `findUnique`, a transaction's BEGIN and COMMIT
 * where the adapter runs them as statements) count as well as the raw SQL of the database
 * seam. The read executor's statements are counted by the seam (db/database.ts). Without
 * Server-Timing enabled nothing is measured: the wrapper only forwards.
 */
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQueryable, Transaction } from '@prisma/driver-adapter-utils';
import { measureQuery } from '../http/server-timing.js';

export function countingAdapterFactory<F extends SqlDriverAdapterFactory>(factory: F): F {
  return wrap(factory, {
    connect: (connect: F['connect']) => async () => countingQueryable(await connect.call(factory)),
  });
}

function countingQueryable<Q extends SqlQueryable>(queryable: Q): Q {
  return wrap(queryable, {
    queryRaw: (queryRaw: Q['queryRaw']) => (query: Parameters<Q['queryRaw']>[0]) => measureQuery(() => queryRaw.call(queryable, query)),
    executeRaw: (executeRaw: Q['executeRaw']) => (query: Parameters<Q['executeRaw']>[0]) => measureQuery(() => executeRaw.call(queryable, query)),
    startTransaction: (start: SqlDriverAdapter['startTransaction']) => async (isolation?: Parameters<SqlDriverAdapter['startTransaction']>[0]) =>
      countingQueryable<Transaction>(await start.call(queryable, isolation)),
  });
}

/** `target` with the named methods replaced (those it has), everything else its own. */
export function wrap<T extends object>(target: T, replacements: Record<string, (original: any) => unknown>): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      const value = Reflect.get(object, key, receiver);
      if (typeof value !== 'function') return value;
      const replace = typeof key === 'string' ? replacements[key] : undefined;
      // Called on the adapter itself, not the proxy: adapters may keep private (#) fields.
      return replace ? replace(value) : value.bind(object);
    },
  });
}
