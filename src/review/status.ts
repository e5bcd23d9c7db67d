/**
 * How a case stands in the review ledger. Pure: takes the case's entries and its current input
 * digest.
 *
 * Only human entries bound to the current digest count (a decision about other inputs is about
 * another case); screener entries are proposals and never decide. Each reviewer's latest such
 * entry is their decision, so a reviewer revises by appending, never by editing. Accepts and
 * rejects together, or an `uncertain` beside a decision, need adjudication; no decision at all
 * (nothing, or only `uncertain`) leaves the case pending.
 */
import type { ReviewEntry, ReviewStatus } from '../store/tables/review.js';

export interface ReviewStanding {
  readonly status: ReviewStatus;
  /** The deciding entries: each human reviewer's latest entry on the current digest, by id. */
  readonly decisions: ReviewEntry[];
}

export function reviewStanding(entries: readonly ReviewEntry[], currentDigest: string): ReviewStanding {
  const latest = new Map<string, ReviewEntry>();
  for (const e of [...entries].sort((a, b) => a.id - b.id)) {
    if (e.source !== 'human' || e.inputDigest !== currentDigest) continue;
    latest.set(e.reviewer, e);
  }
  const decisions = [...latest.values()].sort((a, b) => a.id - b.id);
  const kinds = new Set(decisions.map((d) => d.decision));
  const decisive = kinds.has('accept') || kinds.has('reject');
  let status: ReviewStatus;
  if (!decisive) status = 'pending';
  else if (kinds.size > 1) status = 'needs-adjudication';
  else status = kinds.has('accept') ? 'accepted' : 'rejected';
  return { status, decisions };
}
