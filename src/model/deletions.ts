/**
 * Deletion-only edits and leak findings as stored: the spans a sanitizer removed from a text and
 * what the leakage audit found. Shared by sanitize/, forward/ and the store.
 */

/** A deleted span of a text, in the original text's offsets. */
export interface Span {
  readonly start: number;
  readonly end: number;
  /** Which detector asked for the deletion (stable code, e.g. 'sha', 'commit-url'). */
  readonly detector: string;
}

export interface LoggedDeletion extends Span {
  /** The deleted characters, for the audit trail. */
  readonly text: string;
}

export type LeakCode = 'gold-prefix' | 'full-sha' | 'repo-commit-url' | 'repo-pull-url' | 'bisect-outcome' | 'gold-subject';

export interface LeakFinding {
  readonly code: LeakCode;
  /** The offending text, as it appears in the audited text. */
  readonly text: string;
  readonly start: number;
  readonly end: number;
}
