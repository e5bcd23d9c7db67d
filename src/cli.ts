import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { commands } from './commands/index.js';
import type { CliContext, Io } from './commands/types.js';
import { EXIT, MinerError } from './errors.js';
import { redact, secretsInEnv } from './log.js';
import type { Stage } from './stages/types.js';

const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export function r2vVersion(): string {
  return VERSION;
}

export function buildProgram(ctx: CliContext): Command {
  const program = new Command();
  program
    .name('r2v')
    .description('Mine real GitHub history into verifiable benchmark cases for coding agents.')
    .version(VERSION)
    .option('--config <file>', 'config file (default: ./r2v.config.yaml)')
    .option('--db <file>', 'database file (default: <data_dir>/r2v.db)')
    .option('-q, --quiet', 'no progress output')
    .showHelpAfterError('(run r2v --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
    });
  for (const register of commands) register(program, ctx);
  // Subcommands inherit exit/output behaviour.
  const apply = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      sub.exitOverride();
      sub.configureOutput({ writeOut: (s) => void ctx.io.stdout.write(s), writeErr: (s) => void ctx.io.stderr.write(s) });
      apply(sub);
    }
  };
  apply(program);
  return program;
}

const USER_KINDS = new Set(['config', 'usage', 'auth', 'validation']);

let stdoutGuarded = false;
/**
 * A reader that stops early (`r2v status --json | head`) closes the pipe; like command-line tools
 * on SIGPIPE, stop quietly instead of crashing on the write error.
 */
function stopQuietlyWhenStdoutCloses(): void {
  if (stdoutGuarded) return;
  stdoutGuarded = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT.ok);
    throw error;
  });
}

/** Runs the CLI; returns the exit code. Never calls process.exit. */
export async function runCli(
  argv: readonly string[],
  overrides: { io?: Partial<Io>; extraStages?: readonly Stage<any>[]; signal?: AbortSignal } = {},
): Promise<number> {
  const io: Io = {
    stdout: overrides.io?.stdout ?? process.stdout,
    stderr: overrides.io?.stderr ?? process.stderr,
    env: overrides.io?.env ?? process.env,
    cwd: overrides.io?.cwd ?? process.cwd(),
    isTTY: overrides.io?.isTTY ?? Boolean((process.stderr as { isTTY?: boolean }).isTTY),
  };
  if (io.stdout === process.stdout) stopQuietlyWhenStdoutCloses();
  const controller = new AbortController();
  let interrupts = 0;
  const onSigint = (): void => {
    interrupts += 1;
    if (interrupts === 1) {
      io.stderr.write('\nr2v: interrupted; finishing the current items (Ctrl-C again to stop at once)\n');
      controller.abort();
    } else {
      process.exit(EXIT.interrupted);
    }
  };
  const external = overrides.signal;
  if (external) external.addEventListener('abort', () => controller.abort(), { once: true });
  if (!overrides.signal) {
    process.on('SIGINT', onSigint);
    process.on('SIGTERM', onSigint);
  }
  let exitCode: number = EXIT.ok;
  const ctx: CliContext = {
    io,
    signal: controller.signal,
    setExitCode: (code) => {
      if (code > exitCode || exitCode === EXIT.ok) exitCode = code;
    },
    extraStages: overrides.extraStages,
  };
  try {
    const program = buildProgram(ctx);
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.ok;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      return EXIT.usage; // commander already printed its one-line message
    }
    if (error instanceof MinerError) {
      io.stderr.write(`r2v: ${redact(error.message.split('\n')[0]!, secretsInEnv(io.env))}\n`);
      return USER_KINDS.has(error.kind) ? EXIT.usage : EXIT.internal;
    }
    io.stderr.write(`r2v: internal error (this is a bug): ${redact((error as Error)?.stack ?? String(error), secretsInEnv(io.env))}\n`);
    return EXIT.internal;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
