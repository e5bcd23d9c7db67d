import { describe, expect, it } from 'vitest';
import { DEFAULT_RELEASE_BRANCHES, judgePair, matchesBranchPattern, pairKey, pairsOf } from '../../../src/forward/link-rules.js';
import type { LinkRow, PullRow, ThreadRow } from '../../../src/store/tables/sources.js';

const R = 'acme/widgets';
const link = (issue: number, pull: number, how = 'closing-references', evidence = ''): LinkRow => ({ repo: R, issue, pull, how, evidence });
const issueRow = (number: number, kind: 'issue' | 'pull' = 'issue'): ThreadRow => ({
  repo: R, number, kind, title: 't', body: 'b', author: 'u', state: 'closed', createdAt: '2024-01-01T00:00:00Z',
  updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${R}/issues/${number}`, source: 'test',
});
const pullRow = (number: number, over: Partial<PullRow> = {}): PullRow => ({
  repo: R, number, title: 'fix', body: '', author: 'dev', state: 'closed', draft: false, baseRef: 'main', baseSha: 'a'.repeat(40),
  headRef: 'fix', headSha: 'b'.repeat(40), mergeCommitSha: 'c'.repeat(40), createdAt: '2024-01-02T00:00:00Z',
  mergedAt: '2024-01-03T00:00:00Z', htmlUrl: `https://github.com/${R}/pull/${number}`, commitShas: [], commitMessages: [], source: 'test',
  ...over,
});

describe('pairsOf', () => {
  it('groups link rows by pair, keeps every way a pair was found, and lists the other links of each side', () => {
    const pairs = pairsOf(R, [link(1, 10, 'keyword-body', 'Fixes #1'), link(1, 10, 'closing-references'), link(1, 11), link(2, 11), link(3, 12)]);
    expect(pairs.map((p) => [p.issue, p.pull])).toEqual([[1, 10], [1, 11], [2, 11], [3, 12]]);
    expect(pairs[0]!.links).toEqual([{ how: 'closing-references', evidence: '' }, { how: 'keyword-body', evidence: 'Fixes #1' }]);
    expect(pairs[0]!.otherPulls).toEqual([11]);
    expect(pairs[1]!.otherIssues).toEqual([2]);
    expect(pairs[3]!.otherPulls).toEqual([]);
    expect(pairs[3]!.otherIssues).toEqual([]);
  });
  it('builds a stable ledger key', () => {
    expect(pairKey(R, 3, 12)).toBe('acme/widgets#3<-12');
  });
});

describe('judgePair', () => {
  const [single] = pairsOf(R, [link(3, 12)]);
  it('keeps a merged PR into the default branch', () => {
    const v = judgePair(single!, issueRow(3), pullRow(12), 'main', DEFAULT_RELEASE_BRANCHES);
    expect(v).toEqual({ status: 'kept', reasons: [], flags: [], baseRef: 'main', branchRule: 'default' });
  });
  it('rejects an unmerged PR as not-merged', () => {
    const v = judgePair(single!, issueRow(3), pullRow(12, { mergedAt: null, state: 'closed' }), 'main', DEFAULT_RELEASE_BRANCHES);
    expect(v.status).toBe('rejected');
    expect(v.reasons.map((r) => r.code)).toEqual(['not-merged']);
  });
  it('rejects a PR into a feature branch as non-default-base, naming the branches', () => {
    const v = judgePair(single!, issueRow(3), pullRow(12, { baseRef: 'feature/x' }), 'main', DEFAULT_RELEASE_BRANCHES);
    expect(v.reasons).toEqual([{ code: 'non-default-base', evidence: expect.stringContaining('base feature/x is neither the default branch main') }]);
  });
  it.each(['release/2.1', 'release-2.1', 'v3', 'v3.x', 'stable', 'stable-4'])('keeps a PR into release branch %s', (branch) => {
    const v = judgePair(single!, issueRow(3), pullRow(12, { baseRef: branch }), 'main', DEFAULT_RELEASE_BRANCHES);
    expect(v.status).toBe('kept');
    expect(v.branchRule).toBe('release');
  });
  it('uses the configured release patterns instead of the defaults', () => {
    const v = judgePair(single!, issueRow(3), pullRow(12, { baseRef: 'release/2.1' }), 'main', ['maint-*']);
    expect(v.reasons.map((r) => r.code)).toEqual(['non-default-base']);
    expect(judgePair(single!, issueRow(3), pullRow(12, { baseRef: 'maint-7' }), 'main', ['maint-*']).status).toBe('kept');
  });
  it('flags multi-link in both directions but keeps the pair', () => {
    const pairs = pairsOf(R, [link(1, 10), link(1, 11), link(2, 11)]);
    const v = judgePair(pairs[1]!, issueRow(1), pullRow(11), 'main', DEFAULT_RELEASE_BRANCHES);
    expect(v.status).toBe('kept');
    expect(v.flags).toEqual([
      { code: 'multi-link', evidence: 'issue #1 is also linked to #10' },
      { code: 'multi-link', evidence: 'pull request #11 is also linked to #2' },
    ]);
  });
  it('rejects missing or wrong-kind threads and missing pulls', () => {
    expect(judgePair(single!, undefined, pullRow(12), 'main', []).reasons.map((r) => r.code)).toEqual(['issue-missing']);
    expect(judgePair(single!, issueRow(3, 'pull'), pullRow(12), 'main', []).reasons.map((r) => r.code)).toEqual(['not-an-issue']);
    expect(judgePair(single!, issueRow(3), undefined, 'main', []).reasons.map((r) => r.code)).toEqual(['pull-missing']);
  });
  it('rejects a non-release base when the default branch is unknown', () => {
    expect(judgePair(single!, issueRow(3), pullRow(12), null, DEFAULT_RELEASE_BRANCHES).reasons.map((r) => r.code)).toEqual(['default-branch-unknown']);
  });
});

describe('matchesBranchPattern', () => {
  it.each([
    ['release/*', 'release/1.0', true],
    ['release/*', 'release/1.0/hotfix', false],
    ['release/**', 'release/1.0/hotfix', true],
    ['v[0-9]*', 'v12.3', true],
    ['v[0-9]*', 'very', false],
    ['stable*', 'stable', true],
    ['release-?', 'release-1', true],
    ['release-?', 'release-10', false],
    ['main', 'mainline', false],
    ['a.b', 'axb', false],
  ])('%s vs %s → %s', (pattern, branch, expected) => {
    expect(matchesBranchPattern(pattern, branch)).toBe(expected);
  });
});
