/**
 * A node-redis client for tests to look into a Redis server (keys, TTLs) and clean up after
 * themselves; `undefined` with the reason when Redis does not answer (the test skips).
 */
import { createClient } from 'redis';

const newProbe = (url: string) => createClient({ url, socket: { connectTimeout: 1000, reconnectStrategy: false } });

export type RedisProbe = ReturnType<typeof newProbe>;

export async function redisProbe(url: string): Promise<{ probe: RedisProbe } | { unreachable: string }> {
  const probe = newProbe(url);
  probe.on('error', () => {}); // a failed connect rejects connect() too
  try {
    await probe.connect();
    return { probe };
  } catch (error) {
    return { unreachable: `Redis is not reachable at ${url}: ${(error as Error).message}` };
  }
}

/** Deletes the keys under `prefix` and closes the client. */
export async function dropKeysAndClose(probe: RedisProbe, prefix: string): Promise<void> {
  const keys = await probe.keys(`${prefix}*`);
  if (keys.length) await probe.del(keys);
  await probe.close();
}
