/**
 * Shutdown loses nothing: SIGTERM under load (keep-alive clients, requests in flight) lets
 * every request that reached the server finish with a complete answer, answers them with
 * `Connection: close`, then exits 0. And `npm start` — what containers run — passes SIGTERM
 * to the server itself (an orphaned server never drains).
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFixture, listeningUrl, serverEnv, startServer, type BuiltServer } from '../helpers/server.js';

let built: BuiltServer;

beforeAll(async () => {
  built = await buildFixture('blog');
});

afterAll(async () => {
  await built?.cleanup();
});

interface Outcome {
  kind: 'answered' | 'refused' | 'cut';
  status?: number;
  connection?: string;
  detail?: string;
}

/** One GET on a keep-alive agent: a complete answer, refused at connect, or cut mid-way. */
function get(url: string, agent: http.Agent): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        const complete = res.complete && (res.statusCode !== 200 || body.endsWith('}'));
        resolve(complete ? { kind: 'answered', status: res.statusCode!, connection: String(res.headers.connection) } : { kind: 'cut', detail: 'incomplete body' });
      });
      res.on('error', (err) => resolve({ kind: 'cut', detail: err.message }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // A fresh connection refused after the listener closed is the load balancer's cue, not a lost request.
      resolve(err.code === 'ECONNREFUSED' ? { kind: 'refused' } : { kind: 'cut', detail: `${err.code ?? ''} ${err.message}` });
    });
  });
}

describe('SIGTERM under load', () => {
  it('finishes every request in flight, closes keep-alive connections, and exits 0', async () => {
    const server = await startServer(built.dir, { SHUTDOWN_TIMEOUT_MS: '20000' });
    const url = `${server.url}/api/articles?populate=*`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let stop = false;
    // 8 clients, each sending its next request as soon as the previous is answered, at most 60 s.
    const deadline = Date.now() + 60_000;
    const clients = Array.from({ length: 8 }, async () => {
      while (!stop && Date.now() < deadline) {
        const outcome = await get(url, agent);
        outcomes.push(outcome);
        if (outcome.kind === 'refused') return;
      }
    });
    while (outcomes.filter((o) => o.kind === 'answered').length < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const exit = server.stop();
    const code = await exit;
    stop = true;
    await Promise.all(clients);
    agent.destroy();

    const cut = outcomes.filter((o) => o.kind === 'cut');
    expect(cut, JSON.stringify(cut.slice(0, 5))).toEqual([]);
    expect(code).toBe(0);
    const answered = outcomes.filter((o) => o.kind === 'answered');
    expect(answered.length).toBeGreaterThanOrEqual(200);
    expect(answered.every((o) => o.status === 200)).toBe(true);
    // The answers given after SIGTERM told their clients to close the connection.
    expect(answered.some((o) => o.connection === 'close')).toBe(true);
    expect(server.output()).toContain('contentgen server stopped');
  }, 120_000);
});

describe('npm start', () => {
  it('hands SIGTERM to the server, which drains and exits 0', async () => {
    // npm → sh → node: without exec, the shell dies and the server is orphaned, still serving.
    const child = spawn('npm', ['start', '--silent'], { cwd: built.dir, env: serverEnv({}, built.dir), stdio: ['ignore', 'pipe', 'pipe'] });
    const { url, output } = await listeningUrl(child, 120_000);
    expect((await fetch(`${url}/_health`)).status).toBe(204);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output()).toContain('contentgen server stopped');
    await expect(fetch(`${url}/_health`)).rejects.toThrow();
  }, 180_000);
});
