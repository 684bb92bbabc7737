/**
 * The database going away: which errors say so, and one watcher per server that logs an
 * outage once (and its end once) instead of once per request.
 *
 * A request that fails because the database cannot be reached is answered 503 with
 * `Retry-After` (errors.ts, graphql/errors.ts), not 500: nothing is wrong with the request,
 * and the server recovers by itself, since the drivers' pools open new connections once the
 * database answers again.
 */

/**
 * Node's socket errors: the server refused or dropped the connection, or did not answer.
 * The pg adapter maps the first four to `DatabaseNotReachable`, `ConnectionClosed` and
 * `SocketTimeout`; the mariadb driver wraps them in its own errors (their `cause`).
 */
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ECONNABORTED']);

/**
 * Thrown at once, without asking the pool, by statements run while an outage is known
 * (db/database.ts `unreachable`): a pool that cannot connect would hold each request until
 * its acquire timeout (the mariadb driver's: 10 s) before failing the same way.
 */
export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
  readonly code = 'DATABASE_UNREACHABLE';
  constructor() {
    super('the database is unreachable (known outage: waiting for it to answer again)');
  }
}

/** Prisma's: can't reach (P1001), timed out (P1002, P1008), closed (P1017), no pooled connection in time (P2024). */
const prismaCodes = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** Kinds of `DriverAdapterError` causes (@prisma/driver-adapter-utils) that mean the database is away. */
const adapterKinds = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01 admin shutdown (`pg_ctl stop
 * -m fast` ends sessions so), 57P02 crash shutdown, 57P03 cannot connect now (starting up or
 * shutting down), 53300 too many connections.
 */
const postgresCodes = /^(08...|57P0[123]|53300)$/;

/**
 * MySQL/MariaDB: server error numbers 1040 too many connections, 1053 server shutdown, 1927
 * connection killed, 2002/2003/2006/2013 can't connect or gone away; the `mariadb` driver's
 * own 45001 connection closed, 45009 socket closed, 45012 connection timeout, 45013 command
 * on a closed connection, 45019 socket error, 45026 socket timeout, 45028 pool timeout (no
 * connection within `acquireTimeout`), 45042 ping timeout. SQLSTATE class 08 likewise.
 */
const mysqlErrnos = new Set([1040, 1053, 1927, 2002, 2003, 2006, 2013, 45001, 45009, 45012, 45013, 45019, 45026, 45028, 45042]);

/**
 * node-postgres's own errors carry no code: a connection that ends mid-query, or the pool
 * that could not connect within its `connectionTimeoutMillis`.
 */
const pgMessages = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether `error` (a Prisma error, a driver adapter error, a driver's own error, or an error
 * wrapping one) says that the database cannot be reached now.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 6) return false;
  const e = error as {
    code?: unknown;
    errno?: unknown;
    sqlState?: unknown;
    kind?: unknown;
    state?: unknown;
    message?: unknown;
    cause?: unknown;
    originalError?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (error instanceof DatabaseUnreachableError) return true;
  if (typeof e.code === 'string' && (socketCodes.has(e.code) || prismaCodes.has(e.code))) return true;
  if (typeof e.kind === 'string' && adapterKinds.has(e.kind)) return true;
  // A driver error as the pg adapter passes it on, or pg's own (class `DatabaseError`).
  if ((e.kind === 'postgres' || typeof (e as { severity?: unknown }).severity === 'string') && typeof e.code === 'string' && postgresCodes.test(e.code)) return true;
  // The mariadb adapter's `{ kind: 'mysql', code: errno, state }`, or the driver's SqlError.
  const errno = e.kind === 'mysql' ? e.code : e.errno;
  const sqlState = e.kind === 'mysql' ? e.state : e.sqlState;
  if (typeof errno === 'number' && mysqlErrnos.has(errno)) return true;
  if (typeof sqlState === 'string' && sqlState.startsWith('08')) return true;
  if (typeof e.message === 'string' && e.code === undefined && pgMessages.test(e.message)) return true;
  return (
    isDatabaseUnavailable(e.cause, depth + 1) ||
    isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1) ||
    isDatabaseUnavailable(e.originalError, depth + 1)
  );
}

export interface OutageOptions {
  /** One round trip to the database; rejects while it is away. */
  readonly probe: () => Promise<unknown>;
  readonly log?: (message: string) => void;
  /** How often to probe while the database is away. Default 1000 ms. */
  readonly intervalMs?: number;
  /**
   * How long the database must stay reachable before its return is logged. Default 2000 ms.
   * A server stopping ends its sessions one by one, so a probe on a pooled connection not yet
   * ended can answer in the middle of an outage: a failure within this time continues the
   * same outage instead of logging a second one.
   */
  readonly settleMs?: number;
}

/**
 * The database's state as this process last saw it. `report` is told of every failure that
 * `isDatabaseUnavailable`; the first one of an outage is logged and starts probing the
 * database every `intervalMs` until it answers, which is logged once too. Meanwhile
 * statements fail at once (`down`, see db/database.ts) and requests are answered 503
 * without waiting on the pool; the probe alone goes to the database. Its end is logged once
 * the database has stayed reachable for `settleMs`, so a flapping outage is logged once.
 */
export class DatabaseOutage {
  readonly #probe: () => Promise<unknown>;
  readonly #log: (message: string) => void;
  readonly #intervalMs: number;
  readonly #settleMs: number;
  /** When the current outage began; kept while its end settles. */
  #since: number | undefined;
  #down = false;
  #timer: NodeJS.Timeout | undefined;
  #settling: { timer: NodeJS.Timeout; answeredAt: number } | undefined;
  #stopped = false;

  constructor(options: OutageOptions) {
    this.#probe = options.probe;
    this.#log = options.log ?? ((message) => console.error(message));
    this.#intervalMs = options.intervalMs ?? 1000;
    this.#settleMs = options.settleMs ?? 2000;
  }

  /** True from the first failure of an outage until the database answers again. */
  get down(): boolean {
    return this.#down;
  }

  /** A failure that `isDatabaseUnavailable`: logged when it is the outage's first. */
  report(error: unknown): void {
    if (this.#down || this.#stopped) return;
    this.#down = true;
    if (this.#settling) {
      // It answered a moment ago: the same outage goes on.
      clearTimeout(this.#settling.timer);
      this.#settling = undefined;
    } else {
      this.#since = Date.now();
      this.#log(`database: unreachable (${describe(error)}); answering 503 until it is back`);
    }
    // The first probe at once: a pool timeout under load (not an outage) ends as soon as a
    // connection is free, instead of a whole interval of 503s.
    this.#schedule(0);
  }

  /** The database answered (a probe, or the health check's query). */
  answered(): void {
    if (!this.#down) return;
    this.#down = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const answeredAt = Date.now();
    this.#settling = { answeredAt, timer: setTimeout(() => this.#logReturn(), this.#settleMs).unref() };
  }

  /** Stops probing (the server shuts down); a return still settling is logged now. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    if (this.#settling) {
      clearTimeout(this.#settling.timer);
      this.#logReturn();
    }
  }

  #logReturn(): void {
    if (!this.#settling || this.#since === undefined) return;
    const seconds = ((this.#settling.answeredAt - this.#since) / 1000).toFixed(1);
    this.#settling = undefined;
    this.#since = undefined;
    this.#log(`database: reachable again after ${seconds} s`);
  }

  #schedule(delayMs = this.#intervalMs): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#probe().then(
        () => this.answered(),
        () => {
          if (this.#down) this.#schedule();
        },
      );
    }, delayMs).unref();
  }
}

/**
 * The last line of an error's message (Prisma's start with "Invalid `prisma.…()` invocation:"
 * and end with the driver's words), with the driver's code when it has one.
 */
function describe(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown } | undefined;
  const message = typeof e?.message === 'string' && e.message.trim() ? e.message.trim().split('\n').at(-1)!.trim() : String(error);
  return typeof e?.code === 'string' && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}
