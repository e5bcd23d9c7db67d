import { checkReasons } from '../backward/validate.js';
import { validateCase } from '../backward/chain.js';
import type { Store } from '../store/db.js';
import type { BackwardCaseRecord } from '../store/tables/backward.js';
import { planItem } from './plan.js';
import { repositoryAliases } from '../github/identity.js';
import { repoConfig } from '../config.js';
import type { PlannedItem, Stage } from './types.js';

export interface ValidateItem {
  readonly repo: string;
  readonly number: number;
  /** The thread's case as resolve stored it (null: none). */
  readonly record: BackwardCaseRecord | null;
}

/**
 * Backward: runs every structural check on a resolved gold (full SHA, exists, commit, non-merge,
 * parent, ancestor of the cutoff, on the default branch, before the report) and stores each.
 * A case fails when any check fails; threads without a resolved gold are cleared and passed over.
 */
export const validateStage: Stage<ValidateItem> = {
  name: 'validate',
  version: 1,
  needs: ['resolve'],
  description: 'structural checks of each resolved Backward gold, one row per check',
  plan(ctx, repos) {
    const tables = ctx.store.backward;
    const items: PlannedItem<ValidateItem>[] = [];
    for (const repo of repos) {
      for (const number of tables.screenedThreads(repo)) {
        items.push(planItem(`${repo}#${number}`, repo, { repo, number, record: tables.caseOf(repo, number) ?? null }));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number, record } = item.input;
    if (!record || record.status !== 'resolved') {
      return {
        status: 'rejected',
        reason: record ? 'unresolved' : 'not-resolved',
        save: (s) => s.backward.replaceChecks(repo, number, [], []),
      };
    }
    const handle = await ctx.git.get(repo);
    // The same names as the resolve stage's, so both share one reading of the branch.
    const aliases = repositoryAliases(repo, repoConfig(ctx.config, repo)?.aliases ?? [], ctx.store.sources.repo(repo)?.htmlUrl);
    const history = record.defaultBranch ? await ctx.git.branchHistory(handle, record.defaultBranch, aliases).catch(() => undefined) : undefined;
    const checks = await validateCase(handle, record, history);
    const reasons = checkReasons(checks);
    const save = (s: Store): void =>
      s.backward.replaceChecks(repo, number, checks, reasons);
    if (reasons.length > 0) {
      const failed = checks.filter((c) => !c.pass).map((c) => c.name);
      return { status: 'rejected', reason: `structural-check-failed:${failed.join(',')}`, save };
    }
    return { status: 'done', save };
  },
};
