/**
 * What admission reads from the review ledger: whether a human accept is bound to the case's
 * current inputs. The digest comes from src/review/digest.ts (backwardDigestOfRows,
 * forwardDigestOfCase) over the same rows admission gathers, so both sides agree.
 */
import type { Database } from 'better-sqlite3';
import { ReviewLedger, type ReviewStatus } from '../store/tables/review.js';

export interface LedgerStanding {
  /** Always true once migration 0009 is applied: the ledger exists. */
  readonly ledger: true;
  /** A human accept on the current inputs, with no disagreement. */
  readonly accepted: boolean;
  /** The ledger status, or null when the case has no current digest (nothing to review yet). */
  readonly status: ReviewStatus | null;
}

export function ledgerStanding(db: Database, caseKey: string, currentDigest: string | null): LedgerStanding {
  if (currentDigest === null) return { ledger: true, accepted: false, status: null };
  const { status } = new ReviewLedger(db).status(caseKey, currentDigest);
  return { ledger: true, accepted: status === 'accepted', status };
}
