/**
 * Sends one webhook request: `POST <url>` with the JSON body, Strapi's headers
 * (`X-Strapi-Event`, `Content-Type: application/json` over the webhook's own headers over
 * `defaultHeaders`), within `timeout`. Success is a 2xx answer; the body read is capped.
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AddressRefusedError, type AddressGuard } from './address-guard.js';

export interface SendResult {
  readonly ok: boolean;
  /** The HTTP status, or null when no answer came (refused address, network error, timeout). */
  readonly status: number | null;
  /** Why it failed (answer text, or the error), at most 1,000 characters. */
  readonly error: string | null;
  /** Failures retrying cannot fix (a refused address). */
  readonly permanent: boolean;
}

export interface SendRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeout: number;
}

const maxErrorLength = 1_000;

/**
 * Connections kept alive between deliveries (a receiver gets many): each new connection
 * goes through the guard's lookup, a reused one was checked when it was opened.
 */
const agents = { 'http:': new http.Agent({ keepAlive: true, maxFreeSockets: 16 }), 'https:': new https.Agent({ keepAlive: true, maxFreeSockets: 16 }) };

export function sendWebhook(request: SendRequest, guard: AddressGuard): Promise<SendResult> {
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (net.isIP(host)) {
    try {
      guard.check(host, host);
    } catch (err) {
      return Promise.resolve({ ok: false, status: null, error: (err as Error).message, permanent: true });
    }
  }
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': Buffer.byteLength(request.body) },
        lookup: guard.lookup(host),
        timeout: request.timeout,
        agent: agents[url.protocol as keyof typeof agents],
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (text.length < maxErrorLength) text += chunk;
        });
        res.on('end', () => done({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : text.slice(0, maxErrorLength) || `HTTP ${status}`, permanent: false }));
        res.on('error', (err) => done({ ok: false, status, error: err.message, permanent: false }));
      },
    );
    // `timeout` bounds the whole exchange, not only each silence (a receiver that drips its answer).
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${request.timeout} ms`)), request.timeout);
    req.on('close', () => clearTimeout(deadline));
    req.on('timeout', () => req.destroy(new Error(`no answer within ${request.timeout} ms`)));
    req.on('error', (err) => done({ ok: false, status: null, error: err.message.slice(0, maxErrorLength), permanent: err instanceof AddressRefusedError }));
    req.end(request.body);
  });
}
