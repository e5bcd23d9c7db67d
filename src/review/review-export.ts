/**
 * The review export: one JSON line per case needing a human decision, with its evidence, its
 * links, the digest a decision binds to, where it stands in the ledger and every earlier entry.
 * Sorted by case key, canonical JSON: the same database exports the same bytes.
 */
import type { Store } from '../store/db.js';
import { ReviewLedger, type ReviewEntry, type ReviewStatus } from '../store/tables/review.js';
import { canonicalJson } from '../util/canonical.js';
import { reviewCases, type CaseScope, type ReviewCase } from './cases.js';
import { reviewStanding } from './status.js';

export type StatusFilter = ReviewStatus | 'all';
export const STATUS_FILTERS: readonly StatusFilter[] = ['pending', 'needs-adjudication', 'accepted', 'rejected', 'all'];

export interface ReviewExportOptions extends CaseScope {
  readonly status: StatusFilter;
  readonly includeCandidates?: boolean;
}

/** A ledger entry as exported; `current` tells whether it is bound to the case's current inputs. */
export function entryView(e: ReviewEntry, currentDigest: string): Record<string, unknown> {
  return {
    id: e.id,
    reviewer: e.reviewer,
    decision: e.decision,
    reason: e.reason,
    source: e.source,
    input_digest: e.inputDigest,
    recorded_at: e.recordedAt,
    current: e.inputDigest === currentDigest,
  };
}

/** The exported record of one case: its view, its ledger status and every entry recorded for it. */
export function reviewRecord(c: ReviewCase, ledger: ReviewLedger): { status: ReviewStatus; record: Record<string, unknown> } {
  const entries = ledger.entries(c.caseKey);
  const { status } = reviewStanding(ledger.entries(c.caseKey), c.inputDigest);
  return { status, record: { ...c.view, status, decisions: entries.map((e) => entryView(e, c.inputDigest)) } };
}

/** The export lines (canonical JSON, no newline), sorted by case key. */
export function* reviewExportLines(store: Store, options: ReviewExportOptions): Generator<string> {
  const ledger = store.review;
  for (const c of reviewCases(store, options)) {
    const { status, record } = reviewRecord(c, ledger);
    if (options.status !== 'all' && status !== options.status) continue;
    yield canonicalJson(record);
  }
}
