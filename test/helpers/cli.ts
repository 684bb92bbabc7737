/** `contentgen` run in this process, as the CLI: its exit code and what it printed. */
import { main } from '../../generator/cli.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { write: (s: string) => ((stdout += s), true) } as never, { write: (s: string) => ((stderr += s), true) } as never);
  return { code, stdout, stderr };
}
