import type { Database } from 'better-sqlite3';
import { type Row, allRows, num, str } from '../row.js';
import { ValidationError } from '../../errors.js';

/** The review ledger (migration 0009): append-only decisions about cases, bound to input digests. */
export type ReviewDecision = 'accept' | 'reject' | 'uncertain';

export interface ReviewEntry {
  id: number;
  caseKey: string;
  task: 'backward' | 'forward';
  reviewer: string;
  decision: ReviewDecision;
  reason: string;
  inputDigest: string;
  recordedAt: string;
  source: 'human' | 'screener';
}

export type ReviewStatus = 'accepted' | 'rejected' | 'pending' | 'needs-adjudication';

const DECISIONS: ReadonlySet<string> = new Set(['accept', 'reject', 'uncertain']);
const SCREENER_PREFIX = 'screener:';

/** The statements of ReviewLedger, prepared once per instance. */
function prepareReviewLedger(db: Database) {
  return {
    insert: db.prepare(`INSERT INTO review_entries (case_key, task, reviewer, decision, reason, input_digest, recorded_at, source)
      VALUES (@caseKey, @task, @reviewer, @decision, @reason, @inputDigest, @recordedAt, @source)`),
    ofCase: db.prepare('SELECT * FROM review_entries WHERE case_key = ? ORDER BY id'),
    identical: db.prepare(`SELECT id FROM review_entries
      WHERE case_key = @caseKey AND reviewer = @reviewer AND decision = @decision AND reason = @reason
        AND input_digest = @inputDigest AND source = @source ORDER BY id LIMIT 1`),
    count: db.prepare('SELECT count(*) AS n FROM review_entries'),
  };
}

export class ReviewLedger {
  private readonly s: ReturnType<typeof prepareReviewLedger>;
  constructor(private readonly db: Database) {
    this.s = prepareReviewLedger(db);
  }

  /** Appends one entry and returns its id. The ledger is append-only: nothing is ever updated or removed. */
  append(entry: Omit<ReviewEntry, 'id'>): number {
    checkEntry(entry);
    return Number(this.s.insert.run(entry).lastInsertRowid);
  }

  /** Every entry of a case, oldest first. */
  entries(caseKey: string): ReviewEntry[] {
    return allRows(this.s.ofCase, caseKey).map(toEntry);
  }

  /** The id of an entry with the same case, reviewer, decision, reason, digest and source, if any. */
  findIdentical(entry: Pick<ReviewEntry, 'caseKey' | 'reviewer' | 'decision' | 'reason' | 'inputDigest' | 'source'>): number | undefined {
    const r = this.s.identical.get({
      caseKey: entry.caseKey,
      reviewer: entry.reviewer,
      decision: entry.decision,
      reason: entry.reason,
      inputDigest: entry.inputDigest,
      source: entry.source,
    }) as { id: number } | undefined;
    return r?.id;
  }

  count(): number {
    return (this.s.count.get() as { n: number }).n;
  }
}

function checkEntry(e: Omit<ReviewEntry, 'id'>): void {
  const bad = (what: string): never => {
    throw new ValidationError(`review entry for ${e.caseKey || '(no case)'}: ${what}`);
  };
  if (!e.caseKey) bad('case key is empty');
  if (e.task !== 'backward' && e.task !== 'forward') bad(`task ${JSON.stringify(e.task)} is not backward or forward`);
  if (!e.reviewer.trim()) bad('reviewer is empty');
  if (!DECISIONS.has(e.decision)) bad(`decision ${JSON.stringify(e.decision)} is not accept, reject or uncertain`);
  if (!e.inputDigest) bad('input digest is empty');
  if (Number.isNaN(Date.parse(e.recordedAt))) bad(`recorded_at ${JSON.stringify(e.recordedAt)} is not a timestamp`);
  if (e.source === 'screener' && !e.reviewer.startsWith(SCREENER_PREFIX)) bad(`a screener entry's reviewer must start with ${SCREENER_PREFIX}`);
  if (e.source === 'human' && e.reviewer.startsWith(SCREENER_PREFIX)) bad(`reviewer ${e.reviewer}: names starting with ${SCREENER_PREFIX} are reserved for screeners`);
  if (e.source !== 'human' && e.source !== 'screener') bad(`source ${JSON.stringify(e.source)} is not human or screener`);
}

function toEntry(r: Row): ReviewEntry {
  return {
    id: num(r, 'id'),
    caseKey: str(r, 'case_key'),
    task: r.task as ReviewEntry['task'],
    reviewer: str(r, 'reviewer'),
    decision: r.decision as ReviewDecision,
    reason: str(r, 'reason'),
    inputDigest: str(r, 'input_digest'),
    recordedAt: str(r, 'recorded_at'),
    source: r.source as ReviewEntry['source'],
  };
}
