/**
 * `r2v pairs export|list|show`: coupled-pair manifests and the answer to "why was this pair
 * dropped?" (every rejected pair keeps its reason code and evidence).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { openApp } from '../app.js';
import { repoConfig, repoNameProblem } from '../config.js';
import { UsageError } from '../errors.js';
import { exportPairs } from '../pairs/pairs-export.js';
import { snakeKeys } from '../util/snake-case.js';
import { groupCommand, printJson, type CliContext, type GlobalOptions, type RegisterCommand } from './types.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

function checkRepos(repos: readonly string[], known: (name: string) => boolean): string[] {
  for (const r of repos) {
    const problem = repoNameProblem(r);
    if (problem) throw new UsageError(`--repo ${r}: ${problem}`);
    if (!known(r)) throw new UsageError(`--repo ${r}: unknown repository (not in the config)`);
  }
  return [...new Set(repos)].sort();
}

export const registerPairs: RegisterCommand = (program: Command, ctx: CliContext) => {
  const pairs = groupCommand(program, 'pairs', 'coupled and control pairs of merged PRs');

  pairs
    .command('export')
    .description('write instances/<owner>__<name>.jsonl, control.jsonl, patches/ and meta.json')
    .option('--out <dir>', 'output directory', 'manifests/pairs')
    .option('--repo <owner/name>', 'only this repository (repeatable)', collect)
    .action(async (opts: { out: string; repo?: string[] }, cmd: Command) => {
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), ctx.io, { mode: 'read' });
      try {
        const repos = checkRepos(opts.repo ?? [], (r) => repoConfig(app.loaded.config, r) !== undefined);
        const out = resolve(ctx.io.cwd, opts.out);
        if (existsSync(out) && !statSync(out).isDirectory()) throw new UsageError(`--out ${opts.out}: exists and is not a directory`);
        const summary = await exportPairs(app.store, out, repos);
        printJson(ctx.io, { out: summary.outDir, coupled: summary.coupled, control: summary.control, rejected: summary.rejected, files: summary.files });
      } finally {
        app.close();
      }
    });

  pairs
    .command('list')
    .description('one line per mined pair: key, status, tier, reason')
    .option('--repo <owner/name>', 'only this repository (repeatable)', collect)
    .option('--json', 'one JSON object per line')
    .action((opts: { repo?: string[]; json?: boolean }, cmd: Command) => {
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), ctx.io, { mode: 'read' });
      try {
        const repos = checkRepos(opts.repo ?? [], (r) => repoConfig(app.loaded.config, r) !== undefined);
        for (const r of app.store.pairs.results(repos)) {
          const row = { key: r.key, status: r.status, tier: r.tier, reason: r.reason, base_commit: r.baseCommit };
          if (opts.json) printJson(ctx.io, row);
          else ctx.io.stdout.write(`${r.key}\t${r.status}\t${r.tier ?? '-'}\t${r.reason ?? '-'}\n`);
        }
      } finally {
        app.close();
      }
    });

  pairs
    .command('show')
    .description('everything stored for one pair (JSON): result, evidence, members, test runs')
    .argument('<key>', 'pair key, e.g. owner/name#12+15')
    .action((key: string, _opts: unknown, cmd: Command) => {
      const app = openApp(cmd.optsWithGlobals<GlobalOptions>(), ctx.io, { mode: 'read' });
      try {
        const tables = app.store.pairs;
        const result = tables.result(key);
        if (!result) throw new UsageError(`${key}: no such pair (keys look like owner/name#A+B; see r2v pairs list)`);
        const runs = tables.runs(key).map((r) => ({ condition: r.condition, test: r.testId, repeat: r.repeat, outcome: r.outcome, exit_code: r.exitCode, timed_out: r.timedOut }));
        printJson(ctx.io, snakeKeys({ ...result, members: tables.members(key), runs }));
      } finally {
        app.close();
      }
    });
};
