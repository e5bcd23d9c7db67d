/**
 * Shared types of the Backward task: a thread as the attribution rules see it, the attributions
 * found in it, and screening reasons.
 */

/** One post of a thread: index 0 is the issue body, k ≥ 1 the k-th comment in time order. */
export interface ThreadPost {
  readonly index: number;
  readonly id: number | null;
  readonly author: string;
  readonly createdAt: string;
  readonly body: string;
  readonly url: string | null;
}

export interface Thread {
  readonly repo: string;
  readonly number: number;
  readonly title: string;
  readonly author: string;
  readonly createdAt: string;
  readonly url: string;
  /** posts[0] is the issue body. */
  readonly posts: readonly ThreadPost[];
  /**
   * Former owner/name spellings of the repository (renamed or transferred; GitHub redirects the
   * old URLs): a URL under one of them is a URL of this repository.
   */
  readonly aliases?: readonly string[];
}

export type RefType = 'sha' | 'commit-url' | 'pr';
export type AttributionKind = 'bisect-output' | 'statement' | 'commit-url' | 'pr-ref';

export interface AttributionRef {
  readonly type: RefType;
  /** The referenced text as written (abbreviated SHA, URL, `#123`). */
  readonly text: string;
  /** Hex for sha / commit-url, the PR number (decimal string) for pr. */
  readonly value: string;
  /** owner/name of a URL's repository, or null when the reference is not a URL. */
  readonly urlRepo: string | null;
}

export interface Attribution {
  readonly ref: AttributionRef;
  readonly kind: AttributionKind;
  /** Index into thread.posts, or -1 for the title. */
  readonly post: number;
  /** Span of the reference text inside posts[post].body. */
  readonly start: number;
  readonly end: number;
  /** The sentence (or output block) that carries the attribution, as a span of posts[post].body. */
  readonly sentence: { readonly start: number; readonly end: number; readonly text: string };
  readonly author: string;
  readonly createdAt: string;
  readonly hedged: boolean;
}

export type BackwardReason =
  | 'no-attribution'
  | 'range-only'
  | 'hedged'
  | 'bisect-skipped'
  | 'competing'
  | 'retracted'
  | 'fix-not-culprit'
  | 'cross-repository'
  | 'symptom-mismatch'
  | 'insufficient-symptom'
  | 'ambiguous-sha'
  | 'missing-sha'
  | 'not-commit'
  | 'pr-not-single-commit'
  | 'unresolved'
  | 'structural-check-failed'
  | 'leak';

export interface Reason {
  readonly code: BackwardReason;
  /** Quoted text (exact substring of the thread) or a short machine-made description. */
  readonly evidence: string;
  readonly post?: number;
}

export type Decision = 'candidate' | 'reject' | 'review';

export interface TextScreen {
  readonly decision: Decision;
  readonly reasons: Reason[];
  /** Indexes (into the attribution list) of the attributions that name the culprit. */
  readonly culprits: number[];
}
