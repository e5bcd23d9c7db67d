/** Runs the r2v command line in-process, with stdout and stderr captured as text. */
import { runCli } from '../../src/cli.js';
import { captureStream } from '../../src/util/capture.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `r2v <args>` in `cwd` with the given environment (none by default), not a TTY. */
export async function runCliCaptured(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const out = captureStream();
  const err = captureStream();
  const code = await runCli(args, { io: { stdout: out.stream, stderr: err.stream, cwd, env, isTTY: false }, signal: new AbortController().signal });
  return { code, stdout: out.text(), stderr: err.text() };
}

/** The values of JSON Lines text (a command's stdout or a file's contents); empty lines are skipped. */
export function jsonLines<T = Record<string, any>>(text: string): T[] {
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as T);
}
