/**
 * A small Redis client: RESP2 over one TCP (or TLS) connection, commands pipelined in order.
 * The server uses Redis for one thing, shared rate-limit counters (auth/rate-limit.ts), which
 * needs a handful of commands; a dependency would add more code than this file.
 *
 * `redis://[[user]:password@]host[:port][/db]` (`rediss://` for TLS). The connection opens on
 * the first command and reopens on the next command after it was lost; a command that gets
 * no answer within `timeoutMs` fails (and the connection is dropped, since later answers
 * would be out of step).
 */
import net from 'node:net';
import tls from 'node:tls';

export type RedisReply = string | number | null | RedisReply[];

export class RedisError extends Error {
  override name = 'RedisError';
}

interface Pending {
  resolve(reply: RedisReply): void;
  reject(error: Error): void;
}

export interface RedisClientOptions {
  /** Milliseconds to wait for a connection or an answer. Default 2000. */
  readonly timeoutMs?: number;
}

export class RedisClient {
  readonly #url: URL;
  readonly #timeoutMs: number;
  #socket: net.Socket | undefined;
  #ready: Promise<void> | undefined;
  #buffer: Buffer = Buffer.alloc(0);
  readonly #pending: Pending[] = [];
  #closed = false;

  constructor(url: string, options: RedisClientOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'redis:' && this.#url.protocol !== 'rediss:') {
      throw new Error(`REDIS_URL must be a redis:// or rediss:// URL, got ${this.#url.protocol}//…`);
    }
    this.#timeoutMs = options.timeoutMs ?? 2000;
  }

  /** The URL without its password, for logs. */
  get displayUrl(): string {
    const shown = new URL(this.#url.toString());
    if (shown.password) shown.password = '***';
    return shown.toString();
  }

  /** Sends one command; resolves with its reply, rejects with a RedisError for an error reply. */
  async command(args: readonly (string | number)[]): Promise<RedisReply> {
    if (this.#closed) throw new Error('the Redis client is closed');
    await this.#connect();
    return this.#send(args);
  }

  /** Closes the connection (QUIT when connected). */
  async close(): Promise<void> {
    this.#closed = true;
    const socket = this.#socket;
    if (!socket) return;
    try {
      await this.#send(['QUIT']);
    } catch {
      // closing anyway
    }
    socket.destroy();
  }

  #connect(): Promise<void> {
    this.#ready ??= new Promise<void>((resolve, reject) => {
      const port = Number(this.#url.port || 6379);
      const host = this.#url.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
      const socket =
        this.#url.protocol === 'rediss:' ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
      socket.setNoDelay(true);
      const timer = setTimeout(() => socket.destroy(new Error(`Redis at ${host}:${port} did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
      socket.once(this.#url.protocol === 'rediss:' ? 'secureConnect' : 'connect', () => {
        clearTimeout(timer);
        this.#socket = socket;
        this.#handshake().then(resolve, (error: Error) => {
          socket.destroy(error);
          reject(error);
        });
      });
      socket.on('data', (chunk: Buffer) => this.#onData(chunk));
      socket.on('error', () => {}); // reported through 'close'
      socket.once('close', () => {
        clearTimeout(timer);
        this.#socket = undefined;
        this.#ready = undefined;
        this.#buffer = Buffer.alloc(0);
        const error = new Error(`lost the connection to Redis at ${host}:${port}`);
        reject(error);
        for (const pending of this.#pending.splice(0)) pending.reject(error);
      });
    });
    return this.#ready;
  }

  async #handshake(): Promise<void> {
    const user = decodeURIComponent(this.#url.username);
    const password = decodeURIComponent(this.#url.password);
    if (password) await this.#send(user ? ['AUTH', user, password] : ['AUTH', password]);
    const db = this.#url.pathname.replace(/^\//, '');
    if (db !== '' && db !== '0') await this.#send(['SELECT', db]);
  }

  #send(args: readonly (string | number)[]): Promise<RedisReply> {
    const socket = this.#socket;
    if (!socket) return Promise.reject(new Error('not connected to Redis'));
    return new Promise<RedisReply>((resolve, reject) => {
      const timer = setTimeout(() => socket.destroy(new Error('Redis did not answer in time')), this.#timeoutMs);
      this.#pending.push({
        resolve: (reply) => (clearTimeout(timer), resolve(reply)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      socket.write(encodeCommand(args));
    });
  }

  #onData(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      let parsed: Parsed | undefined;
      try {
        parsed = parseReply(this.#buffer, 0);
      } catch (error) {
        this.#socket?.destroy(error as Error); // not Redis speaking: fail everything pending
        return;
      }
      if (parsed === undefined) return;
      this.#buffer = this.#buffer.subarray(parsed.end);
      const pending = this.#pending.shift();
      if (!pending) continue;
      if (parsed.reply instanceof RedisError) pending.reject(parsed.reply);
      else pending.resolve(parsed.reply);
    }
  }
}

/** A command as a RESP array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = Buffer.from(String(arg), 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

type Parsed = { reply: RedisReply | RedisError; end: number };

/** One reply starting at `offset`, or undefined when the buffer does not hold all of it yet. */
export function parseReply(buffer: Buffer, offset: number): Parsed | undefined {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd === -1) return undefined;
  const type = String.fromCharCode(buffer[offset]!);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { reply: line, end: next };
    case '-':
      return { reply: new RedisError(line), end: next };
    case ':':
      return { reply: Number(line), end: next };
    case '$': {
      const length = Number(line);
      if (length < 0) return { reply: null, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { reply: buffer.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { reply: null, end: next };
      const items: RedisReply[] = [];
      let error: RedisError | undefined;
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (item === undefined) return undefined;
        if (item.reply instanceof RedisError) error ??= item.reply;
        else items.push(item.reply);
        at = item.end;
      }
      return { reply: error ?? items, end: at };
    }
    default:
      throw new Error(`unexpected Redis reply type ${JSON.stringify(type)}`);
  }
}
