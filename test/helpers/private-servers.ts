/**
 * Database and Redis servers of a test's own, in a temporary folder on a free port, which the
 * test may stop and start again (the shared servers on 5432, 3306 and 6379 serve other test
 * runs: never stop those). Each is made from the binaries installed on the machine; when they
 * are absent, `privateServerUnavailable` says why and the test skips.
 *
 *   PostgreSQL  initdb + pg_ctl (trust authentication, user `postgres`); run as the `postgres`
 *               account when the tests run as root, since PostgreSQL refuses to run as root
 *   MariaDB     mariadb-install-db + mariadbd (root without a password)
 *   Redis       redis-server without persistence
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { tempDir } from './paths.js';

export type PrivateServerKind = 'postgresql' | 'mysql' | 'redis';

export interface PrivateServer {
  /** A URL a server under test uses (database: the server's default database). */
  readonly url: string;
  readonly port: number;
  /** Stops the server process and waits until the port is closed. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data folder, and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

const pgBin = process.env.CG_TEST_PG_BIN || '/usr/lib/postgresql/15/bin';

function findBinary(candidates: readonly string[]): string | undefined {
  for (const candidate of candidates) {
    if (candidate.includes('/')) {
      if (existsSync(candidate)) return candidate;
      continue;
    }
    const found = spawnSync('sh', ['-c', `command -v ${candidate}`], { encoding: 'utf8' });
    if (found.status === 0 && found.stdout.trim()) return found.stdout.trim();
  }
  return undefined;
}

const binaries = {
  initdb: () => findBinary([path.join(pgBin, 'initdb')]),
  pgCtl: () => findBinary([path.join(pgBin, 'pg_ctl')]),
  installDb: () => findBinary(['mariadb-install-db', 'mysql_install_db']),
  mariadbd: () => findBinary(['/usr/sbin/mariadbd', 'mariadbd', '/usr/sbin/mysqld', 'mysqld']),
  redis: () => findBinary(['redis-server']),
};

const isRoot = () => process.getuid?.() === 0;

function postgresAccountExists(): boolean {
  return spawnSync('id', ['-u', 'postgres']).status === 0 && findBinary(['runuser']) !== undefined;
}

/** Why a private server of this kind cannot be started here, or undefined when it can. */
export function privateServerUnavailable(kind: PrivateServerKind): string | undefined {
  switch (kind) {
    case 'postgresql':
      if (!binaries.initdb() || !binaries.pgCtl()) return `PostgreSQL's initdb and pg_ctl are not in ${pgBin} (set CG_TEST_PG_BIN): a test's own PostgreSQL server cannot be started`;
      if (isRoot() && !postgresAccountExists()) return 'the tests run as root and there is no postgres account (with runuser) to run a test\'s own PostgreSQL server';
      return undefined;
    case 'mysql':
      if (!binaries.installDb() || !binaries.mariadbd()) return 'mariadb-install-db or mariadbd is not installed: a test\'s own MariaDB server cannot be started';
      return undefined;
    case 'redis':
      if (!binaries.redis()) return 'redis-server is not installed: a test\'s own Redis server cannot be started';
      return undefined;
  }
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once `port` accepts (or, `open` false, refuses) connections; rejects after `timeoutMs`. */
export async function waitForPort(port: number, open: boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const accepts = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (accepts === open) return;
    if (Date.now() > deadline) throw new Error(`port ${port} still ${open ? 'refuses' : 'accepts'} connections after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function run(command: string, args: readonly string[], asPostgres = false): void {
  const [file, argv] = asPostgres && isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, [...args]];
  const result = spawnSync(file, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stdout}${result.stderr}`);
}

/** A process the helper started, stopped with SIGTERM (a clean shutdown) and awaited. */
function daemon(command: string, args: readonly string[], logLabel: string) {
  let child: ChildProcess | undefined;
  let output = '';
  return {
    start() {
      child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (d) => (output += d));
      child.stderr!.on('data', (d) => (output += d));
      const started = child;
      child.once('exit', (code, signal) => {
        if (child === started) child = undefined;
        if (code && code !== 0) output += `\n${logLabel} exited with ${code ?? signal}`;
      });
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    output: () => output,
  };
}

/** A PostgreSQL server of the test's own; `pg_ctl stop -m fast` ends its sessions with 57P01. */
export async function startPrivatePostgres(): Promise<PrivateServer> {
  const dir = await tempDir('private-postgresql');
  const data = path.join(dir, 'data');
  if (isRoot()) await chown(dir, Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout), Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout));
  run(binaries.initdb()!, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], true);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50`;
  const start = async () => {
    run(binaries.pgCtl()!, ['-D', data, '-o', options, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start'], true);
    await waitForPort(port, true);
  };
  const stop = async () => {
    run(binaries.pgCtl()!, ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop'], true);
    await waitForPort(port, false);
  };
  await start();
  let stopped = false;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: async () => {
      await stop();
      stopped = true;
    },
    start: async () => {
      await start();
      stopped = false;
    },
    async destroy() {
      if (!stopped) await stop().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A MariaDB server of the test's own, root without a password; SIGTERM is its clean shutdown. */
export async function startPrivateMariaDb(): Promise<PrivateServer> {
  const dir = await tempDir('private-mariadb');
  const data = path.join(dir, 'data');
  await mkdir(data, { recursive: true });
  const user = isRoot() ? ['--user=root'] : [];
  run(binaries.installDb()!, ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', ...user]);
  const port = await freePort();
  // The socket path must stay short (108 bytes): in the OS's temporary folder, not under .tmp/.
  const socket = path.join(os.tmpdir(), `cg-mariadb-${port}.sock`);
  const args = ['--no-defaults', `--datadir=${data}`, `--port=${port}`, '--bind-address=127.0.0.1', `--socket=${socket}`, `--pid-file=${path.join(dir, 'server.pid')}`, '--skip-log-bin', '--innodb-buffer-pool-size=32M', '--innodb-flush-log-at-trx-commit=0', ...user];
  return childServer(binaries.mariadbd()!, args, { port, url: `mysql://root@127.0.0.1:${port}/test`, remove: [dir, socket] });
}

/** A Redis server of the test's own, keeping nothing on disk. */
export async function startPrivateRedis(): Promise<PrivateServer> {
  const dir = await tempDir('private-redis');
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  return childServer(binaries.redis()!, args, { port, url: `redis://127.0.0.1:${port}`, remove: [dir] });
}

/**
 * A server run as a child process of the test, listening on `port`: started now, stopped with
 * SIGTERM (its clean shutdown) and started again with the same arguments; `remove` is deleted
 * by destroy().
 */
async function childServer(command: string, args: readonly string[], where: { port: number; url: string; remove: readonly string[] }): Promise<PrivateServer> {
  const server = daemon(command, args, path.basename(command));
  const start = async () => {
    server.start();
    await waitForPort(where.port, true, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${server.output()}`);
    });
  };
  const stop = async () => {
    await server.stop();
    await waitForPort(where.port, false);
  };
  await start();
  return {
    url: where.url,
    port: where.port,
    stop,
    start,
    async destroy() {
      await stop();
      for (const file of where.remove) await rm(file, { recursive: true, force: true });
    },
  };
}
