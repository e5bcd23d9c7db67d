import { checkReasons } from '../backward/validate.js';
import type { BatchObjects } from '../git/batch.js';
import type { BranchHistory } from '../git/branch-history.js';
import { structuralChecks, structuralChecksWith } from '../git/checks.js';
import { MinerError } from '../errors.js';
import { BackwardTables, type BackwardCaseRecord, type CheckRow } from '../store/tables/backward.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface ValidateItem {
  readonly repo: string;
  readonly number: number;
}

/** The structural checks of a resolved case, one row per check with its evidence. */
export async function validateCase(
  handle: { gitDir: string; objects: BatchObjects },
  record: BackwardCaseRecord,
  /** The default branch's history, read once for all cases of the repository; without it, one git process per ancestry question. */
  history?: BranchHistory,
): Promise<CheckRow[]> {
  if (!record.gold || !record.defaultBranch) throw new MinerError('internal', `${record.repo}#${record.number}: validate needs a resolved gold and branch`);
  const input = {
    gold: record.gold,
    cutoff: record.cutoff,
    defaultBranch: record.defaultBranch,
    reportTime: new Date(record.reportTime),
  };
  const results = history && history.branch === record.defaultBranch ? await structuralChecksWith(history, handle, input) : await structuralChecks(handle, input);
  return results.map((r) => ({ name: r.name, pass: r.pass, evidence: r.evidence }));
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
    const tables = new BackwardTables(ctx.store.db);
    const items: PlannedItem<ValidateItem>[] = [];
    for (const repo of repos) {
      for (const number of tables.screenedThreads(repo)) {
        items.push({
          key: `${repo}#${number}`,
          repo,
          inputDigest: digestOf({ case: tables.caseOf(repo, number) ?? null }),
          input: { repo, number },
        });
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number } = item.input;
    const record = new BackwardTables(ctx.store.db).caseOf(repo, number);
    if (!record || record.status !== 'resolved') {
      return {
        status: 'rejected',
        reason: record ? 'unresolved' : 'not-resolved',
        save: (s) => new BackwardTables(s.db).replaceChecks(repo, number, [], []),
      };
    }
    const handle = await ctx.git.get(repo);
    const history = record.defaultBranch ? await ctx.git.branchHistory(handle, record.defaultBranch).catch(() => undefined) : undefined;
    const checks = await validateCase(handle, record, history);
    const reasons = checkReasons(checks);
    const save = (s: Store): void =>
      new BackwardTables(s.db).replaceChecks(repo, number, checks, reasons);
    if (reasons.length > 0) {
      const failed = checks.filter((c) => !c.pass).map((c) => c.name);
      return { status: 'rejected', reason: `structural-check-failed:${failed.join(',')}`, save };
    }
    return { status: 'done', save };
  },
};
