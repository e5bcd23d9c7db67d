import { repositoryAliases } from '../github/identity.js';
import { resolveThread } from '../backward/chain.js';
import { indexPulls, type PullIndex } from '../backward/pull-index.js';
import { threadFromRows } from '../backward/thread.js';
import type { Attribution, Reason } from '../model/backward.js';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import { historyWindow } from '../git/history.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface ResolveItem {
  readonly repo: string;
  readonly number: number;
}

/** Full SHAs the attributions name (directly or through a stored pull request): fetched if the mirror lacks them. */
export function neededObjects(repo: string, attributions: readonly Attribution[], index: PullIndex): string[] {
  const ids: string[] = [];
  for (const a of attributions) {
    const value = String(a.ref.value);
    if (a.ref.urlRepo !== null && a.ref.urlRepo.toLowerCase() !== repo.toLowerCase()) continue;
    if (a.ref.type !== 'pr' && /^[0-9a-f]{40}$/i.test(value)) ids.push(value.toLowerCase());
    if (a.ref.type === 'pr') {
      const p = index.byNumber.get(Number(value));
      if (p?.mergeCommitSha) ids.push(p.mergeCommitSha);
      if (p) ids.push(...p.commitShas);
    }
  }
  return [...new Set(ids)];
}

const codesOf = (reasons: readonly Reason[]): string => [...new Set(reasons.map((r) => r.code))].join(',');

/**
 * Backward: resolves each attributed reference to one full SHA, applies the resolution rules
 * (ambiguous-sha, competing, cross-repository, …) and records gold, parent, cutoff and windows.
 * Threads the attribute stage rejected are cleared and passed over.
 */
export const resolveStage: Stage<ResolveItem> = {
  name: 'resolve',
  version: 1,
  needs: ['attribute'],
  description: 'resolve attributed SHAs, URLs and PRs to one commit; cutoff and history window (Backward)',
  plan(ctx, repos) {
    const sources = ctx.store.sources;
    const tables = ctx.store.backward;
    const items: PlannedItem<ResolveItem>[] = [];
    for (const repo of repos) {
      const repoRow = sources.repo(repo);
      const branch = repoConfig(ctx.config, repo)?.default_branch ?? repoRow?.defaultBranch ?? null;
      const fixesOf = indexPulls([], sources.links(repo)).fixesOf;
      const pulls = digestOf(sources.pulls(repo).map((p) => ({ n: p.number, merge: p.mergeCommitSha, commits: p.commitShas })));
      for (const number of tables.screenedThreads(repo)) {
        const thread = sources.thread(repo, number);
        if (!thread) continue;
        const digest = digestOf({
          thread: { createdAt: thread.createdAt, title: thread.title, body: thread.body, url: thread.htmlUrl },
          comments: sources.comments(repo, number).map((c) => [c.commentId, c.createdAt, c.author, c.body]),
          attributions: tables.attributions(repo, number),
          text: tables.textScreen(repo, number),
          branch,
          gitUrl: repoConfig(ctx.config, repo)?.git_url ?? null,
          fixes: fixesOf.get(number) ?? [],
          pulls,
        });
        items.push({ key: `${repo}#${number}`, repo, inputDigest: digest, input: { repo, number } });
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number } = item.input;
    const sources = ctx.store.sources;
    const tables = ctx.store.backward;
    const text = tables.textScreen(repo, number);
    const row = sources.thread(repo, number);
    if (!text || !row) throw new MinerError('not-found', `${repo}#${number}: thread or its attributions are gone; re-run attribute`);
    if (text.decision === 'reject') {
      return { status: 'rejected', reason: codesOf(text.reasons) || 'no-attribution', save: (s) => s.backward.clearResolution(repo, number) };
    }
    const thread = threadFromRows(row, sources.comments(repo, number), repositoryAliases(repo, repoConfig(ctx.config, repo)?.aliases ?? [], sources.repo(repo)?.htmlUrl));
    const attributions = tables.attributions(repo, number);
    const handle = await ctx.git.get(repo);
    // Read once per repository and run (not per item): O(items + pull requests).
    let index = ctx.caches.resolvePulls.get(repo.toLowerCase());
    if (!index) {
      index = indexPulls(sources.pulls(repo), sources.links(repo));
      ctx.caches.resolvePulls.set(repo.toLowerCase(), index);
    }
    await handle.ensureObjects(neededObjects(repo, attributions, index));
    const out = await resolveThread(handle, thread, attributions, text, {
      defaultBranch: repoConfig(ctx.config, repo)?.default_branch ?? sources.repo(repo)?.defaultBranch ?? null,
      pull: (n) => index.byNumber.get(n),
      carrying: (sha) => index.bySha.get(sha) ?? [],
      fixPulls: [...(index.fixesOf.get(number) ?? [])],
      cutoffOf: async (branch, reportTime) => (await ctx.git.branchHistory(handle, branch, thread.aliases)).cutoff(reportTime),
      countBetween: async (branch, base, tip) =>
        (await (await ctx.git.branchHistory(handle, branch, thread.aliases)).countBetweenOutside(base, tip, async (sha) => (await handle.objects.commit(sha))?.parents ?? null)) ??
        historyWindow(handle.gitDir, base, tip),
    });
    const save = (s: Store): void =>
      s.backward.replaceResolution(out.record, out.resolutions, out.screen.reasons);
    if (out.record.status === 'rejected') return { status: 'rejected', reason: codesOf(out.screen.reasons) || 'unresolved', save };
    return { status: 'done', save };
  },
};
