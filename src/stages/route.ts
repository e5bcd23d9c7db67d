import { EVALUATOR_ID, isWorkflowPath, route } from '../routing/index.js';
import { forwardContext } from '../model/forward.js';
import { computeGold } from '../forward/gold.js';
import { pairKey } from '../forward/link-rules.js';
import type { GoldRecord, RecoveryRecord } from '../store/tables/forward.js';
import { planItem } from './plan.js';
import type { PlannedItem, Stage } from './types.js';

export interface RouteItem {
  readonly repo: string;
  readonly issue: number;
  readonly pull: number;
  readonly evaluator: string;
  /** The recovered base: its workflow files, Δ* and the PR's base branch. */
  readonly workflows: RecoveryRecord['workflows'];
  readonly changedPaths: readonly string[];
  readonly baseRef: string;
}

/**
 * Forward gold: the workflows at base routed against Δ* under {pull_request, synchronize, PR base
 * branch}, with the evaluator id, the explanation and the digests of the inputs.
 */
export const routeStage: Stage<RouteItem> = {
  name: 'route',
  version: 1,
  needs: ['recover'],
  description: 'compute the Forward gold workflow set with the versioned routing evaluator',
  plan(ctx, repos) {
    const forward = ctx.store.forward;
    const items: PlannedItem<RouteItem>[] = [];
    for (const repo of repos) {
      for (const rec of forward.recoveries(repo)) {
        if (rec.status !== 'done') continue;
        const input = { repo, issue: rec.issue, pull: rec.pull, evaluator: EVALUATOR_ID, workflows: rec.workflows, changedPaths: rec.changedPaths, baseRef: rec.baseRef };
        items.push(planItem(pairKey(repo, rec.issue, rec.pull), repo, input));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, issue, pull, workflows, changedPaths, baseRef } = item.input;
    const g = computeGold(workflows, changedPaths, forwardContext(baseRef), route, isWorkflowPath);
    const row: GoldRecord = {
      repo,
      issue,
      pull,
      status: g.reasons.length > 0 ? 'rejected' : 'done',
      context: g.context,
      gold: g.gold,
      invalid: g.invalid,
      explain: g.explain,
      evaluator: g.evaluator,
      limitApplied: g.limitApplied,
      inputDigests: g.inputDigests,
      reasons: g.reasons,
    };
    const save = (store: typeof ctx.store): void => store.forward.putGold(row);
    if (g.reasons.length > 0) return { status: 'rejected', reason: g.reasons[0]!.code, save };
    return { status: 'done', save };
  },
};
