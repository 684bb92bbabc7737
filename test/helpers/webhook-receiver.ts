/**
 * A webhook receiver for tests: a real node:http server on 127.0.0.1 that records every
 * request (path, headers, parsed JSON body) and answers 200, or what `respond` says.
 */
import http from 'node:http';

export interface ReceivedHook {
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: any;
}

export interface WebhookReceiver {
  readonly url: string;
  readonly port: number;
  /** Requests answered 2xx, in arrival order. */
  readonly received: ReceivedHook[];
  /** Every request, failed ones included. */
  readonly attempts: ReceivedHook[];
  /** Decides the status of each request (default 200). */
  respond: (hook: ReceivedHook) => number | Promise<number>;
  /** Resolves once `predicate(received)` holds; rejects after `timeoutMs` with what came. */
  waitFor(predicate: (received: ReceivedHook[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port = 0): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const attempts: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', async () => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the text
      }
      const hook = { path: req.url ?? '', headers: req.headers, body };
      attempts.push(hook);
      const status = await receiver.respond(hook);
      if (status >= 200 && status < 300) received.push(hook);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'receiver failed');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.address() as { port: number }).port;
  const receiver: WebhookReceiver = {
    url: `http://127.0.0.1:${actual}`,
    port: actual,
    received,
    attempts,
    respond: () => 200,
    async waitFor(predicate, timeoutMs = 20_000) {
      const started = Date.now();
      while (!predicate(received)) {
        if (Date.now() - started > timeoutMs) {
          throw new Error(`webhook receiver: condition not met within ${timeoutMs} ms; received ${JSON.stringify(received.map((h) => [h.path, h.body?.event]))}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** Writes the build's src/config.ts with these `webhooks` settings (and nothing else). */
export function webhooksConfigText(webhooks: Record<string, unknown>): string {
  return [
    "import type { UserConfig } from './runtime/config.js';",
    '',
    `export default ${JSON.stringify({ webhooks }, null, 2)} satisfies UserConfig;`,
    '',
  ].join('\n');
}
