/**
 * The evaluation protocol's extra inputs: `r2v forward-pairs` (paired states of Forward cases).
 * Package variants are options of `r2v package`; the metrics are part of `r2v score`.
 */
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { EXIT } from '../errors.js';
import { writeForwardPairs } from '../export/forward-pairs.js';
import { readManifest } from '../export/read-manifest.js';
import { DEFAULT_PAIR_BOUND } from '../forward/paired-states.js';
import { mirrorsFor } from './export.js';
import type { CliContext, RegisterCommand } from './types.js';

function positive(flag: string): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new InvalidArgumentError(`${flag} must be a positive integer, got "${value}"`);
    return Number(value);
  };
}

export const registerProtocol: RegisterCommand = (program: Command, ctx: CliContext) => {
  const { io } = ctx;
  program
    .command('forward-pairs')
    .description('for each Forward case, the nearest earlier base-branch state where the same change activates a different set (forward-pairs.jsonl)')
    .requiredOption('--manifest <file>', 'forward manifest JSONL')
    .requiredOption('--out <dir>', 'output directory (forward-pairs.jsonl + forward-pairs.meta.json)')
    .option('--max-commits <n>', 'first-parent commits searched below each base', positive('--max-commits'), DEFAULT_PAIR_BOUND)
    .option('--git-dir <dir>', 'git directory holding the objects (default: the configured mirrors)')
    .action(async (opts: { manifest: string; out: string; maxCommits: number; gitDir?: string }, cmd: Command) => {
      const mirrors = await mirrorsFor(opts, cmd, io);
      const s = await writeForwardPairs(readManifest(resolve(io.cwd, opts.manifest)), mirrors, resolve(io.cwd, opts.out), opts.maxCommits);
      io.stdout.write(`${s.path}\t${s.records} records\tsha256 ${s.sha256}\n`);
      if (s.errors > 0) ctx.setExitCode(EXIT.itemsFailed);
      io.stderr.write(`r2v: ${s.paired} paired, ${s.noPair} without a pair within ${opts.maxCommits} commits, ${s.errors} errors\n`);
    });
};
