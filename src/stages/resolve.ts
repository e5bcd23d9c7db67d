import { screenResolved, type ResolvedRef } from '../backward/attribution-screen.js';
import { threadFromRows } from '../backward/thread.js';
import type { Attribution, Reason, TextScreen, Thread } from '../model/backward.js';
import { repoConfig } from '../config.js';
import { MinerError } from '../errors.js';
import type { Cutoff } from '../backward/cutoff.js';
import { computeCutoff, defaultBranchOf, historyWindow, matchingTag, tagWindow } from '../git/history.js';
import type { GitRepoHandle } from '../git/repos.js';
import { resolveRef } from '../git/resolve-ref.js';
import { BackwardTables, type BackwardCaseRecord, type ResolutionRow } from '../store/tables/backward.js';
import { Sources, type PullRow } from '../store/tables/sources.js';
import { digestOf } from '../util/canonical.js';
import { caseId } from '../util/case-id.js';
import { indexPulls, type PullIndex } from '../backward/pull-index.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface ResolveItem {
  readonly repo: string;
  readonly number: number;
}

export interface ThreadResolution {
  readonly record: BackwardCaseRecord;
  readonly resolutions: ResolutionRow[];
  /** The screen after resolution (competing, ambiguous-sha, cross-repository, …). */
  readonly screen: TextScreen;
}

export interface ResolveOptions {
  /** The default branch to cut at; null: the mirror's HEAD branch. */
  readonly defaultBranch: string | null;
  /** Stored pull requests by number (for `#N` attributions). */
  readonly pull?: (n: number) => PullRow | undefined;
  /** Pull requests linked to the issue as its fix. */
  readonly fixPulls?: readonly number[];
  /** All stored pull requests of the repository (to find the culprit's PR); see also `carrying`. */
  readonly pulls?: readonly PullRow[];
  /** The branch as it stood at a time; default: computeCutoff, the per-case reference (git processes per call). */
  readonly cutoffOf?: (branch: string, reportTime: Date) => Promise<Cutoff>;
  /** `rev-list --count base..tip`; default: historyWindow (one git process per call). */
  readonly countBetween?: (branch: string, base: string, tip: string) => Promise<number>;
  /** Numbers of the pull requests whose merge or head commits include this SHA (indexed; wins over `pulls`). */
  readonly carrying?: (sha: string) => readonly number[];
}

const GOOD_VERSION = /\b(?:works?|worked|working|fine|good|ok|okay|last good|passes|passed)\b[^.\n]{0,60}?\bv?\d+(?:\.\d+){1,3}(?:-[0-9A-Za-z.]+)?/i;

/** The phrase naming the last good version ("works in 1.4.2"), or null. */
export function goodVersionText(text: string): string | null {
  return GOOD_VERSION.exec(text)?.[0] ?? null;
}

/**
 * Resolves every attribution of a thread against the repository, applies the rules that need
 * the resolved commits, and for a surviving culprit computes gold, parent, cutoff (with the rule
 * that decided it), the history window and the tag window.
 */
export async function resolveThread(
  handle: GitRepoHandle,
  thread: Thread,
  attributions: readonly Attribution[],
  text: TextScreen,
  options: ResolveOptions,
): Promise<ThreadResolution> {
  const repo = thread.repo;
  const resolutions: ResolutionRow[] = [];
  for (const [idx, a] of attributions.entries()) {
    const r = await resolveRef(handle, a.ref, {
      repo,
      aliases: thread.aliases ?? [],
      pullCommits: (n) => {
        const p = options.pull?.(n);
        return p ? { commitShas: p.commitShas, mergeCommitSha: p.mergeCommitSha } : undefined;
      },
    });
    resolutions.push({ idx, input: r.input, status: r.status, sha: r.sha, candidates: r.candidates, via: r.via });
  }
  const resolved: ResolvedRef[] = resolutions.map((r) => ({
    index: r.idx,
    status: r.status as ResolvedRef['status'],
    sha: r.sha,
    candidates: r.candidates,
  }));
  let screen = screenResolved(thread, attributions, text, resolved);
  const base: BackwardCaseRecord = {
    repo,
    number: thread.number,
    status: 'rejected',
    decision: 'reject',
    caseId: null,
    gold: null,
    goldSubject: null,
    parent: null,
    defaultBranch: null,
    cutoff: null,
    cutoffRule: 'none',
    cutoffNotes: [],
    historyWindow: null,
    tag: null,
    tagWindow: null,
    prNumbers: [...new Set(options.fixPulls ?? [])].sort((x, y) => x - y),
    reportTime: thread.createdAt,
    reportUrl: thread.url,
  };
  if (screen.decision === 'reject') return { record: base, resolutions, screen };

  // Unknown pull requests beside a resolved commit culprit are left out (see screenResolved).
  const known = screen.culprits.filter((i) => resolutions[i]?.status !== 'pr-unknown');
  const golds = [...new Set((known.length > 0 ? known : screen.culprits).map((i) => resolutions[i]?.sha ?? null))];
  const gold = golds.length === 1 ? golds[0]! : null;
  if (gold === null) {
    const evidence = screen.culprits.length === 0 ? 'no culprit attribution' : `culprits resolve to ${golds.map(String).join(', ')}`;
    screen = { decision: 'reject', culprits: [], reasons: [...screen.reasons, { code: 'unresolved', evidence }] };
    return { record: base, resolutions, screen };
  }

  const commit = await handle.objects.commit(gold);
  const branch = options.defaultBranch ?? (await defaultBranchOf(handle.gitDir));
  if (branch === null) throw new MinerError('git', `${repo}: cannot tell the default branch (mirror HEAD is detached; set default_branch in the config)`);
  const cutoff = options.cutoffOf ? await options.cutoffOf(branch, new Date(thread.createdAt)) : await computeCutoff(handle.gitDir, branch, new Date(thread.createdAt));
  const window = cutoff.sha
    ? options.countBetween
      ? await options.countBetween(branch, gold, cutoff.sha)
      : await historyWindow(handle.gitDir, gold, cutoff.sha)
    : null;
  const versionText = goodVersionText(`${thread.title}\n${thread.posts[0]?.body ?? ''}`);
  const tag = versionText ? await matchingTag(handle.gitDir, versionText) : null;
  const tagCount = tag && cutoff.sha ? await tagWindow(handle.gitDir, tag, cutoff.sha) : null;

  const culpritPulls = screen.culprits.map((i) => attributions[i]!).filter((a) => a.ref.type === 'pr').map((a) => Number(a.ref.value));
  const carrying = options.carrying
    ? [...options.carrying(gold)]
    : (options.pulls ?? []).filter((p) => p.mergeCommitSha === gold || p.commitShas.includes(gold)).map((p) => p.number);
  const prNumbers = [...new Set([...base.prNumbers, ...culpritPulls, ...carrying])].filter(Number.isInteger).sort((x, y) => x - y);

  return {
    record: {
      ...base,
      status: 'resolved',
      decision: screen.decision,
      caseId: caseId(repo, thread.number, { repo, number: thread.number, gold }),
      gold,
      goldSubject: commit?.subject ?? null,
      parent: commit?.parents[0] ?? null,
      defaultBranch: branch,
      cutoff: cutoff.sha,
      cutoffRule: cutoff.rule,
      cutoffNotes: cutoff.notes,
      historyWindow: window,
      tag,
      tagWindow: tagCount,
      prNumbers,
    },
    resolutions,
    screen,
  };
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
    const sources = new Sources(ctx.store.db);
    const tables = new BackwardTables(ctx.store.db);
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
    const sources = new Sources(ctx.store.db);
    const tables = new BackwardTables(ctx.store.db);
    const text = tables.textScreen(repo, number);
    const row = sources.thread(repo, number);
    if (!text || !row) throw new MinerError('not-found', `${repo}#${number}: thread or its attributions are gone; re-run attribute`);
    if (text.decision === 'reject') {
      return { status: 'rejected', reason: codesOf(text.reasons) || 'no-attribution', save: (s) => new BackwardTables(s.db).clearResolution(repo, number) };
    }
    const thread = threadFromRows(row, sources.comments(repo, number), repoConfig(ctx.config, repo)?.aliases ?? []);
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
      cutoffOf: async (branch, reportTime) => (await ctx.git.branchHistory(handle, branch)).cutoff(reportTime),
      countBetween: async (branch, base, tip) => (await ctx.git.branchHistory(handle, branch)).countBetween(base, tip) ?? historyWindow(handle.gitDir, base, tip),
    });
    const save = (s: Store): void =>
      new BackwardTables(s.db).replaceResolution(out.record, out.resolutions, out.screen.reasons);
    if (out.record.status === 'rejected') return { status: 'rejected', reason: codesOf(out.screen.reasons) || 'unresolved', save };
    return { status: 'done', save };
  },
};
