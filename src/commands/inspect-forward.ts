/** `r2v inspect forward`: the Forward gold and its signals for one base/head of a local repository. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { inspectForward } from '../forward/inspect.js';
import { groupCommand, printJson, type CliContext, type RegisterCommand } from './types.js';

interface InspectForwardOptions {
  gitDir: string;
  base: string;
  head: string;
  baseBranch: string;
  action: string;
}

export const registerInspectForward: RegisterCommand = (program: Command, ctx: CliContext) => {
  groupCommand(program, 'inspect', 'look at what the pipeline computes for one item')
    .command('forward')
    .description('changed paths, workflows at base, gold, invalid files, stability, labels and prior of a base/head pair')
    .requiredOption('--git-dir <dir>', 'git repository (bare or not)')
    .requiredOption('--base <sha>', 'base commit (S_t)')
    .requiredOption('--head <sha>', 'head commit of the change')
    .requiredOption('--base-branch <name>', 'the pull request base (target) branch')
    .option('--action <type>', 'pull_request activity type', 'synchronize')
    .action(async (options: InspectForwardOptions) => {
      const r = await inspectForward({
        gitDir: resolve(ctx.io.cwd, options.gitDir),
        base: options.base,
        head: options.head,
        baseBranch: options.baseBranch,
        action: options.action,
      });
      printJson(ctx.io, {
        changed_paths: r.changed_paths,
        workflows: r.workflows,
        gold: r.gold,
        invalid: r.invalid,
        evaluator: r.evaluator,
        stability: r.stability,
        labels: r.labels,
        prior: r.prior,
        context: r.context,
        reasons: r.reasons,
      });
    });
};
