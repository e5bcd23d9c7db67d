import { MinerError } from '../errors.js';
import type { GitRepoHandle } from './repos.js';
import { isAncestor } from './history.js';
import { runGit } from './runner.js';
import { compareBytes } from './workflows.js';

export interface ForwardChange {
  base: string;
  baseRule: 'pr-base-sha' | 'merge-base-fallback';
  head: string;
  changedPaths: string[];
}

export interface MergedPull {
  baseSha: string;
  headSha: string;
  baseRef: string;
  mergedAt: string | null;
  mergeCommitSha: string | null;
  number: number;
}

/**
 * The pre-change state and Δ* of a merged PR. Base is the PR's base SHA; when the mirror lacks it,
 * the merge base of the head and the base branch as it stood at merge time (the merge commit's
 * first parent, else the branch's newest first-parent commit not after mergedAt, else today's
 * branch), recorded as `merge-base-fallback`.
 */
export async function recoverForward(h: GitRepoHandle, pr: MergedPull): Promise<ForwardChange> {
  const head = await h.objects.commit(pr.headSha);
  if (!head) throw new MinerError('not-found', `${h.repo}#${pr.number}: head ${pr.headSha} is not a commit in the mirror`);
  const base = await h.objects.commit(pr.baseSha);
  if (base) {
    return { base: base.sha, baseRule: 'pr-base-sha', head: head.sha, changedPaths: await changedPaths(h.gitDir, base.sha, head.sha) };
  }
  const tip = await baseBranchAtMerge(h, pr, head.sha);
  const mb = await runGit(h.gitDir, ['merge-base', head.sha, tip], { allowExit: [0, 1] });
  const fallback = mb.stdout.trim();
  if (mb.exitCode !== 0 || !fallback) {
    throw new MinerError('not-found', `${h.repo}#${pr.number}: base ${pr.baseSha} missing and head shares no history with ${pr.baseRef}`);
  }
  return { base: fallback, baseRule: 'merge-base-fallback', head: head.sha, changedPaths: await changedPaths(h.gitDir, fallback, head.sha) };
}

async function baseBranchAtMerge(h: GitRepoHandle, pr: MergedPull, head: string): Promise<string> {
  const merge = pr.mergeCommitSha ? await h.objects.commit(pr.mergeCommitSha) : null;
  if (merge && merge.parents.length > 0) return merge.parents[0]!;
  const ref = `refs/heads/${pr.baseRef}`;
  const [tip] = await h.objects.info([ref]);
  if (!tip || tip.kind !== 'object') throw new MinerError('not-found', `${h.repo}#${pr.number}: base ${pr.baseSha} missing and branch ${pr.baseRef} not in the mirror`);
  let at = tip.sha!;
  if (pr.mergedAt) {
    const t = Date.parse(pr.mergedAt);
    if (Number.isNaN(t)) throw new MinerError('validation', `${h.repo}#${pr.number}: merged_at ${JSON.stringify(pr.mergedAt)} is not a date`);
    const r = await runGit(h.gitDir, ['rev-list', '--first-parent', '-n1', `--before=@${Math.floor(t / 1000) - 1}`, ref, '--']);
    if (r.stdout.trim()) at = r.stdout.trim();
  }
  // If that state already contains the head, step back to just before the merge that brought it in.
  if (await isAncestor(h.gitDir, head, at)) {
    const path = await runGit(h.gitDir, ['rev-list', '--first-parent', '--ancestry-path', `${head}..${at}`, '--']);
    const merges = path.stdout.split('\n').filter((l) => l.length > 0);
    const bringer = merges.length > 0 ? await h.objects.commit(merges[merges.length - 1]!) : null;
    if (bringer && bringer.parents.length > 1) return bringer.parents[0]!;
  }
  return at;
}

/** Δ*: `git diff --name-only --no-renames -z base...head`, de-duplicated and byte-wise sorted. */
export async function changedPaths(gitDir: string, base: string, head: string): Promise<string[]> {
  const r = await runGit(gitDir, ['diff', '--name-only', '--no-renames', '--no-ext-diff', '--no-textconv', '-z', `${base}...${head}`, '--']);
  return [...new Set(r.stdout.split('\0').filter((p) => p.length > 0))].sort(compareBytes);
}

/** Every tracked path at `rev` (files, symlinks and submodules), byte-wise sorted. */
export async function listTree(gitDir: string, rev: string): Promise<string[]> {
  const r = await runGit(gitDir, ['ls-tree', '-r', '-z', '--full-tree', '--name-only', `${rev}^{tree}`]);
  return r.stdout.split('\0').filter((p) => p.length > 0).sort(compareBytes);
}
