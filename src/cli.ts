import { Command, CommanderError, Help } from 'commander';
import { readFileSync } from 'node:fs';
import { commandModules, type CommandModule } from './commands/index.js';
import type { CliContext, Io } from './commands/types.js';
import { describeError, errorKind, EXIT, MinerError } from './errors.js';
import { redact, secretsInEnv } from './log.js';
import type { Stage } from './stages/types.js';
import { r2vVersion } from './version.js';


/** The entries of the top-level help, written at build time to `dist/command-manifest.json`. */
export interface CommandManifestEntry {
  readonly name: string;
  readonly term: string;
  readonly description: string;
}

const GLOBAL_OPTIONS_WITH_VALUE = new Set(['--config', '--db']);

/** The command word of an argument list (`r2v --config x status --json` → `status`), if any. */
export function commandWord(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') return argv[i + 1];
    if (GLOBAL_OPTIONS_WITH_VALUE.has(arg)) {
      i += 1;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return arg;
  }
  return undefined;
}

function baseProgram(ctx: CliContext): Command {
  const program = new Command();
  program
    .name('r2v')
    .description('Mine real GitHub history into verifiable benchmark cases for coding agents.')
    .version(r2vVersion())
    .option('--config <file>', 'config file (default: ./r2v.config.yaml)')
    .option('--db <file>', 'database file (default: <data_dir>/r2v.db)')
    .option('-q, --quiet', 'no progress output')
    .showHelpAfterError('(run r2v --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
    });
  return program;
}

function finish(program: Command, ctx: CliContext): Command {
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

/** The program with the given command modules registered (all of them by default). */
export async function buildProgram(ctx: CliContext, modules: readonly CommandModule[] = commandModules): Promise<Command> {
  const program = baseProgram(ctx);
  for (const module of modules) (await module.load())(program, ctx);
  return finish(program, ctx);
}

/** The top-level help entries of the full program (what the build writes to the manifest). */
export async function commandManifest(ctx: CliContext): Promise<CommandManifestEntry[]> {
  const program = await buildProgram(ctx);
  const help = program.createHelp();
  return program.commands.map((c) => ({ name: c.name(), term: help.subcommandTerm(c), description: help.subcommandDescription(c) }));
}

/** The manifest beside the compiled CLI; absent when running from the TypeScript sources. */
function readManifest(): CommandManifestEntry[] | null {
  try {
    return JSON.parse(readFileSync(new URL('./command-manifest.json', import.meta.url), 'utf8')) as CommandManifestEntry[];
  } catch {
    return null;
  }
}

/**
 * The program for one argument list, loading only what it needs: the modules that register the
 * command word; for the overview (`r2v`, `r2v --help`, `r2v --version`, `r2v help`) the build's
 * manifest and no module at all; every module when the word is unknown (so commander can suggest).
 */
async function programFor(ctx: CliContext, argv: readonly string[]): Promise<Command> {
  let word = commandWord(argv);
  if (word === 'help') word = commandWord(argv.slice(argv.indexOf('help') + 1));
  if (word === undefined) {
    const manifest = readManifest();
    if (manifest === null) return buildProgram(ctx);
    const program = baseProgram(ctx);
    const terms = new Map(manifest.map((e) => [e.name, e.term]));
    program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? new Help().subcommandTerm(cmd) });
    for (const entry of manifest) program.command(entry.name).description(entry.description);
    return finish(program, ctx);
  }
  const wanted = commandModules.filter((m) => m.names.includes(word));
  return buildProgram(ctx, wanted.length > 0 ? wanted : commandModules);
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
    const program = await programFor(ctx, argv);
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
      if (error.kind === 'busy') return EXIT.environment;
      if (error.kind === 'internal') return EXIT.internal;
      return USER_KINDS.has(error.kind) ? EXIT.usage : EXIT.environment;
    }
    if (errorKind(error) === 'disk') {
      // Disk full, read-only file system, no permission: the environment, not a bug.
      const code = (error as { code?: string }).code;
      const line = redact(describeError(error), secretsInEnv(io.env));
      io.stderr.write(`r2v: ${line}${code && !line.includes(code) ? ` (${code})` : ''}\n`);
      return EXIT.environment;
    }
    io.stderr.write(`r2v: internal error (this is a bug): ${redact((error as Error)?.stack ?? String(error), secretsInEnv(io.env))}\n`);
    return EXIT.internal;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
