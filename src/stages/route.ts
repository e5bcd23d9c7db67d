import { EVALUATOR_ID, isWorkflowPath, route } from '../routing/index.js';
import { forwardContext } from '../model/forward.js';
import { computeGold } from '../forward/gold.js';
import { pairKey } from '../forward/link-rules.js';
import { ForwardTables, type GoldRecord } from '../store/tables/forward.js';
import { digestOf } from '../util/canonical.js';
import type { Stage } from './types.js';

export interface RouteItem {
  readonly repo: string;
  readonly issue: number;
  readonly pull: number;
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
    const forward = new ForwardTables(ctx.store.db);
    const items = [];
    for (const repo of repos) {
      for (const rec of forward.recoveries(repo)) {
        if (rec.status !== 'done') continue;
        const input = { repo, issue: rec.issue, pull: rec.pull };
        items.push({
          key: pairKey(repo, rec.issue, rec.pull),
          repo,
          inputDigest: digestOf({ evaluator: EVALUATOR_ID, workflows: rec.workflowsDigest, changed: rec.changedPaths, baseRef: rec.baseRef }),
          input,
        });
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, issue, pull } = item.input;
    const rec = new ForwardTables(ctx.store.db).recovery(repo, issue, pull);
    if (!rec || rec.status !== 'done') throw new Error(`${item.key}: no recovered base (run the recover stage first)`);
    const g = computeGold(rec.workflows, rec.changedPaths, forwardContext(rec.baseRef), route, isWorkflowPath);
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
    const save = (store: typeof ctx.store): void => new ForwardTables(store.db).putGold(row);
    if (g.reasons.length > 0) return { status: 'rejected', reason: g.reasons[0]!.code, save };
    return { status: 'done', save };
  },
};
