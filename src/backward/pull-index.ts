import type { PullRow } from '../store/tables/sources.js';

/** A repository's pull requests indexed once: by number, and by merge commit and commit SHAs. */
export interface PullIndex {
  readonly byNumber: ReadonlyMap<number, PullRow>;
  readonly bySha: ReadonlyMap<string, readonly number[]>;
  /** Links by issue number: the pull requests linked to it as its fix. */
  readonly fixesOf: ReadonlyMap<number, readonly number[]>;
}

export function indexPulls(pulls: readonly PullRow[], links: readonly { issue: number; pull: number }[] = []): PullIndex {
  const byNumber = new Map<number, PullRow>();
  const bySha = new Map<string, number[]>();
  const add = (sha: string | null, n: number): void => {
    if (!sha) return;
    const list = bySha.get(sha);
    if (!list) bySha.set(sha, [n]);
    else if (list[list.length - 1] !== n) list.push(n);
  };
  for (const p of pulls) {
    byNumber.set(p.number, p);
    add(p.mergeCommitSha, p.number);
    for (const c of p.commitShas) add(c, p.number);
  }
  const fixesOf = new Map<number, number[]>();
  for (const l of links) {
    const list = fixesOf.get(l.issue);
    if (list) list.push(l.pull);
    else fixesOf.set(l.issue, [l.pull]);
  }
  return { byNumber, bySha, fixesOf };
}
