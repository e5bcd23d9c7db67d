import { finalDecision, type Gathered } from '../backward/decision.js';
import { BackwardTables } from '../store/tables/backward.js';
import type { Store } from '../store/db.js';
import { planItem } from './plan.js';
import type { PlannedItem, Stage } from './types.js';

export interface ScreenItem {
  readonly repo: string;
  readonly number: number;
  /** What the earlier stages stored for the thread (read once, in plan). */
  readonly gathered: Gathered;
}

/** What the final decision of a thread reads, from the rows the earlier Backward stages stored. */
function gather(tables: BackwardTables, repo: string, number: number): Gathered | null {
  const text = tables.textScreen(repo, number);
  if (!text) return null;
  const record = tables.caseOf(repo, number);
  return {
    textDecision: text.decision,
    caseStatus: record?.status ?? null,
    caseDecision: record?.decision ?? null,
    caseId: record?.caseId ?? null,
    reasons: {
      attribute: tables.stageReasons('attribute', repo, number),
      resolve: tables.stageReasons('resolve', repo, number),
      validate: tables.stageReasons('validate', repo, number),
      sanitize: tables.stageReasons('sanitize', repo, number),
    },
    validated: tables.checks(repo, number).length > 0,
    sanitized: tables.report(repo, number) !== undefined,
  };
}

/**
 * Backward: the final text/ambiguity decision per thread (candidate, review or reject) with
 * every reason the earlier stages recorded, stored for admission, review and export.
 */
export const screenStage: Stage<ScreenItem> = {
  name: 'screen',
  version: 1,
  needs: ['attribute', 'resolve', 'validate', 'sanitize'],
  description: 'final Backward decision combining attribution, resolution, check and sanitization reasons',
  plan(ctx, repos) {
    const tables = ctx.store.backward;
    const items: PlannedItem<ScreenItem>[] = [];
    for (const repo of repos) {
      for (const number of tables.screenedThreads(repo)) {
        const g = gather(tables, repo, number);
        if (!g || finalDecision(g) === null) continue;
        items.push(planItem(`${repo}#${number}`, repo, { repo, number, gathered: g }));
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number, gathered } = item.input;
    const final = finalDecision(gathered);
    if (!final) {
      return { status: 'rejected', reason: 'incomplete', save: (s) => s.backward.clearScreen(repo, number) };
    }
    const save = (s: Store): void =>
      s.backward.replaceScreen({ repo, number, caseId: final.caseId, decision: final.decision, reasons: final.reasons });
    if (final.decision === 'reject') {
      return { status: 'rejected', reason: [...new Set(final.reasons.map((r) => r.code))].join(',') || 'rejected', save };
    }
    return { status: 'done', save };
  },
};
