/**
 * Which errors say the database cannot be reached (db/unavailable.ts), in the shapes the
 * drivers and Prisma 7 give them (seen in test/multiprocess/database-outage.test.ts with
 * the server stopped), and the outage watcher: logged once each way, probed until it answers.
 */
import { describe, expect, it } from 'vitest';
import { DatabaseOutage, DatabaseUnreachableError, isDatabaseUnavailable } from '../../../templates/runtime/db/unavailable.js';

const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: 'connect' });

describe('isDatabaseUnavailable', () => {
  it('recognises the drivers\' and Prisma\'s ways of saying it, however wrapped', () => {
    const cases: unknown[] = [
      socketError('ECONNREFUSED'),
      socketError('ECONNRESET'),
      socketError('ETIMEDOUT'),
      // pg: the server's administrator shutdown (pg_ctl stop -m fast), and its own errors without a code
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01', severity: 'FATAL' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      // Prisma 7: a known request error carrying the adapter's error, or its own codes
      { code: 'P2010', meta: { driverAdapterError: { cause: { kind: 'DatabaseNotReachable', host: '127.0.0.1', port: 5432 } } } },
      { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57P01', severity: 'FATAL' } },
      { cause: { kind: 'mysql', code: 45028, state: 'HY000', message: 'pool timeout' } },
      { code: 'P1001' },
      // mariadb: socket closed (SQLSTATE 08S01), pool timeout with the refused connection as its cause
      Object.assign(new Error('socket has unexpectedly been closed'), { errno: 45009, sqlState: '08S01', code: 'ER_SOCKET_UNEXPECTED_CLOSE' }),
      Object.assign(new Error('pool timeout'), { errno: 45028, sqlState: 'HY000', code: 'ER_GET_CONNECTION_TIMEOUT', cause: socketError('ECONNREFUSED') }),
      Object.assign(new Error('Server shutdown in progress'), { errno: 1053, sqlState: '08S01' }),
      new DatabaseUnreachableError(),
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error), JSON.stringify(error) ?? String(error)).toBe(true);
  });

  it('leaves every other failure alone', () => {
    const cases: unknown[] = [
      new Error('boom'),
      { code: 'P2002' },
      { code: 'P2034' },
      { cause: { kind: 'postgres', code: '23505', severity: 'ERROR' } },
      { cause: { kind: 'mysql', code: 1062, state: '23000' } },
      Object.assign(new Error('syntax'), { code: '42601', severity: 'ERROR' }),
      undefined,
      'ECONNREFUSED',
    ];
    for (const error of cases) expect(isDatabaseUnavailable(error), String(error)).toBe(false);
  });
});

describe('DatabaseOutage', () => {
  it('logs the first failure of an outage, probes until the database answers, logs that once', async () => {
    const lines: string[] = [];
    let answers = false;
    let probes = 0;
    let answered: () => void = () => {};
    const back = new Promise<void>((resolve) => (answered = resolve));
    const outage = new DatabaseOutage({
      probe: async () => {
        probes++;
        if (!answers) throw socketError('ECONNREFUSED');
        answered();
      },
      log: (line) => lines.push(line),
      intervalMs: 10,
      settleMs: 20,
    });
    expect(outage.down).toBe(false);
    outage.report(socketError('ECONNREFUSED'));
    outage.report(socketError('ECONNREFUSED'));
    expect(outage.down).toBe(true);
    while (probes < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    answers = true;
    await back;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(outage.down).toBe(false);
    expect(lines).toHaveLength(1); // its return is logged once it has held for settleMs
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('database: unreachable (connect ECONNREFUSED 127.0.0.1:5432); answering 503 until it is back');
    expect(lines[1]).toMatch(/^database: reachable again after \d+\.\d s$/);
    outage.answered(); // already known: nothing more
    expect(lines).toHaveLength(2);
    outage.stop();
  });

  it('a failure soon after the database answered continues the same outage: one line each way', async () => {
    // A server shutting down ends its sessions one by one: a probe can get an answer on a
    // pooled connection not yet ended, and the next statement fails again.
    const lines: string[] = [];
    const outage = new DatabaseOutage({ probe: () => Promise.reject(socketError('ECONNREFUSED')), log: (line) => lines.push(line), intervalMs: 1000, settleMs: 30 });
    outage.report(socketError('ECONNRESET'));
    outage.answered();
    expect(outage.down).toBe(false);
    outage.report(socketError('ECONNREFUSED'));
    expect(outage.down).toBe(true);
    outage.answered();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^database: unreachable \(.*ECONNRESET/);
    expect(lines[1]).toMatch(/^database: reachable again after \d+\.\d s$/);
    // A later failure, after the return was logged, is a new outage.
    outage.report(socketError('ECONNREFUSED'));
    expect(lines).toHaveLength(3);
    outage.stop();
  });

  it('a return still settling when the server stops is logged at the stop', () => {
    const lines: string[] = [];
    const outage = new DatabaseOutage({ probe: async () => {}, log: (line) => lines.push(line), settleMs: 60_000 });
    outage.report(socketError('ECONNREFUSED'));
    outage.answered();
    outage.stop();
    expect(lines[1]).toMatch(/^database: reachable again after/);
  });
});
