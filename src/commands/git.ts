import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { BatchObjects, type NameResolution } from '../git/batch.js';
import { changedPaths } from '../git/forward.js';
import { reachableFrom } from '../git/history.js';
import { gitDirFromUser } from '../git/open-dir.js';
import type { CliContext, RegisterCommand } from './types.js';
import { printJson } from './types.js';

interface ResolveOptions {
  gitDir: string;
  cutoff?: string;
}

interface DiffOptions {
  gitDir: string;
  base: string;
  head: string;
}

/** `r2v resolve` and `r2v diff`: inspect a repository the way the resolve and recover stages do. */
export const registerGit: RegisterCommand = (program: Command, ctx: CliContext) => {
  program
    .command('resolve')
    .description('resolve commit names (abbreviated or full hex, branch or tag names) to full SHAs; one JSON object per name')
    .requiredOption('--git-dir <dir>', 'git repository (bare mirror, .git directory or work tree)')
    .option('--cutoff <rev>', 'only history up to this revision counts: other commits are missing and drop out of candidates')
    .argument('<name...>', 'names to resolve')
    .action(async (names: string[], options: ResolveOptions) => {
      const gitDir = await gitDirFromUser('--git-dir', options.gitDir, ctx.io.cwd);
      const objects = BatchObjects.open(gitDir);
      try {
        const cutoff = options.cutoff === undefined ? null : await resolveCutoff(objects, options.cutoff);
        const results = await objects.resolve(names);
        for (const r of results) {
          const limited = cutoff === null ? r : limitToCutoff(r, cutoff);
          const parents = limited.status === 'ok' ? ((await objects.commit(limited.sha!))?.parents ?? []) : [];
          printJson(ctx.io, { input: limited.input, status: limited.status, sha: limited.status === 'ok' ? limited.sha : null, candidates: limited.candidates, parents });
        }
      } finally {
        await objects.close();
      }
    });

  program
    .command('diff')
    .description('print the changed-path set (Δ*) of base...head as JSON, renames as old and new path')
    .requiredOption('--git-dir <dir>', 'git repository (bare mirror, .git directory or work tree)')
    .requiredOption('--base <sha>', 'base commit')
    .requiredOption('--head <sha>', 'head commit')
    .action(async (options: DiffOptions) => {
      const gitDir = await gitDirFromUser('--git-dir', options.gitDir, ctx.io.cwd);
      const objects = BatchObjects.open(gitDir);
      try {
        const [base, head] = await objects.resolve([options.base, options.head]);
        for (const [flag, r] of [['--base', base!], ['--head', head!]] as const) {
          if (r.status !== 'ok') throw new UsageError(`${flag} ${r.input}: ${describeStatus(r)}`);
        }
        printJson(ctx.io, { base: base!.sha, head: head!.sha, changed_paths: await changedPaths(gitDir, base!.sha!, head!.sha!) });
      } finally {
        await objects.close();
      }
    });
};

/** The commits reachable from the cutoff, listed once (one rev-list, not one merge-base per name). */
async function resolveCutoff(objects: BatchObjects, rev: string): Promise<ReadonlySet<string>> {
  const [r] = await objects.resolve([rev]);
  if (!r || r.status !== 'ok') throw new UsageError(`--cutoff ${rev}: ${describeStatus(r!)}`);
  return reachableFrom(objects.gitDir, r.sha!);
}

/** Keeps only commits reachable from the cutoff: an ok outside it is missing; candidates shrink. */
function limitToCutoff(r: NameResolution, below: ReadonlySet<string>): NameResolution {
  if (r.status === 'ok') return below.has(r.sha!) ? r : { ...r, status: 'missing', sha: null, type: null };
  if (r.status !== 'ambiguous') return r;
  const kept = r.candidates.filter((c) => below.has(c));
  if (kept.length === 1) return { ...r, status: 'ok', sha: kept[0]!, type: 'commit', candidates: [] };
  if (kept.length === 0) return { ...r, status: 'missing', candidates: [] };
  return { ...r, candidates: kept };
}

function describeStatus(r: NameResolution): string {
  if (r.status === 'ambiguous') return `ambiguous (${r.candidates.join(', ')})`;
  if (r.status === 'not-commit') return `not a commit (${r.type ?? 'no commit among the matches'})`;
  return 'no such commit';
}
