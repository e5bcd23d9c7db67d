/** Admission as stored: the tasks and the blockers that keep a case from a tier. */

export type Task = 'backward' | 'forward';

/**
 * What a blocker does to a case. `always`: the case is rejected (it failed a text, git or
 * structural screen, leaked, or a reviewer rejected it). `candidate`: the case passed those
 * screens but is not admitted yet (probe missing, draft, flaky or nonreproducible; review
 * pending). `review`: the case needs a human accept, only under --require-review (then it is a
 * candidate until accepted). `isolation`: the probe ran with network access (no network
 * namespace on the machine), only under --require-isolation (then it is a candidate).
 */
export type Gate = 'always' | 'candidate' | 'review' | 'isolation';

export interface Blocker {
  readonly gate: Gate;
  /** The stage whose result blocks the case (or `admit` for admission's own checks). */
  readonly stage: string;
  /** Machine-readable reason code. */
  readonly code: string;
  readonly evidence: string;
}
