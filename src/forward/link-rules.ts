/**
 * Link rules of the Forward task: which issue–PR pairs are worth turning into cases. Pure: the
 * link stage reads the rows and hands them here.
 */
import type { LinkRow, PullRow, ThreadRow } from '../store/tables/sources.js';

/** Release branches when a repository's config names none (GitHub branch-pattern syntax subset). */
export const DEFAULT_RELEASE_BRANCHES: readonly string[] = ['release/*', 'release-*', 'v[0-9]*', 'stable*'];

export type LinkReason = 'not-merged' | 'non-default-base' | 'issue-missing' | 'not-an-issue' | 'pull-missing' | 'default-branch-unknown';
export type LinkFlag = 'multi-link';

export interface LinkEvidence {
  readonly how: string;
  readonly evidence: string;
}

export interface PairInput {
  readonly repo: string;
  readonly issue: number;
  readonly pull: number;
  /** Every way this pair was found (one row per `how`). */
  readonly links: readonly LinkEvidence[];
  /** Other merged-or-not PRs linked to the same issue, other issues linked to the same PR. */
  readonly otherPulls: readonly number[];
  readonly otherIssues: readonly number[];
}

export interface LinkVerdict {
  readonly status: 'kept' | 'rejected';
  readonly reasons: readonly { readonly code: LinkReason; readonly evidence: string }[];
  readonly flags: readonly { readonly code: LinkFlag; readonly evidence: string }[];
  /** The branch the PR merged into, and which rule accepted it. */
  readonly baseRef: string | null;
  readonly branchRule: 'default' | 'release' | null;
}

/** Groups link rows into one pair per (issue, pull), with the other links of each side. */
export function pairsOf(repo: string, links: readonly LinkRow[]): PairInput[] {
  const byPair = new Map<string, { issue: number; pull: number; links: LinkEvidence[] }>();
  const pullsOfIssue = new Map<number, Set<number>>();
  const issuesOfPull = new Map<number, Set<number>>();
  for (const l of links) {
    if (l.repo !== repo) continue;
    const key = `${l.issue}:${l.pull}`;
    const entry = byPair.get(key) ?? { issue: l.issue, pull: l.pull, links: [] };
    entry.links.push({ how: l.how, evidence: l.evidence });
    byPair.set(key, entry);
    (pullsOfIssue.get(l.issue) ?? pullsOfIssue.set(l.issue, new Set()).get(l.issue)!).add(l.pull);
    (issuesOfPull.get(l.pull) ?? issuesOfPull.set(l.pull, new Set()).get(l.pull)!).add(l.issue);
  }
  return [...byPair.values()]
    .sort((a, b) => a.issue - b.issue || a.pull - b.pull)
    .map((p) => ({
      repo,
      issue: p.issue,
      pull: p.pull,
      links: p.links.slice().sort((a, b) => (a.how < b.how ? -1 : a.how > b.how ? 1 : 0)),
      otherPulls: [...pullsOfIssue.get(p.issue)!].filter((n) => n !== p.pull).sort((a, b) => a - b),
      otherIssues: [...issuesOfPull.get(p.pull)!].filter((n) => n !== p.issue).sort((a, b) => a - b),
    }));
}

/** Stable key of a pair in the ledger and in the forward tables. */
export function pairKey(repo: string, issue: number, pull: number): string {
  return `${repo}#${issue}<-${pull}`;
}

/** What judgePair reads of the linked pull request. */
export type LinkedPull = Pick<PullRow, 'number' | 'state' | 'mergedAt' | 'baseRef'>;

/**
 * Decides a pair. `defaultBranch` is the config override or the repository's recorded default
 * branch; `releasePatterns` are the config's release_branches or the defaults.
 */
export function judgePair(
  pair: PairInput,
  issue: Pick<ThreadRow, 'kind'> | undefined,
  pull: LinkedPull | undefined,
  defaultBranch: string | null,
  releasePatterns: readonly string[],
): LinkVerdict {
  const reasons: { code: LinkReason; evidence: string }[] = [];
  const flags: { code: LinkFlag; evidence: string }[] = [];
  if (pair.otherPulls.length > 0) {
    flags.push({ code: 'multi-link', evidence: `issue #${pair.issue} is also linked to ${pair.otherPulls.map((n) => `#${n}`).join(', ')}` });
  }
  if (pair.otherIssues.length > 0) {
    flags.push({ code: 'multi-link', evidence: `pull request #${pair.pull} is also linked to ${pair.otherIssues.map((n) => `#${n}`).join(', ')}` });
  }
  if (!issue) reasons.push({ code: 'issue-missing', evidence: `no thread #${pair.issue} stored for ${pair.repo}` });
  else if (issue.kind !== 'issue') reasons.push({ code: 'not-an-issue', evidence: `#${pair.issue} is a ${issue.kind}` });
  if (!pull) {
    reasons.push({ code: 'pull-missing', evidence: `no pull request #${pair.pull} stored for ${pair.repo}` });
    return { status: 'rejected', reasons, flags, baseRef: null, branchRule: null };
  }
  if (pull.mergedAt === null) {
    reasons.push({ code: 'not-merged', evidence: `pull request #${pull.number} is ${pull.state} and has no merge time` });
  }
  let branchRule: LinkVerdict['branchRule'] = null;
  if (defaultBranch !== null && pull.baseRef === defaultBranch) branchRule = 'default';
  else if (releasePatterns.some((p) => matchesBranchPattern(p, pull.baseRef))) branchRule = 'release';
  else if (defaultBranch === null) {
    reasons.push({ code: 'default-branch-unknown', evidence: `default branch of ${pair.repo} is not recorded; base ${pull.baseRef} is not a release branch` });
  } else {
    reasons.push({
      code: 'non-default-base',
      evidence: `base ${pull.baseRef} is neither the default branch ${defaultBranch} nor a release branch (${releasePatterns.join(', ')})`,
    });
  }
  return { status: reasons.length > 0 ? 'rejected' : 'kept', reasons, flags, baseRef: pull.baseRef, branchRule };
}

/**
 * Branch pattern match: `*` any run of characters except `/`, `**` any run, `?` one character
 * except `/`, `[...]` a character class (ranges allowed); everything else literal; whole-name match.
 */
export function matchesBranchPattern(pattern: string, branch: string): boolean {
  return branchPatternRegExp(pattern).test(branch);
}

export function branchPatternRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const c = pattern[i]!;
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        re += '.*';
        i += 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = pattern.indexOf(']', i + 1);
      if (close === -1) re += '\\[';
      else {
        const body = pattern.slice(i + 1, close).replace(/\\/g, '\\\\').replace(/\]/g, '\\]');
        re += `[${body.startsWith('!') ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
