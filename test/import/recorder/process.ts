/**
 * Running the Strapi being recorded (4 or 5): a free port, start until `/_health` answers, stop,
 * and the answers file written one request per line. Shared by test/import/recorder and
 * test/v5/recorder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs `node <script>` in appDir with env (added to this process's) until `/_health` answers 204. */
export async function startStrapi(appDir: string, script: string, env: Record<string, string>, port: number, timeoutMs = 120_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    cwd: appDir,
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), STRAPI_TELEMETRY_DISABLED: 'true', BROWSER: 'none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  child.stdout!.on('data', (d) => log.push(String(d)));
  child.stderr!.on('data', (d) => log.push(String(d)));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Strapi exited (${child.exitCode}):\n${log.join('')}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/_health`);
      if (response.status === 204) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        return child;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill('SIGKILL');
  throw new Error(`Strapi did not answer /_health within ${timeoutMs / 1000} s:\n${log.join('')}`);
}

export async function stopStrapi(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

export type Answers = { requests: unknown[] } & Record<string, unknown>;

/** One request per line: readable with jq, diffable, a third of the indented size. */
export function answersJson({ requests, ...head }: Answers): string {
  const top = JSON.stringify(head);
  return `${top.slice(0, -1)},"requests":[\n${requests.map((r) => JSON.stringify(r)).join(',\n')}\n]}\n`;
}
