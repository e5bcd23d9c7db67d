/**
 * The fixing change of a Backward regression report: the merged pull request that closes or
 * references the issue (the link rules' evidence: closing references, closing keywords in the
 * title, body or commits, timeline cross-references), merged after the report. A closing link
 * outranks a mere reference; several candidates of the best rank give none, with the reason. Pure.
 */
import type { LinkRow, PullRow } from '../store/tables/sources.js';

/** Link kinds that say "this PR closes the issue" (the rest only reference it). */
const CLOSING_KINDS = new Set(['closing-references', 'import', 'keyword-title', 'keyword-body', 'keyword-commit']);

export interface FixLink {
  readonly how: string;
  readonly evidence: string;
}

export type FixChoice =
  | { readonly status: 'found'; readonly pull: number; readonly sha: string; readonly mergedAt: string; readonly links: readonly FixLink[] }
  | { readonly status: 'none'; readonly reason: 'no-linked-fix' | 'fix-ambiguous'; readonly detail: string };

interface Candidate {
  readonly pull: PullRow;
  readonly links: FixLink[];
  readonly closing: boolean;
}

/**
 * Chooses the fix of issue `number` reported at `reportTime` (ISO) among the repository's links
 * and pulls.
 */
export function chooseFix(number: number, reportTime: string, links: readonly LinkRow[], pullOf: (n: number) => PullRow | undefined): FixChoice {
  const byPull = new Map<number, FixLink[]>();
  for (const l of links) {
    if (l.issue !== number) continue;
    const list = byPull.get(l.pull) ?? [];
    list.push({ how: l.how, evidence: l.evidence });
    byPull.set(l.pull, list);
  }
  const skipped: string[] = [];
  const candidates: Candidate[] = [];
  for (const [n, ls] of [...byPull].sort((a, b) => a[0] - b[0])) {
    const pull = pullOf(n);
    if (!pull) skipped.push(`#${n} not stored`);
    else if (pull.mergedAt === null || pull.mergeCommitSha === null) skipped.push(`#${n} not merged`);
    else if (Date.parse(pull.mergedAt) <= Date.parse(reportTime)) skipped.push(`#${n} merged before the report`);
    else {
      const sorted = ls.sort((a, b) => (a.how < b.how ? -1 : a.how > b.how ? 1 : 0));
      candidates.push({ pull, links: sorted, closing: sorted.some((l) => CLOSING_KINDS.has(l.how)) });
    }
  }
  const closing = candidates.filter((c) => c.closing);
  const pool = closing.length > 0 ? closing : candidates;
  if (pool.length === 1) {
    const c = pool[0]!;
    return { status: 'found', pull: c.pull.number, sha: c.pull.mergeCommitSha!, mergedAt: c.pull.mergedAt!, links: c.links };
  }
  if (pool.length > 1) {
    const kind = closing.length > 0 ? 'close' : 'reference';
    return { status: 'none', reason: 'fix-ambiguous', detail: `several merged pull requests ${kind} #${number} after the report: ${pool.map((c) => `#${c.pull.number}`).join(', ')}` };
  }
  const why = skipped.length > 0 ? ` (${skipped.join('; ')})` : '';
  return { status: 'none', reason: 'no-linked-fix', detail: `no merged pull request closes or references #${number} after the report${why}` };
}
