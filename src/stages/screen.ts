import type { Decision } from '../model/backward.js';
import { BackwardTables, type StageReason } from '../store/tables/backward.js';
import { digestOf } from '../util/canonical.js';
import type { Store } from '../store/db.js';
import type { PlannedItem, Stage } from './types.js';

export interface ScreenItem {
  readonly repo: string;
  readonly number: number;
}

export interface FinalDecision {
  readonly decision: Decision;
  readonly caseId: string | null;
  readonly reasons: StageReason[];
}

/** What the final decision of a thread reads, gathered from the earlier Backward stages. */
export interface Gathered {
  readonly textDecision: Decision;
  readonly caseStatus: 'resolved' | 'rejected' | null;
  readonly caseDecision: Decision | null;
  readonly caseId: string | null;
  readonly reasons: { readonly attribute: StageReason[]; readonly resolve: StageReason[]; readonly validate: StageReason[]; readonly sanitize: StageReason[] };
  readonly validated: boolean;
  readonly sanitized: boolean;
}

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
 * The final Backward decision from what the stages stored, or null while a stage it needs has
 * not run yet. Rejections at any stage reject; otherwise a thread the text rules sent to review
 * stays in review (pending a human decision); otherwise it is a candidate. Never breaks a tie.
 */
export function decide(g: Gathered): FinalDecision | null {
  if (g.textDecision === 'reject') return { decision: 'reject', caseId: null, reasons: g.reasons.attribute };
  if (g.caseStatus === null) return null;
  // The resolve stage's reasons include the text-level ones it re-screened.
  if (g.caseStatus === 'rejected') return { decision: 'reject', caseId: null, reasons: g.reasons.resolve };
  if (!g.validated || !g.sanitized) return null;
  const failures = [...g.reasons.validate, ...g.reasons.sanitize];
  if (failures.length > 0) return { decision: 'reject', caseId: g.caseId, reasons: [...g.reasons.resolve, ...failures] };
  return { decision: g.caseDecision === 'review' ? 'review' : 'candidate', caseId: g.caseId, reasons: g.reasons.resolve };
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
    const tables = new BackwardTables(ctx.store.db);
    const items: PlannedItem<ScreenItem>[] = [];
    for (const repo of repos) {
      for (const number of tables.screenedThreads(repo)) {
        const g = gather(tables, repo, number);
        if (!g || decide(g) === null) continue;
        items.push({ key: `${repo}#${number}`, repo, inputDigest: digestOf(g), input: { repo, number } });
      }
    }
    return items;
  },
  async process(item, ctx) {
    const { repo, number } = item.input;
    const g = gather(new BackwardTables(ctx.store.db), repo, number);
    const final = g ? decide(g) : null;
    if (!final) {
      return { status: 'rejected', reason: 'incomplete', save: (s) => new BackwardTables(s.db).clearScreen(repo, number) };
    }
    const save = (s: Store): void =>
      new BackwardTables(s.db).replaceScreen({ repo, number, caseId: final.caseId, decision: final.decision, reasons: final.reasons });
    if (final.decision === 'reject') {
      return { status: 'rejected', reason: [...new Set(final.reasons.map((r) => r.code))].join(',') || 'rejected', save };
    }
    return { status: 'done', save };
  },
};
