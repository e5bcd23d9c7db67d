import type { Command } from 'commander';
import type { Stage } from '../stages/types.js';

export interface Io {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** stderr is a terminal (live progress allowed). */
  readonly isTTY: boolean;
}

export interface CliContext {
  readonly io: Io;
  /** Aborted on the first Ctrl-C: finish the current item, then stop. */
  readonly signal: AbortSignal;
  /** Ask for a non-zero exit code once the command returns (e.g. 3 = some items failed). */
  setExitCode(code: number): void;
  /** Extra stages appended to the registry (tests only). */
  readonly extraStages?: readonly Stage[];
}

/** Global options every command can read with `cmd.optsWithGlobals()`. */
export interface GlobalOptions {
  readonly config?: string;
  readonly db?: string;
  readonly quiet?: boolean;
}

export type RegisterCommand = (program: Command, ctx: CliContext) => void;

/** Writes one line of JSON to stdout. */
export function printJson(io: Io, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value)}\n`);
}

/** Finds or creates a command group (e.g. `inspect`, `review`) so several modules can add subcommands. */
export function groupCommand(program: Command, name: string, description: string): Command {
  return program.commands.find((c) => c.name() === name) ?? program.command(name).description(description);
}
