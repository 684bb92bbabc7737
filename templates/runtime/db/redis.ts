/**
 * Redis, for one thing: shared rate-limit counters (auth/rate-limit.ts), through the official
 * client, `redis` (node-redis: RESP2/3, TLS, ACL users, reconnection). It is imported only when
 * `REDIS_URL` is set, and is an optional dependency of the server (package.json): a deployment
 * without Redis may leave it out (`npm ci --omit=optional`).
 *
 * `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS). The first connection
 * must succeed (a wrong URL stops the start); after that the client reconnects by itself,
 * and a command sent while it is not connected fails at once instead of waiting in a queue
 * (`disableOfflineQueue`), as does one without an answer within `timeoutMs`.
 */
import { StartupError } from '../auth/secrets.js';

/**
 * The part of node-redis's client the server calls. Described here instead of imported, so
 * that the server compiles without the package; test/unit/db/redis.test.ts checks it against
 * the package's own types.
 */
export interface NodeRedisClient {
  connect(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  close(): Promise<void>;
}

export interface NodeRedisOptions {
  url: string;
  disableOfflineQueue: boolean;
  commandOptions: { timeout: number };
  socket: { connectTimeout: number; reconnectStrategy: (retries: number, cause: Error) => number | Error };
}

/** `redis` */
export interface NodeRedisModule {
  createClient(options: NodeRedisOptions): NodeRedisClient;
}

export interface Redis {
  /** The URL without its password, for logs. */
  readonly displayUrl: string;
  /** Runs a Lua script (EVAL) with these keys and arguments; rejects when Redis cannot answer. */
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
  close(): Promise<void>;
}

export interface RedisOptions {
  /** Milliseconds to wait for a connection or an answer. Default 2000. */
  readonly timeoutMs?: number;
}

/** `url` with its password hidden. */
export function redisDisplayUrl(url: string): string {
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return shown.toString();
}

/**
 * Connects to `url` (REDIS_URL); a StartupError when the URL is not Redis's, the package is
 * not installed or Redis does not answer.
 */
export async function connectRedis(url: string, options: RedisOptions = {}): Promise<Redis> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new StartupError(`REDIS_URL must be a redis:// or rediss:// URL, got ${parsed.protocol}//…`);
  const displayUrl = redisDisplayUrl(url);
  const timeoutMs = options.timeoutMs ?? 2000;
  const { createClient } = await importRedis();
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: timeoutMs },
    socket: {
      connectTimeout: timeoutMs,
      // Before the first connection, give up (the start fails); after it, try again, up to every 2 s.
      reconnectStrategy: (retries, cause) => (connected ? Math.min(50 * 2 ** retries, 2000) : cause),
    },
  });
  // node-redis reports each failed reconnection here; without a listener one would end the
  // process. The rate limiter says once when Redis is away and when it is back.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new StartupError(`REDIS_URL is set but Redis at ${displayUrl} does not answer: ${(error as Error).message}`);
  }
  connected = true;
  return {
    displayUrl,
    eval: (script, keys, args) => client.eval(script, { keys, arguments: args }),
    close: () => client.close(),
  };
}

async function importRedis(): Promise<NodeRedisModule> {
  const specifier: string = 'redis'; // a plain string: the compiler must not resolve (or require) the package
  try {
    return (await import(specifier)) as NodeRedisModule;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
      throw new StartupError('REDIS_URL is set but the redis package is not installed: run `npm install` (it is an optional dependency of this server) or unset REDIS_URL.');
    }
    throw error;
  }
}
