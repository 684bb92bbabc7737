/**
 * A TCP proxy in front of a database server, to make the database unreachable for a server
 * under test and reachable again: `cut()` drops every connection and refuses new ones,
 * `restore()` accepts them again on the same port.
 */
import net from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: targetHost, port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  let listening = true;
  const cut = async () => {
    const closed = listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    listening = false;
    for (const socket of sockets) socket.destroy();
    await closed; // resolves once every connection is gone
  };
  return {
    port,
    via(url: string) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut,
    async restore() {
      if (!listening) {
        await listen(port);
        listening = true;
      }
    },
    close: cut,
  };
}
