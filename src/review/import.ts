/**
 * `r2v review import`: human decisions appended to the ledger. Each line is checked on its own;
 * a bad line is reported as `FILE:LINE: reason` and the others are still imported. A line is bad
 * when it does not parse, names no known case or a case the rules rejected, or carries an input
 * digest that is no longer the case's (stale). A line identical to a recorded entry is skipped,
 * so importing the same file twice changes nothing.
 */
import { z } from 'zod';
import type { Store } from '../store/db.js';
import type { ReviewEntry } from '../store/tables/review.js';
import type { JsonlLine } from '../util/jsonl.js';
import { indexCases, type CaseIndex, type CaseLookup, type ReviewCase } from './cases.js';

export const SCREENER_PREFIX = 'screener:';

export const ImportedDecision = z
  .object({
    case_id: z.string().min(1).optional(),
    case_key: z.string().min(1).optional(),
    reviewer: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(200)
      .regex(/^[^\r\n]+$/, 'must be one line')
      .refine((s) => !s.startsWith(SCREENER_PREFIX), `names starting with ${SCREENER_PREFIX} are reserved for screeners`),
    decision: z.enum(['accept', 'reject', 'uncertain']),
    reason: z.string().max(20_000),
    input_digest: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex (the input_digest of the export)').optional(),
  })
  .refine((v) => v.case_id !== undefined || v.case_key !== undefined, { message: 'needs case_id or case_key' });
export type ImportedDecision = z.infer<typeof ImportedDecision>;

export interface BadLine {
  readonly line: number;
  readonly message: string;
}

export interface ReviewImportSummary {
  readonly imported: number;
  readonly skipped: number;
  readonly bad: BadLine[];
}

function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

function describeLookup(l: CaseLookup, ref: string): string | null {
  if (l.kind === 'rejected') return `${ref}: the rules rejected this case (${l.codes.join(', ') || 'rejected'}); a review decision cannot admit it`;
  if (l.kind === 'incomplete') return `${ref}: nothing to review yet: ${l.why}`;
  return null;
}

/** Checks one parsed line against the known cases; returns the entry to append or why the line is bad. */
export function entryOfLine(
  value: unknown,
  index: CaseIndex,
  recordedAt: string,
): { entry: Omit<ReviewEntry, 'id'> } | { error: string } {
  const parsed = ImportedDecision.safeParse(value);
  if (!parsed.success) return { error: zodMessage(parsed.error) };
  const d = parsed.data;
  const byKey = d.case_key !== undefined ? index.byKey.get(d.case_key) : undefined;
  const byId = d.case_id !== undefined ? index.byId.get(d.case_id) : undefined;
  if (d.case_key !== undefined && !byKey) return { error: `case_key ${d.case_key}: unknown case` };
  if (d.case_id !== undefined && !byId) return { error: `case_id ${d.case_id}: unknown case` };
  if (byKey && byId && byKey !== byId) return { error: `case_id ${d.case_id} and case_key ${d.case_key} name different cases` };
  const lookup = (byKey ?? byId)!;
  const ref = d.case_key !== undefined ? `case_key ${d.case_key}` : `case_id ${d.case_id}`;
  const problem = describeLookup(lookup, ref);
  if (problem) return { error: problem };
  const c = (lookup as { case: ReviewCase }).case;
  if (d.input_digest !== undefined && d.input_digest !== c.inputDigest) {
    return {
      error: `${ref}: stale decision: input_digest ${d.input_digest.slice(0, 12)}… was reviewed, the case is now ${c.inputDigest.slice(0, 12)}… (its inputs changed; export it again)`,
    };
  }
  return {
    entry: {
      caseKey: c.caseKey,
      task: c.task,
      reviewer: d.reviewer,
      decision: d.decision,
      reason: d.reason,
      inputDigest: c.inputDigest,
      recordedAt,
      source: 'human',
    },
  };
}

/** Validates every line, then appends the good ones in one transaction (nothing half-written). */
export function importDecisions(store: Store, lines: readonly JsonlLine[], now: Date): ReviewImportSummary {
  const index = indexCases(store);
  const recordedAt = now.toISOString();
  const bad: BadLine[] = [];
  const entries: Omit<ReviewEntry, 'id'>[] = [];
  for (const l of lines) {
    if (l.error !== undefined) {
      bad.push({ line: l.lineNumber, message: l.error });
      continue;
    }
    const r = entryOfLine(l.value, index, recordedAt);
    if ('error' in r) bad.push({ line: l.lineNumber, message: r.error });
    else entries.push(r.entry);
  }
  let imported = 0;
  let skipped = 0;
  store.transaction(() => {
    const ledger = store.review;
    for (const e of entries) {
      if (ledger.findIdentical(e) !== undefined) skipped += 1;
      else {
        ledger.append(e);
        imported += 1;
      }
    }
  });
  return { imported, skipped, bad };
}
