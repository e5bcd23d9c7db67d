import { describe, expect, it } from 'vitest';
import { screenCase, type ScreenInput } from '../../../src/forward/case-screen.js';
import type { PullRow, ThreadRow } from '../../../src/store/tables/sources.js';

const R = 'acme/widgets';
const issue: ThreadRow = {
  repo: R, number: 3, kind: 'issue', title: 'Crash', body: 'It crashes; see #9 (fixed by #9).', author: 'u', state: 'closed',
  createdAt: '2024-01-01T00:00:00Z', updatedAt: null, closedAt: null, htmlUrl: `https://github.com/${R}/issues/3`, source: 'test',
};
const pull: PullRow = {
  repo: R, number: 9, title: 'fix', body: '', author: 'dev', state: 'closed', draft: false, baseRef: 'main', baseSha: 'a'.repeat(40),
  headRef: null, headSha: 'b'.repeat(40), mergeCommitSha: 'c'.repeat(40), createdAt: '2024-01-05T00:00:00Z', mergedAt: '2024-01-06T00:00:00Z',
  htmlUrl: `https://github.com/${R}/pull/9`, commitShas: ['d'.repeat(40)], commitMessages: [], source: 'test',
};
const input = (over: Partial<ScreenInput> = {}): ScreenInput => ({
  repo: R, issue, comments: [], pull, linkFlags: [], base: 'a'.repeat(40), head: 'b'.repeat(40), baseRef: 'main',
  changed: ['src/a.ts'], gold: ['w/lint.yml'], workflowCount: 1, tree: ['src/a.ts'], imports: new Map(),
  activatedFor: () => ['w/lint.yml'], prior: { workflows: ['w/other.yml'], count: 1, paths: 1, sets: 1 }, ...over,
});

describe('screenCase', () => {
  it('is a candidate when nothing is flagged, with the references to the fix deleted', () => {
    const c = screenCase(input());
    expect(c.decision).toBe('candidate');
    expect(c.issueText).toBe('Crash\n\nIt crashes; see  .');
    expect(c.deletions.map((d) => d.detector)).toEqual(['pr-ref', 'fix-sentence']);
    expect(c.caseId).toMatch(/^acme_widgets__3__[0-9a-f]{8}$/);
    expect(c.prior).toEqual({ workflows: ['w/other.yml'], count: 1, paths: 1, sets: 1, equal: false });
  });
  it('rejects an issue opened after the fixing pull request', () => {
    const c = screenCase(input({ issue: { ...issue, createdAt: '2024-01-05T00:00:00Z' } }));
    expect(c.decision).toBe('reject');
    expect(c.reasons.map((r) => r.code)).toEqual(['issue-after-pr']);
  });
  it('sends flagged cases to review, keeping the link flags', () => {
    const c = screenCase(input({ linkFlags: [{ code: 'multi-link', evidence: 'x' }] }));
    expect(c.decision).toBe('review');
    expect(c.flags.map((f) => f.code)).toEqual(['multi-link']);
  });
  it('records equality with the repository prior as data, never as a flag', () => {
    const c = screenCase(input({ prior: { workflows: ['w/lint.yml'], count: 1, paths: 1, sets: 1 } }));
    expect(c.prior).toMatchObject({ workflows: ['w/lint.yml'], equal: true });
    expect(c.flags).toEqual([]);
    expect(c.decision).toBe('candidate');
  });
  it('fails with a one-line validation error on a timestamp that is not a date', () => {
    expect(() => screenCase(input({ pull: { ...pull, createdAt: 'yesterday' } }))).toThrow(
      'acme/widgets: pull request #9 created_at "yesterday" is not a date',
    );
    expect(() => screenCase(input({ comments: [{ commentId: 77, author: 'a', createdAt: '', body: 'x' }] }))).toThrow(
      'acme/widgets: comment 77 created_at "" is not a date',
    );
  });
  it('keeps the case id for the same inputs and changes it with the base', () => {
    expect(screenCase(input()).caseId).toBe(screenCase(input()).caseId);
    expect(screenCase(input({ base: 'e'.repeat(40) })).caseId).not.toBe(screenCase(input()).caseId);
  });
});
