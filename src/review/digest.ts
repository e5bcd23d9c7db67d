/**
 * The input digest a review decision is bound to: a digest of the case's defining inputs as the
 * reviewer saw them. When any of them changes (a re-sanitized report, a new gold, an edited
 * issue) the digest changes and earlier decisions stop counting: the case drops back to pending.
 * Pure; the inputs come from the stored tables (see src/review/cases.ts).
 */
import { digestOf } from '../util/canonical.js';

export interface BackwardReviewInput {
  /** The sanitized report text (what the agent will read). */
  readonly report: string;
  /** The resolved first-bad commit (40 hex). */
  readonly gold: string;
  /** The attribution quotes (the sentence or output block of each attribution, in thread order). */
  readonly quotes: readonly string[];
}

export interface ForwardReviewInput {
  /** The agent-visible issue text. */
  readonly issueText: string;
  /** The base commit S_t. */
  readonly base: string;
  /** Δ*: the paths the fixing pull request changes. */
  readonly changedPaths: readonly string[];
  /** The gold workflow set. */
  readonly gold: readonly string[];
}

const sorted = (xs: readonly string[]): string[] => [...xs].sort();

export function backwardReviewDigest(input: BackwardReviewInput): string {
  return digestOf({ task: 'backward', report: input.report, gold: input.gold.toLowerCase(), quotes: [...input.quotes] });
}

export function forwardReviewDigest(input: ForwardReviewInput): string {
  return digestOf({
    task: 'forward',
    issue_text: input.issueText,
    base: input.base.toLowerCase(),
    changed_paths: sorted(input.changedPaths),
    gold: sorted(input.gold),
  });
}

export type ReviewInput = ({ readonly task: 'backward' } & BackwardReviewInput) | ({ readonly task: 'forward' } & ForwardReviewInput);

/** The review digest of either task. */
export function reviewDigest(input: ReviewInput): string {
  return input.task === 'backward' ? backwardReviewDigest(input) : forwardReviewDigest(input);
}

/**
 * The review digest of a Backward thread from its stored rows (what admission and the review
 * export both read), or null while it has no resolved gold or sanitized report.
 */
export function backwardDigestOfRows(rows: {
  readonly report: { readonly text: string } | null | undefined;
  readonly record: { readonly gold: string | null; readonly status: string } | null | undefined;
  readonly attributions: readonly { readonly sentence: { readonly text: string } }[];
}): string | null {
  if (!rows.report || !rows.record || rows.record.status !== 'resolved' || !rows.record.gold) return null;
  return backwardReviewDigest({ report: rows.report.text, gold: rows.record.gold, quotes: rows.attributions.map((a) => a.sentence.text) });
}

/** The review digest of a Forward case record (src/store/tables/forward.ts), or null before it is screened. */
export function forwardDigestOfCase(c: {
  readonly issue_text: string | null;
  readonly base: string | null;
  readonly changed_paths: readonly string[];
  readonly gold: readonly string[] | null;
}): string | null {
  if (c.issue_text === null || c.base === null || c.gold === null) return null;
  return forwardReviewDigest({ issueText: c.issue_text, base: c.base, changedPaths: c.changed_paths, gold: c.gold });
}
