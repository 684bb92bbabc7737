/**
 * Running an emitted server the way its user does, outside this repository: their shell's
 * environment, npm in the server's folder, the server as a process group of its own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { listeningUrl } from './server.js';

/** The environment of a user's shell: no hint of this repository's modules. */
export function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  for (const key of Object.keys(env)) {
    if (key === 'NODE_PATH' || key === 'NODE_OPTIONS' || key.startsWith('VITEST') || key.startsWith('npm_')) delete env[key];
  }
  return env;
}

/**
 * npm's settings for the tests' installs, as environment: the packages come from the
 * machine's npm cache when it has them (installs are the slow part of these tests).
 */
export const npmCacheEnv = { npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' };

/** Runs a command to its end; its stdout, or an error with all its output. */
export function runOrThrow(cwd: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv = userEnv(), timeout = 900_000): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env, timeout });
  if (result.status !== 0) {
    const how = result.signal ? `killed by ${result.signal}` : `exit ${result.status}`;
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${how}):\n${result.stdout}\n${result.stderr}`);
  }
  return result.stdout;
}

/** Servers started in their own process group (npm → node chains stop together). */
export class ServerProcesses {
  private readonly children: ChildProcess[] = [];

  /** Starts `command` and waits for its "listening" line; its URL and process. */
  async start(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<{ url: string; child: ChildProcess }> {
    const child = spawn(command, args, { cwd: options.cwd, detached: true, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.push(child);
    return { url: (await listeningUrl(child, 180_000)).url, child };
  }

  /** Sends `signal` to the process group and waits for the process to exit; its exit code. */
  async stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    process.kill(-child.pid!, signal);
    return exited;
  }

  async stopAll(): Promise<void> {
    for (const child of this.children.splice(0)) await this.stop(child);
  }

  /** For afterAll: whatever still runs is killed. */
  killAll(): void {
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
}
