import { repoConfig } from '../config.js';
import { DEFAULT_RELEASE_BRANCHES, judgePair, pairKey, pairsOf, type LinkedPull, type PairInput } from '../forward/link-rules.js';
import { defaultBranchOf } from '../git/history.js';
import type { ThreadRow } from '../store/tables/sources.js';
import { planItem } from './plan.js';
import type { PlannedItem, Stage } from './types.js';

export interface LinkItem {
  readonly pair: PairInput;
  readonly defaultBranch: string | null;
  readonly releasePatterns: readonly string[];
  /** The stored issue thread (null: not stored). */
  readonly issue: Pick<ThreadRow, 'kind'> | null;
  /** The stored pull request (null: not stored). */
  readonly pull: LinkedPull | null;
}

/**
 * Forward: pairs each issue with the pull requests linked to it. Unmerged PRs and PRs into a
 * branch that is neither the default nor a release branch are rejected; several PRs per issue
 * (or issues per PR) are kept and flagged `multi-link`.
 */
export const linkStage: Stage<LinkItem> = {
  name: 'link',
  // 2: without a recorded default branch, the mirror's HEAD branch decides.
  version: 2,
  needs: ['discover'],
  description: 'pair issues with the merged pull requests that fixed them (Forward)',
  plan(ctx, repos) {
    const sources = ctx.store.sources;
    const items: PlannedItem<LinkItem>[] = [];
    for (const repo of repos) {
      const cfg = repoConfig(ctx.config, repo);
      const defaultBranch = cfg?.default_branch ?? sources.repo(repo)?.defaultBranch ?? null;
      const releasePatterns = cfg?.release_branches ?? DEFAULT_RELEASE_BRANCHES;
      for (const pair of pairsOf(repo, sources.links(repo))) {
        const issue = sources.thread(repo, pair.issue);
        const pull = sources.pull(repo, pair.pull);
        items.push(
          planItem(pairKey(repo, pair.issue, pair.pull), repo, {
            pair,
            defaultBranch,
            releasePatterns,
            issue: issue ? { kind: issue.kind } : null,
            pull: pull ? { number: pull.number, state: pull.state, mergedAt: pull.mergedAt, baseRef: pull.baseRef } : null,
          }),
        );
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { pair, releasePatterns, issue, pull } = item.input;
    // Offline imports record no default branch: the mirror's HEAD branch stands in (as in resolve).
    const defaultBranch = item.input.defaultBranch ?? (await defaultBranchOf((await ctx.git.get(pair.repo)).gitDir));
    const verdict = judgePair(pair, issue ?? undefined, pull ?? undefined, defaultBranch, releasePatterns);
    const save = (store: typeof ctx.store): void =>
      store.forward.putLink({
        repo: pair.repo,
        issue: pair.issue,
        pull: pair.pull,
        status: verdict.status,
        baseRef: verdict.baseRef,
        branchRule: verdict.branchRule,
        linkKinds: [...new Set(pair.links.map((l) => l.how))].sort(),
        links: [...pair.links],
        flags: [...verdict.flags],
        reasons: [...verdict.reasons],
      });
    if (verdict.status === 'rejected') return { status: 'rejected', reason: verdict.reasons[0]!.code, save };
    return { status: 'done', save };
  },
};
