/**
 * The final Backward decision of a thread (candidate, review or reject) from what each step of the
 * chain found: the screen stage decides from the stored rows, `r2v inspect backward` from the
 * same steps run in memory. Pure; never breaks a tie.
 */
import type { Attribution, Decision, Reason, TextScreen } from '../model/backward.js';
import type { StageReason } from '../store/tables/backward.js';

export interface FinalDecision<R = StageReason> {
  readonly decision: Decision;
  readonly caseId: string | null;
  readonly reasons: R[];
}

/** What the final decision of a thread reads, gathered from the earlier Backward steps. */
export interface Gathered<R = StageReason> {
  readonly textDecision: Decision;
  readonly caseStatus: 'resolved' | 'rejected' | null;
  readonly caseDecision: Decision | null;
  readonly caseId: string | null;
  readonly reasons: { readonly attribute: R[]; readonly resolve: R[]; readonly validate: R[]; readonly sanitize: R[] };
  readonly validated: boolean;
  readonly sanitized: boolean;
}

/**
 * The final decision, or null while a step it needs has not run yet. Rejections at any step
 * reject; otherwise a thread the text rules sent to review stays in review (pending a human
 * decision); otherwise it is a candidate.
 */
export function finalDecision<R>(g: Gathered<R>): FinalDecision<R> | null {
  if (g.textDecision === 'reject') return { decision: 'reject', caseId: null, reasons: g.reasons.attribute };
  if (g.caseStatus === null) return null;
  // The resolve step's reasons include the text-level ones it re-screened.
  if (g.caseStatus === 'rejected') return { decision: 'reject', caseId: null, reasons: g.reasons.resolve };
  if (!g.validated || !g.sanitized) return null;
  const failures = [...g.reasons.validate, ...g.reasons.sanitize];
  if (failures.length > 0) return { decision: 'reject', caseId: g.caseId, reasons: [...g.reasons.resolve, ...failures] };
  return { decision: g.caseDecision === 'review' ? 'review' : 'candidate', caseId: g.caseId, reasons: g.reasons.resolve };
}

/**
 * The decision when no repository is at hand, so nothing resolves: the text rules decide, a
 * candidate whose culprits are all pull requests goes to review (resolving them needs the
 * repository), and a failed sanitization rejects.
 */
export function decideWithoutRepository(
  attributions: readonly Attribution[],
  text: TextScreen,
  sanitizeReasons: readonly Reason[],
): { readonly decision: Decision; readonly reasons: Reason[] } {
  const reasons: Reason[] = [...text.reasons];
  let decision: Decision = text.decision;
  const culprits = text.culprits.map((i) => attributions[i]!);
  if (decision === 'candidate' && culprits.length > 0 && culprits.every((a) => a.ref.type === 'pr')) {
    decision = 'review';
    reasons.push({ code: 'unresolved', evidence: 'only pull requests are named; resolving them needs the repository' });
  }
  if (sanitizeReasons.length > 0) return { decision: 'reject', reasons: [...reasons, ...sanitizeReasons] };
  return { decision, reasons };
}
