import { MinerError } from '../errors.js';
import { recoverForward } from '../git/forward.js';
import { readWorkflowFiles } from '../git/workflows.js';
import { pairKey } from '../forward/link-rules.js';
import type { RecoveryRecord } from '../store/tables/forward.js';
import { digestOf } from '../util/canonical.js';
import { planItem } from './plan.js';
import type { ItemOutcome, PlannedItem, Stage } from './types.js';

export interface RecoverItem {
  readonly repo: string;
  readonly issue: number;
  readonly pull: number;
  readonly number: number;
  readonly baseRef: string;
  readonly baseSha: string;
  readonly headSha: string;
  readonly mergeCommitSha: string | null;
  readonly mergedAt: string | null;
}

/**
 * Forward: for each kept issue–PR pair, the base commit S_t, the head, Δ* (both paths of every
 * change) and the workflow files present at base (never the ones the PR adds).
 */
export const recoverStage: Stage<RecoverItem> = {
  name: 'recover',
  version: 1,
  needs: ['link'],
  description: 'recover base, head, changed paths and the workflows at base of linked pull requests (Forward)',
  plan(ctx, repos) {
    const sources = ctx.store.sources;
    const forward = ctx.store.forward;
    const items: PlannedItem<RecoverItem>[] = [];
    for (const repo of repos) {
      for (const link of forward.links(repo)) {
        if (link.status !== 'kept') continue;
        const pull = sources.pull(repo, link.pull);
        if (!pull) continue;
        const input: RecoverItem = {
          repo,
          issue: link.issue,
          pull: link.pull,
          number: pull.number,
          baseRef: pull.baseRef,
          baseSha: pull.baseSha,
          headSha: pull.headSha,
          mergeCommitSha: pull.mergeCommitSha,
          mergedAt: pull.mergedAt,
        };
        items.push(planItem(pairKey(repo, link.issue, link.pull), repo, input));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const p = item.input;
    const handle = await ctx.git.get(p.repo);
    const base = { repo: p.repo, issue: p.issue, pull: p.pull, baseRef: p.baseRef };
    const rejected = (code: 'head-missing' | 'base-missing', evidence: string): ItemOutcome => {
      const row: RecoveryRecord = {
        ...base,
        status: 'rejected',
        base: null,
        baseRule: null,
        head: null,
        changedPaths: [],
        workflows: [],
        workflowsDigest: digestOf([]),
        reasons: [{ code, evidence }],
      };
      return { status: 'rejected', reason: code, save: (store) => store.forward.putRecovery(row) };
    };
    await handle.ensureObjects([p.headSha]);
    if (!(await handle.objects.commit(p.headSha))) {
      return rejected('head-missing', `head ${p.headSha} of pull request #${p.number} is not a commit in the mirror`);
    }
    let recovered;
    try {
      recovered = await recoverForward(handle, {
        baseSha: p.baseSha,
        headSha: p.headSha,
        baseRef: p.baseRef,
        mergedAt: p.mergedAt,
        mergeCommitSha: p.mergeCommitSha,
        number: p.number,
      });
    } catch (error) {
      if (!isBaseMissing(error)) throw error;
      return rejected('base-missing', (error as Error).message.split('\n')[0]!);
    }
    const workflows = await readWorkflowFiles(handle.gitDir, recovered.base);
    const row: RecoveryRecord = {
      ...base,
      status: 'done',
      base: recovered.base,
      baseRule: recovered.baseRule,
      head: recovered.head,
      changedPaths: [...recovered.changedPaths],
      workflows,
      workflowsDigest: digestOf(workflows),
      reasons: [],
    };
    return { status: 'done', save: (store) => store.forward.putRecovery(row) };
  },
};

/** With the head present, recoverForward's not-found means: neither the base SHA nor a fallback base exists. */
function isBaseMissing(error: unknown): boolean {
  return error instanceof MinerError && error.kind === 'not-found';
}
