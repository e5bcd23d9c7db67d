import { EVALUATOR_ID, isWorkflowPath } from '../routing/index.js';
import { forwardContext } from '../model/forward.js';
import { compiledRouter } from '../forward/router.js';
import { readBaseInputs } from '../forward/git-inputs.js';
import { MIN_SHA_PREFIX } from '../forward/issue-text.js';
import { pairKey } from '../forward/link-rules.js';
import { memoizeOnePath, repositoryPrior } from '../forward/prior.js';
import type { Prior, ReasonRow } from '../model/forward.js';
import type { RecoveryRecord } from '../store/tables/forward.js';
import { screenCase, type ScreenedComment, type ScreenedIssue, type ScreenedPull } from '../forward/case-screen.js';
import { SCOPE_AMBIGUITY_THRESHOLD } from '../forward/stability.js';
import { digestOf } from '../util/canonical.js';
import { planItem } from './plan.js';
import type { PlannedItem, Stage, StageContext } from './types.js';

export interface ForwardScreenItem {
  readonly repo: string;
  readonly issue: number;
  readonly pull: number;
  /** The screening rules' constants (a change re-screens every case). */
  readonly rules: { readonly threshold: number; readonly minSha: number };
  /** Flags of the link stage (multi-link). */
  readonly linkFlags: readonly ReasonRow[];
  /** The recovered base, head, Δ* and workflows at base. */
  readonly recovery: {
    readonly base: string;
    readonly head: string;
    readonly baseRef: string;
    readonly changedPaths: readonly string[];
    readonly workflows: RecoveryRecord['workflows'];
    readonly workflowsDigest: string;
  };
  /** The gold workflow set of the route stage. */
  readonly gold: readonly string[];
  readonly thread: ScreenedIssue;
  readonly comments: readonly ScreenedComment[];
  readonly pr: ScreenedPull;
}

/**
 * Forward screening: the agent-visible issue (comments before the fixing PR, references to it
 * deleted), gold stability under alternative scopes, the repository prior, labels, and the
 * decision (candidate, review when flagged, reject with a reason).
 */
export const forwardScreenStage: Stage<ForwardScreenItem> = {
  name: 'forward-screen',
  version: 2,
  needs: ['link', 'recover', 'route'],
  description: 'build the agent-visible issue and the stability/prior signals of Forward cases',
  plan(ctx, repos) {
    const sources = ctx.store.sources;
    const forward = ctx.store.forward;
    const items: PlannedItem<ForwardScreenItem>[] = [];
    for (const repo of repos) {
      for (const gold of forward.golds(repo)) {
        if (gold.status !== 'done') continue;
        const { issue, pull } = gold;
        const link = forward.link(repo, issue, pull);
        const rec = forward.recovery(repo, issue, pull);
        const thread = sources.thread(repo, issue);
        const pr = sources.pull(repo, pull);
        if (!link || link.status !== 'kept' || !rec || rec.status !== 'done' || rec.base === null || rec.head === null || !thread || !pr) continue;
        items.push(
          planItem(pairKey(repo, issue, pull), repo, {
            repo,
            issue,
            pull,
            rules: { threshold: SCOPE_AMBIGUITY_THRESHOLD, minSha: MIN_SHA_PREFIX },
            linkFlags: link.flags,
            recovery: { base: rec.base, head: rec.head, baseRef: rec.baseRef, changedPaths: rec.changedPaths, workflows: rec.workflows, workflowsDigest: rec.workflowsDigest },
            gold: gold.gold,
            thread: { number: thread.number, title: thread.title, body: thread.body, createdAt: thread.createdAt },
            comments: sources.comments(repo, issue).map((c) => ({ commentId: c.commentId, author: c.author, createdAt: c.createdAt, body: c.body })),
            pr: { number: pr.number, createdAt: pr.createdAt, commitShas: pr.commitShas, headSha: pr.headSha, mergeCommitSha: pr.mergeCommitSha },
          }),
        );
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, recovery: rec, thread, comments, pr } = item.input;
    const forward = ctx.store.forward;
    const context = forwardContext(rec.baseRef);
    const handle = await ctx.git.get(repo);
    const { tree, imports } = await readBaseInputs(handle, rec.base, rec.changedPaths);
    const activatedFor = compiledRouter(rec.workflows, context);
    const priorKey = digestOf({ context, workflows: rec.workflowsDigest });
    const cached = forward.prior(repo, rec.base, priorKey, EVALUATOR_ID);
    const prior: Prior = cached ?? repositoryPrior(tree, memoizeOnePath(activatedFor, onePathCache(ctx, priorKey)));
    const record = screenCase({
      repo,
      issue: thread,
      comments,
      pull: pr,
      linkFlags: item.input.linkFlags,
      base: rec.base,
      head: rec.head,
      baseRef: rec.baseRef,
      changed: rec.changedPaths,
      gold: item.input.gold,
      workflowCount: rec.workflows.filter((w) => isWorkflowPath(w.path)).length,
      tree,
      imports,
      activatedFor,
      prior,
    });
    const save = (store: typeof ctx.store): void => {
      const t = store.forward;
      if (!cached) t.putPrior(repo, rec.base, priorKey, EVALUATOR_ID, prior);
      t.putCase(record);
    };
    if (record.decision === 'reject') return { status: 'rejected', reason: record.reasons[0]!.code, save };
    return { status: 'done', save };
  },
};


/** Keep the one-path routes of this many workflow sets per run (successive bases usually share one). */
const ONE_PATH_CACHES = 4;

/** The run's cache of one-path routes for one set of workflows and context (see memoizeOnePath). */
function onePathCache(ctx: StageContext, key: string): Map<string, readonly string[]> {
  const all = ctx.caches.forwardOnePathRoutes;
  let cache = all.get(key);
  if (!cache) {
    if (all.size >= ONE_PATH_CACHES) all.delete(all.keys().next().value!);
    cache = new Map();
    all.set(key, cache);
  }
  return cache;
}
