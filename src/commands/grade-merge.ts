/**
 * `r2v grade-merge`: the deterministic mergeability checks of a rubric (scope and test integrity)
 * over a workspace's changes against a base commit. Exit 0 when nothing fails (a review flag is
 * not a failure), 3 when a check fails.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../errors.js';
import { formatReport } from '../mergeability/checks.js';
import { gradeWorkspace, loadRubric } from '../mergeability/grade.js';
import { readPathList } from '../mergeability/workspace.js';
import { printJson, type CliContext, type RegisterCommand } from './types.js';

interface GradeMergeOptions {
  workspace?: string;
  base?: string;
  rubric?: string;
  beforeIgnored?: string;
  skipped?: string;
  json?: boolean;
}

export const registerGradeMerge: RegisterCommand = (program: Command, ctx: CliContext) => {
  const { io } = ctx;
  program
    .command('grade-merge')
    .description('check a workspace change against a rubric.json: scope (globs, size) and test integrity')
    .option('--workspace <dir>', 'top level of the git work tree holding the change')
    .option('--base <sha>', 'the commit the change is made against')
    .option('--rubric <file>', 'rubric.json (schema repo_rubric.v1)')
    .option('--before-ignored <file>', 'ignored files before the run (git ls-files --others --ignored --exclude-standard)')
    .option('--skipped <n>', 'skipped tests of the run, compared with the rubric\'s tests.oracle_skipped')
    .option('--json', 'one JSON object instead of text lines')
    .action(async (opts: GradeMergeOptions) => {
      if (!opts.workspace) throw new UsageError('grade-merge: --workspace DIR is required');
      if (!opts.base) throw new UsageError('grade-merge: --base SHA is required');
      if (!opts.rubric) throw new UsageError('grade-merge: --rubric FILE is required');
      let skipped: number | undefined;
      if (opts.skipped !== undefined) {
        if (!/^[0-9]+$/.test(opts.skipped)) throw new UsageError(`--skipped ${opts.skipped}: must be a whole number`);
        skipped = Number(opts.skipped);
      }
      const rubric = loadRubric(resolve(io.cwd, opts.rubric));
      const beforeIgnored = opts.beforeIgnored ? readPathList(resolve(io.cwd, opts.beforeIgnored), '--before-ignored') : undefined;
      const report = await gradeWorkspace(resolve(io.cwd, opts.workspace), opts.base, rubric, { beforeIgnored, skipped });
      if (opts.json) printJson(io, report);
      else for (const l of formatReport(report)) io.stdout.write(`${l}\n`);
      if (report.status === 'fail') ctx.setExitCode(EXIT.itemsFailed);
    });
};
