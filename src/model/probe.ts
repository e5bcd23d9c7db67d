/** Probe outcomes as stored: the verdict of one state and the boundary of a case. */

export type Verdict = 'bad' | 'good' | 'flaky' | 'nonreproducible';
export type Boundary = 'verified' | 'not-a-boundary' | 'flaky' | 'nonreproducible';
